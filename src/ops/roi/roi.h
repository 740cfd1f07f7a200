/*
 * The RoI family: the plans of the RoIAlign forward (ROIAlign) and backward
 * (ROIAlignGrad) kernels, their kernels' prototypes and run step, and the
 * box geometry, one for both directions (the forward ROIAlign
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

#include "../../kernel/kernel.h"

/* One plan for both directions: what phase one decided, in the terms of CANN's kernels (float32). */
typedef struct roi_plan {
    int64_t batch, channels, height, width; /* the feature map (N, C, H, W): self, or gradInput */
    int64_t boxes;                          /* K */
    int64_t pooled_h, pooled_w;
    float pooled_h_reciprocal, pooled_w_reciprocal; /* fl(1 / pooled): 910B multiplies by them */
    float spatial_scale;
    int32_t samples;          /* the sampling ratio cast to int32 (as the tilings do): > 0 fixed, else adaptive */
    float samples_reciprocal; /* fl(1 / samplingRatio) of the uncast value */
    int32_t roi_end_mode;     /* 0: as given, 1: end + scale, 2: half-pixel shift (torch aligned) */
    bool max_mode;            /* the forward's pool_mode "max", else "avg" */
    bool soc950;              /* Ascend950's kernels (the backward's arch35 SIMT kernel), else 910B's TBE ones */
    int threads;              /* set by the run step: OpenMP threads the kernel may use */
    bool reference;           /* set by the run step: the reference kernel (ACLNN_EMU_REFERENCE_KERNELS=1) */
    emu_scratch scratch;      /* booked by roi_book_forward/backward, granted by the run step */
} roi_plan;

/* The family's scratch keys (kernel.h's booking). */
enum {
    ROI_SCRATCH_GEOMETRY, /* each box in the kernel's terms */
    ROI_SCRATCH_ORDER,    /* boxes grouped by image (roi_group_by_image) */
    ROI_SCRATCH_FIRST,    /* where each image's boxes start in the order */
    ROI_SCRATCH_KEYS,     /* the backward's sort keys within an image */
    ROI_SCRATCH_BOX_BINS, /* the backward: one box's bin ranges */
    ROI_SCRATCH_BINS,     /* the backward: a chunk's bin ranges */
    ROI_SCRATCH_WEIGHTS,  /* the backward: a chunk's per-axis weights */
    ROI_SCRATCH_SEPARABLE,
    ROI_SCRATCH_THREAD_A, /* per thread: the forward's x taps; the backward's weight sums */
    ROI_SCRATCH_THREAD_B, /* per thread: the forward's y taps; the backward's band row */
    ROI_SCRATCH_THREAD_C, /* per thread: the forward's channel block; the backward's band */
};

/* Books in p->scratch what the forward (backward) kernel takes for the plan (p->threads and p->reference set;
 * any_boxes: the backward has boxes and gradOutput values to scatter). */
void roi_book_forward(roi_plan *p);
void roi_book_backward(roi_plan *p, bool any_boxes);

/* A box's bins along both axes, pooled_h + pooled_w, saturated at 2^41: pooled sizes up to INT64_MAX pass
 * phase one when there are no boxes or channels (an empty gradOutput), and the sum must not overflow. */
static inline int64_t roi_bins(const roi_plan *p)
{
    const int64_t cap = (int64_t)1 << 40;
    return p->pooled_h > cap || p->pooled_w > cap ? 2 * cap : p->pooled_h + p->pooled_w;
}

/* Boxes grouped by image, each group in index order (a stable counting sort): the boxes of image b are
 * order[first[b] .. first[b + 1]) (first has batch + 1 entries); boxes whose image_of is < 0 are left out. */
void roi_group_by_image(int64_t boxes, int64_t batch, int64_t (*image_of)(const void *ctx, int64_t k),
                        const void *ctx, int64_t *first, int64_t *order);

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
static inline int64_t emu_roi_image(const roi_plan *r, float id)
{
    const double v = r->soc950 ? trunc((double)id) : floor((double)id);
    return v >= 0 && v < (double)r->batch ? (int64_t)v : -1;
}

static inline emu_roi_axis emu_roi_axis_of(const roi_plan *r, float start, float end, int64_t pooled,
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
static inline emu_roi_box emu_roi_box_of(const roi_plan *r, const float row[5])
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

/* Where a gradient sample lands (ROIAlignGrad): pixels lo/hi with weights 1-f and f; false when it is
 * outside [-1, extent] and contributes nothing. */
static inline bool emu_roi_pixels(float t, int64_t extent, int64_t *lo, int64_t *hi, float *f)
{
    if (!(t >= -1.0f && t <= (float)extent))
        return false;
    float x = t > 0.0f ? t : 0.0f;
    int64_t l = (int64_t)x;
    if (l >= extent - 1) {
        *lo = *hi = extent - 1;
        *f = 0.0f;
    } else {
        *lo = l;
        *hi = l + 1;
        *f = x - (float)l;
    }
    return true;
}

/* ---- the forward: aclnnRoiAlignV2 and aclnnRoiAlign (CANN's l0 ROIAlign) ---- */

/* The kernel's report on boxes CANN accepts but surely are bugs. */
typedef struct roi_align_report {
    int64_t skipped;        /* image index outside [0, N), or no sample (adaptive count <= 0): CANN
                               leaves their output unwritten; here zeros */
    int64_t first_skipped;  /* the first such box, or -1 */
    int64_t nonfinite;      /* boxes with a NaN or infinite coordinate (computed as CANN would) */
    int64_t too_many;       /* boxes beyond EMU_ROI_MAX_SAMPLES_PER_BOX (the launch fails) */
    int64_t first_too_many;
} roi_align_report;

/* Workspace CANN's phase one reports for the ROIAlign path (an estimate of the executor's total: the tilings'
 * workspaces plus the op_api's intermediate tensors, as opbase's aclOpExecutor::GetWorkspaceSize sums them): self
 * in NC1HWC0, the kernel's NC1HWC0 result and its TransData back to NCHW, each 512-byte aligned; the op files add
 * their Contiguous copies and box preparation. */
static inline uint64_t roi_align_workspace(const roi_plan *p, size_t item)
{
    const int64_t c1x16 = (p->channels + 15) / 16 * 16;
    const int64_t parts[3] = {p->batch * c1x16 * p->height * p->width, p->boxes * c1x16 * p->pooled_h * p->pooled_w,
                              p->boxes * p->channels * p->pooled_h * p->pooled_w};
    uint64_t total = 0;
    for (int i = 0; i < 3; i++)
        total += ((uint64_t)parts[i] * item + 511) / 512 * 512;
    return total;
}

/* out = ROIAlign(self, rois): rois is (K, 5) (image index, x1, y1, x2, y2),
 * or (K, 4) with the index from batch_indices (aclnnRoiAlign). 0 or a status plus message. */
int roi_align_kernel(const emu_view *self, const emu_view *rois, const emu_view *batch_indices, const emu_view *out,
                     const roi_plan *p, roi_align_report *report, char *msg, size_t cap);

/* ---- the backward: aclnnRoiAlignV2Backward (ROIAlignGrad) ---- */

/* Boxes on an image whose sample count is 0 on an axis (910B's adaptive count ceil(bin) for a box of no
 * size): they contribute nothing, as the forward leaves their output unwritten. */
typedef struct roi_backward_report {
    int64_t no_sample, first_no_sample;
} roi_backward_report;

int roi_align_v2_backward_kernel(const emu_view *grad_output, const emu_view *boxes, const emu_view *grad_input,
                                 const roi_plan *p, roi_backward_report *report, char *msg, size_t cap);

/* The reference kernel of the backward (reference.c): sample by sample, the specification of the fast
 * path (which sums each axis' sample weights first, then spreads their outer products). */
int roi_reference_backward(const emu_view *grad_output, const emu_view *boxes, const emu_view *grad_input,
                           const roi_plan *p, roi_backward_report *report, char *msg, size_t cap);

#endif /* ACLNN_EMU_ROI_H_ */
