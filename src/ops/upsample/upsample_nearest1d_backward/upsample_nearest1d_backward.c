/*
 * aclnnUpsampleNearest1dBackward: checks (phase one, in the order of CANN's
 * op_api, image/upsample_nearest2d_grad/op_host/op_api/
 * aclnn_upsample_nearest_1d_backward.cpp) and the kernel it launches, on
 * (N, C, 1, L) as the op_api reshapes it.
 *
 * Atlas A2: a positive scale with int(L * scale) == gradOut's L sends
 * FLOAT, FLOAT16 and BF16 to UpsampleNearest2dGrad (input index i sums
 * gradOut [ceil(i * s), ceil((i + 1) * s)), float32). Otherwise DOUBLE, and
 * FLOAT16 without a scale, go to the AI CPU's ResizeGrad, and FLOAT and BF16
 * to the TBE ResizeNearestNeighborV2Grad; both send gradOut index j to
 * floor(j * L / outL) (ResizeGrad's source is not published: it is taken to
 * be the gradient of aclnnUpsampleNearest1d, as its documentation says).
 * FLOAT16 and DOUBLE whose scale does not reproduce L reach the TBE kernel,
 * which takes FLOAT and BF16 only: refused. Ascend950: DOUBLE on the AI CPU,
 * the rest on ResizeNearestNeighborV2Grad's range rule, step 1 / (1 / s).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_1d_backward.h"

#define OP_NAME "aclnnUpsampleNearest1dBackward"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOut");

ACLNN_API aclnnStatus aclnnUpsampleNearest1dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, double scales,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 1, .mode = UPSAMPLE_NEAREST, .backward = true, .axis = {{.scale = scales}}};
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(gradOut), EMU_INT_ARRAY_ARG(outputSize),
                                         EMU_INT_ARRAY_ARG(inputSize), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_rank(API, gradOut, "gradOut", 3)); /* CheckShape, then CheckDtypeValid */
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 1, ""));
    EMU_TRY(emu_check_array_len(API, inputSize, "inputSize", 3, ""));
    EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE,
                                                                ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", gradOut->dtype, " (gradOut's)"));
    EMU_TRY(emu_check_rank(API, out, "out", 3));
    EMU_TRY(upsample_check_grad_sizes(API, gradOut, "gradOut", outputSize, inputSize, out, "out", &p));
    upsample_axis *ax = &p.axis[0];
    const aclDataType dt = gradOut->dtype;
    const bool fits = !(scales > 0) || upsample_int64_of((double)ax->in * scales) == ax->out; /* check_scales */
    if (emu_soc_current()->family == EMU_SOC_950) {
        ax->ratio = dt == ACL_DOUBLE ? (float)ax->in / (float)ax->out : upsample_nearest_grad_ratio_950(ax);
        p.nearest_scatter = dt == ACL_DOUBLE;
        p.kernel_name = dt == ACL_DOUBLE ? "ResizeGrad" : "ResizeNearestNeighborV2Grad";
    } else if (dt != ACL_DOUBLE && scales > 0 && fits) {
        ax->ratio = (float)scales;
        p.kernel_name = "UpsampleNearest2dGrad";
    } else {
        const bool aicpu = (dt != ACL_FLOAT || scales > 0) && dt != ACL_BF16 && fits;
        if (!aicpu && (dt == ACL_FLOAT16 || dt == ACL_DOUBLE) && emu_tensor_numel(gradOut) > 0 &&
            emu_tensor_numel(out) > 0)
            return emu_error(ACLNN_ERR_INNER_NULLPTR, API, "a %s gradOut whose scale %g does not give its L (%lld "
                             "from %lld) goes to ResizeNearestNeighborV2Grad, whose kernel takes FLOAT and BF16 only",
                             emu_dtype_name(dt), scales, (long long)ax->out, (long long)ax->in);
        ax->ratio = (float)ax->in / (float)ax->out;
        p.nearest_scatter = true;
        p.kernel_name = aicpu ? "ResizeGrad" : "ResizeNearestNeighborV2Grad";
    }
    /* The FLOAT copies of gradOut and out (their NC1HWC0 forms on the TBE path, C to 16). */
    const int64_t c16 = (p.c + 15) / 16 * 16;
    const uint64_t ws = emu_ws_bytes(p.n * c16 * ax->out, 4) + emu_ws_bytes(p.n * c16 * ax->in, 4);
    return upsample_create_tbe(&OP, API, gradOut, out, "out", &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearest1dBackward)
