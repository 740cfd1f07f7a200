/*
 * aclnnUpsampleNearest2dBackward: checks (phase one, in the order of CANN's
 * op_api, image/upsample_nearest2d_grad/op_host/op_api/
 * aclnn_upsample_nearest_2d_backward.cpp) and the kernel it launches.
 *
 * Atlas A2 picks one of three kernels. With both scales positive and the
 * AI-core size rule met (isAiCoreSupport), or with either scale positive,
 * UpsampleNearest2dGrad (ND, or NC1HWC0): input index i sums gradOut
 * [ceil(i * s), ceil((i + 1) * s)), s the scale (gradOut's size over the
 * input's where unset; 1 for both when outputSize equals inputSize's H, W),
 * in float32. With neither scale, the TBE ResizeNearestNeighborV2Grad:
 * gradOut index j adds to floor(j * in / out), float32 (FLOAT16 Cast to
 * FLOAT and back). Ascend950: ResizeNearestNeighborV2Grad's range rule with
 * the step 1 / (1 / scale).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_2d_backward.h"

#define OP_NAME "aclnnUpsampleNearest2dBackward"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOut");

/* CheckParams: NULLs, dtypes, CheckShape, CheckNCDimValid (gradInput's format), CheckInputElements. */
static int check(const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize,
                 const aclTensor *gradInput, const uint64_t *workspaceSize, aclOpExecutor *const *executor,
                 upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(gradOut), EMU_INT_ARRAY_ARG(outputSize),
                                         EMU_INT_ARRAY_ARG(inputSize), EMU_TENSOR_ARG(gradInput),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, gradInput, "gradInput", gradOut->dtype, " (gradOut's)"));
    EMU_TRY(emu_check_rank(API, gradOut, "gradOut", 4));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 2, ""));
    EMU_TRY(emu_check_array_len(API, inputSize, "inputSize", 4, ""));
    EMU_TRY(emu_check_format_in(API, gradInput, "gradInput", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC)));
    EMU_TRY(emu_check_rank(API, gradInput, "gradInput", 4));
    const int c_dim = gradInput->format == ACL_FORMAT_NHWC ? 3 : 1;
    EMU_TRY(emu_check_dim(API, gradInput->dims[0], gradOut->dims[0], "gradInput's N", "gradOut's"));
    EMU_TRY(emu_check_dim(API, gradInput->dims[c_dim], gradOut->dims[c_dim], "gradInput's C", "gradOut's"));
    p->nhwc = gradOut->format == ACL_FORMAT_NHWC;
    return upsample_check_grad_sizes(API, gradOut, "gradOut", outputSize, inputSize, gradInput, "gradInput", p);
}

/* isAiCoreSupport: both scales positive, C small against the planes, planes of at least 8 x 16, and
 * int(in * scale) == gradOut's size on both axes. */
static bool ai_core_support(const upsample_plan *p)
{
    const upsample_axis *h = &p->axis[UPSAMPLE_H], *w = &p->axis[UPSAMPLE_W];
    return h->scale > 0 && w->scale > 0 && p->c <= 6 * h->in * w->in && p->c <= 6 * h->out * w->out &&
           h->in >= 8 && h->out >= 8 && w->in >= 16 && w->out >= 16 && upsample_int64_of((double)h->in * h->scale) == h->out &&
           upsample_int64_of((double)w->in * w->scale) == w->out;
}

ACLNN_API aclnnStatus aclnnUpsampleNearest2dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, double scalesH,
    double scalesW, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 2, .mode = UPSAMPLE_NEAREST, .backward = true};
    upsample_set_scales(&p, (const double[]){scalesH, scalesW});
    EMU_TRY(check(gradOut, outputSize, inputSize, gradInput, workspaceSize, executor, &p));
    const bool unchanged = outputSize->values[0] == inputSize->values[2] && outputSize->values[1] == inputSize->values[3];
    const bool step_one = unchanged && !ai_core_support(&p); /* the NC1HWC0 path's rule for unchanged sizes */
    for (int a = 0; a < 2; a++) {
        upsample_axis *ax = &p.axis[a];
        if (emu_soc_current()->family == EMU_SOC_950)
            ax->ratio = upsample_nearest_grad_ratio_950(ax);
        else if (scalesH > 0 || scalesW > 0) /* compute_scale_value: the scale, else the sizes' */
            ax->ratio = step_one ? 1.0f : ax->scale > 0 ? (float)ax->scale : (float)ax->out / (float)ax->in;
        else /* ResizeNearestNeighborV2Grad: gradOut index j to floor(j * in / out) */
            ax->ratio = (float)ax->in / (float)ax->out;
    }
    p.nearest_scatter = emu_soc_current()->family != EMU_SOC_950 && !(scalesH > 0 || scalesW > 0);
    p.kernel_name = p.nearest_scatter ? "ResizeNearestNeighborV2Grad" : emu_soc_current()->family == EMU_SOC_950
                                                                           ? "ResizeNearestNeighborV2Grad"
                                                                           : "UpsampleNearest2dGrad";
    /* The FLOAT copy or NC1HWC0 forms of gradOut and gradInput (C to 16), the kernel's W-pass result. */
    const int64_t c16 = (p.c + 15) / 16 * 16, n_go = p.n * c16 * p.axis[0].out * p.axis[1].out;
    const int64_t n_gi = p.n * c16 * p.axis[0].in * p.axis[1].in;
    const uint64_t ws = emu_ws_bytes(n_go, 4) + emu_ws_bytes(n_gi, 4) + emu_ws_bytes(p.n * c16 * p.axis[1].out *
                                                                                        p.axis[0].in, 4);
    return upsample_create_tbe(&OP, API, gradOut, gradInput, "gradInput", &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearest2dBackward)
