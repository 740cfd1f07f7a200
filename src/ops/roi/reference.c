/*
 * The RoIAlign backward's reference kernel: what ROIAlignGrad computes,
 * written to be read, sample by sample in float32.
 *
 * gradInput starts at zero. Each box (in index order) with its image in
 * [0, B) and finite coordinates has, per axis, the geometry of roi.h: a bin
 * size, a sample count and sample positions. Every sample of bin (ph, pw)
 * at (y, x) that lands on the map (emu_roi_pixels: within [-1, H] x [-1, W],
 * clamped to the edge pixels) adds its bilinear share of that bin's
 * gradient, divided by the bin's sample count per axis, to four pixels:
 *     gradInput[img, c, y_lo or y_hi, x_lo or x_hi] += g * (wy / ny) * (wx / nx).
 * The fast path (backward.c) sums each axis' weights first and spreads their
 * outer products, so the two agree to float32 rounding, not bit for bit.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "roi.h"

/* Sample by sample costs samples x channels; beyond this the fast path (whose cost is the pixels a box
 * covers) is the only one that finishes. */
#define REFERENCE_MAX_UPDATES ((double)((int64_t)1 << 32))

/* Box k's geometry, or false when ROIAlignGrad skips it (no sample counts as one for the report). */
static bool box_of(const roi_plan *p, const emu_view *boxes, int64_t k, emu_roi_box *b, bool *no_sample)
{
    const float *row = (const float *)boxes->data + boxes->offset + k * boxes->strides[0];
    const int64_t cs = boxes->strides[1];
    const float r[5] = {row[0], row[cs], row[2 * cs], row[3 * cs], row[4 * cs]};
    *b = emu_roi_box_of(p, r);
    *no_sample = false;
    if (b->image < 0 || !b->finite || !isfinite(b->y.bin) || !isfinite(b->x.bin))
        return false;
    *no_sample = b->y.count <= 0 || b->x.count <= 0;
    return !*no_sample;
}

int roi_reference_backward(const emu_view *grad_output, const emu_view *boxes, const emu_view *grad_input,
                           const roi_plan *p, roi_backward_report *report, char *msg, size_t cap)
{
    *report = (roi_backward_report){.first_no_sample = -1};
    if (emu_view_numel(grad_input) == 0)
        return 0;
    const int64_t nk = emu_view_numel(grad_output) > 0 && emu_view_numel(boxes) > 0 ? p->boxes : 0;
    double updates = 0;
    for (int64_t k = 0; k < nk; k++) {
        emu_roi_box b;
        bool no_sample;
        if (box_of(p, boxes, k, &b, &no_sample))
            updates += (double)b.y.count * (double)b.x.count * (double)(p->pooled_h * p->pooled_w * p->channels);
        else if (no_sample && report->no_sample++ == 0)
            report->first_no_sample = k;
    }
    if (updates > REFERENCE_MAX_UPDATES) {
        snprintf(msg, cap, "aclnnRoiAlignV2Backward: the reference kernel (ACLNN_EMU_REFERENCE_KERNELS=1) would make "
                 "%.3g sample updates, above its bound of %.3g; the fast path computes this", updates,
                 REFERENCE_MAX_UPDATES);
        return EMU_KERNEL_ERR_PARAM_INVALID;
    }
    const int64_t *gs = grad_output->strides, *is = grad_input->strides;
    const float *g = (const float *)grad_output->data + grad_output->offset;
    float *gi = (float *)grad_input->data + grad_input->offset;
    /* Each channel's planes are one thread's: the boxes of every image go in index order. */
#pragma omp parallel for schedule(dynamic, 1) num_threads(p->threads)
    for (int64_t c = 0; c < p->channels; c++) {
        for (int64_t n = 0; n < p->batch; n++)
            for (int64_t y = 0; y < p->height; y++)
                for (int64_t x = 0; x < p->width; x++)
                    gi[n * is[0] + c * is[1] + y * is[2] + x * is[3]] = 0.0f;
        for (int64_t k = 0; k < nk; k++) {
            emu_roi_box b;
            bool no_sample;
            if (!box_of(p, boxes, k, &b, &no_sample))
                continue;
            float *plane = gi + b.image * is[0] + c * is[1];
            for (int64_t ph = 0; ph < p->pooled_h; ph++)
                for (int64_t pw = 0; pw < p->pooled_w; pw++) {
                    const float grad = g[k * gs[0] + c * gs[1] + ph * gs[2] + pw * gs[3]];
                    for (int64_t iy = 0; iy < b.y.count; iy++) {
                        int64_t y0, y1;
                        float fy;
                        if (!emu_roi_pixels(emu_roi_sample(&b.y, ph, iy), p->height, &y0, &y1, &fy))
                            continue;
                        const float wy[2] = {(1.0f - fy) * b.y.norm, fy * b.y.norm};
                        for (int64_t ix = 0; ix < b.x.count; ix++) {
                            int64_t x0, x1;
                            float fx;
                            if (!emu_roi_pixels(emu_roi_sample(&b.x, pw, ix), p->width, &x0, &x1, &fx))
                                continue;
                            const float wx[2] = {(1.0f - fx) * b.x.norm, fx * b.x.norm};
                            plane[y0 * is[2] + x0 * is[3]] += grad * (wy[0] * wx[0]);
                            plane[y0 * is[2] + x1 * is[3]] += grad * (wy[0] * wx[1]);
                            plane[y1 * is[2] + x0 * is[3]] += grad * (wy[1] * wx[0]);
                            plane[y1 * is[2] + x1 * is[3]] += grad * (wy[1] * wx[1]);
                        }
                    }
                }
        }
    }
    return 0;
}
