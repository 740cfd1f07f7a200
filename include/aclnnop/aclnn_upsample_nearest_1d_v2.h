/*
 * aclnn-emu: aclnnUpsampleNearest1dV2.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * 1-D nearest-neighbour resize with a scale: source floor(i * ratio), ratio 1 / scaleL when positive, else in / out.
 * Elements are copied whole: any listed dtype keeps its bits.
 *
 * @param self         (N, C, L) NCL; FLOAT, FLOAT16, BF16, DOUBLE or UINT8; any strides
 * @param outputSize   host array (outL); must equal out's L
 * @param scaleL       scale factor outL / L; <= 0 when unset
 * @param out          self's dtype and format, (N, C, outL)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for empty tensors)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, dtypes, outputSize's length, the ranks, out's L, sizes of 0, the formats.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest1dV2GetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, float scaleL, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest1dV2(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H_ */
