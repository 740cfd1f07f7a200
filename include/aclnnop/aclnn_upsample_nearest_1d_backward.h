/*
 * aclnn-emu: aclnnUpsampleNearest1dBackward, the gradient of 1-D nearest upsampling.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_BACKWARD_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Each out element sums the gradOut elements the forward's index rule sent it (the rule of the kernel
 * CANN's op_api picks: with a positive scale that reproduces gradOut's L, input index i takes gradOut
 * [ceil(i * s), ceil((i + 1) * s)); else gradOut index j goes to floor(j * L / outL), float32).
 *
 * @param gradOut      (N, C, outL), NCL; FLOAT, FLOAT16, DOUBLE or BF16
 * @param outputSize   host array (outL)
 * @param inputSize    host array (N, C, L), the forward input's shape
 * @param scales       the forward's scale factor; <= 0 when unset
 * @param out          gradOut's dtype, shape inputSize
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty tensor)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, the rank and the arrays' lengths, the dtypes, sizes of 0 and gradOut's shape, N and C.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest1dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, double scales,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest1dBackward(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_BACKWARD_H_ */
