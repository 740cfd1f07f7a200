/*
 * The upsample family's fast forward path: 2 or 3 spatial axes, linear
 * (bilinear, trilinear), the same products and sums as the reference kernel
 * (reference.c), so the same bits.
 *
 * Separable: each input row is first interpolated along W (CANN's W pass,
 * its intermediate), then every output row mixes two of those rows (the H
 * pass): out = wl_h * (wl_w * a + wh_w * b) + wh_h * (wl_w * c + wh_w * d).
 * Each output row is one task; a thread keeps the last two W-interpolated
 * rows, which consecutive output rows share. Results do not depend on the
 * thread count.
 *
 * NCHW: a task is (n, c, oh) and the W pass gathers single values.
 * NHWC: a task is (n, oh) and every tap moves a whole C vector.
 *
 * 3 axes: a task is an output slice (n, c, od), or (n, od) channels last.
 * Each input slice is passed along W and H as above into a slice buffer;
 * the D pass mixes two of those slices row by row, and a thread keeps the
 * last two, which consecutive output slices share.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernel/rows.h"
#include "upsample.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(ACLNN_EMU_NO_CLONES)
#include <immintrin.h>
#define HAVE_AVX2_GATHER 1
/* The NCHW W pass with AVX2 gathers (compilers do not vectorise it): the
 * same products and sums as the scalar loop, so the same bits. */
__attribute__((target("avx2"))) static int64_t w_pass_gather_avx2(float *restrict dst, const float *restrict src,
                                                                    const int32_t *lo, const int32_t *hi,
                                                                    const float *wl, const float *wh, int64_t n)
{
    int64_t o = 0;
    for (; o + 8 <= n; o += 8) {
        const __m256 a = _mm256_i32gather_ps(src, _mm256_loadu_si256((const __m256i *)(lo + o)), 4);
        const __m256 b = _mm256_i32gather_ps(src, _mm256_loadu_si256((const __m256i *)(hi + o)), 4);
        const __m256 r = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(wl + o), a), _mm256_mul_ps(_mm256_loadu_ps(wh + o), b));
        _mm256_storeu_ps(dst + o, r);
    }
    return o;
}

/* The H pass with streaming stores, for outputs far larger than the caches:
 * written once and not read back, so no line is fetched before it is
 * overwritten. Whole lines only, as emu_copy_f32 streams; the partial lines
 * at the row's ends go through the cache. Same products and sums as h_pass. */
__attribute__((target("avx2"))) static void h_pass_stream_avx2(float *restrict dst, const float *restrict r0,
                                                                const float *restrict r1, float wl, float wh,
                                                                int64_t len)
{
    int64_t j = 0;
    for (const int64_t head = emu_line_head(dst, len); j < head; j++)
        dst[j] = wl * r0[j] + wh * r1[j];
    const __m256 l = _mm256_set1_ps(wl), h = _mm256_set1_ps(wh);
    for (; j + EMU_LINE_FLOATS <= len; j += EMU_LINE_FLOATS) {
        _mm256_stream_ps(dst + j, _mm256_add_ps(_mm256_mul_ps(l, _mm256_loadu_ps(r0 + j)),
                                                _mm256_mul_ps(h, _mm256_loadu_ps(r1 + j))));
        _mm256_stream_ps(dst + j + 8, _mm256_add_ps(_mm256_mul_ps(l, _mm256_loadu_ps(r0 + j + 8)),
                                                    _mm256_mul_ps(h, _mm256_loadu_ps(r1 + j + 8))));
    }
    for (; j < len; j++)
        dst[j] = wl * r0[j] + wh * r1[j];
}
#endif

/* The axis' taps (the family's rule) as arrays the W and H passes index, in its booked table. */
static bool map_build(upsample_map *m, const upsample_plan *p, int axis)
{
    const int64_t in = p->axis[axis].in, out = p->axis[axis].out;
    m->lo = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_TABLE + axis, (size_t)out * 16);
    if (!m->lo)
        return false;
    m->hi = m->lo + out;
    m->wl = (float *)(m->hi + out);
    m->wh = m->wl + out;
    for (int64_t i = 0; i < out; i++) {
        const upsample_tap t = upsample_tap_of(p, axis, i);
        m->lo[i] = (int32_t)t.lo;
        m->hi[i] = (int32_t)t.hi;
        m->wl[i] = t.wl;
        m->wh[i] = t.wh;
    }
    upsample_map_period(m, in, out);
    return true;
}

typedef struct resize_ctx {
    const upsample_plan *p;
    bool stream; /* a large float32 output written in place: streaming stores */
    upsample_map md, mh, mw;
    int64_t i_sd, o_sd, in_d; /* 3 axes: D's element strides and input extent (2 axes: 0, 0, 1) */
    aclDataType dt;
    size_t item;
    emu_rows i, o; /* self and out as rows */
    int64_t vec;
    const float *f16;
} resize_ctx;

/* Per-thread scratch: the input row as float32, two W-interpolated rows (tagged), the output row;
 * 3 axes: two input slices passed along W and H (tagged). */
typedef struct resize_scratch {
    float *in_row;
    float *wrow[2];
    int64_t tag[2];
    float *res;
    float *slice[2];
    int64_t slice_tag[2];
} resize_scratch;

/* The periodic stretch of an NCHW W pass: output o0 + s*m + q from input lo[o0 + q] + t*m
 * (same products and sums as the scalar loop). s (the period) and t (the step) are constants
 * in each instance, so the strided reads vectorise. */
static inline void w_pass_periodic(float *restrict dst, const float *restrict src, const upsample_map *mp, int64_t s,
                                   int64_t t)
{
    const int64_t o0 = mp->o0, runs = mp->runs;
    int32_t l0[8], h0[8];
    float wl[8], wh[8];
    for (int64_t q = 0; q < s; q++) {
        l0[q] = mp->lo[o0 + q];
        h0[q] = mp->hi[o0 + q];
        wl[q] = mp->wl[o0 + q];
        wh[q] = mp->wh[o0 + q];
    }
    float *restrict d = dst + o0;
    for (int64_t m = 0; m < runs; m++)
        for (int64_t q = 0; q < s; q++)
            d[s * m + q] = wl[q] * src[l0[q] + t * m] + wh[q] * src[h0[q] + t * m];
}

#define W_PASS_PERIODIC(name, period, step)                                                          \
    EMU_HOT static void name(float *restrict dst, const float *restrict src, const upsample_map *m)      \
    {                                                                                                \
        w_pass_periodic(dst, src, m, period, step);                                                  \
    }
W_PASS_PERIODIC(w_pass_up2, 2, 1)
W_PASS_PERIODIC(w_pass_up4, 4, 1)
W_PASS_PERIODIC(w_pass_up8, 8, 1)
W_PASS_PERIODIC(w_pass_down2, 1, 2)
W_PASS_PERIODIC(w_pass_down4, 1, 4)
W_PASS_PERIODIC(w_pass_down8, 1, 8)

/* The W pass of one input row: dst[ow] (times vec lanes) from src. */
EMU_HOT static void w_pass(float *restrict dst, const float *restrict src, const upsample_map *m, int64_t out_w,
                           int64_t vec)
{
    const int32_t *restrict lo = m->lo, *restrict hi = m->hi;
    const float *restrict wl = m->wl, *restrict wh = m->wh;
    if (vec == 1) {
        /* Gathers before and after the periodic stretch (all of the row when there is none). */
        const int64_t a = m->period ? m->o0 : out_w, b = m->period ? m->o0 + m->period * m->runs : out_w;
        int64_t o = 0;
#ifdef HAVE_AVX2_GATHER
        if (emu_cpu_isa() >= EMU_ISA_AVX2)
            o = w_pass_gather_avx2(dst, src, lo, hi, wl, wh, a);
#endif
        for (; o < a; o++)
            dst[o] = wl[o] * src[lo[o]] + wh[o] * src[hi[o]];
        if (m->period) {
            const int64_t f = m->period > 1 ? m->period : m->step;
            void (*pass)(float *restrict, const float *restrict, const upsample_map *) =
                m->period > 1 ? (f == 2 ? w_pass_up2 : f == 4 ? w_pass_up4 : w_pass_up8)
                              : (f == 2 ? w_pass_down2 : f == 4 ? w_pass_down4 : w_pass_down8);
            pass(dst, src, m);
        }
        for (o = b; o < out_w; o++)
            dst[o] = wl[o] * src[lo[o]] + wh[o] * src[hi[o]];
        return;
    }
    for (int64_t o = 0; o < out_w; o++) {
        const float *restrict a = src + (int64_t)lo[o] * vec, *restrict b = src + (int64_t)hi[o] * vec;
        const float l = wl[o], h = wh[o];
        float *restrict d = dst + o * vec;
        for (int64_t v = 0; v < vec; v++)
            d[v] = l * a[v] + h * b[v];
    }
}

/* The H pass: dst = wl * r0 + wh * r1. */
EMU_HOT static void h_pass(float *restrict dst, const float *restrict r0, const float *restrict r1, float wl, float wh,
                           int64_t len)
{
    for (int64_t j = 0; j < len; j++)
        dst[j] = wl * r0[j] + wh * r1[j];
}

/* Input row y of slice z (0 with 2 axes) of a plane, interpolated along W, from the thread's two-row
 * cache; the slot holding `keep` (the other row in use) is not replaced. */
static const float *w_row(const resize_ctx *x, resize_scratch *sc, int64_t plane, int64_t z, int64_t y,
                          const float *keep)
{
    const upsample_plan *p = x->p;
    const int64_t tag = (plane * x->in_d + z) * p->axis[UPSAMPLE_H].in + y;
    for (int k = 0; k < 2; k++)
        if (sc->tag[k] == tag)
            return sc->wrow[k];
    const int k = sc->wrow[0] == keep ? 1 : sc->wrow[1] == keep ? 0 : sc->tag[0] < sc->tag[1] ? 0 : 1;
    const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
    const int64_t off = emu_row_offset(&x->i, n, c, y) + z * x->i_sd;
    const float *src;
    if (x->i.direct) {
        src = (const float *)x->i.base + off;
    } else {
        emu_load_row(sc->in_row, x->i.base + (size_t)off * x->item, x->dt, p->axis[UPSAMPLE_W].in, x->vec, x->i.s.w,
                     x->i.lane, x->f16);
        src = sc->in_row;
    }
    if (p->axis[UPSAMPLE_W].skip)
        memcpy(sc->wrow[k], src, (size_t)(p->axis[UPSAMPLE_W].out * x->vec) * sizeof(float));
    else
        w_pass(sc->wrow[k], src, &x->mw, p->axis[UPSAMPLE_W].out, x->vec);
    sc->tag[k] = tag;
    return sc->wrow[k];
}

/* One output row: task t is (n, c, oh) in NCHW, (n, oh) in NHWC. */
static void resize_row(const resize_ctx *x, resize_scratch *sc, int64_t t)
{
    const upsample_plan *p = x->p;
    const int64_t out_h = p->axis[UPSAMPLE_H].out, plane = t / out_h, oh = t % out_h;
    const int64_t len = p->axis[UPSAMPLE_W].out * x->vec;
    const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
    const int64_t o_row = emu_row_offset(&x->o, n, c, oh);
    float *dst = x->o.direct ? (float *)x->o.base + o_row : sc->res;
    const float *r0 = w_row(x, sc, plane, 0, x->mh.lo[oh], NULL);
    if (p->axis[UPSAMPLE_H].skip) { /* a 1-D upsample: the W pass is the row (streamed: S1 5.4 -> 3.5-4.2 ms) */
        emu_copy_f32(dst, r0, len, x->stream);
    } else {
        const float *r1 = w_row(x, sc, plane, 0, x->mh.hi[oh], r0);
#ifdef HAVE_AVX2_GATHER
        if (x->stream) {
            h_pass_stream_avx2(dst, r0, r1, x->mh.wl[oh], x->mh.wh[oh], len);
            return;
        }
#endif
        h_pass(dst, r0, r1, x->mh.wl[oh], x->mh.wh[oh], len);
    }
    if (!x->o.direct)
        emu_store_row(x->o.base + (size_t)o_row * x->item, x->dt, sc->res, p->axis[UPSAMPLE_W].out, x->vec, x->o.s.w,
                      x->o.lane);
}

/* Input slice z of a plane passed along W and H (out_h rows of len floats), from the thread's two-slice
 * cache; the slot holding `keep` is not replaced. */
static const float *hw_slice(const resize_ctx *x, resize_scratch *sc, int64_t plane, int64_t z, const float *keep)
{
    const upsample_plan *p = x->p;
    const int64_t tag = plane * x->in_d + z, out_h = p->axis[UPSAMPLE_H].out;
    const int64_t len = p->axis[UPSAMPLE_W].out * x->vec;
    for (int k = 0; k < 2; k++)
        if (sc->slice_tag[k] == tag)
            return sc->slice[k];
    const int k = sc->slice[0] == keep ? 1 : sc->slice[1] == keep ? 0 : sc->slice_tag[0] < sc->slice_tag[1] ? 0 : 1;
    for (int64_t oh = 0; oh < out_h; oh++) {
        float *dst = sc->slice[k] + oh * len;
        const float *r0 = w_row(x, sc, plane, z, x->mh.lo[oh], NULL);
        if (p->axis[UPSAMPLE_H].skip)
            memcpy(dst, r0, (size_t)len * sizeof(float));
        else
            h_pass(dst, r0, w_row(x, sc, plane, z, x->mh.hi[oh], r0), x->mh.wl[oh], x->mh.wh[oh], len);
    }
    sc->slice_tag[k] = tag;
    return sc->slice[k];
}

/* One output slice: task t is (n, c, od) in NCDHW, (n, od) in NDHWC; the D pass, row by row. */
static void resize_slice(const resize_ctx *x, resize_scratch *sc, int64_t t)
{
    const upsample_plan *p = x->p;
    const int64_t out_d = p->axis[UPSAMPLE_D].out, plane = t / out_d, od = t % out_d;
    const int64_t len = p->axis[UPSAMPLE_W].out * x->vec, out_h = p->axis[UPSAMPLE_H].out;
    const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
    const float *s0 = hw_slice(x, sc, plane, x->md.lo[od], NULL);
    const float *s1 = p->axis[UPSAMPLE_D].skip ? s0 : hw_slice(x, sc, plane, x->md.hi[od], s0);
    const float wl = x->md.wl[od], wh = x->md.wh[od];
    for (int64_t oh = 0; oh < out_h; oh++) {
        const int64_t o_row = emu_row_offset(&x->o, n, c, oh) + od * x->o_sd;
        float *dst = x->o.direct ? (float *)x->o.base + o_row : sc->res;
        const float *r0 = s0 + oh * len, *r1 = s1 + oh * len;
        if (p->axis[UPSAMPLE_D].skip)
            emu_copy_f32(dst, r0, len, x->stream);
#ifdef HAVE_AVX2_GATHER
        else if (x->stream) {
            h_pass_stream_avx2(dst, r0, r1, wl, wh, len);
            continue;
        }
#endif
        else
            h_pass(dst, r0, r1, wl, wh, len);
        if (!x->o.direct)
            emu_store_row(x->o.base + (size_t)o_row * x->item, x->dt, sc->res, p->axis[UPSAMPLE_W].out, x->vec,
                          x->o.s.w, x->o.lane);
    }
}

void upsample_linear_fast_forward_book(const upsample_plan *p, emu_scratch *s)
{
    const int64_t vec = p->nhwc ? p->c : 1;
    for (int a = UPSAMPLE_W; a <= UPSAMPLE_H; a++) /* lo, hi (int32), wl, wh (float) per output index */
        emu_scratch_book(s, UPSAMPLE_SCRATCH_TABLE + a, (size_t)p->axis[a].out, 16, false);
    emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW, (size_t)(p->axis[UPSAMPLE_W].in * vec), sizeof(float), true);
    for (int i = 1; i < 4; i++)
        emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW + i, (size_t)(p->axis[UPSAMPLE_W].out * vec), sizeof(float), true);
    if (p->axes == 3) { /* the D table and two slices passed along W and H */
        emu_scratch_book(s, UPSAMPLE_SCRATCH_TABLE + UPSAMPLE_D, (size_t)p->axis[UPSAMPLE_D].out, 16, false);
        const size_t slice = (size_t)(p->axis[UPSAMPLE_H].out * p->axis[UPSAMPLE_W].out * vec);
        emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW + 4, slice, sizeof(float), true);
        emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW + 5, slice, sizeof(float), true);
    }
}

typedef struct forward_team_ctx {
    const resize_ctx *x;
    int64_t tasks;
} forward_team_ctx;

/* One thread's share of the output rows (slices), with its row buffers; 1 when they were not booked. */
static int forward_team(void *arg)
{
    const forward_team_ctx *team = arg;
    const resize_ctx *x = team->x;
    const upsample_plan *p = x->p;
    const upsample_axis *ah = &p->axis[UPSAMPLE_H], *aw = &p->axis[UPSAMPLE_W];
    const bool volume = p->axes == 3;
    const emu_scratch *s = &p->scratch;
    const size_t in_row = (size_t)(aw->in * x->vec) * sizeof(float), row = (size_t)(aw->out * x->vec) * sizeof(float);
    resize_scratch sc = {.in_row = emu_scratch_get(s, UPSAMPLE_SCRATCH_ROW, in_row),
                         .wrow = {emu_scratch_get(s, UPSAMPLE_SCRATCH_ROW + 1, row),
                                  emu_scratch_get(s, UPSAMPLE_SCRATCH_ROW + 2, row)},
                         .tag = {-1, -2},
                         .res = emu_scratch_get(s, UPSAMPLE_SCRATCH_ROW + 3, row),
                         .slice_tag = {-1, -2}};
    int missing = !sc.in_row || !sc.wrow[0] || !sc.wrow[1] || !sc.res;
    if (volume) {
        const size_t slice = (size_t)ah->out * row;
        sc.slice[0] = emu_scratch_get(s, UPSAMPLE_SCRATCH_ROW + 4, slice);
        sc.slice[1] = emu_scratch_get(s, UPSAMPLE_SCRATCH_ROW + 5, slice);
        missing |= !sc.slice[0] || !sc.slice[1];
    }
#pragma omp for schedule(dynamic, emu_dynamic_chunk(team->tasks, emu_team_size()))
    for (int64_t t = 0; t < team->tasks; t++)
        if (!missing)
            (volume ? resize_slice : resize_row)(x, &sc, t);
    if (x->stream)
        emu_stream_fence(); /* order this thread's streaming stores before the stream reports completion */
    return missing;
}

int upsample_linear_fast_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg,
                                 size_t cap)
{
    const upsample_axis *ad = &p->axis[UPSAMPLE_D], *ah = &p->axis[UPSAMPLE_H], *aw = &p->axis[UPSAMPLE_W];
    const bool volume = p->axes == 3;
    resize_ctx x = {.p = p, .dt = in->dtype, .item = emu_view_item_size(in), .f16 = emu_f16_table_for(in->dtype)};
    x.vec = p->nhwc ? p->c : 1;
    const emu_view in4 = upsample_face_4d(in, p, &x.i_sd), out4 = upsample_face_4d(out, p, &x.o_sd);
    x.in_d = volume ? ad->in : 1;
    x.i = emu_rows_of(&in4, p->nhwc, x.vec);
    x.o = emu_rows_of(&out4, p->nhwc, x.vec);
#ifdef HAVE_AVX2_GATHER
    /* Beyond 32 MiB the output cannot stay in any cache: stream it (the threads' end of work fences the stores). */
    x.stream = emu_rows_stream(&x.o, p->axis[UPSAMPLE_W].out * x.vec, x.o_sd, emu_view_numel(out) * 4) &&
               emu_cpu_isa() >= EMU_ISA_AVX2;
#endif
    const int64_t planes = p->nhwc ? p->n : p->n * p->c, tasks = planes * (volume ? ad->out : ah->out);
    if (!map_build(&x.mh, p, UPSAMPLE_H) || !map_build(&x.mw, p, UPSAMPLE_W) ||
        (volume && !map_build(&x.md, p, UPSAMPLE_D)))
        return snprintf(msg, cap, "the interpolation tables were not booked"), EMU_KERNEL_ERR_INNER;
    /* Tiny problems run on the calling worker: waking a thread team costs more. */
    const int threads = tasks * (volume ? ah->out : 1) * aw->out * x.vec < 32768 ? 1 : p->threads;
    forward_team_ctx team = {.x = &x, .tasks = tasks};
    const int missing = emu_parallel(threads, forward_team, &team);
    if (missing)
        return snprintf(msg, cap, "the per-thread row buffers were not booked"), EMU_KERNEL_ERR_INNER;
    return 0;
}
