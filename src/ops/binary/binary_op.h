/*
 * The binary family's op-side steps (binary_op.c): CANN's dtype promotion
 * and cast rules, the broadcast check, alpha's conversions, the run step.
 * Op layer: meta and below.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_BINARY_OP_H_
#define ACLNN_EMU_BINARY_OP_H_

#include "../../meta/meta.h"
#include "binary.h"

/* The dtypes aclnnAdd and aclnnMul accept on every emulated SoC (CANN's ASCEND910B_DTYPE_SUPPORT_LIST). */
extern const aclDataType BINARY_DTYPES[12];

/* CANN's PromoteType (PyTorch's): ACL_DT_UNDEFINED when the pair does not promote. */
aclDataType binary_promote(aclDataType a, aclDataType b);
/* CANN's CanCast (PyTorch's canCast): no complex to real, no float to integer, nothing but BOOL to BOOL. */
bool binary_can_cast(aclDataType from, aclDataType to);
bool binary_is_float(aclDataType dt);    /* FLOAT16, BF16, FLOAT, DOUBLE */
bool binary_is_integral(aclDataType dt); /* the integers, BOOL included */

/* The checks after the dtypes, in CANN's order: at most 8 dims each, self and other broadcast, out has the
 * broadcast shape (CheckShape). */
int binary_check_shapes(const char *api, const aclTensor *self, const aclTensor *other, const aclTensor *out);

/* alpha's value as a plan takes it: as FLOAT (Axpy), as the promoted dtype's value (a tensor of it). */
void binary_set_alpha(binary_plan *p, const aclScalar *alpha);
/* alpha == 1 as CANN tests it (IsEqualToOne: its FLOAT value). */
bool binary_alpha_is_one(const aclScalar *alpha);

/* Phase one's end for both APIs: the executor (nothing runs when self or other is empty). */
int binary_create(const emu_op_def *op, const aclTensor *self, const aclTensor *other, const aclTensor *out,
                  const binary_plan *p, const char *attrs, uint64_t *workspaceSize, aclOpExecutor **executor);

/* The family's run step: the launch's thread count, then the kernel. */
int binary_run(const emu_launch *l, char *msg, size_t cap);

/* An op file's definition of OP (self, other; out) with the family's run step. */
#define BINARY_DEFINE_OP(api_name)                                                                        \
    static const char *const TENSOR_NAMES[] = {[BINARY_SELF] = "self", [BINARY_OTHER] = "other",         \
                                               [BINARY_OUT] = "out"};                                   \
    EMU_DEFINE_OP(api_name, TENSOR_NAMES, 2, 1, binary_run)

#endif /* ACLNN_EMU_BINARY_OP_H_ */
