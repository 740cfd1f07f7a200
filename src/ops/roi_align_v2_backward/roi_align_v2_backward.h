/*
 * Plan shared by the RoIAlign backward operator file and its kernel.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_ROI_ALIGN_V2_BACKWARD_H_
#define ACLNN_EMU_ROI_ALIGN_V2_BACKWARD_H_

#include "../../kernel/kernel.h"

typedef struct roi_plan {
    int64_t batch, channels, height, width; /* gradInput (B, C, H, W) */
    int64_t boxes;                          /* K */
    int64_t pooled_h, pooled_w;
    double spatial_scale;
    int64_t sampling_ratio; /* 0: adaptive */
    bool aligned;
} roi_plan;

int roi_align_v2_backward_kernel(const emu_view *grad_output, const emu_view *boxes, const emu_view *grad_input,
                                 const roi_plan *p, char *msg, size_t cap);

#endif
