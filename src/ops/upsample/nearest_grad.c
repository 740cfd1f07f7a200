/*
 * The upsample family's fast path for the nearest gradients, 1-3 axes, any
 * layout: each input index of an axis takes a range of gradOut indices (the
 * range rule, or the ranges the scatter rule's monotonic sources make), so
 * an input row (n, c, d, y) is a sum over its gradOut rows, each first
 * reduced along W. The sums run in the reference kernel's order (W, then H
 * within each D index, then D; each from 0.0f, indices ascending), so the
 * two agree bit for bit; one task per input row, no atomics.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "../../kernel/rows.h"
#include "upsample.h"

/* Per axis: input index i takes gradOut [range[2i], range[2i + 1]). */
static void ranges_build(const upsample_plan *p, int a, int64_t *range)
{
    const int64_t in = p->axis[a].in;
    if (!p->nearest_scatter) {
        for (int64_t i = 0; i < in; i++)
            upsample_nearest_grad_range(p, a, i, &range[2 * i], &range[2 * i + 1]);
        return;
    }
    for (int64_t i = 0; i < 2 * in; i++)
        range[i] = 0;
    for (int64_t j = p->axis[a].out - 1; j >= 0; j--) { /* sources never decrease with j */
        const int64_t i = upsample_tap_of(p, a, j).lo;
        range[2 * i] = j;
        if (range[2 * i + 1] == 0)
            range[2 * i + 1] = j + 1;
    }
}

void upsample_nearest_grad_book(const upsample_plan *p, emu_scratch *s)
{
    for (int a = 0; a < p->axes; a++)
        emu_scratch_book(s, UPSAMPLE_SCRATCH_TABLE + a, 2 * (size_t)p->axis[a].in, sizeof(int64_t), false);
    for (int i = 0; i < 3; i++) /* the W-reduced row, the H sum of one D index, the result row */
        emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW + i, (size_t)p->axis[UPSAMPLE_W].in, sizeof(float), true);
    /* a gradOut row as float32, when it cannot be read in place */
    emu_scratch_book(s, UPSAMPLE_SCRATCH_ROW + 3, (size_t)p->axis[UPSAMPLE_W].out, sizeof(float), true);
}

/* The common W ranges, input index x taking gradOut [x * k, (x + 1) * k) (an integer scale factor): k,
 * else 0. */
static int64_t uniform_width(const int64_t *rw, int64_t iw)
{
    const int64_t k = iw > 0 ? rw[1] - rw[0] : 0;
    for (int64_t x = 0; k > 0 && x < iw; x++)
        if (rw[2 * x] != x * k || rw[2 * x + 1] != (x + 1) * k)
            return 0;
    return k;
}

/* w[x] = the sum of row[x * k + j] over j ascending, from 0.0f (the reference's order), for x < n: loops
 * over x that vectorise (for k = 2, over pairs). */
EMU_HOT static void sum_runs(float *restrict w, const float *restrict row, int64_t n, int64_t k)
{
    if (k == 2) {
        for (int64_t x = 0; x < n; x++)
            w[x] = (0.0f + row[2 * x]) + row[2 * x + 1];
        return;
    }
    for (int64_t x = 0; x < n; x++)
        w[x] = 0.0f + row[x * k];
    for (int64_t j = 1; j < k; j++)
        for (int64_t x = 0; x < n; x++)
            w[x] += row[x * k + j];
}

/* h[x] += the sum_runs value of x: a further row of an H sum, without a buffer for it. */
EMU_HOT static void add_runs(float *restrict h, const float *restrict row, int64_t n, int64_t k)
{
    if (k == 2) {
        for (int64_t x = 0; x < n; x++)
            h[x] += (0.0f + row[2 * x]) + row[2 * x + 1];
        return;
    }
    for (int64_t x = 0; x < n; x++) {
        float acc = 0.0f + row[x * k];
        for (int64_t j = 1; j < k; j++)
            acc += row[x * k + j];
        h[x] += acc;
    }
}

/* A float32 gradOut row reduced along W into w; k > 0: uniform ranges of k. */
static void reduce_row(const float *restrict row, const int64_t *rw, int64_t k, int64_t iw, float *restrict w)
{
    if (k > 0) {
        sum_runs(w, row, iw, k);
        return;
    }
    for (int64_t x = 0; x < iw; x++) {
        float acc = 0.0f;
        for (int64_t j = rw[2 * x]; j < rw[2 * x + 1]; j++)
            acc += row[j];
        w[x] = acc;
    }
}

int upsample_nearest_grad_fast(const emu_view *g, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    const int64_t *range[UPSAMPLE_MAX_AXES] = {NULL};
    for (int a = 0; a < p->axes; a++) {
        int64_t *r = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_TABLE + a, 2 * (size_t)p->axis[a].in * 8);
        if (!r)
            return snprintf(msg, cap, "the nearest gradient's ranges were not booked"), EMU_KERNEL_ERR_INNER;
        ranges_build(p, a, r);
        range[a] = r;
    }
    static const int64_t none[2] = {0, 1}; /* an absent outer axis: one index, itself */
    const int64_t *rh = p->axes > 1 ? range[UPSAMPLE_H] : none, *rd = p->axes > 2 ? range[UPSAMPLE_D] : none;
    const int64_t iw = p->axis[UPSAMPLE_W].in, ih = p->axes > 1 ? p->axis[UPSAMPLE_H].in : 1;
    const int64_t id = p->axes > 2 ? p->axis[UPSAMPLE_D].in : 1, rows = p->n * p->c * id * ih;
    int64_t g_n, g_c, gs[UPSAMPLE_MAX_AXES] = {0}, o_n, o_c, os[UPSAMPLE_MAX_AXES] = {0};
    upsample_strides(g, p, &g_n, &g_c, gs);
    upsample_strides(out, p, &o_n, &o_c, os);
    const float *f16 = emu_f16_table_for(g->dtype);
    const size_t row_bytes = (size_t)iw * sizeof(float), g_item = emu_view_item_size(g);
    const size_t o_item = emu_view_item_size(out);
    const int64_t ow = p->axis[UPSAMPLE_W].out;
    /* gradOut rows are read in place when they are contiguous float32, else converted to that. */
    const bool in_place = g->dtype == ACL_FLOAT && gs[UPSAMPLE_W] == 1;
    const bool prefetch = in_place && ow * (int64_t)sizeof(float) <= PREFETCH_MAX_BYTES;
    const int64_t k = uniform_width(range[UPSAMPLE_W], iw); /* the vector W reduction's (sum_runs, add_runs) */
    const bool direct = out->dtype == ACL_FLOAT && os[UPSAMPLE_W] == 1; /* result rows stored as they are */
    int missing = 0;
#pragma omp parallel num_threads(rows * iw < 32768 ? 1 : p->threads) reduction(| : missing)
    {
        float *w = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW, row_bytes);
        float *hsum = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW + 1, row_bytes);
        float *acc = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW + 2, row_bytes);
        float *conv = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_ROW + 3, (size_t)ow * sizeof(float));
        missing |= !w || !hsum || !acc || !conv;
#pragma omp for schedule(dynamic, emu_dynamic_chunk(rows, emu_team_size()))
        for (int64_t r = 0; r < rows; r++) {
            if (missing)
                continue;
            const int64_t y = r % ih, d = r / ih % id, c = r / ih / id % p->c, n = r / ih / id / p->c;
            const int64_t gbase = g->offset + n * g_n + c * g_c;
            const int64_t obase = out->offset + n * o_n + c * o_c + d * os[UPSAMPLE_D] + y * os[UPSAMPLE_H];
            /* The reference adds each sum to 0.0f. A sum that starts from 0.0f is never -0.0, so that addition
             * changes no bit: the first term of each sum is stored in place of a zeroed buffer (float32 results
             * straight into out), the others added to it. */
            float *dst = direct ? (float *)out->data + obase : acc;
            const int64_t d0 = rd[2 * d], d1 = rd[2 * d + 1], y0 = rh[2 * y], y1 = rh[2 * y + 1];
            if (d0 == d1 || y0 == y1)
                memset(dst, 0, row_bytes); /* receives nothing */
            for (int64_t gd = d0; gd < d1 && y0 < y1; gd++) {
                float *h = gd == d0 ? dst : hsum; /* this D index's H sum */
                for (int64_t gy = y0; gy < y1; gy++) {
                    const int64_t at = gbase + gd * gs[UPSAMPLE_D] + gy * gs[UPSAMPLE_H];
                    const float *row = conv;
                    if (in_place)
                        row = (const float *)g->data + at;
                    else
                        emu_load_row(conv, (const char *)g->data + (size_t)at * g_item, g->dtype, ow, 1,
                                     gs[UPSAMPLE_W], 0, f16);
                    if (prefetch) { /* the row as far on as this one's length (may lie past gradOut) */
                        const uintptr_t ahead = (uintptr_t)row + PREFETCH_AHEAD_BYTES;
                        for (int64_t b = 0; b < ow * (int64_t)sizeof(float); b += 64)
                            PREFETCH_TO_L2((const void *)(ahead + (uintptr_t)b));
                    }
                    if (gy > y0 && k > 0) { /* summed into h as it is reduced */
                        add_runs(h, row, iw, k);
                        continue;
                    }
                    reduce_row(row, range[UPSAMPLE_W], k, iw, gy == y0 ? h : w);
                    for (int64_t x = 0; gy > y0 && x < iw; x++)
                        h[x] += w[x];
                }
                for (int64_t x = 0; h != dst && x < iw; x++)
                    dst[x] += h[x];
            }
            if (!direct)
                emu_store_row((char *)out->data + (size_t)obase * o_item, out->dtype, acc, iw, 1, os[UPSAMPLE_W], 0);
        }
    }
    if (missing)
        return snprintf(msg, cap, "the nearest gradient's row buffers were not booked"), EMU_KERNEL_ERR_INNER;
    return 0;
}
