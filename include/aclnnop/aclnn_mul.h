/*
 * aclnn-emu: aclnnMul, out = self * other, with broadcasting and dtype
 * promotion (CANN's ops-math, math/mul).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_MUL_H_
#define OP_API_INC_LEVEL2_ACLNN_MUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * out = self * other, elementwise, broadcast as aclnnAdd, in the promoted
 * dtype, then cast to out's. FLOAT16, BF16 and FLOAT compute in FLOAT and
 * round to nearest even; integers wrap; BOOL multiplies as a logical and.
 *
 * @param self, other  as aclnnAdd's
 * @param out          the broadcast shape; a dtype of the same list that the promoted one casts to
 *                     (Ascend950 checks only the list)
 * @param workspaceSize [out] bytes of workspace phase two needs
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS (nothing runs when self or other is empty); ACLNN_ERR_PARAM_NULLPTR
 *          (161001) for a NULL self, other or out (and workspaceSize, executor);
 *          ACLNN_ERR_PARAM_INVALID (161002) for, in this order, a dtype outside the list, dtypes
 *          that do not promote, an out dtype the result does not cast to, more than 8 dims, shapes
 *          that do not broadcast, out's shape.
 */
ACLNN_API aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                               uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_MUL_H_ */
