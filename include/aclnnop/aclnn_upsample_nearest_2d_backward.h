/*
 * aclnn-emu: aclnnUpsampleNearest2dBackward, the gradient of 2-D nearest upsampling.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_BACKWARD_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Each gradInput element sums the gradOut elements the forward's index rule sent it: with a positive
 * scale along an axis, input index i takes gradOut [ceil(i * s), ceil((i + 1) * s)) (s the scale, or
 * gradOut's size over the input's where it is unset); with neither scale, gradOut index j goes to
 * floor(j * in / out) (float32; CANN's ResizeNearestNeighborV2Grad).
 *
 * @param gradOut      (N, C, outH, outW) NCHW or (N, outH, outW, C) NHWC; FLOAT, FLOAT16 or BF16
 * @param outputSize   host array (outH, outW)
 * @param inputSize    host array of 4, the forward input's shape in gradOut's layout
 * @param scalesH      the forward's scale factor along H; <= 0 when unset
 * @param scalesW      as scalesH, for W
 * @param gradInput    gradOut's dtype, shape inputSize
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty tensor)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, the dtypes, gradOut's rank, the arrays' lengths, N and C, sizes of 0 and gradOut's shape.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest2dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, double scalesH,
    double scalesW, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest2dBackward(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_BACKWARD_H_ */
