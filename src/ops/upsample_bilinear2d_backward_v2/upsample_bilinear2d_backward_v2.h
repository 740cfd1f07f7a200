/*
 * Plan shared by the upsample backward operator file and its kernel.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_UPSAMPLE_BILINEAR2D_BACKWARD_V2_H_
#define ACLNN_EMU_UPSAMPLE_BILINEAR2D_BACKWARD_V2_H_

#include "../../kernel/kernel.h"

/* Which of CANN's kernels the op_api dispatches to (V2, and V1 in upsample_bilinear2d_backward.c). */
typedef enum upsample_path {
    UPSAMPLE_PATH_UPSAMPLE_GRAD,  /* UpsampleBilinear2dGrad (AscendC): scales honoured */
    UPSAMPLE_PATH_RESIZE_V2_GRAD, /* ResizeBilinearV2Grad (TBE): the sizes' ratio */
    UPSAMPLE_PATH_NO_KERNEL,      /* none (Ascend950 with equal sizes) */
    UPSAMPLE_PATH_COPY,           /* the V1 op_api with equal sizes: gradOut copied as is, any dtype */
} upsample_path;

typedef struct upsample_plan {
    int64_t n, c, h, w, out_h, out_w; /* w, h: the forward input's; out_*: gradOut's */
    float ratio_h, ratio_w;           /* source step per gradOut index (the tiling's scale), float32 */
    bool identity_h, identity_w;      /* the kernel skips that pass: a plain copy along the axis */
    bool align_corners;
    bool nhwc;                        /* gradOut's storage format */
    upsample_path path;
} upsample_plan;

/* Computes out from grad_out (views of the launch). 0 or a status plus message. */
int upsample_bilinear2d_backward_kernel(const emu_view *grad_out, const emu_view *out, const upsample_plan *p,
                                        char *msg, size_t cap);

#endif
