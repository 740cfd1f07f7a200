/*
 * aclnnUpsampleNearest1dV2: checks in the order of CANN's op_api
 * (image/upsample_nearest3d/op_host/op_api/aclnn_upsample_nearest_1d_v2.cpp)
 * and the plan. Kernel: on Atlas A2 UpsampleNearest3d over (N, C, 1, 1, L) for
 * the float types (ResizeNearestNeighborV2 on Ascend950, AI CPU for DOUBLE and
 * UINT8): source floor(i * ratio), clamped, float32, the ratio
 * float(1 / scaleL) for a positive scaleL (Ascend950: 1.0f / scaleL), else in / out.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_1d_v2.h"

#define OP_NAME "aclnnUpsampleNearest1dV2"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

ACLNN_API aclnnStatus aclnnUpsampleNearest1dV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                               float scaleL, aclTensor *out, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 1, .mode = UPSAMPLE_NEAREST, .kernel_name = "UpsampleNearest3d",
                       .axis = {[UPSAMPLE_W] = {.scale = scaleL}}};
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_INT_ARRAY_ARG(outputSize), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8,
                                                          ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 1, ""));
    EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(self, 3), EMU_WANT(out, 3))));
    if (outputSize->values[0] != out->dims[2])
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Expected output size (L: %lld), but got output tensor size "
                         "(L: %lld).", (long long)outputSize->values[0], (long long)out->dims[2]);
    upsample_sizes_from(self, outputSize, &p);
    EMU_TRY(upsample_check_positive(API, &p));
    EMU_TRY(emu_check_format(API, out, "out", self->format));
    EMU_TRY(upsample_check_out_shape(API, out, &p));
    upsample_nearest_ratios(&p, true);
    return upsample_nearest_create(&OP, API, self, out, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearest1dV2)
