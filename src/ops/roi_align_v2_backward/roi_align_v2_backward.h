/*
 * Plan shared by the RoIAlign backward operator file and its kernel.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_ROI_ALIGN_V2_BACKWARD_H_
#define ACLNN_EMU_ROI_ALIGN_V2_BACKWARD_H_

#include "../../kernel/roi.h"

/* What phase one decided, in the terms of CANN's kernels (float32). */
typedef struct roi_plan {
    int64_t batch, channels, height, width; /* gradInput (B, C, H, W) */
    int64_t boxes;                          /* K */
    int64_t pooled_h, pooled_w;
    float spatial_scale;
    int32_t samples;                        /* samplingRatio cast to int32: > 0 fixed count, else adaptive */
    float samples_reciprocal;               /* 1.0f / (float)samplingRatio, from the int64 value (tiling) */
    float pooled_h_reciprocal, pooled_w_reciprocal; /* 1.0f / pooled (910B multiplies by them) */
    bool aligned;                           /* roi_end_mode 2 */
    bool soc950;                            /* Ascend950's SIMT kernel, else 910B's TBE kernel */
} roi_plan;

/* Boxes on an image whose sample count is 0 on an axis (910B's adaptive count ceil(bin) for a box of no
 * size): they contribute nothing, as the forward leaves their output unwritten. */
typedef struct roi_backward_report {
    int64_t no_sample, first_no_sample;
} roi_backward_report;

int roi_align_v2_backward_kernel(const emu_view *grad_output, const emu_view *boxes, const emu_view *grad_input,
                                 const roi_plan *p, roi_backward_report *report, char *msg, size_t cap);

#endif
