/*
 * aclnnUpsampleNearest3d: checks in the order of CANN's op_api
 * (image/upsample_nearest3d/op_host/op_api/aclnn_upsample_nearest_3d.cpp) and the plan. Kernel:
 * UpsampleNearest3d (AICore on Atlas A2 for FLOAT, FLOAT16 and BF16, AI CPU for DOUBLE; SIMT on
 * Ascend950), NCDHW (NDHWC transposed to it and back): source
 * floor(i * ratio), clamped, float32; the ratio is float(1 / scale) when all
 * three scales are positive (Ascend950: 1.0f / float(scale) per axis), else in / out.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_3d.h"

#define OP_NAME "aclnnUpsampleNearest3d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

static int check(const aclTensor *self, const aclIntArray *outputSize, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor, upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(self), EMU_TENSOR_ARG(out), EMU_INT_ARRAY_ARG(outputSize))));
    if (emu_soc_current()->family == EMU_SOC_950)
        EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                                                              ACL_BF16, ACL_UINT8)));
    else
        EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                                                              ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    EMU_TRY(upsample_check_volume(API, self, outputSize, out, p));
    return upsample_check_out_shape(API, out, p);
}

ACLNN_API aclnnStatus aclnnUpsampleNearest3dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, double scalesD, double scalesH, double scalesW,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 3, .mode = UPSAMPLE_NEAREST, .kernel_name = "UpsampleNearest3d",};
    upsample_set_scales(&p, (const double[]){scalesD, scalesH, scalesW});
    EMU_TRY(check(self, outputSize, out, workspaceSize, executor, &p));
    upsample_nearest_ratios(&p, scalesD > 0 && scalesH > 0 && scalesW > 0); /* all three, or none */
    return upsample_nearest_create(&OP, API, self, out, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearest3d)
