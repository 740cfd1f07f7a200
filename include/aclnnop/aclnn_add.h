/*
 * aclnn-emu: aclnnAdd, out = self + alpha * other, with broadcasting and
 * dtype promotion (CANN's ops-math, math/add).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef OP_API_INC_ADD_H_
#define OP_API_INC_ADD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * out = self + alpha * other, elementwise, self and other broadcast against
 * each other (numpy's rule, at most 8 dims). The computation runs in the
 * promoted dtype of self and other (PyTorch's promotion: bool < integers <
 * floats < complex; FLOAT16 with BF16 gives FLOAT), then is cast to out's.
 * As CANN's kernels: FLOAT16, BF16 and FLOAT compute in FLOAT and round to
 * nearest even; integers wrap; BOOL adds as a logical or. On Atlas A2 an
 * alpha other than 1 on BF16 or 8-, 16- and 64-bit integers multiplies
 * (rounded) and then adds; on INT32 it computes in FLOAT and truncates.
 *
 * @param self, other  FLOAT, FLOAT16, BF16 (not Atlas 300I/800), DOUBLE, INT8, UINT8, INT16, INT32,
 *                     INT64, BOOL, COMPLEX64, COMPLEX128; any strides, ND
 * @param alpha        host scalar; its dtype must cast to the promoted one (integral or BOOL when
 *                     that is BOOL)
 * @param out          the broadcast shape; a dtype the promoted one casts to (no float to integer,
 *                     no complex to real, nothing but BOOL to BOOL)
 * @param workspaceSize [out] bytes of workspace phase two needs
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS (nothing runs when self or other is empty); ACLNN_ERR_PARAM_NULLPTR
 *          (161001) for a NULL self, other, alpha or out (and workspaceSize, executor);
 *          ACLNN_ERR_PARAM_INVALID (161002) for, in this order, a dtype outside the list, dtypes
 *          that do not promote, an alpha that does not cast, an out dtype the result does not cast
 *          to, more than 8 dims, shapes that do not broadcast, out's shape.
 */
ACLNN_API aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                               aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Errors as the other operators' phase two (a stale or used executor, a short workspace).
 */
ACLNN_API aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_ADD_H_ */
