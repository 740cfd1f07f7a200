/*
 * aclnnAdd: checks in the order of CANN's op_api (ops-math
 * math/add/op_api/aclnn_add.cpp, CheckParams) and the plan. Kernels, by the
 * op_api's ladder: alpha == 1 (its FLOAT value) launches Add in the
 * promoted dtype; else Axpy where it has the dtype (Atlas A2: FLOAT, FLOAT16
 * and INT32, the last computed in FLOAT and truncated; Ascend950: FLOAT,
 * FLOAT16, BF16); else on Ascend950 AxpyV2 (integers wrap, BOOL clamps at
 * 1); else Mul(other, alpha) then Add, each rounded to the promoted dtype.
 * FLOAT16 and BF16 compute in FLOAT (ops-math's published kernels, arch35);
 * Atlas A2's kernels are not published and are taken to compute the same.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include "../binary_op.h"
#include "aclnnop/aclnn_add.h"

#define OP_NAME "aclnnAdd"
static const char API[] = OP_NAME "GetWorkspaceSize";
BINARY_DEFINE_OP(OP_NAME);

static int check(const aclTensor *self, const aclTensor *other, const aclScalar *alpha, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor, aclDataType *promote)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_TENSOR_ARG(other), EMU_SCALAR_ARG(alpha),
                                         EMU_TENSOR_ARG(out), EMU_POINTER_ARG(workspaceSize),
                                         EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_dtype_in(API, self, "self", BINARY_DTYPES, 12));
    EMU_TRY(emu_check_dtype_in(API, other, "other", BINARY_DTYPES, 12));
    /* CheckPromoteType */
    const aclDataType p = binary_promote(self->dtype, other->dtype), a = emu_scalar_dtype(alpha);
    if (p == ACL_DT_UNDEFINED)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Self dtype %s and other dtype %s can not promote dtype.",
                         emu_dtype_name(self->dtype), emu_dtype_name(other->dtype));
    if (p == ACL_BOOL ? !binary_is_integral(a) : !binary_can_cast(a, p))
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Alpha dtype %s can't be cast to the promote dtype %s.",
                         emu_dtype_name(a), emu_dtype_name(p));
    if (!binary_can_cast(p, out->dtype))
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Promote dtype %s can't be cast to the desired output type %s.",
                         emu_dtype_name(p), emu_dtype_name(out->dtype));
    EMU_TRY(binary_check_shapes(API, self, other, out));
    *promote = p;
    return 0;
}

/* The op_api's ladder of kernels for alpha != 1 (see the file's comment). */
static binary_arith arith_of(aclDataType p, bool alpha_one)
{
    const bool soc950 = emu_soc_current()->family == EMU_SOC_950;
    const bool floating = p == ACL_FLOAT || p == ACL_FLOAT16 || p == ACL_BF16;
    if (alpha_one)
        return floating ? BINARY_FLOAT : BINARY_EXACT;
    if (p == ACL_FLOAT || p == ACL_FLOAT16 || (soc950 && p == ACL_BF16))
        return BINARY_FLOAT; /* Axpy */
    if (!soc950 && p == ACL_INT32)
        return BINARY_FLOAT_TRUNC; /* Axpy */
    if (soc950 && p == ACL_BOOL)
        return BINARY_BOOL_CLAMP; /* AxpyV2 */
    return p == ACL_BF16 ? BINARY_MUL_THEN_ADD : BINARY_EXACT; /* AxpyV2's integers, or Mul then Add */
}

ACLNN_API aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                               aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    aclDataType promote = ACL_DT_UNDEFINED;
    EMU_TRY(check(self, other, alpha, out, workspaceSize, executor, &promote));
    const bool one = binary_alpha_is_one(alpha);
    binary_plan p = {.op = BINARY_ADD, .compute = promote, .arith = arith_of(promote, one)};
    binary_set_alpha(&p, alpha);
    char attrs[96];
    snprintf(attrs, sizeof attrs, "alpha=%g%s promote=%s", p.alpha_re, one ? " (1)" : "", emu_dtype_name(promote));
    return binary_create(&OP, self, other, out, &p, attrs, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnAdd)
