/*
 * aclnn-emu: aclnnUpsampleTrilinear3dBackward, the gradient of 3-D trilinear upsampling.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_TRILINEAR_3D_BACKWARD_H_
#define ACLNNOP_ACLNN_UPSAMPLE_TRILINEAR_3D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Scatters gradOut back onto gradInput as the transpose of aclnnUpsampleTrilinear3d's taps, a pass
 * per axis W, H, then D in float32; CANN steps by 1 / scale only when all three scales are positive.
 *
 * @param gradOut      (N, C, outD, outH, outW) NCDHW or ND, or (N, outD, outH, outW, C) NDHWC; FLOAT,
 *                     FLOAT16, BF16 or DOUBLE
 * @param outputSize   host array (outD, outH, outW)
 * @param inputSize    host array of 5, the forward input's shape in gradOut's layout
 * @param alignCorners as the forward's
 * @param scalesD      the forward's scale factor along D; <= 0 when unset
 * @param scalesH      as scalesD, for H
 * @param scalesW      as scalesD, for W
 * @param gradInput    gradOut's dtype, shape inputSize
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for empty tensors)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, the dtypes, the format, gradOut's rank, the arrays' lengths,
 *          sizes of 0, the shapes.
 */
ACLNN_API aclnnStatus aclnnUpsampleTrilinear3dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scalesD, double scalesH, double scalesW, aclTensor *gradInput, uint64_t *workspaceSize,
    aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleTrilinear3dBackward(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_TRILINEAR_3D_BACKWARD_H_ */
