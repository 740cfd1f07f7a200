/*
 * Plan shared by the upsample backward operator file and its kernel.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_UPSAMPLE_BILINEAR2D_BACKWARD_V2_H_
#define ACLNN_EMU_UPSAMPLE_BILINEAR2D_BACKWARD_V2_H_

#include "../../kernel/kernel.h"

typedef struct upsample_plan {
    int64_t n, c, h, w, out_h, out_w;
    double ratio_h, ratio_w; /* source step per output index, as CANN's rule decides */
    bool align_corners;
    bool nhwc;
} upsample_plan;

/* Computes out from grad_out (views of the launch). 0 or a status plus message. */
int upsample_bilinear2d_backward_kernel(const emu_view *grad_out, const emu_view *out, const upsample_plan *p,
                                        char *msg, size_t cap);

#endif
