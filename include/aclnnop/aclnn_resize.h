/*
 * aclnn-emu: aclnnResize, resizes an image by nearest or bilinear interpolation.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_RESIZE_H_
#define ACLNNOP_ACLNN_RESIZE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * out's H and W are the result's size; scales, (N, C, H, W) factors in self's layout, are only checked
 * against them: out's H must lie in [int(H * (scaleH - 1e-5)), int(H * (scaleH + 1e-5))], and W likewise.
 * "nearest" (any mode starting so) reads source floor(dst * in / out); "bilinear" (likewise) the
 * half-pixel taps of (dst + 0.5) * in / out - 0.5, weighted per pixel (float32; CANN's
 * ResizeNearestNeighborV2 and ResizeBilinearV2).
 *
 * @param self         (N, C, H, W) NCHW or (N, H, W, C) NHWC; FLOAT, FLOAT16 or BF16
 * @param scales       host float array of 4, in self's layout
 * @param mode         "nearest" or "bilinear"
 * @param out          self's dtype and format, (N, C, outH, outW)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty tensor)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, the mode, the dtypes, the formats, N and C, out's H and W against the scales, the ranks and scales' length.
 */
ACLNN_API aclnnStatus aclnnResizeGetWorkspaceSize(
    const aclTensor *self, const aclFloatArray *scales, const char *mode, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnResize(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_RESIZE_H_ */
