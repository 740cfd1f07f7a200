/*
 * aclnn-emu: aclnnUpsampleNearestExact1dBackward, the gradient of 1-D nearest-exact upsampling.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT1D_BACKWARD_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT1D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Input index i takes gradOut [ceil(i * s - 0.5), ceil((i + 1) * s - 0.5)), s the scale when positive,
 * else gradOut's L over the input's (float32).
 *
 * @param gradOutput   (N, C, outL), NCL; FLOAT, FLOAT16 or BF16
 * @param outputSize   host array (outL)
 * @param inputSize    host array (N, C, L), the forward input's shape
 * @param scales       the forward's scale factor; <= 0 when unset (negative: refused)
 * @param out          gradOutput's dtype and format, shape inputSize
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty tensor)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, the dtypes, the formats, the ranks, the arrays' lengths, N and C, the scale, sizes of 0.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearestExact1dBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclIntArray *outputSize, const aclIntArray *inputSize, double scales,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearestExact1dBackward(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT1D_BACKWARD_H_ */
