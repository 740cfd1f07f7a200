/*
 * Plan shared by the upsample forward operator file and its kernel.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_UPSAMPLE_BILINEAR2D_H_
#define ACLNN_EMU_UPSAMPLE_BILINEAR2D_H_

#include "../../kernel/kernel.h"

/* Which of CANN's kernels the op_api dispatches to (910B). */
typedef enum resize_path {
    RESIZE_PATH_UPSAMPLE,  /* UpsampleBilinear2d (AscendC): the scales' ratio, passes at ratio 1 skipped */
    RESIZE_PATH_RESIZE_V2, /* ResizeBilinearV2 (TBE AI Core, or AI CPU for DOUBLE): the sizes' ratio */
    RESIZE_PATH_COPY,      /* equal sizes on the UpsampleBilinear2d path: the input itself */
} resize_path;

typedef struct resize_plan {
    int64_t n, c, h, w, out_h, out_w;
    float ratio_h, ratio_w; /* source step per output index, float32 as CANN's tilings compute it */
    bool skip_h, skip_w;    /* the AscendC kernel skips that pass: a plain copy along the axis */
    bool align_corners;
    bool nhwc;
    resize_path path;
    int64_t cube_cores; /* the SoC's AI cores: UpsampleBilinear2d's tiling sizes its tiles by them */
} resize_plan;

/* Computes out from self (views of the launch). 0 or a status plus message. */
int upsample_bilinear2d_kernel(const emu_view *self, const emu_view *out, const resize_plan *p, char *msg,
                               size_t cap);

#endif
