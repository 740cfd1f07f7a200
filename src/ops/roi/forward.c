/*
 * RoIAlign forward kernel, as CANN's TBE ROIAlign (roi_align.py, CANN
 * 8.1.RC1) computes it.
 *
 * Per box, in float32: the box scaled (and shifted by roi_end_mode), its
 * size (at least 1 unless mode 2), bin = size * fl(1 / pooled), the samples
 * per bin (fixed, or ceil(bin)), the sample step (bin / count, or bin *
 * fl(1 / count)); sample k of an axis sits at ((k + 0.5) * step + start),
 * clamped to [0, size - 1], with weights (1 - f, f) that are zero outside
 * [-1, size] and, for "avg", divided by the axis' sample count. A sample's
 * value is (p1 w1 + p2 w2) + (p3 w3 + p4 w4); a bin adds its samples (rows,
 * then columns) from 0, or takes their maximum from the type's lowest value.
 * FLOAT16 inputs round every product and sum to float16, as the kernel's
 * float16 vector instructions do.
 *
 * The feature map is first laid out channels-last (CANN's kernel reads
 * NC1HWC0 for the same reason): a sample's four taps are then four
 * contiguous channel vectors. Boxes run in parallel; each owns its output.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernel/half.h"
#include "roi.h"

/* One box in the kernel's float32 terms. */
typedef struct box_geom {
    int64_t image; /* -1: outside [0, N), skipped */
    float start_x, start_y, step_x, step_y;
    int64_t count_x, count_y; /* samples per bin; <= 0: none */
    bool nonfinite;           /* a NaN or infinite coordinate */
} box_geom;

static float load_f(const emu_view *v, int64_t o, const float *f16)
{
    const void *b = v->data;
    switch (v->dtype) {
    case ACL_FLOAT16: return f16[((const uint16_t *)b)[o]];
    case ACL_INT32: return (float)((const int32_t *)b)[o];
    default: return ((const float *)b)[o];
    }
}

/* Row k of the boxes as (index, x1, y1, x2, y2), float32 (CANN converts float16 boxes to float32). */
static void box_row(const emu_view *rois, const emu_view *batch_indices, int64_t k, const float *f16, float r[5])
{
    const int64_t base = rois->offset + k * rois->strides[0], cs = rois->strides[1];
    const int first = batch_indices ? 1 : 0; /* the column of x1 */
    for (int j = first; j < 5; j++)
        r[j] = load_f(rois, base + (j - first) * cs, f16);
    if (batch_indices) { /* aclnnRoiAlign: the int32 index Cast to the boxes' dtype and concatenated */
        const int32_t id = ((const int32_t *)batch_indices->data)[batch_indices->offset + k * batch_indices->strides[0]];
        r[0] = rois->dtype == ACL_FLOAT16 ? f16[emu_f32_to_f16((float)id)] : (float)id;
    }
}

/* The box in the kernel's terms, by the geometry both directions share (kernel/roi.h). */
static box_geom geometry(const roi_plan *p, const float r[5])
{
    const emu_roi_box b = emu_roi_box_of(p, r);
    return (box_geom){.image = b.image, .start_x = b.x.start, .start_y = b.y.start, .step_x = b.x.step,
                      .step_y = b.y.step, .count_x = b.x.count, .count_y = b.y.count};
}

/* Sample k of an axis of `size` pixels: taps lo, hi and their weights. */
typedef struct axis_tap {
    int32_t lo, hi;
    float wl, wh;
} axis_tap;

static axis_tap sample(float start, float step, int64_t k, int64_t size, int64_t count, bool avg)
{
    const float t = ((float)k + 0.5f) * step + start;
    float x = t > 0.0f ? t : 0.0f;
    const float fl = floorf(x);
    int64_t lo = fl >= 2147483647.0f ? INT32_MAX : (int64_t)fl;
    int64_t hi = lo < INT32_MAX ? lo + 1 : lo;
    lo = lo < size - 1 ? lo : size - 1;
    hi = hi < size - 1 ? hi : size - 1;
    x = x < (float)(size - 1) ? x : (float)(size - 1);
    float wh = x - (float)lo, wl = 1.0f - wh;
    if (t < -1.0f || t > (float)size)
        wl = wh = 0.0f;
    if (avg) {
        wl = wl / (float)count;
        wh = wh / (float)count;
    }
    return (axis_tap){(int32_t)lo, (int32_t)hi, wl, wh};
}

/* Channels per block: CANN's C0. A block of one image is laid out (H, W, 16) in a per-thread buffer
 * that fits in L2, and every box of that image is pooled from it. */
#define CB 16

typedef struct roi_ctx {
    const roi_plan *p;
    const emu_view *self, *out;
    const box_geom *geom;
    const int64_t *order, *first; /* boxes sorted by image: order[first[n] .. first[n + 1]) */
    bool half;
    const float *f16;
} roi_ctx;

static inline float r16(const float *f16, float v)
{
    return f16[emu_f32_to_f16(v)];
}

/* One bin of one channel block: acc[CB] over the samples of (ph, pw). */
EMU_HOT static void pool_bin(const roi_ctx *x, const axis_tap *ty, const axis_tap *tx, int64_t ny, int64_t nx,
                             const float *blk, float *restrict acc)
{
    const roi_plan *p = x->p;
    const int64_t W = p->width;
    const float init = !p->max_mode ? 0.0f : x->half ? -65504.0f : -FLT_MAX;
    for (int c = 0; c < CB; c++)
        acc[c] = init;
    for (int64_t iy = 0; iy < ny; iy++) {
        const axis_tap y = ty[iy];
        const float *row_lo = blk + (int64_t)y.lo * W * CB, *row_hi = blk + (int64_t)y.hi * W * CB;
        for (int64_t ix = 0; ix < nx; ix++) {
            const axis_tap xs = tx[ix];
            float w1 = y.wl * xs.wl, w2 = y.wl * xs.wh, w3 = y.wh * xs.wl, w4 = y.wh * xs.wh;
            const float *restrict p1 = row_lo + (int64_t)xs.lo * CB, *restrict p2 = row_lo + (int64_t)xs.hi * CB;
            const float *restrict p3 = row_hi + (int64_t)xs.lo * CB, *restrict p4 = row_hi + (int64_t)xs.hi * CB;
            if (x->half) { /* float16 weights, products and sums */
                const float *f = x->f16;
                w1 = r16(f, w1), w2 = r16(f, w2), w3 = r16(f, w3), w4 = r16(f, w4);
                for (int c = 0; c < CB; c++) {
                    const float v = r16(f, r16(f, r16(f, p1[c] * w1) + r16(f, p2[c] * w2)) +
                                               r16(f, r16(f, p3[c] * w3) + r16(f, p4[c] * w4)));
                    acc[c] = p->max_mode ? (acc[c] > v ? acc[c] : v) : r16(f, acc[c] + v);
                }
            } else if (p->max_mode) {
                for (int c = 0; c < CB; c++) {
                    const float v = (p1[c] * w1 + p2[c] * w2) + (p3[c] * w3 + p4[c] * w4);
                    acc[c] = acc[c] > v ? acc[c] : v;
                }
            } else {
                for (int c = 0; c < CB; c++)
                    acc[c] = acc[c] + ((p1[c] * w1 + p2[c] * w2) + (p3[c] * w3 + p4[c] * w4));
            }
        }
    }
}

static void store(const emu_view *out, int64_t o, float v)
{
    if (out->dtype == ACL_FLOAT16)
        ((uint16_t *)out->data)[o] = emu_f32_to_f16(v);
    else
        ((float *)out->data)[o] = v;
}

/* Channels [c0, c0 + n) of box k: every bin, from the block. */
static void one_box(const roi_ctx *x, int64_t k, int64_t c0, int64_t n, const float *blk, axis_tap *ty,
                    axis_tap *tx)
{
    const roi_plan *p = x->p;
    const box_geom *g = &x->geom[k];
    const emu_view *out = x->out;
    const int64_t *os = out->strides, ob = out->offset + k * os[0] + c0 * os[1];
    const int64_t ny = g->count_y, nx = g->count_x;
    const bool avg = !p->max_mode;
    for (int64_t j = 0; j < p->pooled_w * nx; j++)
        tx[j] = sample(g->start_x, g->step_x, j, p->width, nx, avg);
    for (int64_t i = 0; i < p->pooled_h * ny; i++)
        ty[i] = sample(g->start_y, g->step_y, i, p->height, ny, avg);
    float acc[CB];
    for (int64_t i = 0; i < p->pooled_h; i++)
        for (int64_t j = 0; j < p->pooled_w; j++) {
            pool_bin(x, ty + i * ny, tx + j * nx, ny, nx, blk, acc);
            const int64_t o = ob + i * os[2] + j * os[3];
            if (out->dtype == ACL_FLOAT) {
                float *dst = (float *)out->data + o;
                for (int64_t c = 0; c < n; c++)
                    dst[c * os[1]] = acc[c];
            } else {
                for (int64_t c = 0; c < n; c++)
                    store(out, o + c * os[1], acc[c]);
            }
        }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(ACLNN_EMU_NO_CLONES)
#include <immintrin.h>
#define HAVE_AVX2_TRANSPOSE 1
/* One row of a block: row[w * CB + c] = planes[c][w] for w < W, by 8 x 8 transposes in registers
 * (a copy: the same bits as the scalar loop). Returns the columns done. */
__attribute__((target("avx2"))) static int64_t block_row_avx2(float *restrict row, const float *const *planes,
                                                               int64_t W)
{
    int64_t w = 0;
    for (; w + 8 <= W; w += 8)
        for (int half = 0; half < CB / 8; half++) {
            const float *const *pl = planes + 8 * half;
            __m256 r[8], t[8], u[8];
            for (int i = 0; i < 8; i++)
                r[i] = _mm256_loadu_ps(pl[i] + w);
            for (int i = 0; i < 8; i += 2) {
                t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
                t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
            }
            for (int i = 0; i < 8; i += 4) {
                u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
                u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
                u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
                u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
            }
            for (int j = 0; j < 4; j++) {
                _mm256_storeu_ps(row + (w + j) * CB + 8 * half, _mm256_permute2f128_ps(u[j], u[j + 4], 0x20));
                _mm256_storeu_ps(row + (w + j + 4) * CB + 8 * half, _mm256_permute2f128_ps(u[j], u[j + 4], 0x31));
            }
        }
    return w;
}
#endif

/* Channels [c0, c0 + n) of image b as (H, W, CB) float32, zero-padded to CB. */
static void load_block(const roi_ctx *x, int64_t b, int64_t c0, int64_t n, float *blk)
{
    const emu_view *self = x->self;
    const roi_plan *p = x->p;
    const int64_t *s = self->strides, H = p->height, W = p->width;
    const bool direct = self->dtype == ACL_FLOAT && s[3] == 1;
    if (n < CB)
        memset(blk, 0, (size_t)(H * W * CB) * sizeof *blk);
#ifdef HAVE_AVX2_TRANSPOSE
    if (direct && n == CB && emu_cpu_isa() >= EMU_ISA_AVX2) {
        const float *planes[CB];
        for (int64_t h = 0; h < H; h++) {
            for (int c = 0; c < CB; c++)
                planes[c] = (const float *)self->data + self->offset + b * s[0] + (c0 + c) * s[1] + h * s[2];
            float *row = blk + h * W * CB;
            for (int64_t w = block_row_avx2(row, planes, W); w < W; w++)
                for (int c = 0; c < CB; c++)
                    row[w * CB + c] = planes[c][w];
        }
        return;
    }
#endif
    for (int64_t h = 0; h < H; h++) {
        float *row = blk + h * W * CB;
        for (int64_t c = 0; c < n; c++) {
            const int64_t src = self->offset + b * s[0] + (c0 + c) * s[1] + h * s[2];
            if (direct) {
                const float *in = (const float *)self->data + src;
                for (int64_t w = 0; w < W; w++)
                    row[w * CB + c] = in[w];
            } else {
                for (int64_t w = 0; w < W; w++)
                    row[w * CB + c] = load_f(self, src + w * s[3], x->f16);
            }
        }
    }
}

static int64_t image_of(const void *geom, int64_t k)
{
    return ((const box_geom *)geom)[k].image;
}

/* Zeros for a box CANN leaves unwritten (no image, no sample). */
static void zero_box(const emu_view *out, const roi_plan *p, int64_t k)
{
    const int64_t *os = out->strides, ob = out->offset + k * os[0];
    for (int64_t c = 0; c < p->channels; c++)
        for (int64_t i = 0; i < p->pooled_h; i++)
            for (int64_t j = 0; j < p->pooled_w; j++)
                store(out, ob + c * os[1] + i * os[2] + j * os[3], 0.0f);
}

int roi_align_kernel(const emu_view *self, const emu_view *rois, const emu_view *batch_indices, const emu_view *out,
                     const roi_plan *p, roi_align_report *report, char *msg, size_t cap)
{
    *report = (roi_align_report){.first_skipped = -1, .first_too_many = -1};
    if (emu_view_numel(out) == 0)
        return 0;
    if (p->boxes == 0) { /* an empty map with boxes: CANN's op_api fills out with zeros instead */
        emu_view_fill_bytes(out, 0);
        return 0;
    }
    const float *f16 = emu_f16_table();
    const int64_t K = p->boxes, N = p->batch;
    const emu_scratch *s = &p->scratch;
    box_geom *geom = emu_scratch_get(s, ROI_SCRATCH_GEOMETRY, (size_t)K * sizeof *geom);
    int64_t *order = emu_scratch_get(s, ROI_SCRATCH_ORDER, (size_t)K * sizeof *order);
    int64_t *first = emu_scratch_get(s, ROI_SCRATCH_FIRST, (size_t)(N + 1) * sizeof *first);
    if (!geom || !order || !first)
        return snprintf(msg, cap, "the box table was not booked"), EMU_KERNEL_ERR_INNER;
    /* Geometry first, in parallel: skipped boxes and the work bound are known before any output is written. */
#pragma omp parallel for schedule(static) num_threads(K >= 1024 ? p->threads : 1)
    for (int64_t k = 0; k < K; k++) {
        float r[5];
        box_row(rois, batch_indices, k, f16, r);
        geom[k] = geometry(p, r);
        geom[k].count_x = geom[k].count_x > 0 ? geom[k].count_x : 0;
        geom[k].count_y = geom[k].count_y > 0 ? geom[k].count_y : 0;
        geom[k].nonfinite = !isfinite(r[1]) || !isfinite(r[2]) || !isfinite(r[3]) || !isfinite(r[4]);
    }
    /* The tally (integer work, O(K)). float16 emulates each sample's
     * arithmetic, lane by lane: a sample of a block costs about 32 times
     * float32's there (measured at the bound: 17-19 s either way). */
    int64_t max_x = 1, max_y = 1;
    const bool half = self->dtype == ACL_FLOAT16;
    const double channel_blocks = (double)((p->channels + 15) / 16);
    emu_roi_budget budget = {.channel_units = half ? 32 * channel_blocks : channel_blocks,
                             .unit_name = half ? "channel blocks of 16, 32 each in float16" : "channel blocks of 16",
                             .counted = "samples",
                             .per_box_limit = EMU_ROI_MAX_SAMPLES_PER_BOX,
                             .limit = EMU_ROI_MAX_SAMPLES};
    for (int64_t k = 0; k < K; k++) {
        box_geom *g = &geom[k];
        report->nonfinite += g->nonfinite;
        if (g->image < 0 || g->count_x == 0 || g->count_y == 0) {
            if (report->skipped++ == 0)
                report->first_skipped = k;
            g->image = -1;
            continue;
        }
        if (!emu_roi_budget_add(&budget, k, g->count_y, g->count_x, p->pooled_h, p->pooled_w))
            continue;
        max_x = g->count_x * p->pooled_w > max_x ? g->count_x * p->pooled_w : max_x;
        max_y = g->count_y * p->pooled_h > max_y ? g->count_y * p->pooled_h : max_y;
    }
    report->too_many = budget.too_many;
    report->first_too_many = budget.first_too_many;
    int refused = emu_roi_budget_check(&budget, NULL, msg, cap);
    if (refused)
        return refused;
    roi_group_by_image(K, N, image_of, geom, first, order);
    roi_ctx x = {.p = p, .self = self, .out = out, .geom = geom, .order = order, .first = first,
                 .half = self->dtype == ACL_FLOAT16, .f16 = f16};
    for (int64_t k = 0; k < K; k++)
        if (geom[k].image < 0)
            zero_box(out, p, k);
    const int64_t blocks = (p->channels + CB - 1) / CB, tasks = N * blocks;
    const int threads = K * p->channels * p->pooled_h * p->pooled_w < 4096 ? 1 : p->threads;
    (void)threads;
    int missing = 0;
#pragma omp parallel num_threads(threads) reduction(| : missing)
    {
        axis_tap *tx = emu_scratch_get(s, ROI_SCRATCH_THREAD_A, (size_t)max_x * sizeof(axis_tap));
        axis_tap *ty = emu_scratch_get(s, ROI_SCRATCH_THREAD_B, (size_t)max_y * sizeof(axis_tap));
        float *blk = emu_scratch_get(s, ROI_SCRATCH_THREAD_C, (size_t)(p->height * p->width * CB) * sizeof(float));
        missing |= !tx || !ty || !blk;
#pragma omp for schedule(dynamic, 1)
        for (int64_t t = 0; t < tasks; t++) {
            const int64_t n = t / blocks, c0 = (t % blocks) * CB, len = p->channels - c0 < CB ? p->channels - c0 : CB;
            if (missing || first[n] == first[n + 1])
                continue;
            load_block(&x, n, c0, len, blk);
            for (int64_t i = first[n]; i < first[n + 1]; i++)
                one_box(&x, order[i], c0, len, blk, ty, tx);
        }
    }
    if (missing)
        return snprintf(msg, cap, "the per-thread buffers were not booked"), EMU_KERNEL_ERR_INNER;
    return 0;
}

/* A box's taps along an axis of `pooled` bins: a fixed count's, or at most a box's sample limit (a box
 * asking for more is refused before its taps are made). */
static size_t taps_bound(const roi_plan *p, int64_t pooled)
{
    const int64_t most = EMU_ROI_MAX_SAMPLES_PER_BOX;
    if (p->samples <= 0 || pooled >= most || p->samples >= most)
        return (size_t)most;
    return (size_t)(p->samples * pooled < most ? p->samples * pooled : most);
}

void roi_book_forward(roi_plan *p)
{
    emu_scratch *s = &p->scratch;
    *s = (emu_scratch){0};
    const size_t K = (size_t)p->boxes;
    emu_scratch_book(s, ROI_SCRATCH_GEOMETRY, K, sizeof(box_geom), false);
    emu_scratch_book(s, ROI_SCRATCH_ORDER, K, sizeof(int64_t), false);
    emu_scratch_book(s, ROI_SCRATCH_FIRST, (size_t)p->batch + 1, sizeof(int64_t), false);
    emu_scratch_book(s, ROI_SCRATCH_THREAD_A, taps_bound(p, p->pooled_w), sizeof(axis_tap), true);
    emu_scratch_book(s, ROI_SCRATCH_THREAD_B, taps_bound(p, p->pooled_h), sizeof(axis_tap), true);
    emu_scratch_book(s, ROI_SCRATCH_THREAD_C, (size_t)(p->height * p->width * CB), sizeof(float), true);
}
