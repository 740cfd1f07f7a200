/*
 * aclnn-emu: aclnnUpsampleNearest2dV2.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H_
#define ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * 2-D nearest-neighbour resize with scales: source floor(i * ratio); on Atlas A2 the ratio is 1 / scale only
 * when both scales are positive (0.5 exactly where CANN's computeScale says so), else in / out.
 * Elements are copied whole: any listed dtype keeps its bits.
 *
 * @param self         (N, C, H, W) NCHW or (N, H, W, C) NHWC; FLOAT, FLOAT16, BF16, DOUBLE or UINT8
 * @param outputSize   host array (outH, outW), > 0
 * @param scalesH      scale factor outH / H; <= 0 when unset
 * @param scalesW      as scalesH, for W
 * @param out          self's dtype and format, (N, C, outH, outW) or (N, outH, outW, C)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for empty tensors)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument; ACLNN_ERR_PARAM_INVALID
 *          (161002) for, in CANN's order (empty tensors return first, with no kernel), the dtypes,
 *          outputSize's length, the ranks, the format, sizes, out's shape.
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest2dV2GetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, float scalesH, float scalesW, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleNearest2dV2(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_V2_H_ */
