/*
 * aclnn-emu: aclnnUpsampleNearest3dBackward, the gradient of 3-D nearest upsampling.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_BACKWARD_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Each gradInput element sums the gradOut elements its forward index rule sent it: along each axis
 * the input index i takes gradOut [ceil(i * s), ceil((i + 1) * s)), s the scale when all three
 * are positive, else gradOut's size over the input's (float32).
 *
 * @param gradOut      (N, C, outD, outH, outW) NCDHW or (N, outD, outH, outW, C) NDHWC; FLOAT, FLOAT16, BF16 or DOUBLE
 * @param outputSize   host array (outD, outH, outW)
 * @param inputSize    host array of 5, the forward input's shape in gradOut's layout
 * @param scalesD      the forward's scale factor along D; <= 0 when unset
 * @param scalesH      as scalesD, for H
 * @param scalesW      as scalesD, for W
 * @param gradInput    gradOut's dtype, shape inputSize
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty gradOut)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, the dtypes, gradOut's rank, the arrays' lengths, sizes of 0, the
 *          shapes.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest3dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, double scalesD,
    double scalesH, double scalesW, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest3dBackward(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_BACKWARD_H_ */
