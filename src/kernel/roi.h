/*
 * The RoIAlign box geometry, one for both directions (the forward ROIAlign
 * and the backward ROIAlignGrad read a box the same way on a SoC): which
 * image a box row names, where its bins start, how many samples a bin takes
 * and where they land, in the kernels' float32.
 *
 * 910B (CANN's TBE kernels): the float image id is floored; a bin is the
 * box's size times fl(1 / pooled); a fixed count spaces samples bin *
 * fl(1 / count) apart, the adaptive count is ceil(bin) (0 for a box of no
 * size: no sample) spaced bin / count; sample i of bin b is at
 * start + (b * count + i + 0.5) * step.
 * Ascend950 (the arch35 SIMT kernel, backward only): the id is truncated
 * toward zero; bin = size / pooled; the adaptive count is at least 1; sample
 * i of bin b is at (start + b * bin) + (i + 0.5) * bin / count.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_ROI_H_
#define ACLNN_EMU_ROI_H_

#include <math.h>

#include "kernel.h"

/* What decides a box's geometry: the operator's attributes and the SoC. */
typedef struct emu_roi_rules {
    int64_t batch;
    int64_t pooled_h, pooled_w;
    float pooled_h_reciprocal, pooled_w_reciprocal; /* fl(1 / pooled): 910B multiplies by them */
    float spatial_scale;
    int32_t samples;          /* > 0: a fixed count (the int32 the tiling casts to), else adaptive */
    float samples_reciprocal; /* fl(1 / samplingRatio) of the uncast value */
    int32_t roi_end_mode;     /* 0: as given, 1: end + scale, 2: half-pixel shift (torch aligned) */
    bool soc950;
} emu_roi_rules;

typedef struct emu_roi_axis {
    float start, bin, step; /* roi start, bin size, sample spacing (910B) */
    int64_t count;          /* samples per bin (<= 0: none) */
    float norm;             /* 1 / count, each sample's weight factor */
    bool simt;              /* Ascend950's positions */
} emu_roi_axis;

typedef struct emu_roi_box {
    int64_t image; /* -1: outside [0, batch) */
    emu_roi_axis y, x;
    bool finite; /* every coordinate (after scaling) finite */
} emu_roi_box;

/* float -> int32 as the NPU's conversions saturate (NaN: 0). */
static inline int64_t emu_roi_i32(double v)
{
    if (!(v == v))
        return 0;
    return v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int64_t)v;
}

/* The image a box row names, or -1 when outside [0, batch). */
static inline int64_t emu_roi_image(const emu_roi_rules *r, float id)
{
    const double v = r->soc950 ? trunc((double)id) : floor((double)id);
    return v >= 0 && v < (double)r->batch ? (int64_t)v : -1;
}

static inline emu_roi_axis emu_roi_axis_of(const emu_roi_rules *r, float start, float end, int64_t pooled,
                                           float pooled_reciprocal)
{
    emu_roi_axis a = {.start = start, .simt = r->soc950};
    float len = end - start;
    if (r->roi_end_mode < 2 && len < 1.0f)
        len = 1.0f; /* modes 0 and 1: at least one pixel (NaN stays NaN) */
    if (r->soc950) {
        a.bin = len / (float)pooled;
        const int64_t adaptive = emu_roi_i32(ceil((double)(len / (float)pooled)));
        a.count = r->samples > 0 ? r->samples : (adaptive > 1 ? adaptive : 1);
    } else {
        a.bin = len * pooled_reciprocal;
        if (r->samples > 0) {
            a.count = r->samples;
            a.step = a.bin * r->samples_reciprocal;
        } else {
            a.count = emu_roi_i32(ceil((double)a.bin));
            a.step = a.bin / (float)a.count;
        }
    }
    a.norm = 1.0f / (float)a.count;
    return a;
}

/* A box row (image id, x1, y1, x2, y2), float32. */
static inline emu_roi_box emu_roi_box_of(const emu_roi_rules *r, const float row[5])
{
    emu_roi_box g = {.image = emu_roi_image(r, row[0])};
    const float sc = r->spatial_scale;
    float x1 = row[1] * sc, y1 = row[2] * sc, x2 = row[3] * sc, y2 = row[4] * sc;
    if (r->roi_end_mode == 1) {
        x2 = x2 + sc;
        y2 = y2 + sc;
    } else if (r->roi_end_mode > 1) {
        x1 -= 0.5f;
        y1 -= 0.5f;
        x2 -= 0.5f;
        y2 -= 0.5f;
    }
    g.y = emu_roi_axis_of(r, y1, y2, r->pooled_h, r->pooled_h_reciprocal);
    g.x = emu_roi_axis_of(r, x1, x2, r->pooled_w, r->pooled_w_reciprocal);
    g.finite = isfinite(x1) && isfinite(y1) && isfinite(x2) && isfinite(y2);
    return g;
}

/* Sample i of bin b along an axis, as the kernel computes it (float32; the build turns fused multiply-add off). */
static inline float emu_roi_sample(const emu_roi_axis *a, int64_t b, int64_t i)
{
    if (a->simt)
        return (a->start + (float)b * a->bin) + ((float)i + 0.5f) * a->bin / (float)a->count;
    return ((float)(b * a->count + i) + 0.5f) * a->step + a->start;
}

#endif /* ACLNN_EMU_ROI_H_ */
