/*
 * Upsample bilinear 2-D backward kernel.
 *
 * out = Wh^T * G * Ww per plane, with Wh, Ww banded (two taps per gradOut
 * index). We work in gather form: for every input row y, first sum the
 * (few) gradOut rows that touch y along H (a contiguous, vectorised axpy),
 * then gather along W. Each output row is owned by one task, so there are
 * no atomics and results are bitwise identical for any thread count.
 *
 * NCHW: a task is (n, c, y) and the W gather is scalar.
 * NHWC: a task is (n, y) and every tap moves a whole C vector.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"
#include "upsample_bilinear2d_backward_v2.h"

/* Gather form of one axis: input index y receives from source indices
 * src[k] with weight wt[k], k in [first[y], first[y+1]). */
typedef struct axis_taps {
    int64_t *first;
    int64_t *src;
    float *wt;
} axis_taps;

static void taps_free(axis_taps *t)
{
    free(t->first);
    free(t->src);
    free(t->wt);
}

/* Source coordinate of output index i (spec: upsample_bilinear2d_backward_v2.md). */
static void source_index(int64_t i, double ratio, bool align_corners, int64_t in, int64_t *lo, int64_t *hi, double *f)
{
    double s = align_corners ? (double)i * ratio : fmax(0.0, ((double)i + 0.5) * ratio - 0.5);
    int64_t l = (int64_t)floor(s);
    if (l > in - 1)
        l = in - 1;
    double frac = s - (double)l;
    *lo = l;
    *hi = l + 1 < in ? l + 1 : in - 1;
    *f = frac < 0.0 ? 0.0 : frac > 1.0 ? 1.0 : frac;
}

static bool taps_build(axis_taps *t, int64_t in, int64_t out, double ratio, bool align_corners)
{
    t->first = calloc((size_t)in + 1, sizeof *t->first);
    t->src = malloc(2 * (size_t)out * sizeof *t->src);
    t->wt = malloc(2 * (size_t)out * sizeof *t->wt);
    if (!t->first || !t->src || !t->wt)
        return false;
    /* Count taps per input index, then fill in increasing source order. */
    for (int64_t i = 0; i < out; i++) {
        int64_t lo, hi;
        double f;
        source_index(i, ratio, align_corners, in, &lo, &hi, &f);
        t->first[lo + 1]++;
        if (hi != lo)
            t->first[hi + 1]++;
    }
    for (int64_t y = 0; y < in; y++)
        t->first[y + 1] += t->first[y];
    int64_t *fill = malloc((size_t)in * sizeof *fill);
    if (!fill)
        return false;
    memcpy(fill, t->first, (size_t)in * sizeof *fill);
    for (int64_t i = 0; i < out; i++) {
        int64_t lo, hi;
        double f;
        source_index(i, ratio, align_corners, in, &lo, &hi, &f);
        if (hi == lo) {
            t->src[fill[lo]] = i;
            t->wt[fill[lo]++] = 1.0f;
        } else {
            t->src[fill[lo]] = i;
            t->wt[fill[lo]++] = (float)(1.0 - f);
            t->src[fill[hi]] = i;
            t->wt[fill[hi]++] = (float)f;
        }
    }
    free(fill);
    return true;
}

/* Element strides of a 4-D view in logical (n, c, h, w) order. */
typedef struct nchw_strides {
    int64_t n, c, h, w;
} nchw_strides;

static nchw_strides logical_strides(const aclTensor *t, bool nhwc)
{
    const int64_t *s = t->strides;
    return nhwc ? (nchw_strides){s[0], s[3], s[1], s[2]} : (nchw_strides){s[0], s[1], s[2], s[3]};
}

/* A row is `len` items of `vec` lanes: (j, lane) at j*sj + lane*sl elements from base. */
static void load_row(float *dst, const void *base, aclDataType dt, int64_t len, int64_t vec, int64_t sj, int64_t sl)
{
    for (int64_t j = 0; j < len; j++) {
        float *d = dst + j * vec;
        int64_t o = j * sj;
        switch (dt) {
        case ACL_FLOAT16:
            for (int64_t v = 0; v < vec; v++)
                d[v] = emu_f16_to_f32(((const uint16_t *)base)[o + v * sl]);
            break;
        case ACL_BF16:
            for (int64_t v = 0; v < vec; v++)
                d[v] = emu_bf16_to_f32(((const uint16_t *)base)[o + v * sl]);
            break;
        default:
            for (int64_t v = 0; v < vec; v++)
                d[v] = ((const float *)base)[o + v * sl];
            break;
        }
    }
}

static void store_row(void *base, aclDataType dt, const float *src, int64_t len, int64_t vec, int64_t sj, int64_t sl)
{
    for (int64_t j = 0; j < len; j++) {
        const float *s = src + j * vec;
        int64_t o = j * sj;
        switch (dt) {
        case ACL_FLOAT16:
            for (int64_t v = 0; v < vec; v++)
                ((uint16_t *)base)[o + v * sl] = emu_f32_to_f16(s[v]);
            break;
        case ACL_BF16:
            for (int64_t v = 0; v < vec; v++)
                ((uint16_t *)base)[o + v * sl] = emu_f32_to_bf16(s[v]);
            break;
        default:
            for (int64_t v = 0; v < vec; v++)
                ((float *)base)[o + v * sl] = s[v];
            break;
        }
    }
}

static inline void axpy(float *restrict y, const float *restrict x, float a, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        y[i] += a * x[i];
}

static inline void scale_copy(float *restrict y, const float *restrict x, float a, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = a * x[i];
}

int upsample_bilinear2d_backward_kernel(const aclTensor *grad_out, const aclTensor *out, const upsample_plan *p,
                                        char *msg, size_t cap)
{
    if (emu_tensor_numel(grad_out) == 0 || emu_tensor_numel(out) == 0)
        return 0;
    const bool nhwc = p->nhwc;
    const aclDataType dt = grad_out->dtype;
    const size_t item = emu_dtype_size(dt);
    const nchw_strides gs = logical_strides(grad_out, nhwc), os = logical_strides(out, nhwc);
    const char *gbase = (const char *)grad_out->data + (size_t)grad_out->offset * item;
    char *obase = (char *)out->data + (size_t)out->offset * item;

    /* A "row" is one W line; each item of it is `vec` lanes (C in NHWC, 1 in NCHW). */
    const int64_t vec = nhwc ? p->c : 1;
    const int64_t planes = nhwc ? p->n : p->n * p->c;
    const int64_t tasks = planes * p->h;
    const int64_t g_lane = nhwc ? gs.c : 0, o_lane = nhwc ? os.c : 0;
    /* Rows that are plain contiguous float32 are used in place, not copied. */
    const bool g_direct = dt == ACL_FLOAT && gs.w == vec && (vec == 1 || g_lane == 1);
    const bool o_direct = dt == ACL_FLOAT && os.w == vec && (vec == 1 || o_lane == 1);

    axis_taps th = {0}, tw = {0};
    int status = 0;
    if (!taps_build(&th, p->h, p->out_h, p->ratio_h, p->align_corners) ||
        !taps_build(&tw, p->w, p->out_w, p->ratio_w, p->align_corners)) {
        snprintf(msg, cap, "out of memory building the interpolation weights");
        status = ACLNN_ERR_INNER;
        goto done;
    }

#pragma omp parallel num_threads(emu_kernel_threads())
    {
        float *acc = malloc((size_t)(p->out_w * vec) * sizeof *acc);  /* H-reduced gradOut row */
        float *row = malloc((size_t)(p->out_w * vec) * sizeof *row);  /* converted gradOut row */
        float *res = malloc((size_t)(p->w * vec) * sizeof *res);      /* converted out row */
        bool ok = acc && row && res;
        if (!ok) {
#pragma omp atomic write
            status = ACLNN_ERR_INNER;
        }
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tasks; t++) {
            if (!ok)
                continue;
            const int64_t plane = t / p->h, y = t % p->h;
            const int64_t n = nhwc ? plane : plane / p->c, c = nhwc ? 0 : plane % p->c;
            const int64_t g_plane = n * gs.n + c * gs.c, o_row = n * os.n + c * os.c + y * os.h;
            const int64_t len = p->out_w * vec;

            /* 1. Reduce along H: acc = sum_k wh[k] * gradOut[row src[k]] */
            const int64_t k0 = th.first[y], k1 = th.first[y + 1];
            for (int64_t k = k0; k < k1; k++) {
                const int64_t off = g_plane + th.src[k] * gs.h;
                const float *src = row;
                if (g_direct)
                    src = (const float *)gbase + off;
                else
                    load_row(row, (const char *)gbase + (size_t)off * item, dt, p->out_w, vec, gs.w, g_lane);
                if (k == k0)
                    scale_copy(acc, src, th.wt[k], len);
                else
                    axpy(acc, src, th.wt[k], len);
            }
            if (k0 == k1)
                memset(acc, 0, (size_t)len * sizeof *acc);

            /* 2. Gather along W into the output row. */
            float *dst = o_direct ? (float *)obase + o_row : res;
            for (int64_t x = 0; x < p->w; x++) {
                const int64_t j0 = tw.first[x], j1 = tw.first[x + 1];
                float *d = dst + x * vec;
                if (vec == 1) {
                    float s = 0.0f;
                    for (int64_t j = j0; j < j1; j++)
                        s += tw.wt[j] * acc[tw.src[j]];
                    d[0] = s;
                } else if (j0 == j1) {
                    memset(d, 0, (size_t)vec * sizeof *d);
                } else {
                    scale_copy(d, acc + tw.src[j0] * vec, tw.wt[j0], vec);
                    for (int64_t j = j0 + 1; j < j1; j++)
                        axpy(d, acc + tw.src[j] * vec, tw.wt[j], vec);
                }
            }
            if (!o_direct)
                store_row(obase + (size_t)o_row * item, dt, res, p->w, vec, os.w, o_lane);
        }
        free(acc);
        free(row);
        free(res);
    }
    if (status)
        snprintf(msg, cap, "out of memory for the per-thread row buffers");
done:
    taps_free(&th);
    taps_free(&tw);
    return status;
}
