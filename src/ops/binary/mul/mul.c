/*
 * aclnnMul: checks in the order of CANN's op_api (ops-math
 * math/mul/op_api/aclnn_mul.cpp, CheckMulParams) and the plan. Kernel: Mul
 * in the promoted dtype (FLOAT16 and BF16 computed in FLOAT and rounded;
 * integers wrap; BOOL is a logical and; DOUBLE and complex in their
 * precision, the plain complex product), then a Cast to out's dtype.
 * Ascend950 does not check that the result casts to out's dtype.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include "../binary_op.h"
#include "aclnnop/aclnn_mul.h"

#define OP_NAME "aclnnMul"
static const char API[] = OP_NAME "GetWorkspaceSize";
BINARY_DEFINE_OP(OP_NAME);

static int check(const aclTensor *self, const aclTensor *other, const aclTensor *out, const uint64_t *workspaceSize,
                 aclOpExecutor *const *executor, aclDataType *promote)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_TENSOR_ARG(other), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_dtype_in(API, self, "self", BINARY_DTYPES, 12));
    EMU_TRY(emu_check_dtype_in(API, other, "other", BINARY_DTYPES, 12));
    EMU_TRY(emu_check_dtype_in(API, out, "out", BINARY_DTYPES, 12));
    const aclDataType p = binary_promote(self->dtype, other->dtype);
    if (p == ACL_DT_UNDEFINED)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Expected aclnnMul self dtype [%s] and other dtype [%s] to be "
                         "promotable but check failed.", emu_dtype_name(self->dtype), emu_dtype_name(other->dtype));
    if (emu_soc_current()->family != EMU_SOC_950 && !binary_can_cast(p, out->dtype))
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Result type %s can't be cast to the desired output type %s.",
                         emu_dtype_name(p), emu_dtype_name(out->dtype));
    EMU_TRY(binary_check_shapes(API, self, other, out));
    *promote = p;
    return 0;
}

ACLNN_API aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                               uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    aclDataType promote = ACL_DT_UNDEFINED;
    EMU_TRY(check(self, other, out, workspaceSize, executor, &promote));
    const bool floating = promote == ACL_FLOAT || promote == ACL_FLOAT16 || promote == ACL_BF16;
    const binary_plan p = {.op = BINARY_MUL, .compute = promote, .arith = floating ? BINARY_FLOAT : BINARY_EXACT};
    char attrs[64];
    snprintf(attrs, sizeof attrs, "promote=%s", emu_dtype_name(promote));
    return binary_create(&OP, self, other, out, &p, attrs, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnMul)
