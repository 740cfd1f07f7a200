/*
 * aclnn-emu: aclnnUpsampleNearestExact3d.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT3D_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT3D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * 3-D nearest-exact resize, as torch.nn.functional.interpolate(mode="nearest-exact"): source
 * floor((i + 0.5) * ratio), ratio 1 / scale when all three scales are positive (and then each output size
 * must be int64(in * scale)), else in / out.
 * Elements are copied whole: any listed dtype keeps its bits.
 *
 * @param self         (N, C, D, H, W) NCDHW or (N, D, H, W, C) NDHWC; FLOAT, FLOAT16 or BF16
 * @param outputSize   host array (outD, outH, outW), > 0
 * @param scalesD      scale factor outD / D; <= 0 when unset
 * @param scalesH      as scalesD, for H
 * @param scalesW      as scalesD, for W
 * @param out          self's dtype and layout, (N, C, outD, outH, outW) or (N, outD, outH, outW, C)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for empty tensors)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, dtypes, ranks, outputSize's length, sizes of 0, scales that contradict
 *          outputSize, out's shape.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearestExact3dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, double scalesD, double scalesH, double scalesW,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearestExact3d(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_EXACT3D_H_ */
