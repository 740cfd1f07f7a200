/*
 * aclnnUpsampleNearestExact1dBackward: checks (phase one, in the order of
 * CANN's op_api, image/upsample_nearest_exact2d_grad/op_host/op_api/
 * aclnn_upsample_nearest_exact1d_backward.cpp) and its kernel: on both SoCs
 * UpsampleNearestExact2dGrad (isExact) over (N, C, 1, L), where input index
 * i sums gradOut [ceil(i * s - 0.5), ceil((i + 1) * s - 0.5)), s the scale
 * when positive, else gradOut's L over L, in float32 (Atlas A2 Casts
 * FLOAT16 and BF16 to FLOAT and back; Ascend950 accumulates in float32).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_exact1d_backward.h"

#define OP_NAME "aclnnUpsampleNearestExact1dBackward"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOutput");

ACLNN_API aclnnStatus aclnnUpsampleNearestExact1dBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclIntArray *outputSize, const aclIntArray *inputSize, double scales,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 1, .mode = UPSAMPLE_NEAREST_EXACT, .backward = true,
                       .kernel_name = "UpsampleNearestExact2dGrad", .axis = {{.scale = scales}}};
    /* OP_CHECK_COMM_INPUT first; CANN does not check outputSize for NULL (here it is, not dereferenced) */
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(gradOutput), EMU_INT_ARRAY_ARG(inputSize),
                                         EMU_TENSOR_ARG(out), EMU_INT_ARRAY_ARG(outputSize))));
    EMU_TRY(upsample_check_exact_grad(API, gradOutput, outputSize, inputSize, out, &p));
    p.axis[0].ratio = scales > 0 ? (float)scales : (float)p.axis[0].out / (float)p.axis[0].in;
    const int64_t n_go = emu_tensor_numel(gradOutput), n_i = emu_tensor_numel(out);
    const uint64_t ws = emu_ws_bytes(n_go, 4) + emu_ws_bytes(n_i, 4); /* the FLOAT copies */
    return upsample_create_tbe(&OP, API, gradOutput, out, "out", &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearestExact1dBackward)
