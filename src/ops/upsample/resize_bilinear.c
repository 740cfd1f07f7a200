/*
 * The upsample family's per-pixel bilinear forward: CANN's TBE
 * ResizeBilinearV2 (half-pixel centres) weighs each output pixel's four
 * taps with 2-D products and adds them in one order (its vbi instruction),
 *     out = ((TL * w00 + TR * w01) + BL * w10) + BR * w11,
 *     w00 = wl_x * wl_y, w01 = wh_x * wl_y, w10 = wl_x * wh_y, w11 = wh_x * wh_y,
 * in float32, where the separable kernels pass W then H. The taps are the
 * family's (upsample_tap_of). Plain loops: this path is its own reference.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>

#include "../../kernel/rows.h"
#include "upsample.h"

/* Channels innermost: output pixels go out in runs of about this many floats (L1-sized) when streamed. */
#define JOINT_PIXEL_FLOATS 4096

void upsample_joint_book(const upsample_plan *p, emu_scratch *s)
{
    const size_t ow = (size_t)p->axis[UPSAMPLE_W].out;
    for (int a = UPSAMPLE_W; a <= UPSAMPLE_H; a++)
        emu_scratch_book(s, UPSAMPLE_SCRATCH_TABLE + a, (size_t)p->axis[a].out, sizeof(upsample_tap), false);
    emu_scratch_book(s, UPSAMPLE_SCRATCH_WEIGHTS, 2 * ow, sizeof(float), false);     /* W's wl, then wh */
    emu_scratch_book(s, UPSAMPLE_SCRATCH_WEIGHTS + 1, 2 * ow, sizeof(int32_t), false); /* W's lo, hi offsets */
    /* Two expanded input rows and a result row; channels innermost, a run of pixels (joint_pixel_team). */
    const size_t c = (size_t)p->c, pixels = c < JOINT_PIXEL_FLOATS ? JOINT_PIXEL_FLOATS : c;
    emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW, 5 * ow > pixels ? 5 * ow : pixels, sizeof(float), true);
}

/* An input row spread over the output's W: lo[j] = row[m->lo[j]], hi[j] = row[m->hi[j]] (W's taps as
 * element offsets). Upscales by 2, 4 and 8 skip this step (joint_row_periodic). */
EMU_HOT static void expand_row(float *restrict lo, float *restrict hi, const float *restrict row,
                               const upsample_map *m, int64_t ow)
{
    for (int64_t j = 0; j < ow; j++)
        lo[j] = row[m->lo[j]];
    for (int64_t j = 0; j < ow; j++)
        hi[j] = row[m->hi[j]];
}

/* One float32 output row from its top and bottom rows expanded: the same products and order as the typed
 * loop below (w00 = wl_x * wl_y, ...), as loops over j that vectorise. */
EMU_HOT static void joint_row_f32(float *restrict dst, const float *restrict t_lo, const float *restrict t_hi,
                                  const float *restrict b_lo, const float *restrict b_hi, const float *restrict wl,
                                  const float *restrict wh, upsample_tap y, int64_t ow)
{
    for (int64_t j = 0; j < ow; j++) {
        const float w00 = wl[j] * y.wl, w01 = wh[j] * y.wl, w10 = wl[j] * y.wh, w11 = wh[j] * y.wh;
        dst[j] = ((t_lo[j] * w00 + t_hi[j] * w01) + b_lo[j] * w10) + b_hi[j] * w11;
    }
}

/* Outputs [a, b) of a row straight from its top and bottom input rows (t, bt) through W's offsets: the
 * few outputs before and after a periodic stretch, so a plain loop (out of line, not unrolled). */
static void joint_gather(float *restrict dst, const float *restrict t, const float *restrict bt,
                         const upsample_map *m, upsample_tap y, int64_t a, int64_t b)
{
    for (int64_t j = a; j < b; j++) {
        const float w00 = m->wl[j] * y.wl, w01 = m->wh[j] * y.wl, w10 = m->wl[j] * y.wh, w11 = m->wh[j] * y.wh;
        dst[j] = ((t[m->lo[j]] * w00 + t[m->hi[j]] * w01) + bt[m->lo[j]] * w10) + bt[m->hi[j]] * w11;
    }
}

/* A periodic stretch's phases: phase q (outputs o0 + s * r + q) reads t and bt at lo[q] + r and hi[q] + r
 * with the weights' products w00[q] ... w11[q], made once a row. */
typedef struct joint_phases {
    int64_t lo[8], hi[8];
    float w00[8], w01[8], w10[8], w11[8];
} joint_phases;

/* Runs [r0, r1) of a periodic stretch: with s a constant the loads are contiguous per phase and the
 * stores interleave in registers. */
EMU_HOT_INLINE void periodic_runs(float *restrict out, const float *restrict t, const float *restrict bt,
                                  const joint_phases *f, int64_t s, int64_t r0, int64_t r1)
{
    for (int64_t r = r0; r < r1; r++)
        for (int64_t q = 0; q < s; q++)
            out[s * r + q] = ((t[f->lo[q] + r] * f->w00[q] + t[f->hi[q] + r] * f->w01[q]) +
                              bt[f->lo[q] + r] * f->w10[q]) +
                             bt[f->hi[q] + r] * f->w11[q];
}

/* The periodic stretch of an upscale by s straight from the input rows: phase q's weights are the same
 * along it (the map verified them), so their products are made once. Whole blocks of 8 runs, then the
 * rest as the 8 runs ending the stretch (rewriting some with the same values) rather than a scalar tail. */
EMU_HOT_INLINE void joint_periodic(float *restrict dst, const float *restrict t, const float *restrict bt,
                                   const upsample_map *m, upsample_tap y, int64_t s)
{
    joint_phases f;
    for (int64_t q = 0; q < s; q++) {
        const int64_t j = m->o0 + q;
        f.lo[q] = m->lo[j], f.hi[q] = m->hi[j];
        f.w00[q] = m->wl[j] * y.wl, f.w01[q] = m->wh[j] * y.wl;
        f.w10[q] = m->wl[j] * y.wh, f.w11[q] = m->wh[j] * y.wh;
    }
    const int64_t runs = m->runs, whole = runs & ~(int64_t)7;
    periodic_runs(dst + m->o0, t, bt, &f, s, 0, whole);
    periodic_runs(dst + m->o0, t, bt, &f, s, whole && whole < runs ? runs - 8 : whole, runs);
}

/* One float32 output row from its input rows directly, for a W map with an upscale's periodic stretch. */
EMU_HOT static void joint_row_periodic(float *restrict dst, const float *restrict t, const float *restrict bt,
                                       const upsample_map *m, upsample_tap y, int64_t ow)
{
    const int64_t b = m->o0 + m->period * m->runs;
    joint_gather(dst, t, bt, m, y, 0, m->o0);
    if (m->period == 2)
        joint_periodic(dst, t, bt, m, y, 2);
    else if (m->period == 4)
        joint_periodic(dst, t, bt, m, y, 4);
    else
        joint_periodic(dst, t, bt, m, y, 8);
    joint_gather(dst, t, bt, m, y, b, ow);
}

typedef struct joint_ctx {
    const upsample_plan *p;
    const upsample_tap *ty;
    const float *wl, *wh;      /* W's weights, unpacked for joint_row_f32 */
    upsample_map tx; /* W's taps as element offsets in an input row, and their weights */
    const float *in;
    float *out;
    int64_t i_n, i_c, i_h, o_n, o_c, o_h;
    bool stream; /* out lies beyond the caches: rows are made in L1, then go out with streaming stores */
} joint_ctx;

/* One thread's share of the float32 output rows. Without a periodic W the two input rows an output row
 * reads are kept expanded (tagged by their offset): the next output row mostly reads the same ones. */
static int joint_team(void *arg)
{
    const joint_ctx *x = arg;
    const upsample_plan *p = x->p;
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out, rows = p->n * p->c * oh;
    float *buf = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW, 5 * (size_t)ow * sizeof(float));
    if (!buf)
        return 1;
    float *res = buf + 4 * ow;
    float *slot_lo[2] = {buf, buf + 2 * ow}, *slot_hi[2] = {buf + ow, buf + 3 * ow};
    int64_t tag[2] = {-1, -1};
    int next = 0;
    int64_t i = 0, c = 0, n = 0, last = -2; /* row r is (n, c, i): divided once, then counted on */
#pragma omp for schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        if (r != last + 1) {
            i = r % oh, c = r / oh % p->c, n = r / oh / p->c;
        } else if (++i == oh) {
            i = 0;
            if (++c == p->c)
                c = 0, n++;
        }
        last = r;
        const upsample_tap y = x->ty[i];
        const int64_t src = n * x->i_n + c * x->i_c, want[2] = {src + y.lo * x->i_h, src + y.hi * x->i_h};
        float *dst = x->out + n * x->o_n + c * x->o_c + i * x->o_h, *row = x->stream ? res : dst;
        if (x->tx.step == 1) { /* an upscale's periodic W: straight from the input rows */
            joint_row_periodic(row, x->in + want[0], x->in + want[1], &x->tx, y, ow);
        } else {
            int slot[2];
            for (int k = 0; k < 2; k++) {
                slot[k] = tag[0] == want[k] ? 0 : tag[1] == want[k] ? 1 : -1;
                if (slot[k] < 0) { /* the slot the other row does not use */
                    slot[k] = k == 1 && slot[0] == next ? 1 - next : next;
                    next = 1 - slot[k];
                    tag[slot[k]] = want[k];
                    expand_row(slot_lo[slot[k]], slot_hi[slot[k]], x->in + want[k], &x->tx, ow);
                }
            }
            joint_row_f32(row, slot_lo[slot[0]], slot_hi[slot[0]], slot_lo[slot[1]], slot_hi[slot[1]], x->wl,
                          x->wh, y, ow);
        }
        if (x->stream)
            emu_copy_f32(dst, res, ow, true);
    }
    emu_stream_fence();
    return 0;
}

/* Output pixels [j0, j1) of a row whose channels are innermost (c of them, unit stride in and out):
 * each pixel's four weight products once, then a loop over the channels of its four input pixels. */
EMU_HOT static void joint_pixels(float *restrict dst, const float *restrict t, const float *restrict bt,
                                 const upsample_map *m, upsample_tap y, int64_t j0, int64_t j1, int64_t c)
{
    for (int64_t j = j0; j < j1; j++) {
        const float w00 = m->wl[j] * y.wl, w01 = m->wh[j] * y.wl, w10 = m->wl[j] * y.wh, w11 = m->wh[j] * y.wh;
        const float *restrict tl = t + m->lo[j], *restrict th = t + m->hi[j];
        const float *restrict bl = bt + m->lo[j], *restrict bh = bt + m->hi[j];
        float *restrict d = dst + (j - j0) * c;
        for (int64_t k = 0; k < c; k++)
            d[k] = ((tl[k] * w00 + th[k] * w01) + bl[k] * w10) + bh[k] * w11;
    }
}

/* One thread's share of the output rows (n, i) when channels are innermost: whole rows written in place,
 * or runs of pixels made in L1 and streamed out. */
static int joint_pixel_team(void *arg)
{
    const joint_ctx *x = arg;
    const upsample_plan *p = x->p;
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out, c = p->c;
    const int64_t run = c < JOINT_PIXEL_FLOATS ? JOINT_PIXEL_FLOATS / c : 1;
    float *res = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW, (size_t)(run * c) * sizeof(float));
    if (!res)
        return 1;
#pragma omp for schedule(static)
    for (int64_t r = 0; r < p->n * oh; r++) {
        const int64_t n = r / oh, i = r % oh;
        const upsample_tap y = x->ty[i];
        const float *t = x->in + n * x->i_n + y.lo * x->i_h, *bt = x->in + n * x->i_n + y.hi * x->i_h;
        float *dst = x->out + n * x->o_n + i * x->o_h;
        if (!x->stream) {
            joint_pixels(dst, t, bt, &x->tx, y, 0, ow, c);
            continue;
        }
        for (int64_t j0 = 0; j0 < ow; j0 += run) {
            const int64_t j1 = j0 + run < ow ? j0 + run : ow;
            joint_pixels(res, t, bt, &x->tx, y, j0, j1, c);
            emu_copy_f32(dst + j0 * c, res, (j1 - j0) * c, true);
        }
    }
    emu_stream_fence();
    return 0;
}

int upsample_joint_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out;
    upsample_tap *ty = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_TABLE + UPSAMPLE_H, (size_t)oh * sizeof *ty);
    upsample_tap *tx = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_TABLE + UPSAMPLE_W, (size_t)ow * sizeof *tx);
    float *wl = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_WEIGHTS, 2 * (size_t)ow * sizeof(float));
    int32_t *i_lo = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_WEIGHTS + 1, 2 * (size_t)ow * sizeof(int32_t));
    if (!ty || !tx || !wl || !i_lo)
        return snprintf(msg, cap, "the tap tables were not booked"), EMU_KERNEL_ERR_INNER;
    for (int64_t i = 0; i < oh; i++)
        ty[i] = upsample_tap_of(p, UPSAMPLE_H, i);
    for (int64_t j = 0; j < ow; j++) {
        tx[j] = upsample_tap_of(p, UPSAMPLE_W, j);
        wl[j] = tx[j].wl, wl[ow + j] = tx[j].wh;
    }
    int64_t i_n, i_c, i_ax[UPSAMPLE_MAX_AXES], o_n, o_c, o_ax[UPSAMPLE_MAX_AXES];
    upsample_strides(in, p, &i_n, &i_c, i_ax);
    upsample_strides(out, p, &o_n, &o_c, o_ax);
    const int64_t rows = p->n * p->c * oh;
    const int threads = rows * ow < 32768 ? 1 : p->threads;
    /* The offsets within a row as int32 (gathers take them); a wider row takes the typed loop. */
    const bool narrow = (p->axis[UPSAMPLE_W].in - 1) * i_ax[UPSAMPLE_W] <= INT32_MAX;
    /* Channels innermost (NHWC, dense output rows): vectors along C. */
    const bool pixels = p->nhwc && i_c == 1 && o_c == 1 && o_ax[UPSAMPLE_W] == p->c && p->c > 1;
    if (in->dtype == ACL_FLOAT && out->dtype == ACL_FLOAT && (o_ax[UPSAMPLE_W] == 1 || pixels) && narrow) {
        for (int64_t j = 0; j < ow; j++)
            i_lo[j] = (int32_t)(tx[j].lo * i_ax[UPSAMPLE_W]), i_lo[ow + j] = (int32_t)(tx[j].hi * i_ax[UPSAMPLE_W]);
        joint_ctx x = {.p = p, .ty = ty, .wl = wl, .wh = wl + ow,
                       .tx = {.lo = i_lo, .hi = i_lo + ow, .wl = wl, .wh = wl + ow},
                       .in = (const float *)in->data + in->offset, .out = (float *)out->data + out->offset,
                       .i_n = i_n, .i_c = i_c, .i_h = i_ax[UPSAMPLE_H], .o_n = o_n, .o_c = o_c,
                       .o_h = o_ax[UPSAMPLE_H],
                       .stream = emu_view_numel(out) * (int64_t)sizeof(float) >= emu_stream_bytes()};
        if (i_ax[UPSAMPLE_W] == 1) /* the offsets are the taps' indices */
            upsample_map_period(&x.tx, p->axis[UPSAMPLE_W].in, ow);
        if (emu_parallel(threads, o_ax[UPSAMPLE_W] == 1 ? joint_team : joint_pixel_team, &x))
            return snprintf(msg, cap, "the expanded rows were not booked"), EMU_KERNEL_ERR_INNER;
        return 0;
    }
    const float *f16 = emu_f16_table();
    (void)threads; /* unused when built without OpenMP */
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t r = 0; r < rows; r++) {
        const int64_t i = r % oh, c = r / oh % p->c, n = r / oh / p->c;
        const upsample_tap y = ty[i];
        const int64_t src = in->offset + n * i_n + c * i_c, top = src + y.lo * i_ax[UPSAMPLE_H];
        const int64_t bottom = src + y.hi * i_ax[UPSAMPLE_H];
        const int64_t dst = out->offset + n * o_n + c * o_c + i * o_ax[UPSAMPLE_H];
        for (int64_t j = 0; j < ow; j++) {
            const upsample_tap x = tx[j];
            const int64_t lo = x.lo * i_ax[UPSAMPLE_W], hi = x.hi * i_ax[UPSAMPLE_W];
            const float w00 = x.wl * y.wl, w01 = x.wh * y.wl, w10 = x.wl * y.wh, w11 = x.wh * y.wh;
            const float v = ((emu_load_one(in->data, in->dtype, top + lo, f16) * w00 +
                              emu_load_one(in->data, in->dtype, top + hi, f16) * w01) +
                             emu_load_one(in->data, in->dtype, bottom + lo, f16) * w10) +
                            emu_load_one(in->data, in->dtype, bottom + hi, f16) * w11;
            emu_store_one(out->data, out->dtype, dst + j * o_ax[UPSAMPLE_W], v);
        }
    }
    return 0;
}
