/*
 * The upsample family's fast backward path: 2 or 3 spatial axes, linear
 * (bilinear, trilinear). The reference kernel (reference.c) scatters W, H
 * (then D) in index order; this path gathers (D and) H then W with pairwise
 * sums, so the two agree to float32 rounding (a few ulp of the sum of
 * |terms|), not bitwise.
 *
 * out = Wh^T * G * Ww per plane, with Wh, Ww banded (two taps per gradOut
 * index). We work in gather form: for every input row y, first sum the
 * (few) gradOut rows that touch y along H (a contiguous, vectorised axpy),
 * then gather along W. Each output row is owned by one task, so there are
 * no atomics and results are bitwise identical for any thread count.
 *
 * NCHW: a task is (n, c, y) and the W gather is scalar.
 * NHWC: a task is (n, y) and every tap moves a whole C vector.
 * 3 axes: a task is an input slice (n, c, z), or (n, z) channels last: the
 * gradOut slices of z's D taps are first summed into one slice (the D
 * pass), whose rows the H and W steps above then take as gradOut's.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernel/rows.h"
#include "upsample.h"

/* Gather form of one axis with a fixed tap count: input index y receives
 * from source indices first[y] + t with weight wt[t * in + y], t < taps
 * (unused taps have weight 0). The sources of one input index are always
 * consecutive (lo is monotonic in the output index), and a fixed count makes
 * the loops below branch-free. */
typedef struct axis_taps {
    int64_t taps;   /* the largest count */
    int64_t *first; /* per input index */
    int64_t *count; /* per input index: real taps (the rest is padding) */
    float *wt;      /* taps * in */
    /* Polyphase fast path: on [x0, x1) first[x] == stride * x + shift with an
     * integer stride (integer upscaling), so tap k of x is element
     * x + floor((shift + k) / stride) of phase (shift + k) mod stride. */
    int64_t stride, shift, x0, x1;
    /* The polyphase pass's taps, worked out once for every row: `live` taps (the ones it adds, in k's order),
     * tap live_tap[i] reading phase element live_off[i] (phase r, element q: r * plen + q). */
    int64_t plen, live, *live_tap, *live_off, qmax; /* qmax: the furthest element past x a live tap reads */
    /* On [x0, x1) every tap's weight is one number (an exact integer scale, away from the ends: [x0, x1)
     * is then narrowed to where it is), which the pass broadcasts. */
    bool uniform;
    /* The W pass outside [x0, x1) reads the summed row only below head_end and from tail_start on. */
    int64_t head_end, tail_start;
    /* Downscaling by an integer period P (2, 4 or 8), one or two taps: on [p0, p0 + P * runs)
     * first[x + P] == first[x] + 1, so each phase reads acc contiguously. */
    int64_t period, p0, runs;
} axis_taps;

/* The H pass asks for PREFETCH_AHEAD_BYTES (upsample.h) of gradOut ahead of the row it sums, as a count
 * of input rows (upsample_ctx.ahead), at least one and at most this many. */
#define PREFETCH_ROWS_MAX 8
/* Prefetches issued at once before the rest are spread over the H sum's arithmetic (line_feed): two KiB,
 * what a short row's sum asks for (U1: two 1 KiB rows). A longer burst (U3: 16 KiB) waits for miss buffers
 * and the arithmetic with it: spread, U3 went from 12.5 to 9.7 ms. */
#define PREFETCH_BURST_LINES 32

/* The shortest stretch of uniform weights the polyphase pass takes apart from the rest. */
#define UNIFORM_MIN 16

/* Bytes of a row the polyphase split takes between its prefetches. */
#define SPLIT_CHUNK_BYTES 1024

/* Bytes of D-reduced rows summed at a time (3 axes), just before the H sums read them. */
#define D_CHUNK_BYTES 4096

/* When the next task's slices do not fit in L2 beside a task's own (no feed_next), the 3-D feed asks
 * before each input row for this fraction of the row's even share of the task's own fresh lines, beyond
 * what the D sums feed: V1 8.2 -> 7.2 ms at 1/4 or 1/8, less at 1/2 (7.3) or 1/16 (7.5) on the 2-core
 * Intel VM, before feed_next. */
#define FEED_ROW_SHARE 4

/* Rows combined per pass in the H reduction (and C vectors per pixel in NHWC). */
#define MAX_ROWS 32

/* The longest run of input indices whose first source is affine with an integer stride >= 2. */
static void find_affine_run(axis_taps *t, int64_t in)
{
    t->stride = t->x0 = t->x1 = t->shift = 0;
    for (int64_t a = 0; a + 1 < in;) {
        const int64_t step = t->first[a + 1] - t->first[a];
        int64_t b = a + 1;
        while (b + 1 < in && t->first[b + 1] - t->first[b] == step)
            b++;
        if (step >= 2 && b + 1 - a > t->x1 - t->x0) {
            t->stride = step;
            t->x0 = a;
            t->x1 = b + 1;
            t->shift = t->first[a] - step * a;
        }
        a = b;
    }
}

/* Input index b + period starts one source further on than index b. */
static bool first_repeats(const void *ctx, int64_t b)
{
    const axis_taps *t = ctx;
    return t->first[b + t->period] == t->first[b] + 1;
}

/* The longest stretch where first[] repeats with a period of in / out (2, 4 or 8) input indices. */
static void find_subperiod(axis_taps *t, int64_t in, int64_t out)
{
    t->period = t->p0 = t->runs = 0;
    const int64_t s = out > 0 && in % out == 0 ? in / out : 0;
    if (t->taps > 2 || (s != 2 && s != 4 && s != 8))
        return;
    t->period = s; /* read by first_repeats */
    const int64_t len = emu_longest_repeat(in, s, first_repeats, t, &t->p0);
    if (len >= 4 * s)
        t->runs = len / s;
    else
        t->period = t->p0 = 0;
}

/* Input indices a and b receive with the same weights, bit for bit. */
static bool same_weights(const axis_taps *t, int64_t in, int64_t a, int64_t b)
{
    for (int64_t k = 0; k < t->taps; k++)
        if (memcmp(&t->wt[k * in + a], &t->wt[k * in + b], sizeof(float)) != 0)
            return false;
    return true;
}

/* Whether tap k weighs +0.0 at every index of the polyphase run (uniform weights: at its first). */
static bool tap_is_padding(const axis_taps *t, int64_t in, int64_t k)
{
    const float zero = 0.0f;
    for (int64_t x = t->x0; x < (t->uniform ? t->x0 + 1 : t->x1); x++)
        if (memcmp(&t->wt[k * in + x], &zero, sizeof zero) != 0)
            return false;
    return true;
}

/* The polyphase pass's live taps (gather_w_polyphase) over a row of `out` elements, into room for `most`
 * taps of each array (false: more taps than that); once a call, not once a row. A tap that weighs +0.0 all
 * along the run (padding: an end index has one more tap than the rest, as an align_corners x2 has five where
 * the run's indices take four) is left out: adding its +-0.0 products to a sum that started from +0.0 changes
 * no bit. (Its gradOut values reach the row through their other taps, so an Inf or NaN still shows, and such
 * a gradOut is recomputed by the reference anyway.) The last tap stays when every one is such padding: the
 * row is then +0.0. */
static bool polyphase_plan(axis_taps *t, int64_t in, int64_t out, int64_t *room, int64_t most)
{
    t->live = t->qmax = 0;
    t->live_tap = room;
    t->live_off = room + most;
    if (!t->stride)
        return true;
    if (t->taps > most)
        return false;
    const int64_t s = t->stride;
    t->plen = (out + t->taps) / s + 1;
    /* Tap k of x reads element x + q of phase r, shift + k == q * s + r (floor division once, then counted). */
    int64_t q = t->shift >= 0 ? t->shift / s : -((-t->shift + s - 1) / s), r = t->shift - q * s;
    for (int64_t k = 0; k < t->taps; k++, r = r + 1 == s ? 0 : r + 1, q += r == 0) {
        if ((t->live > 0 || k + 1 < t->taps) && tap_is_padding(t, in, k))
            continue;
        t->live_tap[t->live] = k;
        t->live_off[t->live++] = r * t->plen + q;
        t->qmax = t->live == 1 || q > t->qmax ? q : t->qmax;
    }
    return true;
}

/* The transpose of the axis' taps (the family's rule), in its booked tables: per input index, the
 * gradOut indices that reach it. */
static bool taps_build(axis_taps *t, const upsample_plan *p, int axis)
{
    const int64_t in = p->axis[axis].in, out = p->axis[axis].out;
    const emu_scratch *s = &p->scratch;
    const int64_t most = upsample_taps_most(p, axis);
    t->first = emu_scratch_get(s, UPSAMPLE_SCRATCH_TABLE + axis, (size_t)(3 * in + 2 * most) * sizeof(int64_t));
    if (!t->first)
        return false;
    t->count = t->first + in;
    int64_t *last = t->count + in;
    for (int64_t y = 0; y < in; y++) {
        t->first[y] = INT64_MAX;
        last[y] = -1;
    }
    for (int64_t i = 0; i < out; i++) {
        const upsample_tap tp = upsample_tap_of(p, axis, i);
        if (tp.count == 0)
            continue;
        int64_t ends[2] = {tp.lo, tp.hi};
        for (int e = 0; e < 2; e++) {
            t->first[ends[e]] = i < t->first[ends[e]] ? i : t->first[ends[e]];
            last[ends[e]] = i;
        }
    }
    t->taps = 1;
    for (int64_t y = 0; y < in; y++) {
        if (last[y] < 0)
            t->first[y] = 0; /* receives nothing */
        t->count[y] = last[y] - t->first[y] + 1;
        if (last[y] < 0)
            t->count[y] = 0;
        if (t->count[y] > t->taps)
            t->taps = t->count[y];
    }
    find_affine_run(t, in);
    find_subperiod(t, in, out);
    const size_t wt_bytes = (size_t)(t->taps * in) * sizeof *t->wt;
    if (!(t->wt = emu_scratch_get(s, UPSAMPLE_SCRATCH_WEIGHTS + axis, wt_bytes)))
        return false;
    memset(t->wt, 0, wt_bytes);
    for (int64_t i = 0; i < out; i++) {
        const upsample_tap tp = upsample_tap_of(p, axis, i);
        if (tp.count == 0)
            continue;
        t->wt[(i - t->first[tp.lo]) * in + tp.lo] += tp.wl;
        t->wt[(i - t->first[tp.hi]) * in + tp.hi] += tp.wh;
    }
    int64_t u0 = (t->x0 + t->x1) / 2, u1 = u0;
    while (u0 > t->x0 && same_weights(t, in, u0 - 1, u1))
        u0--;
    while (u1 < t->x1 && same_weights(t, in, u1, u0))
        u1++;
    /* Taken when it is most of the run (the rest goes to the scalar ends): shorter, it is an odd
     * coincidence of roundings, not a pattern. */
    t->uniform = u1 - u0 >= UNIFORM_MIN && 8 * (u1 - u0) >= 7 * (t->x1 - t->x0);
    if (t->uniform) {
        t->x0 = u0;
        t->x1 = u1;
    }
    if (!polyphase_plan(t, in, out, t->first + 3 * in, most))
        return false;
    t->head_end = 0;
    t->tail_start = out;
    for (int64_t y = 0; y < in; y++) {
        if (y < t->x0 && t->first[y] + t->taps > t->head_end)
            t->head_end = t->first[y] + t->taps;
        if (y >= t->x1 && t->first[y] < t->tail_start)
            t->tail_start = t->first[y];
    }
    return true;
}

/* Prefetches spread over a combine's arithmetic: the cache lines [next, end) of `streams` ranges `stride`
 * bytes apart, per_block lines of each before each block of COMBINE_BLOCK elements a combine pass takes.
 * Issued in one burst they wait for miss buffers (a core has ~16) and the arithmetic waits with them;
 * spread, they overlap it. */
typedef struct line_feed {
    uintptr_t next, end, stride;
    int64_t streams, per_block;
    bool l1; /* into L1 (PREFETCH_TO_L1), else into L2 */
} line_feed;

#define COMBINE_BLOCK 64

/* The next n lines of each of f's ranges (fewer at its end). */
static inline void feed_lines_n(line_feed *f, int64_t n)
{
    if (f->next >= f->end)
        return;
    const uintptr_t span = (uintptr_t)n * 64, stop = f->end - f->next > span ? f->next + span : f->end;
    for (int64_t k = 0; k < f->streams; k++)
        for (uintptr_t a = f->next + (uintptr_t)k * f->stride, b = stop + (uintptr_t)k * f->stride; a < b; a += 64) {
            if (f->l1)
                PREFETCH_TO_L1((const void *)a);
            else
                PREFETCH_TO_L2((const void *)a);
        }
    f->next = stop;
}

/* The lines of f due before a combine block. */
static inline void feed_lines(line_feed *f)
{
    if (f)
        feed_lines_n(f, f->per_block);
}

/* A feed of [from, to) in `streams` ranges `stride` bytes apart over `passes` combine passes of len
 * elements: PREFETCH_BURST_LINES lines go now, the rest spread. */
EMU_HOT_INLINE line_feed feed_start(const char *from, const char *to, uintptr_t stride, int64_t streams,
                                    int64_t passes, int64_t len)
{
    line_feed f = {(uintptr_t)from & ~(uintptr_t)63, (uintptr_t)to, stride, streams, 0, false};
    if (streams <= 0 || f.next >= f.end)
        return f;
    const int64_t lines = (int64_t)((f.end - f.next + 63) / 64), burst = PREFETCH_BURST_LINES / streams;
    /* A range about the burst's size (U1's two rows, one line more when they are not aligned) goes at once. */
    f.per_block = lines <= burst + burst / 4 ? lines : burst;
    feed_lines(&f);
    if (f.next >= f.end)
        return f;
    const int64_t blocks = passes * (len / COMBINE_BLOCK);
    f.per_block = blocks > 0 ? (lines - f.per_block + blocks - 1) / blocks : 0; /* no whole block: the burst */
    return f;
}

/* a[0..n) = (first ? 0.0f : a) + the m <= 4 rows' products: one pass of combine_rows over a span. With n
 * a constant (a whole block) the loop has no remainder and no checks; restrict keeps it unversioned. (NHWC's
 * fold of a partial sum passes a itself as r0: element j is read before it is written, in any order.) */
EMU_HOT_INLINE void combine_span(float *restrict a, const float *restrict r0, const float *restrict r1,
                                 const float *restrict r2, const float *restrict r3, float w0, float w1, float w2,
                                 float w3, int64_t m, bool first, int64_t n)
{
    switch (m + (first ? 0 : 4)) {
    case 1:
        for (int64_t j = 0; j < n; j++)
            a[j] = 0.0f + w0 * r0[j];
        break;
    case 2:
        for (int64_t j = 0; j < n; j++)
            a[j] = 0.0f + (w0 * r0[j] + w1 * r1[j]);
        break;
    case 3:
        for (int64_t j = 0; j < n; j++)
            a[j] = 0.0f + (w0 * r0[j] + w1 * r1[j] + w2 * r2[j]);
        break;
    case 4:
        for (int64_t j = 0; j < n; j++)
            a[j] = 0.0f + (w0 * r0[j] + w1 * r1[j] + (w2 * r2[j] + w3 * r3[j]));
        break;
    case 5:
        for (int64_t j = 0; j < n; j++)
            a[j] = a[j] + w0 * r0[j];
        break;
    case 6:
        for (int64_t j = 0; j < n; j++)
            a[j] = a[j] + (w0 * r0[j] + w1 * r1[j]);
        break;
    case 7:
        for (int64_t j = 0; j < n; j++)
            a[j] = a[j] + (w0 * r0[j] + w1 * r1[j] + w2 * r2[j]);
        break;
    default:
        for (int64_t j = 0; j < n; j++)
            a[j] = a[j] + (w0 * r0[j] + w1 * r1[j] + (w2 * r2[j] + w3 * r3[j]));
        break;
    }
}

/* One pass of combine_rows: whole blocks (a constant length: unrolled, no remainder), each after its share
 * of f's prefetches, then the rest. Inlined with constant m and first, the span's switch is decided once. */
EMU_HOT_INLINE void combine_blocks(float *restrict acc, const float *r0, const float *r1, const float *r2,
                                   const float *r3, float w0, float w1, float w2, float w3, int64_t m, bool first,
                                   int64_t len, line_feed *f)
{
    int64_t j = 0;
    for (; j + COMBINE_BLOCK <= len; j += COMBINE_BLOCK) {
        feed_lines(f);
        combine_span(acc + j, r0 + j, r1 + j, r2 + j, r3 + j, w0, w1, w2, w3, m, first, COMBINE_BLOCK);
    }
    combine_span(acc + j, r0 + j, r1 + j, r2 + j, r3 + j, w0, w1, w2, w3, m, first, len - j);
}

/* acc[0..len) = sum over t < n of w[t] * rows[t][0..len), up to four rows per pass, feeding f's
 * prefetches (may be NULL) block by block. */
EMU_HOT_INLINE void combine_rows(float *restrict acc, const float *const *rows, const float *w, int64_t n, int64_t len,
                                 line_feed *f)
{
    if (n == 0) {
        memset(acc, 0, (size_t)len * sizeof *acc);
        return;
    }
    for (int64_t t = 0; t < n;) {
        const int64_t m = n - t < 4 ? n - t : 4;
        const float *r0 = rows[t], *r1 = rows[t + (m > 1)], *r2 = rows[t + 2 * (m > 2)], *r3 = rows[t + 3 * (m > 3)];
        const float w0 = w[t], w1 = m > 1 ? w[t + 1] : 0, w2 = m > 2 ? w[t + 2] : 0, w3 = m > 3 ? w[t + 3] : 0;
#define PASS(M, FIRST) combine_blocks(acc, r0, r1, r2, r3, w0, w1, w2, w3, M, FIRST, len, f)
        switch (m + (t == 0 ? 0 : 4)) {
        case 1: PASS(1, true); break;
        case 2: PASS(2, true); break;
        case 3: PASS(3, true); break;
        case 4: PASS(4, true); break;
        case 5: PASS(1, false); break;
        case 6: PASS(2, false); break;
        case 7: PASS(3, false); break;
        default: PASS(4, false); break;
        }
#undef PASS
        t += m;
    }
}

/* NCHW W pass: dst[x] = sum over k < taps of wt[k * w + x] * acc[first[x] + k].
 * The common tap counts get their own loops (no inner loop, nothing reloaded). Every W sum starts from
 * 0.0f, as the reference's does: an index that receives nothing (its padded taps weigh 0 against negative
 * values) is +0.0, not -0.0. */
static inline void gather_w(float *restrict dst, const float *restrict acc, const int64_t *restrict first,
                            const float *restrict wt, int64_t w, int64_t taps, int64_t xa, int64_t xb)
{
    const float *restrict w0 = wt, *restrict w1 = wt + w, *restrict w2 = wt + 2 * w, *restrict w3 = wt + 3 * w;
    switch (taps) {
    case 1:
        for (int64_t x = xa; x < xb; x++)
            dst[x] = 0.0f + w0[x] * acc[first[x]];
        break;
    case 2:
        for (int64_t x = xa; x < xb; x++) {
            const float *a = acc + first[x];
            dst[x] = 0.0f + (w0[x] * a[0] + w1[x] * a[1]);
        }
        break;
    case 3:
        for (int64_t x = xa; x < xb; x++) {
            const float *a = acc + first[x];
            dst[x] = 0.0f + (w0[x] * a[0] + w1[x] * a[1] + w2[x] * a[2]);
        }
        break;
    case 4:
        for (int64_t x = xa; x < xb; x++) {
            const float *a = acc + first[x];
            dst[x] = 0.0f + (w0[x] * a[0] + w1[x] * a[1] + (w2[x] * a[2] + w3[x] * a[3]));
        }
        break;
    case 5: /* an x2 upscale's taps: one end index has a fifth of weight 0 (the default loop's order) */
        for (int64_t x = xa; x < xb; x++) {
            const float *a = acc + first[x];
            float sum = 0.0f + wt[x] * a[0];
            sum += w1[x] * a[1];
            sum += w2[x] * a[2];
            sum += w3[x] * a[3];
            dst[x] = sum + wt[4 * w + x] * a[4];
        }
        break;
    default:
        for (int64_t x = xa; x < xb; x++) {
            const float *a = acc + first[x];
            float sum = 0.0f;
            for (int64_t k = 0; k < taps; k++)
                sum += wt[k * w + x] * a[k];
            dst[x] = sum;
        }
        break;
    }
}

/* phases[q * plen + m] = src[s * m + q] for m < full (whole groups of s inside the row; the caller fills
 * the rest). With s a constant (the wrappers below) the compiler turns the strided reads into vector loads
 * and shuffles. */
static inline void deinterleave(float *restrict phases, const float *restrict src, int64_t plen, int64_t full,
                                int64_t s)
{
    for (int64_t m = 0; m < full; m++)
        for (int64_t q = 0; q < s; q++)
            phases[q * plen + m] = src[s * m + q];
}

EMU_HOT static void deinterleave2(float *restrict phases, const float *restrict src, int64_t plen, int64_t full)
{
    deinterleave(phases, src, plen, full, 2);
}

EMU_HOT static void deinterleave4(float *restrict phases, const float *restrict src, int64_t plen, int64_t full)
{
    deinterleave(phases, src, plen, full, 4);
}

/* n <= 5 taps of the polyphase pass on [x0, x1), after k0 others, in one pass: dst[x] = 0.0f + w[0][x] *
 * ph[0][x] + ... for the first taps (k0 == 0), dst[x] + ... for later ones. Each sum runs in k's order, as one
 * pass per tap would: the same bits, with dst read and written once per pass. (Five: an x2 upscale's five
 * taps in one pass, not four and one.) With `uniform` weights each tap's weight is one broadcast number (the
 * same products, no weight rows to read). */
EMU_HOT_INLINE void polyphase_taps_body(float *restrict dst, const float *const *ph, const float *const *wk,
                                        int64_t k0, int64_t n, int64_t x0, int64_t x1, bool uniform)
{
    const float *restrict p0 = ph[0], *restrict p1 = ph[1], *restrict p2 = ph[2], *restrict p3 = ph[3];
    const float *restrict p4 = ph[4];
    const float *restrict w0 = wk[0], *restrict w1 = wk[1], *restrict w2 = wk[2], *restrict w3 = wk[3];
    const float *restrict w4 = wk[4];
    if (x0 >= x1)
        return;
    const float c0 = uniform && n > 0 ? w0[x0] : 0, c1 = uniform && n > 1 ? w1[x0] : 0;
    const float c2 = uniform && n > 2 ? w2[x0] : 0, c3 = uniform && n > 3 ? w3[x0] : 0;
    const float c4 = uniform && n > 4 ? w4[x0] : 0;
#define TAP(i) ((uniform ? c##i : w##i[x]) * p##i[x])
#define PASS(start, sum)                                                                                              \
    for (int64_t x = x0; x < x1; x++)                                                                                 \
        dst[x] = (start) + sum;                                                                                       \
    break
    const bool first = k0 == 0;
    switch (n + (first ? 0 : 5)) {
    case 1: PASS(0.0f, TAP(0));
    case 2: PASS(0.0f, TAP(0) + TAP(1));
    case 3: PASS(0.0f, TAP(0) + TAP(1) + TAP(2));
    case 4: PASS(0.0f, TAP(0) + TAP(1) + TAP(2) + TAP(3));
    case 5: PASS(0.0f, TAP(0) + TAP(1) + TAP(2) + TAP(3) + TAP(4));
    case 6: PASS(dst[x], TAP(0));
    case 7: PASS(dst[x], TAP(0) + TAP(1));
    case 8: PASS(dst[x], TAP(0) + TAP(1) + TAP(2));
    case 9: PASS(dst[x], TAP(0) + TAP(1) + TAP(2) + TAP(3));
    case 10: PASS(dst[x], TAP(0) + TAP(1) + TAP(2) + TAP(3) + TAP(4));
    default: break; /* no taps */
    }
#undef PASS
#undef TAP
}

EMU_HOT static void polyphase_taps(float *restrict dst, const float *const *ph, const float *const *wk, int64_t k0,
                                   int64_t n, int64_t x0, int64_t x1)
{
    polyphase_taps_body(dst, ph, wk, k0, n, x0, x1, false);
}

EMU_HOT static void polyphase_taps_uniform(float *restrict dst, const float *const *ph, const float *const *wk,
                                           int64_t k0, int64_t n, int64_t x0, int64_t x1)
{
    polyphase_taps_body(dst, ph, wk, k0, n, x0, x1, true);
}

/* The polyphase pass's taps over [xa, xb) from split phases: four of the live taps a pass (polyphase_plan),
 * five when five are left. */
static inline void polyphase_range(float *restrict dst, const float *phases, const axis_taps *t, int64_t w,
                                   int64_t xa, int64_t xb)
{
    for (int64_t i = 0, n; i < t->live && xa < xb; i += n) {
        const float *ph[5] = {0}, *wk[5] = {0};
        n = t->live - i == 5 ? 5 : t->live - i < 4 ? t->live - i : 4;
        for (int64_t j = 0; j < n; j++) {
            ph[j] = phases + t->live_off[i + j];
            wk[j] = t->wt + t->live_tap[i + j] * w;
        }
        (t->uniform ? polyphase_taps_uniform : polyphase_taps)(dst, ph, wk, i, n, xa, xb);
    }
}

/* The polyphase W pass on [t->x0, t->x1): split the summed row (len elements at src: acc, with its zero
 * tail, or a gradOut row read in place) into its `stride` phases (phase q holds src[stride * m + q], zero
 * past the row), then every tap is a contiguous, vectorisable read of one phase. */
static inline void gather_w_polyphase(float *restrict dst, const float *restrict src, int64_t len, bool in_memory,
                                      const axis_taps *t, int64_t w, float *restrict phases)
{
    const int64_t s = t->stride, plen = t->plen, full = in_memory ? len / s : plen; /* len: the plan's out */
    /* In chunks, a row read in place (in_memory) asking for the bytes PREFETCH_AHEAD_BYTES further on: it
     * comes from memory (the stream runs on into the next task's row), and the hardware's prefetcher stops
     * at pages. After each chunk the taps take the outputs it completes: the split's loads from memory
     * overlap the taps' arithmetic, instead of memory idling through a pass of taps over the whole row. */
    const int64_t chunk = in_memory ? SPLIT_CHUNK_BYTES / (s * (int64_t)sizeof(float)) : full;
    int64_t x_done = t->x0;
    for (int64_t m0 = 0; m0 < full; m0 += chunk) {
        const int64_t n = full - m0 < chunk ? full - m0 : chunk;
        const uintptr_t ahead = (uintptr_t)(src + s * m0) + PREFETCH_AHEAD_BYTES; /* may lie past gradOut */
        for (int64_t b = 0; in_memory && b < SPLIT_CHUNK_BYTES; b += 64)
            PREFETCH_TO_L2((const void *)(ahead + (uintptr_t)b));
        if (s == 2)
            deinterleave2(phases + m0, src + s * m0, plen, n);
        else if (s == 4)
            deinterleave4(phases + m0, src + s * m0, plen, n);
        else if (s == 8)
            emu_deinterleave8_f32(phases + m0, src + s * m0, plen, n);
        else
            deinterleave(phases + m0, src + s * m0, plen, n, s);
        const int64_t x_ready = m0 + n - t->qmax < t->x1 ? m0 + n - t->qmax : t->x1; /* reads below m0 + n */
        if (in_memory && x_ready > x_done) {
            polyphase_range(dst, phases, t, w, x_done, x_ready);
            x_done = x_ready;
        }
    }
    for (int64_t m = full; m < plen; m++)
        for (int64_t q = 0; q < s; q++)
            phases[q * plen + m] = s * m + q < len ? src[s * m + q] : 0.0f;
    polyphase_range(dst, phases, t, w, x_done, t->x1);
}

/* gather_w's one- and two-tap loops on the periodic stretch of a downscale: x = p0 + s*m + q
 * reads acc[first[p0 + q] + m] (and the element after): the same products and sum, so the same bits. */
static inline void gather_w_subperiod(float *restrict dst, const float *restrict acc, const axis_taps *t, int64_t w,
                                      int64_t s)
{
    const int64_t p0 = t->p0, runs = t->runs;
    const float *restrict w0 = t->wt + p0, *restrict w1 = t->wt + w + p0;
    int64_t f[8];
    for (int64_t q = 0; q < s; q++)
        f[q] = t->first[p0 + q];
    float *restrict d = dst + p0;
    if (t->taps == 1) {
        for (int64_t m = 0; m < runs; m++)
            for (int64_t q = 0; q < s; q++)
                d[s * m + q] = 0.0f + w0[s * m + q] * acc[f[q] + m];
        return;
    }
    for (int64_t m = 0; m < runs; m++)
        for (int64_t q = 0; q < s; q++)
            d[s * m + q] = 0.0f + (w0[s * m + q] * acc[f[q] + m] + w1[s * m + q] * acc[f[q] + m + 1]);
}

EMU_HOT static void gather_w_sub2(float *restrict dst, const float *restrict acc, const axis_taps *t, int64_t w)
{
    gather_w_subperiod(dst, acc, t, w, 2);
}

EMU_HOT static void gather_w_sub4(float *restrict dst, const float *restrict acc, const axis_taps *t, int64_t w)
{
    gather_w_subperiod(dst, acc, t, w, 4);
}

EMU_HOT static void gather_w_sub8(float *restrict dst, const float *restrict acc, const axis_taps *t, int64_t w)
{
    gather_w_subperiod(dst, acc, t, w, 8);
}

/* The x2 W pass fused with the H sum (NCHW): a polyphase run of stride 2 whose live taps each read the
 * H-summed column 2x + d, d in [-2, 3] (an x2 upscale's four: d = -1 .. 2), from at most four gradOut rows.
 * Summing a row into acc, splitting acc into its two phases and taking the taps from the phases were three
 * passes over L1 with their loads, stores and set-up; here each block of N outputs (eight with AVX2, sixteen
 * with AVX-512; pair_pass.inc) sums its 2N columns in registers, splits them into the even and odd ones,
 * shifts those by a lane with the neighbouring blocks' for the taps at x - 1 and x + 1, and adds the taps:
 * float16's U5 spent as long in that arithmetic as its whole call may take at copy speed. The operations and
 * their order are combine_span's and polyphase_taps_body's, lane by lane, so the bits are theirs: the H sum's
 * 0.0f start is left out (it turns a -0.0 column into +0.0, which no W sum, each starting from 0.0f too,
 * tells apart), and a W sum adds its taps to +0.0f in order instead of adding +0.0f to their sum (the same
 * bits: they differ only in a zero's sign, which the final +0.0f settles the same way). Float16 and bfloat16
 * rows of an x2 upscale's interior are read in place and widened in the registers (pair_source), and add
 * their exact products in one rounding with the sums after them (pair_fusable): the same bits again. */

/* pair_pass feeds its prefetches (line_feed) once every this many outputs. */
#define PAIR_FEED_OUTPUTS 32

/* The type of pair_pass's source rows: float32 (converted rows or gradOut's own), or float16 and bfloat16
 * gradOut rows read in place. */
enum pair_src { PAIR_SRC_F32, PAIR_SRC_F16, PAIR_SRC_BF16 };

/* An x2 upscale's interior rows (align_corners false): four rows, the taps at d = -1 .. 2, one weight each. */
#define PAIR_X2_MASK 0x1eu

/* pair_pass's plan, made once a call (pair_taps): the instruction set (enum pair_isa below; PAIR_NONE: W passes
 * are not pair_pass's), the live taps' column offsets (mask: bit d + 2 for column 2x + d) and weights. */
typedef struct pair_plan {
    int isa;
    unsigned mask;
    bool uniform; /* one weight a tap along the run: c */
    bool fused;   /* the x2 rows of half-type gradOut fuse their exact products (pair_fusable) */
    int64_t live;
    int64_t head_end, tail_start; /* the acc columns gather_w reads: below head_end, from tail_start on */
    const float *wk[5]; /* live tap i's weights, indexed by x */
    float c[5];
} pair_plan;

#if defined(__x86_64__) && defined(__GNUC__) && !defined(ACLNN_EMU_NO_CLONES)
#include <immintrin.h>
#define HAVE_PAIR_PASS 1

/* The H sum of column c of the m <= 4 rows (0.0f outside [0, len)): combine_span's lane, without its start. */
static inline float pair_hsum_at(const void *const *rows, int src, const float *hw, int64_t m, int64_t len, int64_t c)
{
    if (c < 0 || c >= len)
        return 0.0f;
    float v[4];
    for (int64_t k = 0; k < m; k++) {
        const uint16_t h = src == PAIR_SRC_F32 ? 0 : ((const uint16_t *)rows[k])[c];
        v[k] = src == PAIR_SRC_F16    ? emu_f16_to_f32(h)
               : src == PAIR_SRC_BF16 ? emu_bf16_to_f32(h)
                                      : ((const float *)rows[k])[c];
    }
    switch (m) {
    case 1: return hw[0] * v[0];
    case 2: return hw[0] * v[0] + hw[1] * v[1];
    case 3: return hw[0] * v[0] + hw[1] * v[1] + hw[2] * v[2];
    default: return hw[0] * v[0] + hw[1] * v[1] + (hw[2] * v[2] + hw[3] * v[3]);
    }
}

/* AVX2: eight outputs a block; the split is two in-lane shuffles and a lane swap each, the lane shifts a
 * 128-bit swap and a byte shift each. */
#define PAIR_ISA "avx2,f16c,fma"
#define PAIR_V __m256
#define PAIR_N 8
#define PAIR_FN(name) pair_##name##_avx2
#define PAIR_LOAD _mm256_loadu_ps
#define PAIR_STORE _mm256_storeu_ps
#define PAIR_SET1 _mm256_set1_ps
#define PAIR_MUL _mm256_mul_ps
#define PAIR_ADD _mm256_add_ps
#define PAIR_FMA _mm256_fmadd_ps
#define PAIR_LOAD_F16(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(p)))
/* bfloat16 widened by a byte shuffle of the eight values loaded into both halves (zero-extending and shifting
 * took two instructions). */
#define PAIR_LOAD_BF16(p)                                                                                             \
    _mm256_castsi256_ps(_mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p))),       \
                                            _mm256_setr_epi8(-128, -128, 0, 1, -128, -128, 2, 3, -128, -128, 4, 5,    \
                                                             -128, -128, 6, 7, -128, -128, 8, 9, -128, -128, 10, 11,  \
                                                             -128, -128, 12, 13, -128, -128, 14, 15)))

__attribute__((target("avx2"), always_inline)) static inline void pair_split_avx2(__m256 a, __m256 b, __m256 *e,
                                                                                  __m256 *o)
{
    const __m256 lo = _mm256_shuffle_ps(a, b, 0x88), hi = _mm256_shuffle_ps(a, b, 0xdd); /* 0 2 8 10 4 6 12 14 */
    *e = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(lo), 0xd8));
    *o = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(hi), 0xd8));
}

__attribute__((target("avx2"), always_inline)) static inline __m256 pair_next_avx2(__m256 cur, __m256 next)
{
    const __m256i t = _mm256_castps_si256(_mm256_permute2f128_ps(cur, next, 0x21));
    return _mm256_castsi256_ps(_mm256_alignr_epi8(t, _mm256_castps_si256(cur), 4));
}

__attribute__((target("avx2"), always_inline)) static inline __m256 pair_prev_avx2(__m256 prev, __m256 cur)
{
    const __m256i t = _mm256_castps_si256(_mm256_permute2f128_ps(prev, cur, 0x21));
    return _mm256_castsi256_ps(_mm256_alignr_epi8(_mm256_castps_si256(cur), t, 12));
}

#include "pair_pass.inc" /* it undefines the PAIR_ names above */

/* AVX-512: sixteen outputs a block; the split is one two-source permute a phase, a lane shift one alignment.
 * Half the shuffles of AVX2's a column, which bound its blocks (Zen 4 runs shuffles on two of its four
 * float pipes): U5's pass 48 -> 37 ns a row there. */
#define PAIR_ISA "avx512f,avx512bw"
#define PAIR_V __m512
#define PAIR_N 16
#define PAIR_FN(name) pair_##name##_avx512
#define PAIR_LOAD _mm512_loadu_ps
#define PAIR_STORE _mm512_storeu_ps
#define PAIR_SET1 _mm512_set1_ps
#define PAIR_MUL _mm512_mul_ps
#define PAIR_ADD _mm512_add_ps
#define PAIR_FMA _mm512_fmadd_ps
#define PAIR_LOAD_F16(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(p)))
/* bfloat16 widened by one word permute (AVX-512 BW) that puts value i in the high half of lane i and zeroes the
 * low halves (zero-extending and shifting took two instructions: U5 bfloat16 3.53 -> 3.40 ms on Zen 4). */
#define PAIR_LOAD_BF16(p)                                                                                             \
    _mm512_castsi512_ps(_mm512_maskz_permutexvar_epi16(                                                               \
        0xaaaaaaaau, _mm512_set_epi16(15, 0, 14, 0, 13, 0, 12, 0, 11, 0, 10, 0, 9, 0, 8, 0, 7, 0, 6, 0, 5, 0, 4, 0, 3, \
                                      0, 2, 0, 1, 0, 0, 0),                                                           \
        _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(p)))))

__attribute__((target("avx512f"), always_inline)) static inline void pair_split_avx512(__m512 a, __m512 b, __m512 *e,
                                                                                      __m512 *o)
{
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    *e = _mm512_permutex2var_ps(a, even, b);
    *o = _mm512_permutex2var_ps(a, _mm512_add_epi32(even, _mm512_set1_epi32(1)), b);
}

__attribute__((target("avx512f"), always_inline)) static inline __m512 pair_next_avx512(__m512 cur, __m512 next)
{
    return _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(next), _mm512_castps_si512(cur), 1));
}

__attribute__((target("avx512f"), always_inline)) static inline __m512 pair_prev_avx512(__m512 prev, __m512 cur)
{
    return _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(cur), _mm512_castps_si512(prev), 15));
}

#include "pair_pass.inc" /* it undefines the PAIR_ names above */
#endif

/* pair_pass's instruction sets. */
enum pair_isa { PAIR_NONE, PAIR_AVX2, PAIR_AVX512 };

/* The fused pass over R input rows (pp: the plan; R = 2: two x2 rows whose sources follow one another, rows[0 .. 5],
 * m = 4, the same weights hw): dst[r][0, w) (the run's outputs; gather_w then writes the ends) and the acc[r]
 * columns the ends read. */
static void pair_pass(const pair_plan *pp, float *const *dst, float *const *acc, const void *const *rows, int src,
                      const float *hw, int64_t m, int64_t len, int64_t w, line_feed *f, int R)
{
#ifdef HAVE_PAIR_PASS
    typedef void (*pass_fn)(float *const *, float *const *, const void *const *, const float *, int64_t, int64_t,
                            const pair_plan *, int64_t, line_feed *);
    /* [R - 1][AVX-512][fused][enum pair_src] (pairs of rows are half-type rows: pair_twin) */
    static const pass_fn x2_pass[2][2][2][3] = {
        {{{pair_pass_x2_avx2, pair_pass_x2_f16_avx2, pair_pass_x2_bf16_avx2},
          {pair_pass_x2_avx2, pair_pass_x2_f16_fused_avx2, pair_pass_x2_bf16_fused_avx2}},
         {{pair_pass_x2_avx512, pair_pass_x2_f16_avx512, pair_pass_x2_bf16_avx512},
          {pair_pass_x2_avx512, pair_pass_x2_f16_fused_avx512, pair_pass_x2_bf16_fused_avx512}}},
        {{{NULL, pair_pass2_x2_f16_avx2, pair_pass2_x2_bf16_avx2},
          {NULL, pair_pass2_x2_f16_fused_avx2, pair_pass2_x2_bf16_fused_avx2}},
         {{NULL, pair_pass2_x2_f16_avx512, pair_pass2_x2_bf16_avx512},
          {NULL, pair_pass2_x2_f16_fused_avx512, pair_pass2_x2_bf16_fused_avx512}}}};
    const int wide = pp->isa == PAIR_AVX512;
    if (m == 4 && pp->mask == PAIR_X2_MASK && pp->uniform) /* half-type rows and pairs of rows are these */
        x2_pass[R - 1][wide][pp->fused][src](dst, acc, rows, hw, m, len, pp, w, f);
    else
        (wide ? pair_pass_any_avx512 : pair_pass_any_avx2)(dst, acc, rows, hw, m, len, pp, w, f);
    for (int r = 0; r < R; r++)
        for (int64_t c = 2 * w; c < len; c++)
            acc[r][c] = pair_hsum_at(rows + 2 * r, src, hw, m, len, c);
#else
    (void)pp, (void)dst, (void)acc, (void)rows, (void)src, (void)hw, (void)m, (void)len, (void)w, (void)f, (void)R;
#endif
}

/* pair_pass's plan for W taps t on rows of w outputs on this CPU; isa PAIR_NONE when the pass cannot take them.
 * A row must hold a block (AVX2's eight outputs, AVX-512's sixteen). */
static pair_plan pair_taps(const axis_taps *t, int64_t w)
{
    pair_plan pp = {
        .isa = PAIR_NONE, .uniform = t->uniform, .live = t->live, .head_end = t->head_end, .tail_start = t->tail_start};
    bool ok = t->stride == 2 && t->live >= 1 && t->live <= 5;
    for (int64_t i = 0; ok && i < t->live; i++) {
        const int64_t d = t->shift + t->live_tap[i];
        ok = d >= -2 && d <= 3;
        pp.mask |= ok ? 1u << (d + 2) : 0;
        pp.wk[i] = t->wt + t->live_tap[i] * w;
        pp.c[i] = pp.wk[i][t->x0];
    }
#ifdef HAVE_PAIR_PASS
    if (ok && w >= 16 && emu_cpu_isa() >= EMU_ISA_AVX512)
        pp.isa = PAIR_AVX512;
    else if (ok && w >= 8 && emu_cpu_isa() >= EMU_ISA_AVX2)
        pp.isa = PAIR_AVX2;
#endif
    return pp;
}

typedef struct upsample_ctx {
    const upsample_plan *p;
    axis_taps td, th, tw; /* td: 3 axes only */
    int64_t g_sd, o_sd;   /* D's element strides (2 axes: 0) */
    int64_t in_d;         /* D's input extent (2 axes: 1) */
    int64_t hslots, dslots; /* powers of two: a row's slot is (od mod dslots) * hslots + oh mod hslots */
    int64_t tasks;        /* pairs of input rows (2 axes) or input slices (3 axes) */
    bool feed_next;       /* 3 axes: a task prefetches the next one's fresh slices (they fit in L2 beside its own) */
    aclDataType dt;
    size_t item;
    emu_rows g, o; /* gradOut and out as rows */
    bool stream;   /* out is float32 in place and beyond the caches: rows go out with streaming stores */
    int64_t ahead; /* input rows ahead whose new gradOut rows the H pass prefetches (PREFETCH_AHEAD_BYTES) */
    int64_t vec;
    const float *f16; /* float16 -> float32 table */
    int nonfinite;    /* a row came out NaN or infinite: gradOut holds such values (see cube.c) */
    pair_plan pair;   /* the W pass is pair_pass's unless pair.isa is PAIR_NONE (for rows of 1 to 4 sources) */
    int pair_src;     /* enum pair_src: pair_pass's x2 rows (four sources) read half-type gradOut rows in place */
    bool feed_l1;     /* the paired rows' prefetches go to L1, PREFETCH_L1_AHEAD_BYTES ahead (half-type rows) */
} upsample_ctx;

/* Per-thread scratch: converted gradOut rows, the (D and) H-reduced row, the output row. */
typedef struct upsample_scratch {
    float *rows;  /* `slots` converted gradOut rows of out_w * vec, tagged by offset */
    int64_t *tags;
    int64_t slots;
    float *part;  /* partial sum when a row has more than MAX_ROWS sources */
    float *acc;   /* out_w * vec + tw.taps + tw.stride (zero tail: padded taps and the polyphase split read it) */
    float *res;   /* w * vec */
    float *acc_twin, *res_twin; /* the same for the second row of a pair (pair_twin) */
    float *phases; /* polyphase split of acc: stride * ((out_w + taps) / stride + 1) */
    const float **ptrs;
    float *slice; /* 3 axes: the D-reduced gradOut slice, out_h rows of out_w * vec (after the slots in rows) */
    int64_t fed_task;   /* 3 axes: the task whose fresh slices this thread asked for up to fed_next, else -1 */
    uintptr_t fed_next;
    /* The plane of the last row (-1: none yet) and its offsets: a thread's rows come in runs of one plane, and
     * finding n and c from a plane index divides (tens of cycles a row, a tenth of a short row's set-up). */
    int64_t plane, g_plane, o_plane;
    int64_t task, task_plane, task_y; /* 2 axes: the last task (-1: none yet), as (plane, its first row y) */
} upsample_scratch;

/* gradOut row oh of slice od (at element offset off) as float32: in place when it already is, else
 * converted into a per-thread slot that neighbouring output rows, which share most of their source rows,
 * reuse. The rows one combine takes (at most MAX_ROWS: consecutive od, consecutive oh for each) never
 * share a slot. */
static inline const float *grad_row(const upsample_ctx *x, upsample_scratch *sc, int64_t off, int64_t od,
                                    int64_t oh)
{
    if (x->g.direct)
        return (const float *)x->g.base + off;
    const int64_t slot = (od & (x->dslots - 1)) * x->hslots + (oh & (x->hslots - 1));
    const int64_t len = x->p->axis[UPSAMPLE_W].out * x->vec;
    float *dst = sc->rows + slot * len;
    if (sc->tags[slot] != off) {
        emu_load_row(dst, x->g.base + (size_t)off * x->item, x->dt, x->p->axis[UPSAMPLE_W].out, x->vec, x->g.s.w,
                     x->g.lane, x->f16);
        sc->tags[slot] = off;
    }
    return dst;
}

/* acc = sum over k < count of w[k] * row k, MAX_ROWS rows per combine (more only under extreme
 * upscaling); source(ctx, k, &w) returns row k and its weight. */
EMU_HOT_INLINE void reduce_rows(upsample_scratch *sc, float *acc, int64_t count, int64_t len,
                                const float *(*source)(const void *ctx, int64_t k, float *w), const void *ctx,
                                line_feed *f)
{
    float wk[MAX_ROWS];
    for (int64_t k0 = 0; k0 < count || k0 == 0; k0 += MAX_ROWS) {
        const int64_t m = count - k0 < MAX_ROWS ? count - k0 : MAX_ROWS;
        for (int64_t k = 0; k < m; k++)
            sc->ptrs[k] = source(ctx, k0 + k, &wk[k]);
        if (k0 == 0) {
            combine_rows(acc, sc->ptrs, wk, m, len, f);
        } else {
            combine_rows(sc->part, sc->ptrs, wk, m, len, f);
            for (int64_t j = 0; j < len; j++)
                acc[j] += sc->part[j];
        }
    }
}

/* Where step 1 of an input row reads: the plane's gradOut rows (2 axes) or the D-reduced slice (3). */
typedef struct row_source {
    const upsample_ctx *x;
    upsample_scratch *sc;
    int64_t g_off; /* gradOut element offset of the plane (and, in the D pass, of row oh) */
    int64_t first; /* the first source index (H taps: oh; D taps: od) */
    const float *wt; /* the taps' weights, stride `in` */
    int64_t in, idx; /* the axis' input extent and the index the taps belong to */
    int64_t oh;      /* the D pass: the gradOut row of each slice it sums */
} row_source;

/* H source k's weight, and its gradOut row's element offset (2 axes). */
EMU_HOT_INLINE int64_t h_offset(const row_source *r, int64_t k, float *w)
{
    *w = r->wt[k * r->in + r->idx];
    return r->g_off + (r->first + k) * r->x->g.s.h;
}

EMU_HOT_INLINE const float *h_source(const void *ctx, int64_t k, float *w)
{
    const row_source *r = ctx;
    const int64_t oh = r->first + k, off = h_offset(r, k, w);
    if (r->x->p->axes == 3)
        return r->sc->slice + oh * r->x->p->axis[UPSAMPLE_W].out * r->x->vec;
    return grad_row(r->x, r->sc, off, 0, oh);
}

/* D pass source k: gradOut row oh (in g_off) of slice od = first + k. */
EMU_HOT_INLINE const float *d_source(const void *ctx, int64_t k, float *w)
{
    const row_source *r = ctx;
    const int64_t od = r->first + k;
    *w = r->wt[k * r->in + r->idx];
    return grad_row(r->x, r->sc, r->g_off + od * r->x->g_sd + r->oh * r->x->g.s.h, od, r->oh);
}

/* Output row y + ahead (and the n - 1 after it: a call's rows are y .. y + n - 1) will read rows that no earlier
 * one did: ask for them now, spread over this row's H sum and W pass, so the loads overlap its arithmetic instead
 * of stalling it. The last lines (3/4, at most a burst) go before the W pass (w_feed), which asks nothing of
 * memory: U1 6.8 -> 6.2 ms. With the two passes in one (paired: pair_pass) the lines are spread evenly over it.
 * Short rows only (NCHW): long ones (NHWC's, W * C long) are streams the hardware prefetcher follows, and fetching
 * whole rows ahead would evict the rows being summed. (3 axes: the D pass reads gradOut, see volume_slice.)
 * Returns the feed for the H sum, or NULL. */
EMU_HOT_INLINE line_feed *row_feed(const upsample_ctx *x, int64_t g_plane, int64_t y, int64_t n, bool paired,
                                   line_feed *feed, line_feed *w_feed)
{
    const upsample_plan *p = x->p;
    const int64_t len = p->axis[UPSAMPLE_W].out * x->vec, h = p->axis[UPSAMPLE_H].in, w = p->axis[UPSAMPLE_W].in;
    *w_feed = (line_feed){0};
    if (p->axes != 2 || !x->g.contiguous || y + x->ahead >= h || len * (int64_t)x->item > PREFETCH_MAX_BYTES)
        return NULL;
    const int64_t ahead = y + x->ahead, last = ahead + n - 1 < h ? ahead + n - 1 : h - 1;
    const int64_t before = x->th.first[ahead - 1] + x->th.count[ahead - 1];
    const int64_t end = x->th.first[last] + x->th.count[last];
    const int64_t from = before > x->th.first[ahead] ? before : x->th.first[ahead];
    if (from >= end)
        return NULL;
    /* One range where the rows follow one another, else one per row. */
    const char *row = x->g.base + (size_t)(g_plane + from * x->g.s.h) * x->item;
    const bool packed = x->g.s.h == len;
    const uintptr_t start = (uintptr_t)row & ~(uintptr_t)63;
    const uintptr_t stop = (uintptr_t)row + (size_t)((packed ? end - from : 1) * len) * x->item;
    const int64_t streams = packed ? 1 : end - from, lines = (int64_t)((stop - start + 63) / 64);
    const uintptr_t stride = packed ? 0 : (size_t)x->g.s.h * x->item;
    if (paired) {
        const int64_t feeds = w / PAIR_FEED_OUTPUTS > 0 ? w / PAIR_FEED_OUTPUTS : 1;
        *feed = (line_feed){start, stop, stride, streams, (lines + feeds - 1) / feeds, x->feed_l1};
        return feed;
    }
    const int64_t burst = PREFETCH_BURST_LINES / streams, tail = lines * 3 / 4 < burst ? lines * 3 / 4 : burst;
    const uintptr_t split = start + (uintptr_t)(lines - tail) * 64;
    *feed = feed_start((const char *)start, (const char *)split, stride, streams, (x->th.count[y] + 3) / 4, len);
    *w_feed = (line_feed){split, stop, stride, streams, tail, false};
    return feed;
}

/* Output row o_row (and the n - 1 after it, which follow it in dst and in out; n > 1 only when out_w >= w) leaves
 * its buffer dst (res or res_twin; out's row when out is float32 in place) for out; acc holds its H-reduced row.
 * A non-finite gradOut value reaches both the H-reduced row and some output row (Inf times any weight is
 * non-finite), so rows tell without another pass over gradOut: the streamed copy and the half-type stores check
 * what they move, else the shorter of the two rows is checked in L1. */
EMU_HOT_INLINE void row_out(const upsample_ctx *x, const float *dst, const float *acc, int64_t o_row,
                            int64_t n)
{
    const upsample_plan *p = x->p;
    const int64_t vec = x->vec, ow = p->axis[UPSAMPLE_W].out, w = p->axis[UPSAMPLE_W].in;
    bool finite;
    if (x->o.direct && x->stream) {
        finite = emu_copy_f32_finite((float *)x->o.base + o_row, dst, n * w * vec);
    } else if (!x->o.direct && ow >= w) {
        finite = emu_store_row_finite(x->o.base + (size_t)o_row * x->item, x->dt, dst, n * w, vec, x->o.s.w,
                                      x->o.lane);
    } else {
        finite = emu_row_finite(ow < w ? acc : dst, (ow < w ? ow : w) * vec);
        if (!x->o.direct)
            emu_store_row(x->o.base + (size_t)o_row * x->item, x->dt, dst, w, vec, x->o.s.w, x->o.lane);
    }
    if (!finite) {
#pragma omp atomic write
        ((upsample_ctx *)x)->nonfinite = 1;
    }
}

/* Row y's plane offset in gradOut and its element offset in out (the plane's offsets kept in sc). */
EMU_HOT_INLINE void row_offsets(const upsample_ctx *x, upsample_scratch *sc, int64_t plane, int64_t z, int64_t y,
                                int64_t *g_plane, int64_t *o_row)
{
    if (plane != sc->plane) {
        const upsample_plan *p = x->p;
        const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
        sc->plane = plane;
        sc->g_plane = n * x->g.s.n + c * x->g.s.c;
        sc->o_plane = n * x->o.s.n + c * x->o.s.c;
    }
    *g_plane = sc->g_plane;
    *o_row = sc->o_plane + z * x->o_sd + y * x->o.s.h;
}

/* Output rows y .. y + R - 1 when their W pass is pair_pass's (row_paired; R = 2: pair_twin): the H and W sums in
 * one pass over the run, each row's ends from its acc. Apart from upsample_row, whose other paths would share the
 * instruction cache with it and whose set-up (a large frame) a short row would pay. */
EMU_HOT static void pair_rows(const upsample_ctx *x, upsample_scratch *sc, int64_t plane, int64_t z, int64_t y, int R)
{
    const upsample_plan *p = x->p;
    const int64_t len = p->axis[UPSAMPLE_W].out, w = p->axis[UPSAMPLE_W].in, count = x->th.count[y];
    int64_t g_plane, o_row;
    row_offsets(x, sc, plane, z, y, &g_plane, &o_row);
    line_feed feed, w_feed;
    line_feed *f = row_feed(x, g_plane, y, R, true, &feed, &w_feed);
    const void *rows[6]; /* row r sums rows[2r ..] (a pair's second row: the first's last two sources on) */
    float hw[4];         /* with these weights (a pair's are the same) */
    const int src = count == 4 ? x->pair_src : PAIR_SRC_F32;
    const row_source hs = {.x = x, .sc = sc, .g_off = g_plane, .first = x->th.first[y], .wt = x->th.wt,
                           .in = p->axis[UPSAMPLE_H].in, .idx = y};
    if (src == PAIR_SRC_F32) { /* one output row: pairs are half-type rows (pair_twin) */
        for (int64_t k = 0; k < count; k++)
            rows[k] = h_source(&hs, k, &hw[k]);
    } else { /* half-type rows in place: gradOut rows first[y] on */
        const char *row = x->g.base + (size_t)h_offset(&hs, 0, &hw[0]) * x->item;
        const size_t step = (size_t)x->g.s.h * x->item;
        for (int64_t j = 0; j < 2 * R + 2; j++)
            rows[j] = row + j * step;
        for (int64_t k = 1; k < 4; k++)
            hw[k] = x->th.wt[k * hs.in + y];
    }
    const bool direct = x->o.direct && !x->stream;
    float *dst[2] = {direct ? (float *)x->o.base + o_row : sc->res,
                     direct ? (float *)x->o.base + o_row + x->o.s.h : sc->res_twin};
    float *acc[2] = {sc->acc, sc->acc_twin};
    pair_pass(&x->pair, dst, acc, rows, src, hw, count, len, w, f, R);
    for (int r = 0; r < R; r++) {
        gather_w(dst[r], acc[r], x->tw.first, x->tw.wt, w, x->tw.taps, 0, x->tw.x0);
        gather_w(dst[r], acc[r], x->tw.first, x->tw.wt, w, x->tw.taps, x->tw.x1, w);
    }
    /* A pair whose rows follow one another in out (and in dst: res_twin follows res) leaves in one call. */
    const int outs = R == 2 && x->vec == 1 && x->o.s.w == 1 && x->o.s.h == w && dst[1] == dst[0] + w ? 1 : R;
    for (int r = 0; r < outs; r++)
        row_out(x, dst[r], acc[r], o_row + r * x->o.s.h, R / outs);
}

/* A row with one source of weight 1 (a 1-D upsample's H) is read in place, see upsample_row's step 1. */
EMU_HOT_INLINE bool row_in_place(const upsample_ctx *x, int64_t y)
{
    const upsample_plan *p = x->p;
    return x->vec == 1 && x->tw.stride && p->axis[UPSAMPLE_W].out >= p->axis[UPSAMPLE_W].in && x->th.count[y] == 1 &&
           x->th.wt[y] == 1.0f;
}

/* pair_pass's x2 rows read float16 or bfloat16 gradOut rows in place when they are contiguous (2 axes; 3 axes sum
 * D first). */
static int pair_source(const upsample_ctx *x, const upsample_plan *p)
{
    const bool x2 = x->pair.isa != PAIR_NONE && x->pair.mask == PAIR_X2_MASK && x->pair.uniform;
    if (!x2 || p->axes != 2 || x->vec != 1 || x->g.s.w != 1)
        return PAIR_SRC_F32;
    return x->dt == ACL_FLOAT16 ? PAIR_SRC_F16 : x->dt == ACL_BF16 ? PAIR_SRC_BF16 : PAIR_SRC_F32;
}

/* A weight whose products with the values pair_fusable admits are exact in float32: 0 or a power of two in
 * [2^-8, 1]. */
static bool exact_weight(float w)
{
    int e;
    return w == 0.0f || (w >= 0x1p-8f && w <= 1.0f && frexpf(w, &e) == 0.5f);
}

/* A weight in [0, 1] that is a multiple of 2^-8. */
static bool grid_weight(float w)
{
    return w >= 0.0f && w <= 1.0f && w * 256.0f == nearbyintf(w * 256.0f);
}

/* Whether the x2 rows' half-type passes may fuse a product with the addition after it (PAIR_FMA: one rounding
 * instead of two), which gives the bits of the two operations exactly when the product needs no rounding. Their
 * products: row weights times gradOut values, float16 (multiples of 2^-24) or bfloat16 (of 2^-133), and W tap
 * weights times H sums. With every row weight a multiple of 2^-8, every H sum is a multiple of 2^-141, and an
 * exact_weight times such a multiple is one of 2^-149 at least, float32's finest step, and as wide as the value:
 * exact. Checked once a call: the taps of the rows that sum four sources, and the run's first and last taps. */
static bool pair_fusable(const upsample_ctx *x, const upsample_plan *p)
{
    const pair_plan *pp = &x->pair;
    if (x->pair_src == PAIR_SRC_F32 || !exact_weight(pp->c[0]) || !exact_weight(pp->c[3]))
        return false;
    const int64_t in = p->axis[UPSAMPLE_H].in;
    for (int64_t y = 0; y < in; y++) {
        if (x->th.count[y] != 4)
            continue;
        const float *wt = x->th.wt + y; /* source k's weight at wt[k * in] */
        if (!exact_weight(wt[0]) || !grid_weight(wt[in]) || !grid_weight(wt[2 * in]) || !exact_weight(wt[3 * in]))
            return false;
    }
    return true;
}

/* Row y's W pass is pair_pass's: the plan took the W taps and the row sums 1 to 4 sources. */
EMU_HOT_INLINE bool row_paired(const upsample_ctx *x, int64_t y)
{
    return x->pair.isa != PAIR_NONE && x->th.count[y] >= 1 && x->th.count[y] <= 4 && !row_in_place(x, y);
}

/* One output row y of plane `plane` (slice z with 3 axes, whose D-reduced slice is in sc->slice) whose W pass is
 * not pair_pass's. */
EMU_HOT static void upsample_row(const upsample_ctx *x, upsample_scratch *sc, int64_t plane, int64_t z, int64_t y)
{
    const upsample_plan *p = x->p;
    const int64_t vec = x->vec, ow = p->axis[UPSAMPLE_W].out, len = ow * vec;
    const int64_t h = p->axis[UPSAMPLE_H].in, w = p->axis[UPSAMPLE_W].in;
    const int64_t count = x->th.count[y];
    const bool in_place = row_in_place(x, y);
    int64_t g_plane, o_row;
    row_offsets(x, sc, plane, z, y, &g_plane, &o_row);
    line_feed feed, w_feed;
    line_feed *f = row_feed(x, g_plane, y, 1, false, &feed, &w_feed);
    const row_source hs = {.x = x, .sc = sc, .g_off = g_plane, .first = x->th.first[y], .wt = x->th.wt, .in = h,
                           .idx = y};

    /* 1. Reduce along H: acc = sum of the rows that reach input row y. A row with one source of weight 1
     * (a 1-D upsample's H) is that source: the polyphase split reads it in place, and acc gets only the
     * ends the W pass reads outside the split's stretch. (The H sum's 0.0f start only turns -0.0 into +0.0,
     * which the W sums, starting from 0.0f too, do anyway.) */
    const float *summed = sc->acc;
    if (in_place) {
        float unit;
        summed = h_source(&hs, 0, &unit);
        const int64_t head = x->tw.head_end < len ? x->tw.head_end : len;
        memcpy(sc->acc, summed, (size_t)head * sizeof(float));
        if (x->tw.tail_start < len)
            memcpy(sc->acc + x->tw.tail_start, summed + x->tw.tail_start,
                   (size_t)(len - x->tw.tail_start) * sizeof(float));
    } else {
        reduce_rows(sc, sc->acc, count, len, h_source, &hs, f);
    }

    feed_lines(&w_feed);
    /* 2. Gather along W into the output row. */
    float *dst = x->o.direct && !x->stream ? (float *)x->o.base + o_row : sc->res;
    const int64_t wt = x->tw.taps;
    const float *acc = sc->acc;
    if (vec == 1 && x->tw.stride) {
        gather_w(dst, acc, x->tw.first, x->tw.wt, w, wt, 0, x->tw.x0);
        gather_w_polyphase(dst, summed, len, summed != sc->acc, &x->tw, w, sc->phases);
        gather_w(dst, acc, x->tw.first, x->tw.wt, w, wt, x->tw.x1, w);
    } else if (vec == 1 && x->tw.period) {
        const int64_t a = x->tw.p0, b = a + x->tw.period * x->tw.runs;
        gather_w(dst, acc, x->tw.first, x->tw.wt, w, wt, 0, a);
        (x->tw.period == 2 ? gather_w_sub2 : x->tw.period == 4 ? gather_w_sub4 : gather_w_sub8)(dst, acc, &x->tw, w);
        gather_w(dst, acc, x->tw.first, x->tw.wt, w, wt, b, w);
    } else if (vec == 1) {
        gather_w(dst, acc, x->tw.first, x->tw.wt, w, wt, 0, w);
    } else {
        /* Every tap moves a whole C vector: out[x] = sum_k w * acc[first + k]. */
        const float *ptrs[MAX_ROWS + 1];
        float ww[MAX_ROWS + 1];
        for (int64_t ox = 0; ox < w; ox++) {
            float *d = dst + ox * vec;
            const int64_t cnt = x->tw.count[ox];
            for (int64_t k0 = 0; k0 < cnt || k0 == 0; k0 += MAX_ROWS) {
                int64_t m = 0;
                if (k0 > 0) { /* fold the partial sum in as one more row */
                    ptrs[m] = d;
                    ww[m++] = 1.0f;
                }
                for (int64_t k = k0; k < cnt && k < k0 + MAX_ROWS; k++) {
                    ptrs[m] = acc + (x->tw.first[ox] + k) * vec;
                    ww[m++] = x->tw.wt[k * w + ox];
                }
                combine_rows(d, ptrs, ww, m, vec, NULL);
            }
        }
    }
    row_out(x, dst, sc->acc, o_row, 1);
}

/* Rows y and y + 1 go through pair_pass together: both are x2 rows of half-type gradOut read in place (pair_src),
 * the second's sources two rows on from the first's, with the same weights (an exact x2's interior rows). Their
 * pass is bound by its arithmetic, and a call for two widens two of the six source rows once for both and sets up
 * once: U5 float16 3.49 -> 3.37 and 3.93 -> 3.68 ms, bfloat16 4.03 -> 3.53 and 4.71 -> 4.36 on Zen 4. (float32
 * rows, bound by memory, lost 5 % to the burstier prefetches of two rows.) */
EMU_HOT_INLINE bool pair_twin(const upsample_ctx *x, int64_t y)
{
    const axis_taps *th = &x->th;
    const int64_t in = x->p->axis[UPSAMPLE_H].in;
    if (x->pair_src == PAIR_SRC_F32 || th->count[y] != 4 || th->count[y + 1] != 4 ||
        th->first[y + 1] != th->first[y] + 2)
        return false;
    for (int64_t k = 0; k < 4; k++)
        if (th->wt[k * in + y] != th->wt[k * in + y + 1])
            return false;
    return true;
}

/* Output row y of plane `plane` (slice z with 3 axes), and row y + 1 with it when that is below `end` and the two
 * are twins. Returns the rows done. */
EMU_HOT_INLINE int64_t input_rows(const upsample_ctx *x, upsample_scratch *sc, int64_t plane, int64_t z, int64_t y,
                                  int64_t end)
{
    if (y + 1 < end && pair_twin(x, y)) {
        pair_rows(x, sc, plane, z, y, 2);
        return 2;
    }
    if (row_paired(x, y))
        pair_rows(x, sc, plane, z, y, 1);
    else
        upsample_row(x, sc, plane, z, y);
    return 1;
}

/* How many of slice z's D taps the slice before it (z - 1 of the same plane) read too: they are in cache,
 * the ones after them are fresh. */
static int64_t shared_slices(const axis_taps *td, int64_t z)
{
    const int64_t seen = z > 0 ? td->first[z - 1] + td->count[z - 1] : 0;
    return seen > td->first[z] ? seen - td->first[z] : 0;
}

/* The cache lines of task t's fresh gradOut slices (3 axes, float32 rows one after another). Empty past
 * the last task. */
static line_feed fresh_lines(const upsample_ctx *x, int64_t t)
{
    line_feed f = {0};
    if (t >= x->tasks)
        return f;
    const upsample_plan *p = x->p;
    const int64_t plane = t / x->in_d, z = t % x->in_d, first = x->td.first[z], count = x->td.count[z];
    const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
    const int64_t fresh = shared_slices(&x->td, z);
    const size_t slice = (size_t)(p->axis[UPSAMPLE_H].out * p->axis[UPSAMPLE_W].out * x->vec) * x->item;
    const char *from = x->g.base + (size_t)(n * x->g.s.n + c * x->g.s.c + (first + fresh) * x->g_sd) * x->item;
    f.next = (uintptr_t)from & ~(uintptr_t)63;
    f.end = (uintptr_t)from + slice;
    f.stride = (size_t)x->g_sd * x->item;
    f.streams = count - fresh;
    return f;
}

/* One input slice (3 axes): task t is (n, c, z) channels first, (n, z) channels last. The D pass sums
 * z's gradOut slices row by row into sc->slice, then each input row of z takes its rows from there. */
EMU_HOT static void volume_slice(const upsample_ctx *x, upsample_scratch *sc, int64_t t)
{
    const upsample_plan *p = x->p;
    const int64_t plane = t / x->in_d, z = t % x->in_d, out_h = p->axis[UPSAMPLE_H].out;
    const int64_t len = p->axis[UPSAMPLE_W].out * x->vec;
    const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
    row_source ds = {.x = x, .sc = sc, .g_off = n * x->g.s.n + c * x->g.s.c, .first = x->td.first[z],
                     .wt = x->td.wt, .in = x->in_d, .idx = z};
    const int64_t fresh = shared_slices(&x->td, z); /* slices from `fresh` on are not in cache yet */
    if (x->g.direct && x->g.s.h == len && x->td.count[z] <= MAX_ROWS) {
        /* Float32 slices whose rows follow one another: the D sum is one combine over a run of rows (no
         * per-row calls), summed just before the input rows that read it (the H sums find it in L1). The
         * fresh slices are fed to the prefetcher block by block through the D sums, and a few lines more
         * before each input row: the feed runs ahead while the H and W passes, which ask nothing of memory,
         * compute. (More than MAX_ROWS sources would need a partial sum as long as a run.) */
        const int64_t count = x->td.count[z], h = p->axis[UPSAMPLE_H].in;
        const int64_t row_bytes = len * (int64_t)x->item, fit = D_CHUNK_BYTES / row_bytes, chunk = fit > 1 ? fit : 1;
        const line_feed own = fresh_lines(x, t);
        uintptr_t from = own.next;
        if (sc->fed_task == t && sc->fed_next > from) /* the task before asked for these */
            from = sc->fed_next < own.end ? sc->fed_next : own.end;
        line_feed feed = feed_start((const char *)from, (const char *)own.end, own.stride, own.streams,
                                    (count + 3) / 4, out_h * len);
        /* Before each input row, an even share of the next task's fresh lines when they fit in L2 beside this
         * task's (feed_next): it then starts with its slices in cache, and memory stays busy while the H and W
         * passes compute (V1: 8.5 -> 6.2 ms on the AMD VM). Else a part of this task's own lines. */
        line_feed next = x->feed_next ? fresh_lines(x, t + 1) : (line_feed){0};
        line_feed *row_feed = x->feed_next ? &next : &feed;
        const int64_t per_row = (out_h * row_bytes / 64 + h - 1) / h / (x->feed_next ? 1 : FEED_ROW_SHARE);
        for (int64_t y = 0, done = 0; y < h; y++) {
            const int64_t need = x->th.first[y] + x->th.count[y]; /* rows no input row reads are not summed */
            if (need > done) {
                const int64_t stop = need > done + chunk ? need : done + chunk < out_h ? done + chunk : out_h;
                ds.oh = done;
                reduce_rows(sc, sc->slice + done * len, count, (stop - done) * len, d_source, &ds, &feed);
                done = stop;
            }
            feed_lines_n(row_feed, per_row);
            input_rows(x, sc, plane, z, y, y + 1); /* one row: the D sum reaches row y's sources only */
        }
        sc->fed_task = t + 1;
        sc->fed_next = next.next;
        return;
    }
    const bool prefetch = x->g.contiguous && len * (int64_t)x->item <= PREFETCH_MAX_BYTES;
    /* Rows ahead: PREFETCH_AHEAD_BYTES of the fresh slices. */
    const int64_t step = (x->td.count[z] - fresh) * len * (int64_t)x->item;
    int64_t ahead = step > 0 ? (PREFETCH_AHEAD_BYTES + step - 1) / step : 1;
    ahead = ahead < 2 ? 2 : ahead > PREFETCH_ROWS_MAX ? PREFETCH_ROWS_MAX : ahead;
    for (int64_t oh = 0; oh < out_h; oh++) {
        /* Row oh + ahead of each such slice, in one burst: its loads overlap this row's arithmetic. */
        if (prefetch && oh + ahead < out_h && fresh < x->td.count[z]) {
            const char *row =
                x->g.base + (size_t)(ds.g_off + (ds.first + fresh) * x->g_sd + (oh + ahead) * x->g.s.h) * x->item;
            line_feed rows = {(uintptr_t)row & ~(uintptr_t)63, (uintptr_t)(row + len * (int64_t)x->item),
                              (uintptr_t)x->g_sd * x->item, x->td.count[z] - fresh, 0, false};
            feed_lines_n(&rows, (len * (int64_t)x->item + 127) / 64);
        }
        ds.oh = oh;
        reduce_rows(sc, sc->slice + oh * len, x->td.count[z], len, d_source, &ds, NULL);
    }
    for (int64_t y = 0, h = p->axis[UPSAMPLE_H].in; y < h;)
        y += input_rows(x, sc, plane, z, y, h);
}

/* One task: two input rows (2 axes: (n, c, 2i) and (n, c, 2i + 1), or (n, 2i) and (n, 2i + 1) channels last; one
 * when H is odd and 2i the last) or an input slice (3 axes). */
static void upsample_task(const upsample_ctx *x, upsample_scratch *sc, int64_t t)
{
    const int64_t h = x->p->axis[UPSAMPLE_H].in, pairs = (h + 1) / 2;
    if (x->p->axes == 3) {
        volume_slice(x, sc, t);
        return;
    }
    const bool next = t == sc->task + 1 && sc->task_y + 2 < h; /* the next task of a run: no division */
    sc->task_plane = next ? sc->task_plane : t / pairs;
    sc->task_y = next ? sc->task_y + 2 : 2 * (t % pairs);
    sc->task = t;
    const int64_t end = sc->task_y + 2 < h ? sc->task_y + 2 : h;
    for (int64_t y = sc->task_y; y < end;)
        y += input_rows(x, sc, sc->task_plane, 0, y, end);
}

/* Slots for converted rows along H (hslots) and D: one combine uses at most MAX_ROWS rows, consecutive along
 * each axis (distinct slots), plus room along H for the rows the next output row reuses. Powers of two: a
 * row's slot is then two masks, not two divisions. */
static int64_t pow2_at_least(int64_t n)
{
    int64_t p = 1;
    while (p < n)
        p *= 2;
    return p;
}

static int64_t h_slots(int64_t th)
{
    return pow2_at_least((th < MAX_ROWS ? th : MAX_ROWS) + 4);
}

static int64_t d_slots(const upsample_plan *p, int64_t td)
{
    return p->axes == 3 ? pow2_at_least((td < MAX_ROWS ? td : MAX_ROWS) + 1) : 1;
}

static int64_t all_slots(const upsample_plan *p, int64_t td, int64_t th)
{
    return d_slots(p, td) * h_slots(th);
}

/* Bytes of a thread's row buffers (upsample_scratch's order) for D, H and W taps td, th, tw and polyphase
 * stride. */
static void row_sizes(const upsample_plan *p, int64_t td, int64_t th, int64_t tw, int64_t stride, size_t sizes[7])
{
    const int64_t vec = p->nhwc ? p->c : 1, out_w = p->axis[UPSAMPLE_W].out, row_len = out_w * vec;
    const int64_t slots = all_slots(p, td, th);
    const int64_t slice = p->axes == 3 ? p->axis[UPSAMPLE_H].out * row_len : 0;
    sizes[0] = (size_t)(slots * row_len + slice) * sizeof(float);               /* rows, then the slice */
    sizes[1] = (size_t)slots * sizeof(int64_t);                                 /* tags */
    sizes[2] = (size_t)row_len * sizeof(float);                                 /* part */
    sizes[3] = 2 * (size_t)(row_len + tw + stride + 1) * sizeof(float);         /* acc, acc_twin */
    sizes[4] = 2 * (size_t)(p->axis[UPSAMPLE_W].in * vec) * sizeof(float);      /* res, res_twin */
    sizes[5] = MAX_ROWS * sizeof(float *);                                      /* ptrs */
    sizes[6] = (size_t)(out_w + tw + 2 * stride + 1) * sizeof(float);           /* phases */
}

void upsample_linear_fast_backward_book(const upsample_plan *p, emu_scratch *s)
{
    int64_t taps[UPSAMPLE_MAX_AXES] = {1, 1, 1};
    for (int a = UPSAMPLE_W; a < p->axes; a++) { /* first, count and last per input index; the weights */
        const size_t in = (size_t)p->axis[a].in;
        taps[a] = upsample_taps_most(p, a);
        emu_scratch_book(s, UPSAMPLE_SCRATCH_TABLE + a, 3 * in + 2 * (size_t)taps[a], sizeof(int64_t), false);
        emu_scratch_book(s, UPSAMPLE_SCRATCH_WEIGHTS + a, (size_t)taps[a] * in, sizeof(float), false);
    }
    size_t sizes[7]; /* the polyphase stride is a step between first sources: at most out_w */
    row_sizes(p, taps[UPSAMPLE_D], taps[UPSAMPLE_H], taps[UPSAMPLE_W], p->axis[UPSAMPLE_W].out, sizes);
    for (int i = 0; i < 7; i++)
        emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW + i, sizes[i], 1, true);
}

typedef struct backward_team_ctx {
    upsample_ctx *x;
    const size_t *sizes; /* row_sizes' */
    int64_t tasks;
} backward_team_ctx;

/* One thread's share of the input rows, with its row buffers; 1 when they were not booked. */
static int backward_team(void *arg)
{
    const backward_team_ctx *team = arg;
    upsample_ctx *x = team->x;
    const upsample_plan *p = x->p;
    int missing = 0;
    void *bufs[7];
    for (int i = 0; i < 7; i++)
        missing |= !(bufs[i] = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW + i, team->sizes[i]));
    upsample_scratch sc = {
        .rows = bufs[0], .tags = bufs[1], .slots = all_slots(p, p->axes == 3 ? x->td.taps : 1, x->th.taps),
        .part = bufs[2], .acc = bufs[3], .res = bufs[4], .ptrs = bufs[5], .phases = bufs[6],
    };
    sc.acc_twin = missing ? NULL : sc.acc + team->sizes[3] / 2 / sizeof(float);
    sc.res_twin = missing ? NULL : sc.res + team->sizes[4] / 2 / sizeof(float);
    if (!missing) /* acc's tail past the row stays zero: padded taps and the polyphase split read it */
        memset(sc.acc, 0, team->sizes[3]);
    sc.fed_task = -1;
    sc.plane = sc.task = -1;
    sc.task_y = -2; /* task -1 is (plane 0, rows -2 and -1): task 0 follows it */
    sc.task_plane = 0;
    for (int64_t i = 0; !missing && i < sc.slots; i++)
        sc.tags[i] = -1;
    sc.slice = missing ? NULL : sc.rows + sc.slots * p->axis[UPSAMPLE_W].out * x->vec;
#pragma omp for schedule(dynamic, emu_dynamic_chunk(team->tasks, emu_team_size()))
    for (int64_t t = 0; t < team->tasks; t++)
        if (!missing)
            upsample_task(x, &sc, t);
    emu_stream_fence();
    return missing;
}

int upsample_linear_fast_backward(const emu_view *grad_out, const emu_view *out, const upsample_plan *p,
                                  bool *nonfinite, char *msg, size_t cap)
{
    upsample_ctx x = {.p = p, .dt = grad_out->dtype, .item = emu_view_item_size(grad_out),
                      .f16 = emu_f16_table_for(grad_out->dtype)};
    /* A "row" is one W line; each item of it is `vec` lanes (C in NHWC, 1 in NCHW). */
    x.vec = p->nhwc ? p->c : 1;
    const emu_view g4 = upsample_face_4d(grad_out, p, &x.g_sd), out4 = upsample_face_4d(out, p, &x.o_sd);
    x.g = emu_rows_of(&g4, p->nhwc, x.vec);
    x.o = emu_rows_of(&out4, p->nhwc, x.vec);
    x.stream = emu_rows_stream(&x.o, p->axis[UPSAMPLE_W].in * x.vec, x.o_sd, emu_view_numel(out) * 4);
    x.in_d = p->axes == 3 ? p->axis[UPSAMPLE_D].in : 1;
    /* New gradOut bytes per input row: out_h / h rows of out_w * vec items. */
    const int64_t h_in = p->axis[UPSAMPLE_H].in, h_out = p->axis[UPSAMPLE_H].out;
    const int64_t fresh = (h_out + h_in - 1) / h_in * p->axis[UPSAMPLE_W].out * x.vec * (int64_t)x.item;
    x.ahead = fresh > 0 ? (PREFETCH_AHEAD_BYTES + fresh - 1) / fresh : 1;
    x.ahead = x.ahead > PREFETCH_ROWS_MAX ? PREFETCH_ROWS_MAX : x.ahead;
    const int64_t planes = p->nhwc ? p->n : p->n * p->c;
    const int64_t tasks = planes * (p->axes == 3 ? x.in_d : (p->axis[UPSAMPLE_H].in + 1) / 2);
    if (!taps_build(&x.th, p, UPSAMPLE_H) || !taps_build(&x.tw, p, UPSAMPLE_W) ||
        (p->axes == 3 && !taps_build(&x.td, p, UPSAMPLE_D)))
        return snprintf(msg, cap, "the interpolation weights were not booked"), EMU_KERNEL_ERR_INNER;
    if (x.vec == 1 && p->axis[UPSAMPLE_W].out >= p->axis[UPSAMPLE_W].in)
        x.pair = pair_taps(&x.tw, p->axis[UPSAMPLE_W].in);
    x.pair_src = pair_source(&x, p);
    x.pair.fused = pair_fusable(&x, p);
    x.feed_l1 = x.pair_src != PAIR_SRC_F32;
    if (x.feed_l1 && fresh > 0)
        x.ahead = (PREFETCH_L1_AHEAD_BYTES + fresh - 1) / fresh;
    x.hslots = h_slots(x.th.taps);
    x.dslots = d_slots(p, p->axes == 3 ? x.td.taps : 1);
    size_t sizes[7];
    row_sizes(p, p->axes == 3 ? x.td.taps : 1, x.th.taps, x.tw.taps, x.tw.stride, sizes);
    /* Tiny problems run on the calling worker: waking a thread team costs more. */
    const int64_t rows = planes * x.in_d * p->axis[UPSAMPLE_H].in;
    const int threads = rows * p->axis[UPSAMPLE_W].out * x.vec < 32768 ? 1 : p->threads;
    x.tasks = tasks;
    if (p->axes == 3) { /* live in a core's L2: the task's D-tap slices, the next one's fresh ones, the D sum */
        const int64_t slice = h_out * p->axis[UPSAMPLE_W].out * x.vec * (int64_t)x.item;
        x.feed_next = (2 * x.td.taps + 1) * slice <= (int64_t)emu_machine_caches()->l2;
    }
    backward_team_ctx team = {.x = &x, .sizes = sizes, .tasks = tasks};
    const int missing = emu_parallel(threads, backward_team, &team);
    if (missing)
        return snprintf(msg, cap, "the per-thread row buffers were not booked"), EMU_KERNEL_ERR_INNER;
    *nonfinite = x.nonfinite != 0;
    return 0;
}
