/*
 * aclnn-emu: aclnnUpsampleLinear1d, 1-D linear upsampling (and downsampling).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_H_
#define ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Resizes each (N, C) row of self to outputSize by linear interpolation, as
 * torch.nn.functional.interpolate(mode="linear"). CANN's kernel steps by
 * 1 / scale for a positive scale, else by the sizes' ratio; on Atlas A2 a
 * scale >= 0 must reproduce outputSize (int64(L * scale) == outL), so pass a
 * negative one to leave it unset.
 *
 * @param self         (N, C, L), FLOAT, FLOAT16 or BF16; any strides
 * @param outputSize   host array (outL); outL > 0
 * @param alignCorners align corner sample centres (true) or edges (false)
 * @param scale        scale factor outL / L; < 0 when unset (Atlas A2 refuses 0 unless it fits)
 * @param out          self's dtype, (N, C, outL)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty batch)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL self, out or outputSize (and
 *          workspaceSize, executor); ACLNN_ERR_PARAM_INVALID (161002) for, in this order, the ranks,
 *          outputSize's length, an empty C or L, outL, out's shape, a scale that contradicts
 *          outputSize, the dtypes.
 */
ACLNN_API aclnnStatus aclnnUpsampleLinear1dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                            const bool alignCorners, const double scale,
                                                            aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnUpsampleLinear1d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_H_ */
