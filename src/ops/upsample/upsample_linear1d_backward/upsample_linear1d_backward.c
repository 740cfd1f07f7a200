/*
 * aclnnUpsampleLinear1dBackward: checks in the order of CANN's op_api
 * (image/upsample_bilinear2d_grad/op_host/op_api/aclnn_upsample_linear_1d_backward.cpp)
 * and the plan. The op_api views (N, C, L) as (N, C, 1, L) and runs the 2-D
 * gradient kernels: an unchanged shape copies gradOut; ResizeBilinearV2Grad
 * (the sizes' ratio, scales ignored) for outL >= 1e6 or when the scale does
 * not reproduce the sizes (outL != floor(inL * scales)); otherwise
 * UpsampleBilinear2dGrad stepping by float(1 / scales) (its cube tiles spread
 * an Inf or NaN, as the 2-D operator's). Ascend950's ResizeLinearGrad is
 * taken to compute the same coordinates.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>

#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_linear_1d_backward.h"

#define OP_NAME "aclnnUpsampleLinear1dBackward"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOut");

static int check(const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize,
                 const aclTensor *out, const uint64_t *workspaceSize, aclOpExecutor *const *executor,
                 upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(gradOut), EMU_INT_ARRAY_ARG(outputSize),
                                         EMU_INT_ARRAY_ARG(inputSize), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_rank(API, gradOut, "gradOut", 3));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 1, ""));
    EMU_TRY(emu_check_array_len(API, inputSize, "inputSize", 3, ""));
    /* The dtype list only for an unchanged shape (the other paths Cast to FLOAT); out's always gradOut's. */
    if (emu_soc_current()->family == EMU_SOC_950 || emu_shape_equals(gradOut, inputSize))
        EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_BF16)));
    else
        EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_BF16,
                                                                    ACL_DOUBLE, ACL_INT32)));
    EMU_TRY(emu_check_dtype(API, out, "out", gradOut->dtype, " (gradOut's)"));
    upsample_read_sizes(inputSize->values, false, p);
    p->axis[UPSAMPLE_W].out = outputSize->values[0];
    EMU_TRY(upsample_check_positive(API, p));
    const int64_t want[3] = {p->n, p->c, p->axis[UPSAMPLE_W].out};
    EMU_TRY(emu_check_shape(API, gradOut, "gradOut", want, 3, " (N, C of inputSize, outputSize)"));
    EMU_TRY(emu_check_rank(API, out, "out", 3));
    EMU_TRY(emu_check_dim(API, out->dims[0], gradOut->dims[0], "out.shape[0]", "gradOut.shape[0]"));
    EMU_TRY(emu_check_dim(API, out->dims[1], gradOut->dims[1], "out.shape[1]", "gradOut.shape[1]"));
    /* CANN does not compare out's L with inputSize; its kernel writes inputSize's. */
    EMU_TRY(emu_check_shape(API, out, "out", inputSize->values, 3, " (inputSize)"));
    for (int i = 0; emu_soc_current()->family != EMU_SOC_950 && i < 3; i++)
        if (gradOut->dims[i] > INT32_MAX || out->dims[i] > INT32_MAX)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut's and out's dims must be at most INT32_MAX");
    return 0;
}

/* Which kernel runs and its ratio (the op_api's branches on Atlas A2). */
static int choose_kernel(const aclTensor *gradOut, const aclIntArray *inputSize, double scales, bool align,
                         upsample_plan *p)
{
    upsample_axis *a = &p->axis[UPSAMPLE_W];
    if (emu_shape_equals(gradOut, inputSize)) {
        p->kernel = UPSAMPLE_KERNEL_COPY;
        return 0;
    }
    const bool fits = fabs(scales) <= 1e-9 || (double)a->out == floor((double)a->in * scales);
    if (emu_soc_current()->family != EMU_SOC_950 && (a->out >= 1000000 || !fits)) {
        p->kernel = UPSAMPLE_KERNEL_TBE;
        p->kernel_name = "ResizeBilinearV2Grad";
        a->ratio = upsample_ratio(a->in, a->out, align, 0.0f, 0.0f);
        return 0;
    }
    const double real = scales > 0 ? scales : (double)a->out / (double)a->in;
    if (real > 500)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "scales is too large: %g (at most 500)", real);
    const bool soc950 = emu_soc_current()->family == EMU_SOC_950;
    p->kernel = soc950 ? UPSAMPLE_KERNEL_TBE : UPSAMPLE_KERNEL_ASCENDC;
    p->kernel_name = soc950 ? "ResizeLinearGrad" : "UpsampleBilinear2dGrad";
    a->ratio = upsample_ratio(a->in, a->out, align, scales > 0 ? (float)(1.0 / scales) : 0.0f, 0.0f);
    a->skip = !soc950 && a->ratio > 1.0f - 1e-6f && a->ratio < 1.0f + 1e-6f;
    return 0;
}

ACLNN_API aclnnStatus aclnnUpsampleLinear1dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scales, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 1, .mode = UPSAMPLE_LINEAR, .backward = true, .drop_past_end = true,
                       .align_corners = alignCorners, .axis = {[UPSAMPLE_W] = {.scale = scales}}};
    EMU_TRY(check(gradOut, outputSize, inputSize, out, workspaceSize, executor, &p));
    uint64_t ws = 0; /* an empty gradOut: CANN returns before any kernel, with a workspace of 0 */
    if (emu_tensor_numel(gradOut) > 0 && emu_tensor_numel(out) > 0) {
        EMU_TRY(emu_check_output_writable(API, out, "out"));
        EMU_TRY(choose_kernel(gradOut, inputSize, scales, alignCorners, &p));
        /* The casts to FLOAT and back, the kernel's result (NC1HWC0 on the ResizeBilinearV2Grad path). */
        const size_t item = emu_dtype_size(gradOut->dtype);
        const int64_t n_g = emu_tensor_numel(gradOut), n_o = emu_tensor_numel(out);
        ws = emu_ws_bytes(n_g, 4) + 2 * emu_ws_bytes(n_o, 4) + emu_ws_bytes(n_o, item);
    }
    return upsample_create(&OP, gradOut, out, &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleLinear1dBackward)
