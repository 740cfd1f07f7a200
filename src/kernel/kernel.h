/*
 * What a kernel may use: a view of each tensor, the thread count, and (in
 * half.h) float16/bfloat16 conversions. Kernels never see handles, the
 * registry, logging or validation policy; their operator's run step does.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_KERNEL_H_
#define ACLNN_EMU_KERNEL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl_base.h" /* aclDataType */

/* Kernels return 0 or one of these (aclnn/aclnn_base.h's values) with a message. */
#define EMU_KERNEL_ERR_PARAM_INVALID 161002
#define EMU_KERNEL_ERR_INNER 561000

#define EMU_VIEW_MAX_DIMS 8 /* ACLNN_EMU_MAX_DIMS */

/* A strided view: element i of axis a is at data + (offset + sum i_a * strides[a]) elements. */
typedef struct emu_view {
    void *data;
    int64_t offset;
    int64_t dims[EMU_VIEW_MAX_DIMS];
    int64_t strides[EMU_VIEW_MAX_DIMS];
    uint64_t ndim;
    aclDataType dtype;
} emu_view;

static inline int64_t emu_view_numel(const emu_view *v)
{
    int64_t n = 1;
    for (uint64_t i = 0; i < v->ndim; i++)
        n *= v->dims[i];
    return n;
}

/* Bytes of one element (0 for types without a whole-byte size: INT4, UINT1, FLOAT4_*, STRING, UNDEFINED). */
static inline size_t emu_dtype_bytes(aclDataType dt)
{
    switch (dt) {
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0: case ACL_FLOAT6_E3M2: case ACL_FLOAT6_E2M3: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
    }
}

static inline size_t emu_view_item_size(const emu_view *v)
{
    return emu_dtype_bytes(v->dtype);
}

/* Floats in a cache line, and the elements of dst before its first line boundary (at most n): streaming
 * stores go to whole lines only (see copy.c). */
#define EMU_LINE_FLOATS 16
static inline int64_t emu_line_head(const float *dst, int64_t n)
{
    const int64_t head = (int64_t)((64 - ((uintptr_t)dst & 63)) & 63) / (int64_t)sizeof(float);
    return head < n ? head : n;
}

/* Copies n floats. With `stream` (and AVX2) the stores bypass the caches: for
 * outputs written once and far larger than the caches, so no line of dst is
 * read before it is overwritten. Streamed stores are weakly ordered: a thread
 * calls emu_stream_fence once after its last one (a fence per row would stall
 * every row). */
void emu_copy_f32(float *restrict dst, const float *restrict src, int64_t n, bool stream);
/* emu_copy_f32 with streaming stores that also tells whether every value it moved is finite. */
bool emu_copy_f32_finite(float *restrict dst, const float *restrict src, int64_t n);
/* phases[q * plen + m] = src[8 * m + q] for q < 8, m < n: a row split into its eight phases (an x8
 * polyphase pass), in 8 x 8 transposes with AVX2 (the compiler leaves the stride-8 loop scalar). */
void emu_deinterleave8_f32(float *restrict phases, const float *restrict src, int64_t plen, int64_t n);
/* Whether a row holds no Inf or NaN: adding one to an exponent field of all
 * ones (theirs alone) carries into the sign bit, and an OR of those sums
 * vectorises with any SIMD width. */
static inline bool emu_row_finite(const float *row, int64_t n)
{
    uint32_t carry = 0;
    for (int64_t j = 0; j < n; j++) {
        uint32_t bits;
        memcpy(&bits, row + j, sizeof bits);
        carry |= (bits & 0x7f800000u) + 0x00800000u;
    }
    return !(carry & 0x80000000u);
}
/* Sets every byte of v's elements (and no other byte) to byte. */
void emu_view_fill_bytes(const emu_view *v, int byte);
void emu_stream_fence(void);

/* Runs team(ctx) on each of `threads` threads (an OpenMP team: the worksharing loops inside it split
 * their iterations), OR-ing what they return; with one thread, on the caller directly, where the loops
 * run whole: a team of one still costs libgomp's set-up, more than a tiny problem's whole run. */
int emu_parallel(int threads, int (*team)(void *ctx), void *ctx);

/* Tasks per chunk of a worksharing loop's dynamic schedule over `tasks` like tasks: EMU_CHUNKS_PER_THREAD
 * chunks a thread. A static split ends when its slowest thread does, and on the VMs one vCPU runs a
 * memory-bound loop up to 25 % slower than the other for whole calls (U1, static: 8.7 against 7.1 ms of
 * work, the other thread waiting 1.4-1.6 ms a call; dynamic: 5.1 and 5.2, waits under 0.15 ms). Chunks let
 * the faster thread take the rest, and runs of consecutive tasks, which share cached source rows and
 * prefetches, stay on one thread: with both threads equal, U1 and the resize time as with the static split,
 * V1 (a chunk 32 slices) 1-3 % slower. Called in the loop's schedule clause: built without OpenMP, the
 * clause and the call go away together. */
#define EMU_CHUNKS_PER_THREAD 16
static inline int64_t emu_dynamic_chunk(int64_t tasks, int threads)
{
    const int64_t chunk = tasks / ((int64_t)(threads > 1 ? threads : 1) * EMU_CHUNKS_PER_THREAD);
    return chunk > 1 ? chunk : 1;
}

/* ---- scratch, booked in the plan (oneDNN's scratchpad) ----
 *
 * A kernel never allocates. Its family's booking step (called by the run
 * step with the plan, threads set) books every buffer the kernel will take,
 * by key: shared by all threads, or one per thread, sized from the plan
 * alone (a bound where the size depends on the data). The run step grants
 * one block for the booking (emu_scratch_grant, meta layer: the only
 * allocation, checked before any output is written) and releases it after.
 * In the block each buffer starts on its own cache line (no false sharing
 * between threads), thread parts start on their own pages, and consecutive
 * buffers are staggered within a page so that a buffer and the page-aligned
 * rows a kernel streams through rarely share address bits 0-11 (4K
 * aliasing: a load then waits for an unrelated store). Granted memory is
 * not zeroed. */
#define EMU_SCRATCH_KEYS 16

typedef struct emu_scratch {
    size_t bytes[EMU_SCRATCH_KEYS]; /* booked (0: not booked) */
    bool per_thread[EMU_SCRATCH_KEYS];
    bool overflow;                   /* a size did not fit size_t: the grant fails */
    int threads;                     /* set by the grant */
    size_t offset[EMU_SCRATCH_KEYS]; /* from the block, or from a thread's part; set by emu_scratch_layout */
    size_t shared_bytes, thread_bytes;
    unsigned char *base; /* the granted block */
    size_t block_bytes;  /* its size (at least the layout's) */
} emu_scratch;

/* Books count * item bytes under key (a key booked again keeps the larger size: paths that may run one
 * after the other share it). */
void emu_scratch_book(emu_scratch *s, int key, size_t count, size_t item, bool per_thread);
/* Lays the booking out for `threads` threads; the block's size, or SIZE_MAX when it overflows. */
size_t emu_scratch_layout(emu_scratch *s, int threads);
/* Key's buffer of at least `bytes` (the calling OpenMP thread's, for a per-thread key); NULL when not granted,
 * or booked smaller: a booking that disagrees with its kernel fails the call instead of overrunning. */
void *emu_scratch_get(const emu_scratch *s, int key, size_t bytes);

/* The calling thread's number in its OpenMP team (0 without OpenMP). */
int emu_thread_num(void);
/* The number of threads in the calling thread's team (1 outside one). */
int emu_team_size(void);

/* The data caches of one core (the last level: the largest a core reaches, often shared), in bytes, as
 * the machine reports them (sysfs, else sysconf, else 32 KiB / 512 KiB). Kernels size their blocks from
 * these, never from one CPU's numbers. */
typedef struct emu_caches {
    size_t l1d, l2, llc;
} emu_caches;
const emu_caches *emu_machine_caches(void);

/* The instruction sets kernels pick at run time (their hand-vectorised paths: the half-type row
 * conversions, streamed copies, the x2 backward pass, ...): what the CPU and OS run, capped by the
 * environment's ACLNN_EMU_MAX_CPU_ISA ("avx2" or "baseline"; read once), as oneDNN's ONEDNN_MAX_CPU_ISA caps
 * its own. Results are the same on every set (tests compare them); the cap lets a machine run the paths of a
 * smaller one. The compiler's clones (EMU_HOT) follow the CPU alone; builds without them (clang with
 * sanitizers) take the baseline. EMU_ISA_AVX2 includes F16C and FMA, EMU_ISA_AVX512 F and BW. */
typedef enum emu_isa { EMU_ISA_BASELINE, EMU_ISA_AVX2, EMU_ISA_AVX512 } emu_isa;
emu_isa emu_cpu_isa(void);

/* Bytes beyond which a kernel's output cannot stay in the caches (streaming stores pay off): half the
 * last level, at most 32 MiB. */
int64_t emu_stream_bytes(void);

/* The one rule for writing an output's rows with streaming stores: the output (bytes) is past what the
 * caches keep, and its rows either tile cache lines (`tiled`: the view starts on a line and every row and
 * every stride between rows is whole lines, so every store streams) or are long enough (8 lines) that the
 * two partial lines at their ends, which the streamed copies store through the cache, are at most a
 * quarter of a row. On the AMD VM, 16 bytes off a line, V1's backward (rows of 4 lines) took 9.2 ms
 * streamed against 7.1 through the cache, U1's (8 lines) 5.7 against 6.9. */
static inline bool emu_stream_rows(bool tiled, int64_t row_bytes, int64_t bytes)
{
    return bytes >= emu_stream_bytes() && (tiled || row_bytes >= 8 * 64);
}

/* Hot loops are compiled twice, for AVX2 and for the baseline, and the
 * loader picks one (GNU ifunc): a portable library that still uses the
 * vector width of the machine it runs on. Results may differ in the last
 * bit between the two builds, never between runs or thread counts. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__) && !defined(ACLNN_EMU_NO_CLONES)
#define EMU_HOT __attribute__((target_clones("avx2", "default")))
#else
#define EMU_HOT
#endif

/* The longest stretch [*start, *start + len) of indices [0, n) in which every
 * index b with b + period inside it satisfies repeats(ctx, b) (index b +
 * period repeats index b, shifted); returns len, or 0 when there is no such
 * pair. The integer-factor fast paths of the resize kernels are such
 * stretches; setup work, O(n) calls. */
static inline int64_t emu_longest_repeat(int64_t n, int64_t period, bool (*repeats)(const void *ctx, int64_t b),
                                         const void *ctx, int64_t *start)
{
    int64_t best0 = 0, best_len = 0;
    for (int64_t a = 0; a + period < n;) {
        int64_t b = a;
        while (b + period < n && repeats(ctx, b))
            b++;
        if (b - a + period > best_len) { /* indices [a, b + period) follow the pattern */
            best0 = a;
            best_len = b - a + period;
        }
        a = b + 1;
    }
    *start = best0;
    return best_len;
}

/* For helpers of an EMU_HOT function: inlined into each of its clones, so
 * they are compiled for that clone's instruction set. (A helper the compiler
 * leaves out of line is compiled once, for the baseline.) */
#if defined(__GNUC__)
#define EMU_HOT_INLINE static inline __attribute__((always_inline))
#else
#define EMU_HOT_INLINE static inline
#endif

/* The work a RoIAlign kernel accepts, forward and backward alike: each
 * kernel counts what its time grows with, in units of what one unit costs
 * (a block of 16 channels, or more where it emulates float16 lane by lane),
 * and refuses a launch beyond a limit that takes 10-20 s here, instead of
 * computing for hours. The forward counts samples (pooled bins times samples
 * per bin, both axes; a box may ask for EMU_ROI_MAX_SAMPLES_PER_BOX at most,
 * all boxes for EMU_ROI_MAX_SAMPLES); the backward, whose weights come in
 * closed form however many samples, counts the pixels each box's bins cover
 * (EMU_ROI_MAX_PIXELS). */
#define EMU_ROI_MAX_SAMPLES_PER_BOX ((int64_t)1 << 20)
#define EMU_ROI_MAX_SAMPLES ((int64_t)1 << 30)
#define EMU_ROI_MAX_PIXELS ((int64_t)1 << 34)

typedef struct emu_roi_budget {
    double channel_units;  /* per sample or pixel */
    const char *unit_name; /* "channel blocks of 16", ... */
    const char *counted;   /* "samples", "pixel updates" */
    int64_t per_box_limit; /* 0: none */
    int64_t limit;
    double work;
    int64_t too_many, first_too_many, first_count_y, first_count_x;
} emu_roi_budget;

/* Counts box k's work: count_y * count_x (the forward: samples per bin) times
 * pooled_h * pooled_w (1 for counts already per box); false (and counted in
 * too_many) when the box alone exceeds the per-box limit. */
static inline bool emu_roi_budget_add(emu_roi_budget *b, int64_t k, int64_t count_y, int64_t count_x,
                                      int64_t pooled_h, int64_t pooled_w)
{
    const double total = (double)count_x * (double)pooled_w * (double)count_y * (double)pooled_h;
    if (b->per_box_limit && total > (double)b->per_box_limit) {
        if (b->too_many++ == 0) {
            b->first_too_many = k;
            b->first_count_y = count_y;
            b->first_count_x = count_x;
        }
        return false;
    }
    b->work += total * b->channel_units;
    return true;
}

/* 0, or EMU_KERNEL_ERR_PARAM_INVALID with the limit that was passed in msg
 * (prefixed with "op: " unless op is NULL). */
static inline int emu_roi_budget_check(const emu_roi_budget *b, const char *op, char *msg, size_t cap)
{
    const char *sep = op ? ": " : "";
    op = op ? op : "";
    if (b->too_many) {
        snprintf(msg, cap, "%s%s%lld box(es) ask for more than %lld %s each (first: box %lld, %lld x %lld per "
                 "bin); the emulator refuses them rather than compute for hours", op, sep, (long long)b->too_many,
                 (long long)b->per_box_limit, b->counted, (long long)b->first_too_many, (long long)b->first_count_y,
                 (long long)b->first_count_x);
        return EMU_KERNEL_ERR_PARAM_INVALID;
    }
    if (b->work > (double)b->limit) {
        snprintf(msg, cap, "%s%sthe boxes ask for %.3g %s in all (times %s), more than %lld; the emulator refuses "
                 "them rather than compute for hours", op, sep, b->work, b->counted, b->unit_name,
                 (long long)b->limit);
        return EMU_KERNEL_ERR_PARAM_INVALID;
    }
    return 0;
}

#endif /* ACLNN_EMU_KERNEL_H_ */
