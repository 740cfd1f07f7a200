/*
 * aclnnUpsampleNearest3dBackward: checks in the order of CANN's op_api
 * (image/upsample_nearest3d_grad/op_host/op_api/aclnn_upsample_nearest_3d_backward.cpp) and the plan. Kernel:
 * UpsampleNearest3dGrad (AICore on Atlas A2, FLOAT16 and BF16 cast to FLOAT and back; AI CPU for DOUBLE or a step above 50, taken to compute the same;
 * SIMT on Ascend950), NCDHW (NDHWC transposed to it and back): each input
 * index i sums gradOut over [ceil(i * s), ceil((i + 1) * s)), clamped to
 * gradOut's size, in float32, a pass per axis W, H, then D; s is the scale
 * when all three are positive, else gradOut's size over the input's.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_3d_backward.h"

#define OP_NAME "aclnnUpsampleNearest3dBackward"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOut");

ACLNN_API aclnnStatus aclnnUpsampleNearest3dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, double scalesD,
    double scalesH, double scalesW, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 3, .mode = UPSAMPLE_NEAREST, .backward = true, .kernel_name = "UpsampleNearest3dGrad",};
    upsample_set_scales(&p, (const double[]){scalesD, scalesH, scalesW});
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(gradOut), EMU_INT_ARRAY_ARG(outputSize),
                                         EMU_INT_ARRAY_ARG(inputSize), EMU_TENSOR_ARG(gradInput))));
    EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, gradInput, "gradInput", gradOut->dtype, " (gradOut's)"));
    EMU_TRY(upsample_check_volume_grad(API, gradOut, outputSize, inputSize, gradInput, &p));
    upsample_nearest_grad_ratios(&p);
    return upsample_volume_grad_create(&OP, API, gradOut, gradInput, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearest3dBackward)
