/*
 * aclnn-emu: aclnnUpsampleNearestExact1d.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT1D_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT1D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * 1-D nearest-exact resize, as torch.nn.functional.interpolate(mode="nearest-exact"): source
 * floor((i + 0.5) * ratio), ratio 1 / scales when positive, else in / out.
 * Elements are copied whole: any listed dtype keeps its bits.
 *
 * @param self         (N, C, L); FLOAT, FLOAT16, BF16 (and UINT8 on Atlas A2); any strides
 * @param outputSize   host array (outL), > 0
 * @param scales       scale factor outL / L; <= 0 when unset
 * @param out          self's dtype, (N, C, outL) (CANN does not check its shape; the emulator does)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for empty tensors)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, dtypes, sizes of 0 (read before the rank), the rank, outputSize's length,
 *          out's shape.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearestExact1dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, double scales, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearestExact1d(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT1D_H_ */
