/*
 * The upsample family: one plan every upsample/resize API fills (forward
 * and backward, 1 to 3 spatial axes), the one rule that maps an output
 * index to its source taps, and the kernels that read the plan.
 *
 * Kernel level: includes kernel support only. The APIs' op files fill the
 * plan in phase one (with upsample_op.h's steps); the family's run step
 * (upsample_op.c) adds the launch's thread count and the reference switch
 * and calls upsample_forward / upsample_backward, which pick the fast path
 * or the reference kernel.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_UPSAMPLE_H_
#define ACLNN_EMU_UPSAMPLE_H_

#include "../../kernel/kernel.h"

/* The tensors of every upsample API, by slot: its input (self or gradOut) and out. */
enum { UPSAMPLE_IN, UPSAMPLE_OUT };

/* Spatial axes, innermost first: W is always axis 0, whatever the rank. */
enum { UPSAMPLE_W = 0, UPSAMPLE_H = 1, UPSAMPLE_D = 2, UPSAMPLE_MAX_AXES = 3 };

typedef enum upsample_mode {
    UPSAMPLE_LINEAR,        /* bilinear / linear / trilinear: two taps per axis */
    UPSAMPLE_NEAREST,       /* source floor(i * ratio), clamped: one tap */
    UPSAMPLE_NEAREST_EXACT, /* source floor((i + 0.5) * ratio), clamped: one tap */
} upsample_mode;

/* Which of CANN's kernels the op_api launches (the op file says which for its API and SoC). */
typedef enum upsample_kernel {
    UPSAMPLE_KERNEL_NONE,        /* the op_api returns before any kernel (empty tensors): out is left as it was */
    UPSAMPLE_KERNEL_NONE_ON_SOC, /* the same on a SoC where CANN's op_api has no kernel for this case: a warning */
    UPSAMPLE_KERNEL_COPY,    /* the input itself, bytes unchanged (a ViewCopy) */
    UPSAMPLE_KERNEL_ASCENDC, /* UpsampleBilinear2d(Grad): cube tiles, so one Inf or NaN spreads over its tile */
    UPSAMPLE_KERNEL_TBE,     /* ResizeBilinearV2(Grad), TBE or AI CPU: plain arithmetic */
} upsample_kernel;

typedef struct upsample_axis {
    int64_t in, out; /* the forward's input and output sizes (backward: out is gradOut's) */
    double scale;    /* the API's scale argument (0: none), for the log */
    float ratio;     /* source step per output index, float32 as CANN's tilings compute it */
    bool skip;       /* the kernel skips this axis' pass: output i copies input i */
} upsample_axis;

typedef struct upsample_plan {
    int64_t n, c;
    int axes;                                 /* spatial axes in use, 1 to 3 */
    upsample_axis axis[UPSAMPLE_MAX_AXES];    /* innermost first */
    upsample_mode mode;
    bool align_corners;
    bool backward;   /* the gradient: out has the forward input's shape */
    bool drop_past_end; /* a source whose floor lies past the input is dropped (the bilinear gradient kernels),
                           not clamped to the last index */
    bool nhwc;       /* channels last (NHWC, NDHWC) */
    bool joint_weights; /* the linear forward weighs each pixel's four taps at once (resize_bilinear.c: the
                           TBE ResizeBilinearV2), instead of a W then an H pass */
    bool nearest_scatter; /* a nearest gradient sends each gradOut index to its forward tap (the TBE
                             ResizeNearestNeighborV2Grad), instead of summing each input index's range */
    upsample_kernel kernel;
    const char *kernel_name; /* CANN's kernel of that path, e.g. "UpsampleBilinear2dGrad" (a literal) */
    int64_t cube_cores; /* AI cores of the SoC: the AscendC tilings size their tiles by them */
    /* Filled by the run step at launch, not in phase one. */
    int threads;    /* OpenMP threads the kernel may use */
    bool reference; /* run the reference kernel (ACLNN_EMU_REFERENCE_KERNELS=1) */
    emu_scratch scratch; /* booked by upsample_book, granted by the run step */
} upsample_plan;

/* The family's scratch keys (kernel.h's booking): each kernel books the ones it takes. */
enum {
    UPSAMPLE_SCRATCH_TABLE = 0,  /* + axis: an axis' table (nearest sources; linear taps or their transpose) */
    UPSAMPLE_SCRATCH_WEIGHTS = 3, /* + axis: the backward's padded weights */
    UPSAMPLE_SCRATCH_ROW = 6,    /* + i, i < 7: a fast path's per-thread row buffers */
    UPSAMPLE_SCRATCH_PLANE = 13, /* + i, i < 2: the reference kernel's per-thread planes */
    UPSAMPLE_SCRATCH_CUBE = 15,  /* the cube rule's planes */
};

/* Books in p->scratch what the kernels the plan runs will take (p->threads and p->reference set). */
void upsample_book(upsample_plan *p);

/* Output index i of an axis reads input lo with weight wl and hi with weight wh.
 * count: 0 (the source lies past the input: a gradient drops it), 1 (the
 * kernel copies input lo) or 2 (wl * in[lo] + wh * in[hi], even when wh is 0). */
typedef struct upsample_tap {
    int64_t lo, hi;
    float wl, wh;
    int count;
} upsample_tap;

/* The one coordinate rule of the family (taps.c): CANN's kernels compute
 * the source coordinate in float32 from the plan's ratio. */
upsample_tap upsample_tap_of(const upsample_plan *p, int axis, int64_t i);

/* Per output index of one axis: the two source indices and their weights (a forward kernel's table).
 * Integer factors: on [o0, o0 + period * runs) output o + period reads lo + step and hi + step with the
 * same weights as o (upscaling by s: period s, step 1; downscaling by s: period 1, step s), so a W pass
 * there reads the input at a constant stride (no gathers). */
typedef struct upsample_map {
    int32_t *lo, *hi;
    float *wl, *wh;
    int64_t period, step, o0, runs;
} upsample_map;

/* Sets m's period, step, o0 and runs from its tables (taps.c): the longest such stretch for a factor of
 * 2, 4 or 8 between in and out, at least four periods long; period 0 when there is none. */
void upsample_map_period(upsample_map *m, int64_t in, int64_t out);

/* Entry points: the fast path, or the reference kernel when p->reference or
 * when no fast path covers the plan. out from in; 0 or a status plus message. */
int upsample_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap);
int upsample_backward(const emu_view *grad_out, const emu_view *out, const upsample_plan *p, char *msg, size_t cap);

/* The reference kernel (reference.c), either direction: dst from src (in -> out, or gradOut -> out). */
int upsample_reference(const emu_view *src, const emu_view *dst, const upsample_plan *p, char *msg, size_t cap);

/* The gradOut indices one input index of a linear axis receives from, at most: the transpose of
 * the taps, whose sources never decrease with the output index. */
int64_t upsample_taps_most(const upsample_plan *p, int axis);

/* Each kernel's booking (what it takes from s for a plan of this shape). */
void upsample_nearest_book(const upsample_plan *p, emu_scratch *s);
void upsample_reference_book(const upsample_plan *p, emu_scratch *s);
void upsample_linear_fast_forward_book(const upsample_plan *p, emu_scratch *s);
void upsample_linear_fast_backward_book(const upsample_plan *p, emu_scratch *s);
void upsample_cube_book(const upsample_plan *p, emu_scratch *s);
void upsample_joint_book(const upsample_plan *p, emu_scratch *s);
void upsample_nearest_grad_book(const upsample_plan *p, emu_scratch *s);

/* The nearest gradients' fast path (nearest_grad.c): 1-3 axes, bit for bit the reference. */
int upsample_nearest_grad_fast(const emu_view *g, const emu_view *out, const upsample_plan *p, char *msg, size_t cap);

/* The per-pixel bilinear forward (resize_bilinear.c, p->joint_weights): 2 axes, its own reference. */
int upsample_joint_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap);

/* The nearest modes' forward (nearest.c): a gather of whole elements, bytes unchanged, any dtype; it is its
 * own reference. */
int upsample_nearest_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap);

/* A nearest gradient's sources for input index i of an axis: gradOut indices [*lo, *hi), as CANN's
 * gradient kernels take them from the axis' ratio (gradOut indices per input index here). */
void upsample_nearest_grad_range(const upsample_plan *p, int axis, int64_t i, int64_t *lo, int64_t *hi);

/* Fast paths, linear, 2 or 3 spatial axes. */
int upsample_linear_fast_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg,
                                 size_t cap);
/* The backward sets *nonfinite when an output row came out non-finite (gradOut holds an Inf or NaN). */
int upsample_linear_fast_backward(const emu_view *grad_out, const emu_view *out, const upsample_plan *p,
                                  bool *nonfinite, char *msg, size_t cap);

/* CANN's cube tiles on the AscendC kernels (cube.c): the outputs an Inf or NaN
 * of the input makes non-finite, rewritten after either kernel has run. */
int upsample_cube(const emu_view *src, const emu_view *dst, const upsample_plan *p, char *msg, size_t cap);

/* UPSAMPLE_KERNEL_COPY: out = in element by element, bytes unchanged, any dtype. */
void upsample_copy(const emu_view *in, const emu_view *out, const upsample_plan *p);

/* A view's element strides: N's, C's and the spatial axes' (innermost first), from the plan's layout. */
void upsample_strides(const emu_view *v, const upsample_plan *p, int64_t *s_n, int64_t *s_c, int64_t *s_ax);

/* A view's 4-D (N, C, H, W) face as rows.h addresses it, and D's element stride in *s_d: D dropped from a
 * 3-axis view (NCDHW or NDHWC); a 2-axis view as it is (*s_d = 0). */
emu_view upsample_face_4d(const emu_view *v, const upsample_plan *p, int64_t *s_d);

/* Bytes of gradOut a backward asks for ahead of the rows it sums, so that they arrive while it computes
 * (the hardware's prefetcher stops at pages): a core's share of the bandwidth times the memory latency
 * (25 GB/s x 160 ns), rounded up to a page. The prefetches go to L2 (prefetcht2): into L1 they take the miss
 * buffers the loads of the rows being summed need, which stalled AMD's Zen 4 (half the speed). The x2 pass on
 * float16 and bfloat16 rows read in place is the exception (line_feed.l1): half the bytes a row and more
 * arithmetic a byte, it gains from finding its rows in L1, asked for PREFETCH_L1_AHEAD_BYTES ahead (U5 on Zen 4:
 * 3.64 -> 3.47 ms, one thread 7.06 -> 6.70; float32's U1 runs slower that way). */
#ifndef PREFETCH_AHEAD_BYTES
#define PREFETCH_AHEAD_BYTES 4096
#endif
#ifndef PREFETCH_L1_AHEAD_BYTES
#define PREFETCH_L1_AHEAD_BYTES 2048
#endif
#define PREFETCH_TO_L2(p) __builtin_prefetch((p), 0, 1)
#define PREFETCH_TO_L1(p) __builtin_prefetch((p), 0, 3)
/* Longest gradOut row (bytes) a backward prefetches: longer ones are streams the hardware's prefetcher
 * follows well enough (S1's 32 KiB rows gained nothing), and asking for whole rows ahead evicts the rows
 * being summed. */
#define PREFETCH_MAX_BYTES 16384

#endif /* ACLNN_EMU_UPSAMPLE_H_ */
