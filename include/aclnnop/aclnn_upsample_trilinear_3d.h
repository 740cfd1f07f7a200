/*
 * aclnn-emu: aclnnUpsampleTrilinear3d, 3-D trilinear upsampling (and downsampling).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_TRILINEAR_3D_H_
#define ACLNNOP_ACLNN_UPSAMPLE_TRILINEAR_3D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Resizes each (N, C) volume of self to outputSize by trilinear interpolation, as
 * torch.nn.functional.interpolate(mode="trilinear"): passes along W, H, then D in float32. CANN's
 * kernel steps by 1 / scale only when all three scales are positive, else by the sizes' ratio.
 *
 * @param self         (N, C, D, H, W) NCDHW or ND, or (N, D, H, W, C) NDHWC; FLOAT, FLOAT16, BF16 (and
 *                     DOUBLE on Atlas A2); any strides
 * @param outputSize   host array (outD, outH, outW), > 0
 * @param alignCorners align corner sample centres (true) or edges (false)
 * @param scalesD      scale factor outD / D; <= 0 when unset
 * @param scalesH      as scalesD, for H
 * @param scalesW      as scalesD, for W
 * @param out          self's dtype and layout, (N, C, outD, outH, outW) or (N, outD, outH, outW, C)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty self)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, the dtypes, the format, the ranks, outputSize's length, sizes of
 *          0, C = 0, out's shape, dims above INT32_MAX.
 */
ACLNN_API aclnnStatus aclnnUpsampleTrilinear3dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, bool alignCorners, double scalesD, double scalesH,
    double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleTrilinear3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_TRILINEAR_3D_H_ */
