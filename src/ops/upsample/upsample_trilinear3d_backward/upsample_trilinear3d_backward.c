/*
 * aclnnUpsampleTrilinear3dBackward: checks in the order of CANN's op_api
 * (image/upsample_trilinear3d_backward/op_host/op_api/aclnn_upsample_trilinear_3d_backward.cpp)
 * and the plan. Kernel: UpsampleTrilinear3dBackward (AICore on Atlas A2,
 * FLOAT16 and BF16 cast to FLOAT and back; elsewhere the AI CPU kernel, whose
 * source is not published, taken to compute the same in float32): the
 * transpose of the forward's taps (sources clamped to the last index, not
 * dropped), a pass per axis W, H, then D in float32, an axis of unchanged
 * size skipped (W runs when all three are); the ratio as the forward's:
 * (in-1)/(out-1) with alignCorners, float(1 / scale) when all three scales
 * are positive, else in / out.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_trilinear_3d_backward.h"

#define OP_NAME "aclnnUpsampleTrilinear3dBackward"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOut");

ACLNN_API aclnnStatus aclnnUpsampleTrilinear3dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scalesD, double scalesH, double scalesW, aclTensor *gradInput, uint64_t *workspaceSize,
    aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 3, .mode = UPSAMPLE_LINEAR, .backward = true, .align_corners = alignCorners,
                       .kernel_name = "UpsampleTrilinear3dBackward"};
    upsample_set_scales(&p, (const double[]){scalesD, scalesH, scalesW});
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(gradOut), EMU_INT_ARRAY_ARG(outputSize),
                                         EMU_INT_ARRAY_ARG(inputSize), EMU_TENSOR_ARG(gradInput))));
    EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                                                                ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, gradInput, "gradInput", gradOut->dtype, " (gradOut's)"));
    EMU_TRY(emu_check_format_in(API, gradOut, "gradOut", EMU_SET(aclFormat, ACL_FORMAT_ND, ACL_FORMAT_NCDHW,
                                                                 ACL_FORMAT_NDHWC)));
    EMU_TRY(upsample_check_volume_grad(API, gradOut, outputSize, inputSize, gradInput, &p));
    upsample_linear_volume_ratios(&p);
    int unchanged = 0;
    for (int a = 0; a < 3; a++)
        unchanged += p.axis[a].skip = p.axis[a].in == p.axis[a].out;
    p.axis[UPSAMPLE_W].skip = p.axis[UPSAMPLE_W].skip && unchanged < 3; /* all three unchanged: W runs */
    return upsample_volume_grad_create(&OP, API, gradOut, gradInput, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleTrilinear3dBackward)
