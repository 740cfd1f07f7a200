/*
 * Upsample bilinear 2-D forward kernel, as CANN's kernels compute it in float32.
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
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernel/rows.h"
#include "upsample_bilinear2d.h"

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
 * overwritten. Same products and sums as h_pass. */
__attribute__((target("avx2"))) static void h_pass_stream_avx2(float *restrict dst, const float *restrict r0,
                                                                const float *restrict r1, float wl, float wh,
                                                                int64_t len)
{
    int64_t j = 0;
    for (; j < len && ((uintptr_t)(dst + j) & 31) != 0; j++)
        dst[j] = wl * r0[j] + wh * r1[j];
    const __m256 l = _mm256_set1_ps(wl), h = _mm256_set1_ps(wh);
    for (; j + 8 <= len; j += 8)
        _mm256_stream_ps(dst + j, _mm256_add_ps(_mm256_mul_ps(l, _mm256_loadu_ps(r0 + j)),
                                                _mm256_mul_ps(h, _mm256_loadu_ps(r1 + j))));
    for (; j < len; j++)
        dst[j] = wl * r0[j] + wh * r1[j];
}
#endif

/* Per output index of one axis: the two source indices and their weights. */
typedef struct axis_map {
    int32_t *lo, *hi;
    float *wl, *wh;
    /* Integer factors: on [o0, o0 + period * runs) output o + period reads lo + step and hi + step
     * with the same weights as o (upscaling by s: period s, step 1; downscaling by s: period 1,
     * step s), so the W pass there reads the input at a constant stride (no gathers). */
    int64_t period, step, o0, runs;
} axis_map;

static void map_free(axis_map *m)
{
    free(m->lo);
    free(m->hi);
    free(m->wl);
    free(m->wh);
}

/* Output b + period reads step inputs further on than output b, with the same weights. */
static bool map_repeats(const void *ctx, int64_t b)
{
    const axis_map *m = ctx;
    const int64_t p = m->period, s = m->step;
    return m->lo[b + p] == m->lo[b] + s && m->hi[b + p] == m->hi[b] + s && m->wl[b + p] == m->wl[b] &&
           m->wh[b + p] == m->wh[b];
}

/* The longest stretch where the map repeats every `period` outputs, `step` inputs on, for an
 * integer factor of 2, 4 or 8 (upscaling: period out / in, step 1; downscaling: period 1,
 * step in / out). */
static void find_period(axis_map *m, int64_t in, int64_t out)
{
    m->period = m->step = m->o0 = m->runs = 0;
    const int64_t up = in > 0 && out % in == 0 ? out / in : 0, down = out > 0 && in % out == 0 ? in / out : 0;
    const int64_t s = up == 2 || up == 4 || up == 8 ? 1 : down == 2 || down == 4 || down == 8 ? down : 0;
    if (!s)
        return;
    /* emu_longest_repeat reads the candidate period and step from the map. */
    m->period = s == 1 ? up : 1;
    m->step = s;
    const int64_t len = emu_longest_repeat(out, m->period, map_repeats, m, &m->o0);
    if (len >= 4 * m->period) {
        m->runs = len / m->period;
    } else {
        m->period = m->step = m->o0 = 0;
    }
}

/* getCenterValue / getLambda of the AscendC kernel (the TBE kernel's
 * calcu_out_in_idx gives the same): the source coordinate in float32, its
 * floor and the clamped next index; one weight of 1 at the last index. */
static bool map_build(axis_map *m, int64_t in, int64_t out, float ratio, bool align_corners, bool skip)
{
    m->lo = malloc((size_t)out * sizeof *m->lo);
    m->hi = malloc((size_t)out * sizeof *m->hi);
    m->wl = malloc((size_t)out * sizeof *m->wl);
    m->wh = malloc((size_t)out * sizeof *m->wh);
    if (!m->lo || !m->hi || !m->wl || !m->wh)
        return false;
    for (int64_t i = 0; i < out; i++) {
        int64_t lo;
        float lambda = 0.0f;
        if (skip) { /* the kernel skips this pass: a plain copy */
            lo = i < in ? i : in - 1;
        } else {
            float c = align_corners ? ratio * (float)i : ratio * ((float)i + 0.5f) - 0.5f;
            if (!(c > 0.0f))
                c = 0.0f;
            lo = c < (float)(in - 1) ? (int64_t)c : in - 1;
            if (lo < in - 1) {
                lambda = c - (float)lo;
                lambda = lambda < 0.0f ? 0.0f : lambda > 1.0f ? 1.0f : lambda;
            }
        }
        m->lo[i] = (int32_t)lo;
        m->hi[i] = (int32_t)(lo < in - 1 ? lo + 1 : lo);
        m->wl[i] = 1.0f - lambda;
        m->wh[i] = lambda;
    }
    find_period(m, in, out);
    return true;
}

typedef struct resize_ctx {
    const resize_plan *p;
    bool stream; /* a large float32 output written in place: streaming stores */
    axis_map mh, mw;
    aclDataType dt;
    size_t item;
    emu_rows i, o; /* self and out as rows */
    int64_t vec;
    const float *f16;
} resize_ctx;

/* Per-thread scratch: the input row as float32, two W-interpolated rows (tagged), the output row. */
typedef struct resize_scratch {
    float *in_row;
    float *wrow[2];
    int64_t tag[2];
    float *res;
} resize_scratch;

/* The periodic stretch of an NCHW W pass: output o0 + s*m + q from input lo[o0 + q] + t*m
 * (same products and sums as the scalar loop). s (the period) and t (the step) are constants
 * in each instance, so the strided reads vectorise. */
static inline void w_pass_periodic(float *restrict dst, const float *restrict src, const axis_map *mp, int64_t s,
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
    EMU_HOT static void name(float *restrict dst, const float *restrict src, const axis_map *m)      \
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
EMU_HOT static void w_pass(float *restrict dst, const float *restrict src, const axis_map *m, int64_t out_w,
                           int64_t vec)
{
    const int32_t *restrict lo = m->lo, *restrict hi = m->hi;
    const float *restrict wl = m->wl, *restrict wh = m->wh;
    if (vec == 1) {
        /* Gathers before and after the periodic stretch (all of the row when there is none). */
        const int64_t a = m->period ? m->o0 : out_w, b = m->period ? m->o0 + m->period * m->runs : out_w;
        int64_t o = 0;
#ifdef HAVE_AVX2_GATHER
        if (__builtin_cpu_supports("avx2"))
            o = w_pass_gather_avx2(dst, src, lo, hi, wl, wh, a);
#endif
        for (; o < a; o++)
            dst[o] = wl[o] * src[lo[o]] + wh[o] * src[hi[o]];
        if (m->period) {
            const int64_t f = m->period > 1 ? m->period : m->step;
            void (*pass)(float *restrict, const float *restrict, const axis_map *) =
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

/* Input row y of a plane, interpolated along W, from the thread's two-row
 * cache; the slot holding `keep` (the other row in use) is not replaced. */
static const float *w_row(const resize_ctx *x, resize_scratch *sc, int64_t plane, int64_t y, const float *keep)
{
    const resize_plan *p = x->p;
    const int64_t tag = plane * p->h + y;
    for (int k = 0; k < 2; k++)
        if (sc->tag[k] == tag)
            return sc->wrow[k];
    const int k = sc->wrow[0] == keep ? 1 : sc->wrow[1] == keep ? 0 : sc->tag[0] < sc->tag[1] ? 0 : 1;
    const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
    const int64_t off = emu_row_offset(&x->i, n, c, y);
    const float *src;
    if (x->i.direct) {
        src = (const float *)x->i.base + off;
    } else {
        emu_load_row(sc->in_row, x->i.base + (size_t)off * x->item, x->dt, p->w, x->vec, x->i.s.w, x->i.lane, x->f16);
        src = sc->in_row;
    }
    if (p->skip_w)
        memcpy(sc->wrow[k], src, (size_t)(p->out_w * x->vec) * sizeof(float));
    else
        w_pass(sc->wrow[k], src, &x->mw, p->out_w, x->vec);
    sc->tag[k] = tag;
    return sc->wrow[k];
}

/* One output row: task t is (n, c, oh) in NCHW, (n, oh) in NHWC. */
static void resize_row(const resize_ctx *x, resize_scratch *sc, int64_t t)
{
    const resize_plan *p = x->p;
    const int64_t plane = t / p->out_h, oh = t % p->out_h, len = p->out_w * x->vec;
    const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
    const int64_t o_row = emu_row_offset(&x->o, n, c, oh);
    float *dst = x->o.direct ? (float *)x->o.base + o_row : sc->res;
    const float *r0 = w_row(x, sc, plane, x->mh.lo[oh], NULL);
    if (p->skip_h) {
        memcpy(dst, r0, (size_t)len * sizeof(float));
    } else {
        const float *r1 = w_row(x, sc, plane, x->mh.hi[oh], r0);
#ifdef HAVE_AVX2_GATHER
        if (x->stream) {
            h_pass_stream_avx2(dst, r0, r1, x->mh.wl[oh], x->mh.wh[oh], len);
            return;
        }
#endif
        h_pass(dst, r0, r1, x->mh.wl[oh], x->mh.wh[oh], len);
    }
    if (!x->o.direct)
        emu_store_row(x->o.base + (size_t)o_row * x->item, x->dt, sc->res, p->out_w, x->vec, x->o.s.w, x->o.lane);
}

/* The equal-size path: out is self, converted element by element (a ViewCopy). */
static void copy_row(const resize_ctx *x, resize_scratch *sc, int64_t t)
{
    const resize_plan *p = x->p;
    const int64_t plane = t / p->out_h, y = t % p->out_h;
    const int64_t n = p->nhwc ? plane : plane / p->c, c = p->nhwc ? 0 : plane % p->c;
    const int64_t i_off = emu_row_offset(&x->i, n, c, y), o_off = emu_row_offset(&x->o, n, c, y);
    if (x->dt == ACL_DOUBLE) { /* no float32 round trip */
        for (int64_t j = 0; j < p->w; j++)
            for (int64_t v = 0; v < x->vec; v++)
                ((double *)x->o.base)[o_off + j * x->o.s.w + v * x->o.lane] =
                    ((const double *)x->i.base)[i_off + j * x->i.s.w + v * x->i.lane];
        return;
    }
    emu_load_row(sc->in_row, x->i.base + (size_t)i_off * x->item, x->dt, p->w, x->vec, x->i.s.w, x->i.lane, x->f16);
    emu_store_row(x->o.base + (size_t)o_off * x->item, x->dt, sc->in_row, p->w, x->vec, x->o.s.w, x->o.lane);
}

/* ---- non-finite input on the UpsampleBilinear2d path: CANN's cube tiles ----
 * The AscendC kernel multiplies each output tile by its whole source window
 * on the cube, zero weights included: an Inf or NaN anywhere in a window
 * makes the whole tile non-finite, also where the bilinear weights skip it
 * (a 4x downscale never weighs rows 4j and 4j+3). Finite values cannot change
 * a non-finite sum, so only the non-finite input (finite values as 0) goes
 * through CANN's W then H pass, and the outputs it makes non-finite are
 * overwritten; the others keep the kernel's bits. Tiles and windows follow
 * ops-cv's upsample_bilinear2d tiling and kernel (910B). */

/* getSlideSizeByScale: the largest of 16..128 that keeps the most cores busy, capped by the scale. The
 * W pass splits a tile's rows (N*C*H, at least a slide's worth per core) among spare cores, the H pass
 * its planes (N*C). */
static int64_t cube_slide(int64_t out, int64_t rows, bool w_pass, float s, int64_t cores, bool one_pixel)
{
    static const int64_t sizes[] = {16, 32, 48, 64, 128};
    int64_t best = sizes[0], most = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const int64_t slide = sizes[i], tiles = (out + slide - 1) / slide;
        int64_t need = cores;
        if (tiles < cores) {
            const int64_t groups = cores / tiles;
            int64_t per = (rows + groups - 1) / groups;
            per = w_pass && per < slide ? slide : per;
            const int64_t used = (rows + per - 1) / per < groups ? (rows + per - 1) / per : groups;
            need = tiles * used < cores ? tiles * used : cores;
        }
        if (need >= most) {
            most = need;
            best = slide;
        }
    }
    if (one_pixel)
        best = 1024;
    const int64_t cap = s <= 1.0f ? 128 : s <= 5.0f ? 64 : s <= 8.0f ? 48 : s <= 20.0f ? 32 : 16;
    return best < cap ? best : cap;
}

/* The source coordinate of output j, as map_build computes it: the window's bounds need it past the
 * outputs too (whole tiles' phantom ones). */
static float cube_center(int64_t j, float s, bool align)
{
    float c = align ? s * (float)j : s * ((float)j + 0.5f) - 0.5f;
    return c > 0.0f ? c : 0.0f;
}

/* One axis pass over a line (in values, stride si) into out values (stride so): each output's
 * weights are the kernel's own map m; the window also spans the zeros in between. */
static void cube_pass(const float *src, int64_t si, int64_t in, float *dst, int64_t so, int64_t out,
                      const axis_map *m, float s, bool align, int64_t slide, int64_t cores)
{
    const int64_t tiles = (out + slide - 1) / slide, whole = tiles / cores * cores;
    for (int64_t t = 0; t < tiles; t++) {
        const int64_t t0 = t * slide;
        /* Whole-slide tiles keep their length past the end (their window is the phantom outputs' too). */
        const int64_t len = t < whole ? slide : (out - t0 < slide ? out - t0 : slide);
        const int64_t lo = (int64_t)cube_center(t0, s, align), hi = (int64_t)cube_center(t0 + len - 1, s, align);
        const int64_t lo_c = lo < in ? lo : in - 1;
        int64_t tail = (hi + 2 < in ? hi + 2 : in) - hi;
        tail = tail < 0 ? 0 : tail > 2 ? 2 : tail;
        int64_t k = hi - lo + tail;
        k = k > 1 ? k : 1;
        k = k < in - lo_c ? k : in - lo_c;
        for (int64_t j = t0; j < t0 + len && j < out; j++) {
            float acc = 0.0f;
            for (int64_t i = lo_c; i < lo_c + k; i++) {
                const float w = i == m->lo[j] ? m->wl[j] : i == m->hi[j] ? m->wh[j] : 0.0f;
                acc += src[i * si] * w;
            }
            dst[j * so] = acc;
        }
    }
}

/* Whether the input holds an Inf or NaN (only then does the cube's view differ from the kernel's). */
static bool any_nonfinite(const resize_ctx *x)
{
    const resize_plan *p = x->p;
    int found = 0;
#pragma omp parallel for schedule(static) reduction(| : found) num_threads(emu_kernel_threads())
    for (int64_t r = 0; r < p->n * p->c * p->h; r++) {
        const int64_t n = r / (p->c * p->h), c = r / p->h % p->c, y = r % p->h;
        uint32_t carry = 0; /* as emu_row_finite, over a strided row of any dtype */
        for (int64_t xx = 0; xx < p->w; xx++) {
            const float v = emu_load_one(x->i.base, x->dt, n * x->i.s.n + c * x->i.s.c + y * x->i.s.h + xx * x->i.s.w,
                                         x->f16);
            uint32_t bits;
            memcpy(&bits, &v, sizeof bits);
            carry |= (bits & 0x7f800000u) + 0x00800000u;
        }
        found |= (carry & 0x80000000u) != 0;
    }
    return found;
}

/* Rewrites the outputs that CANN's cube tiles make non-finite. 0, or a status. */
static int cube_nonfinite(const resize_ctx *x)
{
    const resize_plan *p = x->p;
    const int64_t h = p->h, w = p->w, oh = p->out_h, ow = p->out_w, cores = p->cube_cores > 0 ? p->cube_cores : 1;
    const bool one_pixel = h == 1 && w == 1;
    const int64_t slide_w = cube_slide(ow, p->n * p->c * h, true, p->ratio_w, cores, one_pixel);
    const int64_t slide_h = cube_slide(oh, p->n * p->c, false, p->ratio_h, cores, one_pixel);
    float *in = malloc((size_t)(h * w) * sizeof *in), *mid = malloc((size_t)(h * ow) * sizeof *mid);
    float *res = malloc((size_t)(oh * ow) * sizeof *res);
    int status = in && mid && res ? 0 : EMU_KERNEL_ERR_INNER;
    for (int64_t plane = 0; !status && plane < p->n * p->c; plane++) {
        const int64_t n = plane / p->c, c = plane % p->c;
        if (!emu_plane_nonfinite(&x->i, x->dt, x->f16, n, c, h, w, in))
            continue;
        for (int64_t y = 0; y < h; y++) /* the W pass, row by row */
            if (p->skip_w)
                for (int64_t xx = 0; xx < ow; xx++)
                    mid[y * ow + xx] = in[y * w + (xx < w ? xx : w - 1)];
            else
                cube_pass(in + y * w, 1, w, mid + y * ow, 1, ow, &x->mw, p->ratio_w, p->align_corners, slide_w, cores);
        for (int64_t xx = 0; xx < ow; xx++) /* the H pass, column by column */
            if (p->skip_h)
                for (int64_t y = 0; y < oh; y++)
                    res[y * ow + xx] = mid[(y < h ? y : h - 1) * ow + xx];
            else
                cube_pass(mid + xx, ow, h, res + xx, ow, oh, &x->mh, p->ratio_h, p->align_corners, slide_h, cores);
        emu_plane_store_nonfinite(&x->o, x->dt, n, c, res, oh, ow);
    }
    free(in);
    free(mid);
    free(res);
    return status;
}

int upsample_bilinear2d_kernel(const emu_view *self, const emu_view *out, const resize_plan *p, char *msg,
                               size_t cap)
{
    if (emu_view_numel(self) == 0 || emu_view_numel(out) == 0)
        return 0;
    resize_ctx x = {.p = p, .dt = self->dtype, .item = emu_view_item_size(self), .f16 = emu_f16_table()};
    x.vec = p->nhwc ? p->c : 1;
    x.i = emu_rows_of(self, p->nhwc, x.vec);
    x.o = emu_rows_of(out, p->nhwc, x.vec);
    const bool copy = p->path == RESIZE_PATH_COPY;
#ifdef HAVE_AVX2_GATHER
    /* Beyond 32 MiB the output cannot stay in any cache: stream it (the threads' end of work fences the stores). */
    x.stream = x.o.direct && emu_view_numel(out) * 4 >= EMU_STREAM_BYTES && __builtin_cpu_supports("avx2");
#endif
    const int64_t planes = p->nhwc ? p->n : p->n * p->c, tasks = planes * p->out_h;

    int status = 0;
    if (!copy && (!map_build(&x.mh, p->h, p->out_h, p->ratio_h, p->align_corners, p->skip_h) ||
                  !map_build(&x.mw, p->w, p->out_w, p->ratio_w, p->align_corners, p->skip_w))) {
        snprintf(msg, cap, "out of memory building the interpolation weights");
        status = EMU_KERNEL_ERR_INNER;
        goto done;
    }
    const int64_t in_len = p->w * x.vec, out_len = p->out_w * x.vec;
    /* Tiny problems run on the calling worker: waking a thread team costs more. */
    const int threads = tasks * out_len < 32768 ? 1 : emu_kernel_threads();
    (void)threads; /* unused when built without OpenMP */

#pragma omp parallel num_threads(threads)
    {
        const size_t row = (size_t)out_len * sizeof(float), sizes[] = {(size_t)in_len * sizeof(float), row, row, row};
        void *bufs[4] = {0};
        void *block = emu_scratch_alloc(sizes, bufs, 4);
        resize_scratch sc = {.in_row = bufs[0], .wrow = {bufs[1], bufs[2]}, .tag = {-1, -2}, .res = bufs[3]};
        const bool ok = block != NULL;
        if (!ok) {
#pragma omp atomic write
            status = EMU_KERNEL_ERR_INNER;
        }
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tasks; t++)
            if (ok)
                (copy ? copy_row : resize_row)(&x, &sc, t);
        if (x.stream)
            emu_stream_fence(); /* order this thread's streaming stores before the stream reports completion */
        free(block);
    }
    if (status)
        snprintf(msg, cap, "out of memory for the per-thread row buffers");
    else if (p->path == RESIZE_PATH_UPSAMPLE && any_nonfinite(&x) && (status = cube_nonfinite(&x)) != 0)
        snprintf(msg, cap, "out of memory for the non-finite input pass");
done:
    if (!copy) {
        map_free(&x.mh);
        map_free(&x.mw);
    }
    return status;
}
