/*
 * The upsample family's per-pixel bilinear forward: CANN's TBE
 * ResizeBilinearV2 (half-pixel centres) weighs each output pixel's four
 * taps with 2-D products and adds them in one order (its vbi instruction),
 *     out = ((TL * w00 + TR * w01) + BL * w10) + BR * w11,
 *     w00 = wl_x * wl_y, w01 = wh_x * wl_y, w10 = wl_x * wh_y, w11 = wh_x * wh_y,
 * in float32, where the separable kernels pass W then H. The taps are the
 * family's (upsample_tap_of). Plain loops over float32 rows (self's rows
 * converted where they cannot be read in place, out's narrowed): this path
 * is its own reference.
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
    const size_t in_row = (size_t)p->axis[UPSAMPLE_W].in * (p->nhwc ? c : 1); /* two input rows as float32 */
    emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW + 1, 2 * in_row, sizeof(float), true);
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

/* One float32 output row from its top and bottom rows expanded: the header's products and order
 * (w00 = wl_x * wl_y, ...), as loops over j that vectorise. */
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
    const float *wl, *wh; /* W's weights, unpacked for joint_row_f32 */
    upsample_map tx;      /* W's taps as element offsets in an input row as read (see input_row) */
    emu_rows i, o;        /* self and out as rows of vec lanes */
    aclDataType i_dt, o_dt;
    size_t i_item, o_item;
    int64_t vec;          /* 1, or C with channels innermost (joint_pixel_team) */
    const float *f16;
    bool read_in_place;   /* self is float32 with unit lanes: rows are read where they are */
    bool stream; /* out is float32 in place and beyond the caches: rows are made in L1, then streamed */
} joint_ctx;

/* Two row buffers tagged by what they hold (-1: nothing). */
typedef struct row_pair {
    int64_t tag[2];
    int next; /* the buffer to fill next */
} row_pair;

/* The buffer holding `want`, else the one to fill with it (never `keep`, the buffer the current output row
 * already reads; -1 for none): *fill tells which. */
static inline int pair_slot(row_pair *r, int64_t want, int keep, bool *fill)
{
    *fill = false;
    if (r->tag[0] == want || r->tag[1] == want)
        return r->tag[0] == want ? 0 : 1;
    const int k = r->next == keep ? 1 - r->next : r->next;
    r->next = 1 - k;
    r->tag[k] = want;
    *fill = true;
    return k;
}

/* The input row at element offset `off` of self as float32: where it is when self allows, else converted
 * into one of two buffers (the next output row mostly reads the same two), not into `keep`'s. */
static inline const float *input_row(const joint_ctx *x, row_pair *conv, float *const bufs[2], int64_t off,
                                     int keep, int *slot)
{
    if (x->read_in_place)
        return (const float *)x->i.base + off;
    bool fill;
    *slot = pair_slot(conv, off, keep, &fill);
    if (fill)
        emu_load_row(bufs[*slot], x->i.base + (size_t)off * x->i_item, x->i_dt, x->p->axis[UPSAMPLE_W].in, x->vec,
                     x->i.s.w, x->i.lane, x->f16);
    return bufs[*slot];
}

/* Output row (n, c) at H index i (c 0 with channels innermost) from `made` (j0 .. j0 + items of vec floats):
 * streamed, or narrowed, or nothing when it was made in place. */
static inline void output_items(const joint_ctx *x, const float *made, int64_t n, int64_t c, int64_t i,
                                int64_t j0, int64_t items)
{
    if (x->o.direct && !x->stream)
        return;
    const int64_t off = emu_row_offset(&x->o, n, c, i) + j0 * x->o.s.w;
    if (x->stream)
        emu_copy_f32((float *)x->o.base + off, made, items * x->vec, true);
    else if (!x->o.direct)
        emu_store_row(x->o.base + (size_t)off * x->o_item, x->o_dt, made, items, x->vec, x->o.s.w, x->o.lane);
}

/* Per-thread buffers: two converted input rows (when self is not read in place), then the team's own. */
static float *team_buffers(const joint_ctx *x, size_t floats, float *conv[2])
{
    const upsample_plan *p = x->p;
    const size_t in_row = (size_t)(p->axis[UPSAMPLE_W].in * x->vec);
    float *own = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW, floats * sizeof(float));
    float *rows = x->read_in_place ? NULL
                                   : emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW + 1, 2 * in_row * sizeof(float));
    conv[0] = rows, conv[1] = rows ? rows + in_row : NULL;
    return own && (rows || x->read_in_place) ? own : NULL;
}

/* One thread's share of the output rows (n, c, i), channels first. Without a periodic W the two input rows
 * an output row reads are also kept expanded (tagged by their offset). */
static int joint_team(void *arg)
{
    const joint_ctx *x = arg;
    const upsample_plan *p = x->p;
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out, rows = p->n * p->c * oh;
    float *conv[2], *buf = team_buffers(x, 5 * (size_t)ow, conv);
    if (!buf)
        return 1;
    float *res = buf + 4 * ow;
    float *slot_lo[2] = {buf, buf + 2 * ow}, *slot_hi[2] = {buf + ow, buf + 3 * ow};
    row_pair expanded = {{-1, -1}, 0}, converted = {{-1, -1}, 0};
    int64_t i = 0, c = 0, n = 0, last = -2; /* row r is (n, c, i): divided once, then counted on */
#pragma omp for schedule(dynamic, emu_dynamic_chunk(rows, emu_team_size()))
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
        const int64_t want[2] = {emu_row_offset(&x->i, n, c, y.lo), emu_row_offset(&x->i, n, c, y.hi)};
        int top_slot = -1, bottom_slot;
        const float *top = input_row(x, &converted, conv, want[0], -1, &top_slot);
        const float *bottom = input_row(x, &converted, conv, want[1], top_slot, &bottom_slot);
        float *row = x->o.direct && !x->stream ? (float *)x->o.base + emu_row_offset(&x->o, n, c, i) : res;
        if (x->tx.step == 1) { /* an upscale's periodic W: straight from the input rows */
            joint_row_periodic(row, top, bottom, &x->tx, y, ow);
        } else {
            const float *src[2] = {top, bottom};
            int slot[2];
            for (int k = 0; k < 2; k++) {
                bool fill;
                slot[k] = pair_slot(&expanded, want[k], k ? slot[0] : -1, &fill);
                if (fill)
                    expand_row(slot_lo[slot[k]], slot_hi[slot[k]], src[k], &x->tx, ow);
            }
            joint_row_f32(row, slot_lo[slot[0]], slot_hi[slot[0]], slot_lo[slot[1]], slot_hi[slot[1]], x->wl,
                          x->wh, y, ow);
        }
        output_items(x, row, n, c, i, 0, ow);
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

/* One thread's share of the output rows (n, i) when channels are innermost: whole rows made in place, or
 * runs of pixels made in L1 and then streamed or narrowed. */
static int joint_pixel_team(void *arg)
{
    const joint_ctx *x = arg;
    const upsample_plan *p = x->p;
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out, c = p->c;
    const int64_t run = c < JOINT_PIXEL_FLOATS ? JOINT_PIXEL_FLOATS / c : 1;
    float *conv[2], *res = team_buffers(x, (size_t)(run * c), conv);
    if (!res)
        return 1;
    row_pair converted = {{-1, -1}, 0};
#pragma omp for schedule(dynamic, emu_dynamic_chunk(p->n * oh, emu_team_size()))
    for (int64_t r = 0; r < p->n * oh; r++) {
        const int64_t n = r / oh, i = r % oh;
        const upsample_tap y = x->ty[i];
        int top_slot = -1, bottom_slot;
        const float *top = input_row(x, &converted, conv, emu_row_offset(&x->i, n, 0, y.lo), -1, &top_slot);
        const float *bottom = input_row(x, &converted, conv, emu_row_offset(&x->i, n, 0, y.hi), top_slot,
                                        &bottom_slot);
        if (x->o.direct && !x->stream) {
            joint_pixels((float *)x->o.base + emu_row_offset(&x->o, n, 0, i), top, bottom, &x->tx, y, 0, ow, c);
            continue;
        }
        for (int64_t j0 = 0; j0 < ow; j0 += run) {
            const int64_t j1 = j0 + run < ow ? j0 + run : ow;
            joint_pixels(res, top, bottom, &x->tx, y, j0, j1, c);
            output_items(x, res, n, 0, i, j0, j1 - j0);
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
    /* Channels innermost make each output pixel a vector of C (joint_pixel_team); channels first, a row. */
    const int64_t vec = p->nhwc ? p->c : 1;
    joint_ctx x = {.p = p, .ty = ty, .wl = wl, .wh = wl + ow,
                   .tx = {.lo = i_lo, .hi = i_lo + ow, .wl = wl, .wh = wl + ow},
                   .i = emu_rows_of(in, p->nhwc, vec), .o = emu_rows_of(out, p->nhwc, vec), .i_dt = in->dtype,
                   .o_dt = out->dtype, .i_item = emu_view_item_size(in), .o_item = emu_view_item_size(out),
                   .vec = vec, .f16 = emu_f16_table_for(in->dtype)};
    /* float32 rows with unit lanes are read in place while the tap offsets, which carry their W stride, fit
     * int32; other rows are converted, to unit stride. */
    const int64_t in_w = p->axis[UPSAMPLE_W].in;
    x.read_in_place = in->dtype == ACL_FLOAT && (vec == 1 || x.i.lane == 1) && (in_w - 1) * x.i.s.w <= INT32_MAX;
    const int64_t w_step = x.read_in_place ? x.i.s.w : vec;
    x.stream = emu_rows_stream(&x.o, ow * vec, 0, emu_view_numel(out) * (int64_t)sizeof(float));
    for (int64_t j = 0; j < ow; j++)
        i_lo[j] = (int32_t)(tx[j].lo * w_step), i_lo[ow + j] = (int32_t)(tx[j].hi * w_step);
    if (w_step == 1) /* the offsets are the taps' indices */
        upsample_map_period(&x.tx, in_w, ow);
    /* Tiny problems run on the calling worker: waking a thread team costs more. */
    const int threads = p->n * p->c * oh * ow < 32768 ? 1 : p->threads;
    if (emu_parallel(threads, vec == 1 ? joint_team : joint_pixel_team, &x))
        return snprintf(msg, cap, "the row buffers were not booked"), EMU_KERNEL_ERR_INNER;
    return 0;
}
