/*
 * The upsample family's nearest modes, forward: every output element is one
 * input element, copied whole (CANN's UpsampleNearest3d, UpsampleNearest and
 * ResizeNearestNeighborV2 kernels move data without arithmetic, so any dtype,
 * uint8 and double included, keeps its bits). The source index per axis is
 * the family's tap rule, tabulated once per axis.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "upsample.h"

void upsample_nearest_book(const upsample_plan *p, emu_scratch *s)
{
    for (int a = 0; a < p->axes; a++)
        emu_scratch_book(s, UPSAMPLE_SCRATCH_TABLE + a, (size_t)p->axis[a].out, sizeof(int64_t), false);
}

typedef struct nearest_ctx {
    const upsample_plan *p;
    int64_t *const *src; /* per axis, each output index's source as an input element offset */
    int64_t i_n, i_c, o_n, o_c;
    const int64_t *o_ax;
    const char *ib;
    char *ob;
    size_t item, width; /* an element's bytes; the bytes one copy moves (a pixel's, channels last) */
    bool pixels;
    bool pairs; /* 4-byte elements, unit W strides, output index j from input j / 2 (a W scale of 2) */
    int64_t step; /* 4-byte elements, unit W strides, output index j from input j * step (a downscale); else 0 */
    int64_t channels, rows;
} nearest_ctx;

/* o[j] = i[j / 2] for j < n: each input element twice, as loops that vectorise. */
EMU_HOT static void copy_pairs(uint32_t *restrict o, const uint32_t *restrict i, int64_t n)
{
    for (int64_t x = 0; x < n / 2; x++) {
        o[2 * x] = i[x];
        o[2 * x + 1] = i[x];
    }
    if (n % 2)
        o[n - 1] = i[n / 2];
}

/* o[j] = i[j * step] for j < n: a whole-number downscale along W. A step of 2 (U6) has a loop of its own,
 * which the compiler vectorises with shuffles; other steps take the element loop. */
EMU_HOT static void copy_every(uint32_t *restrict o, const uint32_t *restrict i, int64_t n, int64_t step)
{
    if (step == 2) {
        for (int64_t x = 0; x < n; x++)
            o[x] = i[2 * x];
        return;
    }
    for (int64_t x = 0; x < n; x++)
        o[x] = i[x * step];
}

/* One thread's share of the output rows (the W lines of each (n, c, d, h)). A row whose source row is the
 * previous row's (an H or D scale above 1) is the previous row again: copied from it whole. */
static int nearest_team(void *arg)
{
    const nearest_ctx *x = arg;
    const upsample_plan *p = x->p;
    const int64_t ow = p->axis[UPSAMPLE_W].out, ow_stride = x->o_ax[UPSAMPLE_W];
    const size_t item = x->item;
    const bool dense = (size_t)ow_stride * item == x->width; /* an output row is ow * width bytes in a row */
    int64_t prev_r = -2, prev_io = 0, prev_oo = 0;
#pragma omp for schedule(dynamic, emu_dynamic_chunk(x->rows, emu_team_size()))
    for (int64_t r = 0; r < x->rows; r++) {
        int64_t rest = r, io = 0, oo = 0;
        for (int a = 1; a < p->axes; a++) {
            const int64_t j = rest % p->axis[a].out;
            rest /= p->axis[a].out;
            io += x->src[a][j];
            oo += j * x->o_ax[a];
        }
        const int64_t c = rest % x->channels, n = rest / x->channels;
        io += n * x->i_n + c * x->i_c;
        oo += n * x->o_n + c * x->o_c;
        const char *ib = x->ib;
        char *ob = x->ob;
        const int64_t *sw = x->src[0];
        if (dense && r == prev_r + 1 && io == prev_io) {
            memcpy(ob + (size_t)oo * item, ob + (size_t)prev_oo * item, (size_t)ow * x->width);
        } else {
            switch (x->pixels ? 0 : item) { /* the common widths as typed copies */
            case 1:
                for (int64_t j = 0; j < ow; j++)
                    ((uint8_t *)ob)[oo + j * ow_stride] = ((const uint8_t *)ib)[io + sw[j]];
                break;
            case 2:
                for (int64_t j = 0; j < ow; j++)
                    ((uint16_t *)ob)[oo + j * ow_stride] = ((const uint16_t *)ib)[io + sw[j]];
                break;
            case 4:
                if (x->pairs) {
                    copy_pairs((uint32_t *)ob + oo, (const uint32_t *)ib + io, ow);
                    break;
                }
                if (x->step) {
                    copy_every((uint32_t *)ob + oo, (const uint32_t *)ib + io, ow, x->step);
                    break;
                }
                for (int64_t j = 0; j < ow; j++)
                    ((uint32_t *)ob)[oo + j * ow_stride] = ((const uint32_t *)ib)[io + sw[j]];
                break;
            default:
                for (int64_t j = 0; j < ow; j++)
                    memcpy(ob + (size_t)(oo + j * ow_stride) * item, ib + (size_t)(io + sw[j]) * item, x->width);
                break;
            }
        }
        prev_r = r, prev_io = io, prev_oo = oo;
    }
    return 0;
}

int upsample_nearest_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    const size_t item = emu_view_item_size(in);
    int64_t i_n, i_c, i_ax[UPSAMPLE_MAX_AXES], o_n, o_c, o_ax[UPSAMPLE_MAX_AXES], outs = 1;
    int64_t *src[UPSAMPLE_MAX_AXES] = {NULL};
    upsample_strides(in, p, &i_n, &i_c, i_ax);
    upsample_strides(out, p, &o_n, &o_c, o_ax);
    for (int a = 0; a < p->axes; a++) { /* each output index's source, as an input element offset */
        src[a] = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_TABLE + a, (size_t)p->axis[a].out * sizeof **src);
        if (!src[a])
            return snprintf(msg, cap, "the nearest index tables were not booked"), EMU_KERNEL_ERR_INNER;
        for (int64_t j = 0; j < p->axis[a].out; j++)
            src[a][j] = upsample_tap_of(p, a, j).lo * i_ax[a];
        outs *= p->axis[a].out;
    }
    const int64_t ow = p->axis[UPSAMPLE_W].out;
    /* Dense channels last: a pixel's C values are one element of C * item bytes (one copy, not C strided ones). */
    const bool pixels = i_c == 1 && o_c == 1 && p->c > 1;
    nearest_ctx x = {.p = p, .src = src, .i_n = i_n, .i_c = i_c, .o_n = o_n, .o_c = o_c, .o_ax = o_ax,
                     .ib = (const char *)in->data + (size_t)in->offset * item,
                     .ob = (char *)out->data + (size_t)out->offset * item, .item = item, .pixels = pixels,
                     .channels = pixels ? 1 : p->c, .width = pixels ? (size_t)p->c * item : item};
    x.rows = p->n * x.channels * (outs / ow);
    /* 4-byte elements with unit W strides: a W scale of 2 (pairs) and a whole-number downscale (step) have
     * loops of their own. */
    const bool unit = !pixels && item == 4 && o_ax[UPSAMPLE_W] == 1 && i_ax[UPSAMPLE_W] == 1;
    x.pairs = unit;
    x.step = unit && ow > 1 ? src[0][1] : 0;
    for (int64_t j = 0; unit && j < ow; j++) {
        x.pairs = x.pairs && src[0][j] == j / 2;
        x.step = src[0][j] == j * x.step ? x.step : 0;
    }
    x.step = x.step > 1 && !x.pairs ? x.step : 0;
    emu_parallel(x.rows * ow * (int64_t)(x.width / item) < 32768 ? 1 : p->threads, nearest_team, &x);
    return 0;
}
