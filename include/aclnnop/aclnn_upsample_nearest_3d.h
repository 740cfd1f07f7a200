/*
 * aclnn-emu: aclnnUpsampleNearest3d.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * 3-D nearest-neighbour resize, as torch.nn.functional.interpolate(mode="nearest"): source floor(i * ratio),
 * ratio 1 / scale when all three scales are positive, else in / out.
 * Elements are copied whole: any listed dtype keeps its bits.
 *
 * @param self         (N, C, D, H, W) NCDHW or (N, D, H, W, C) NDHWC; FLOAT, FLOAT16, BF16, DOUBLE (and UINT8 on
 *                     Ascend950)
 * @param outputSize   host array (outD, outH, outW), > 0
 * @param scalesD      scale factor outD / D; <= 0 when unset
 * @param scalesH      as scalesD, for H
 * @param scalesW      as scalesD, for W
 * @param out          self's dtype and layout, (N, C, outD, outH, outW) or (N, outD, outH, outW, C)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for empty tensors)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order, dtypes, ranks, outputSize's length, sizes of 0, out's shape.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest3dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, double scalesD, double scalesH, double scalesW,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest3d(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_H_ */
