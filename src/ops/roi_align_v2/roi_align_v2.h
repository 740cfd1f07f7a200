/*
 * Plan shared by the RoIAlign forward operator files (aclnnRoiAlignV2 and
 * aclnnRoiAlign, which both run CANN's l0 ROIAlign) and their kernel.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_ROI_ALIGN_V2_H_
#define ACLNN_EMU_ROI_ALIGN_V2_H_

#include "../../kernel/kernel.h"

/* ROIAlign's attributes as CANN's TBE kernel (roi_align.py) receives them. */
typedef struct roi_align_plan {
    int64_t batch, channels, height, width; /* self (N, C, H, W) */
    int64_t boxes;                          /* K */
    int64_t pooled_h, pooled_w;
    float spatial_scale;
    int32_t samples;                        /* sample_num cast to int32: > 0 fixed count, else adaptive */
    float samples_reciprocal;               /* 1.0f / samples */
    float pooled_h_reciprocal, pooled_w_reciprocal;
    int32_t roi_end_mode;                   /* 0: as given, 1: end + 1, 2: half-pixel shift (torch aligned) */
    bool max_mode;                          /* pool_mode "max", else "avg" */
} roi_align_plan;

/* The kernel's report on boxes CANN accepts but surely are bugs. */
typedef struct roi_align_report {
    int64_t skipped;        /* image index outside [0, N), or no sample (adaptive count <= 0): CANN
                               leaves their output unwritten; here zeros */
    int64_t first_skipped;  /* the first such box, or -1 */
    int64_t nonfinite;      /* boxes with a NaN or infinite coordinate (computed as CANN would) */
    int64_t too_many;       /* boxes beyond EMU_ROI_MAX_SAMPLES_PER_BOX (the launch fails) */
    int64_t first_too_many;
} roi_align_report;

/* Workspace CANN's phase one reports for the ROIAlign path (an estimate of
 * the executor's total, fidelity.md rule 10): self in NC1HWC0, the kernel's
 * NC1HWC0 result and its TransData back to NCHW, each 512-byte aligned;
 * the op files add their Contiguous copies and box preparation. */
static inline uint64_t roi_align_workspace(const roi_align_plan *p, size_t item)
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
                     const roi_align_plan *p, roi_align_report *report, char *msg, size_t cap);

/* The run step both RoIAlign forward APIs share (defined in roi_align_v2.c, an op file: it
 * reports the boxes CANN accepts but surely are bugs as warnings, or errors in strict mode). */
int roi_align_run(const char *op, const emu_view *self, const emu_view *rois, const emu_view *batch_indices,
                  const emu_view *out, const roi_align_plan *p, char *msg, size_t cap);

#endif
