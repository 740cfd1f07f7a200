/*
 * aclnnUpsampleNearestExact2dBackward: checks (phase one, in the order of
 * CANN's op_api, image/upsample_nearest_exact2d_grad/op_host/op_api/
 * aclnn_upsample_nearest_exact2d_backward.cpp) and its kernel: on both
 * SoCs UpsampleNearestExact2dGrad (isExact), where along each axis input
 * index i sums gradOut [ceil(i * s - 0.5), ceil((i + 1) * s - 0.5)), s the
 * scale when positive, else gradOut's size over the input's, in float32
 * (Atlas A2 Casts FLOAT16 and BF16 to FLOAT and back). Empty tensors return
 * before every check but the NULL ones, as in CANN.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_exact2d_backward.h"

#define OP_NAME "aclnnUpsampleNearestExact2dBackward"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOutput");

ACLNN_API aclnnStatus aclnnUpsampleNearestExact2dBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclIntArray *outputSize, const aclIntArray *inputSize, double scalesH,
    double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 2, .mode = UPSAMPLE_NEAREST_EXACT, .backward = true,
                       .kernel_name = "UpsampleNearestExact2dGrad"};
    upsample_set_scales(&p, (const double[]){scalesH, scalesW});
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(gradOutput), EMU_INT_ARRAY_ARG(inputSize),
                                         EMU_TENSOR_ARG(out), EMU_INT_ARRAY_ARG(outputSize))));
    if (emu_tensor_numel(gradOutput) == 0 || emu_tensor_numel(out) == 0) /* before CheckParams */
        return upsample_create(&OP, gradOutput, out, &p, 0, workspaceSize, executor);
    EMU_TRY(upsample_check_exact_grad(API, gradOutput, outputSize, inputSize, out, &p));
    for (int a = 0; a < 2; a++)
        p.axis[a].ratio = p.axis[a].scale > 0 ? (float)p.axis[a].scale : (float)p.axis[a].out / (float)p.axis[a].in;
    const uint64_t ws = emu_ws_bytes(emu_tensor_numel(gradOutput), 4) + emu_ws_bytes(emu_tensor_numel(out), 4) +
                        emu_ws_bytes(p.n * p.c * p.axis[UPSAMPLE_H].out * p.axis[UPSAMPLE_W].in, 4); /* W pass */
    return upsample_create_tbe(&OP, API, gradOutput, out, "out", &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearestExact2dBackward)
