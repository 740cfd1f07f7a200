/*
 * aclnn-emu: aclnnUpsampleLinear1dBackward, the gradient of 1-D linear upsampling.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_BACKWARD_H_
#define ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Scatters gradOut back onto out as the transpose of aclnnUpsampleLinear1d's taps, in float32.
 * CANN steps by 1 / scales when outL == floor(inL * scales) (or scales is 0), else by the sizes'
 * ratio; an unchanged shape copies gradOut.
 *
 * @param gradOut      (N, C, outL), FLOAT, FLOAT16 or BF16; any strides
 * @param outputSize   host array (outL)
 * @param inputSize    host array (N, C, inL), the forward input's shape
 * @param alignCorners as the forward's
 * @param scales       the forward's scale factor outL / inL; 0 when unset
 * @param out          gradOut's dtype, shape inputSize
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty gradOut)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, gradOut's rank, the arrays' lengths, the dtypes, sizes of 0,
 *          gradOut's shape, out's N and C (and shape), a scale above 500.
 */
ACLNN_API aclnnStatus aclnnUpsampleLinear1dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scales, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleLinear1dBackward(void *workspace, uint64_t workspaceSize,
                                                    aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_BACKWARD_H_ */
