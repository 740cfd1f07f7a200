/*
 * CANN's cube tiles on the AscendC kernels (UpsampleBilinear2d and
 * UpsampleBilinear2dGrad), for inputs that hold an Inf or NaN.
 *
 * Those kernels multiply each output tile by its whole source window on the
 * cube, zero weights included: an Inf or NaN anywhere in a window makes the
 * whole tile non-finite, also where the bilinear weights skip it (a 4x
 * downscale never weighs rows 4j and 4j+3; Inf * 0 is NaN). Finite values
 * cannot change a non-finite sum, so only the non-finite values (finite ones
 * as 0) go through CANN's W then H pass here, and the outputs they make
 * non-finite are overwritten; every other output keeps the kernel's bits.
 * Tiles and windows follow ops-cv's upsample_bilinear2d and
 * upsample_bilinear2d_grad tilings and kernels (910B).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernel/rows.h"
#include "upsample.h"

/* ---- the forward: tiles of a slide the tiling chooses ---- */

/* getSlideSizeByScale: the largest of 16..128 that keeps the most cores busy, capped by the scale. The
 * W pass splits a tile's rows (N*C*H, at least a slide's worth per core) among spare cores, the H pass
 * its planes (N*C). */
static int64_t forward_slide(int64_t out, int64_t rows, bool w_pass, float s, int64_t cores, bool one_pixel)
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

/* The source coordinate of output j as the tap rule computes it (unclamped at the end): a window's
 * bounds need it past the outputs too (whole tiles' phantom ones). */
static float forward_center(int64_t j, float s, bool align)
{
    float c = align ? s * (float)j : s * ((float)j + 0.5f) - 0.5f;
    return c > 0.0f ? c : 0.0f;
}

/* One forward axis pass over a line (in values, stride si) into out values (stride so): each
 * output's weights are its taps; the window also spans the zeros in between. */
static void forward_pass(const float *src, int64_t si, float *dst, int64_t so, const upsample_plan *p, int axis,
                         int64_t slide, int64_t cores)
{
    const upsample_axis *a = &p->axis[axis];
    const int64_t in = a->in, out = a->out, tiles = (out + slide - 1) / slide, whole = tiles / cores * cores;
    if (a->skip) {
        for (int64_t j = 0; j < out; j++)
            dst[j * so] = src[(j < in ? j : in - 1) * si];
        return;
    }
    for (int64_t t = 0; t < tiles; t++) {
        const int64_t t0 = t * slide;
        /* Whole-slide tiles keep their length past the end (their window is the phantom outputs' too). */
        const int64_t len = t < whole ? slide : (out - t0 < slide ? out - t0 : slide);
        const int64_t lo = (int64_t)forward_center(t0, a->ratio, p->align_corners);
        const int64_t hi = (int64_t)forward_center(t0 + len - 1, a->ratio, p->align_corners);
        const int64_t lo_c = lo < in ? lo : in - 1;
        int64_t tail = (hi + 2 < in ? hi + 2 : in) - hi;
        tail = tail < 0 ? 0 : tail > 2 ? 2 : tail;
        int64_t k = hi - lo + tail;
        k = k > 1 ? k : 1;
        k = k < in - lo_c ? k : in - lo_c;
        for (int64_t j = t0; j < t0 + len && j < out; j++) {
            const upsample_tap tp = upsample_tap_of(p, axis, j);
            float acc = 0.0f;
            for (int64_t i = lo_c; i < lo_c + k; i++)
                acc += src[i * si] * (i == tp.lo ? tp.wl : i == tp.hi ? tp.wh : 0.0f);
            dst[j * so] = acc;
        }
    }
}

/* ---- the gradient: tiles of 16 and a queue of sources ----
 * The tile's window is the tiling's: sources c from max(0, (int)((T-2)/s) - 1), at most
 * ceil8(max over axes of (int)(20/s) + 8) of them, whose floor index lies in [T-1, T+len-1].
 * (A tile no source reaches multiplies one stale source by 0 on the NPU; not modelled: it stays 0.) */
#define GRAD_TILE 16

/* Floor index and weight of source c along an axis, as the tap rule computes them (no clamp at the end). */
static void grad_source(int64_t c, float s, bool align, int64_t *x0, float *lambda)
{
    float r = align ? (float)c * s : ((float)c + 0.5f) * s - 0.5f;
    if (!align && !(r > 0.0f))
        r = 0.0f;
    const float f = floorf(r);
    *x0 = f < 9.0e18f ? (int64_t)f : INT64_MAX;
    *lambda = r - f;
}

/* One gradient axis pass over a line of `in` values (stride si) into `out` values (stride so): each
 * tile's outputs are the IEEE sum of window * weights. Here in and out are the gradient's (gradOut's
 * size in, the forward input's out). */
static void grad_pass(const float *src, int64_t si, int64_t in, float *dst, int64_t so, int64_t out,
                      const upsample_axis *a, bool align, int64_t queue)
{
    if (a->skip) {
        for (int64_t j = 0; j < out; j++)
            dst[j * so] = j < in ? src[j * si] : 0.0f;
        return;
    }
    const float s = a->ratio, step = s != 0.0f ? s : (float)out / (float)in; /* the kernel's zeroScale */
    for (int64_t t0 = 0; t0 < out; t0 += GRAD_TILE) {
        const int64_t len = out - t0 < GRAD_TILE ? out - t0 : GRAD_TILE;
        int64_t start = (int64_t)((float)(t0 - 2) / step) - 1;
        start = start > 0 ? start : 0;
        for (int64_t j = 0; j < len; j++)
            dst[(t0 + j) * so] = 0.0f;
        bool started = false;
        for (int64_t c = start; c < in && c < start + queue; c++) {
            int64_t x0;
            float lambda;
            grad_source(c, s, align, &x0, &lambda);
            if (x0 >= t0 + len)
                break;
            if (x0 < t0 - 1 && !started)
                continue;
            started = true;
            for (int64_t j = 0; j < len; j++) {
                const int64_t col = t0 + j;
                float wgt = 0.0f;
                if (x0 == t0 - 1)
                    wgt = col == t0 ? lambda : 0.0f;
                else if (x0 == t0 + len - 1)
                    wgt = col == x0 ? (x0 == out - 1 ? 1.0f : 1.0f - lambda) : 0.0f;
                else
                    wgt = col == x0 ? 1.0f - lambda : col == x0 + 1 ? lambda : 0.0f;
                dst[col * so] += src[c * si] * wgt;
            }
        }
    }
}

/* Both directions: every plane of src holding a non-finite value, through the W then the H pass. */
static void cube(const emu_view *src, const emu_view *dst, const upsample_plan *p, float *in)
{
    const upsample_axis *aw = &p->axis[UPSAMPLE_W], *ah = &p->axis[UPSAMPLE_H];
    /* (rows, cols) of the source plane, the W-passed plane, the result */
    const int64_t sh = p->backward ? ah->out : ah->in, sw = p->backward ? aw->out : aw->in;
    const int64_t dh = p->backward ? ah->in : ah->out, dw = p->backward ? aw->in : aw->out;
    const emu_rows r_src = emu_rows_of(src, p->nhwc, 1), r_dst = emu_rows_of(dst, p->nhwc, 1);
    const float *f16 = emu_f16_table_for(src->dtype);
    const int64_t cores = p->cube_cores > 0 ? p->cube_cores : 1;
    const bool one_pixel = ah->in == 1 && aw->in == 1;
    const int64_t slide_w = forward_slide(aw->out, p->n * p->c * ah->in, true, aw->ratio, cores, one_pixel);
    const int64_t slide_h = forward_slide(ah->out, p->n * p->c, false, ah->ratio, cores, one_pixel);
    const float qw = aw->ratio != 0.0f ? aw->ratio : (float)aw->in / (float)aw->out;
    const float qh = ah->ratio != 0.0f ? ah->ratio : (float)ah->in / (float)ah->out;
    int64_t queue = (int64_t)(20.0f / qw) + 8;
    queue = (int64_t)(20.0f / qh) + 8 > queue ? (int64_t)(20.0f / qh) + 8 : queue;
    queue = (queue + 7) / 8 * 8;
    float *mid = in + sh * sw, *res = mid + sh * dw;
    for (int64_t plane = 0; plane < p->n * p->c; plane++) {
        const int64_t n = plane / p->c, c = plane % p->c;
        if (!emu_plane_nonfinite(&r_src, src->dtype, f16, n, c, sh, sw, in))
            continue;
        for (int64_t y = 0; y < sh; y++) /* the W pass, row by row */
            if (p->backward)
                grad_pass(in + y * sw, 1, sw, mid + y * dw, 1, dw, aw, p->align_corners, queue);
            else
                forward_pass(in + y * sw, 1, mid + y * dw, 1, p, UPSAMPLE_W, slide_w, cores);
        for (int64_t x = 0; x < dw; x++) /* the H pass, column by column */
            if (p->backward)
                grad_pass(mid + x, dw, sh, res + x, dw, dh, ah, p->align_corners, queue);
            else
                forward_pass(mid + x, dw, res + x, dw, p, UPSAMPLE_H, slide_h, cores);
        emu_plane_store_nonfinite(&r_dst, dst->dtype, n, c, res, dh, dw);
    }
}

/* Whether the view holds an Inf or NaN (only then does the cube's view differ from the kernel's). */
static bool any_nonfinite(const emu_view *v, const upsample_plan *p)
{
    const emu_rows r = emu_rows_of(v, p->nhwc, 1);
    const float *f16 = emu_f16_table_for(v->dtype);
    const int64_t h = p->axis[UPSAMPLE_H].in, w = p->axis[UPSAMPLE_W].in;
    int found = 0;
#pragma omp parallel for schedule(static) reduction(| : found) num_threads(p->threads)
    for (int64_t row = 0; row < p->n * p->c * h; row++) {
        const int64_t n = row / (p->c * h), c = row / h % p->c, y = row % h;
        uint32_t carry = 0; /* as emu_row_finite, over a strided row of any dtype */
        for (int64_t x = 0; x < w; x++) {
            const float val = emu_load_one(r.base, v->dtype, n * r.s.n + c * r.s.c + y * r.s.h + x * r.s.w, f16);
            uint32_t bits;
            memcpy(&bits, &val, sizeof bits);
            carry |= (bits & 0x7f800000u) + 0x00800000u;
        }
        found |= (carry & 0x80000000u) != 0;
    }
    return found;
}

/* Floats of the three planes cube() holds: the source, the W-passed one, the result. */
static size_t cube_floats(const upsample_plan *p)
{
    const upsample_axis *ah = &p->axis[UPSAMPLE_H], *aw = &p->axis[UPSAMPLE_W];
    const size_t h = (size_t)(p->backward ? ah->out : ah->in), w = (size_t)(p->backward ? aw->out : aw->in);
    const size_t dh = (size_t)(p->backward ? ah->in : ah->out), dw = (size_t)(p->backward ? aw->in : aw->out);
    return h * w + h * dw + dh * dw;
}

void upsample_cube_book(const upsample_plan *p, emu_scratch *s)
{
    emu_scratch_book(s, UPSAMPLE_SCRATCH_CUBE, cube_floats(p), sizeof(float), false);
}

int upsample_cube(const emu_view *src, const emu_view *dst, const upsample_plan *p, char *msg, size_t cap)
{
    float *planes = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_CUBE, cube_floats(p) * sizeof(float));
    if (!planes)
        return snprintf(msg, cap, "the cube rule's planes were not booked"), EMU_KERNEL_ERR_INNER;
    if (p->backward || any_nonfinite(src, p))
        cube(src, dst, p, planes);
    return 0;
}
