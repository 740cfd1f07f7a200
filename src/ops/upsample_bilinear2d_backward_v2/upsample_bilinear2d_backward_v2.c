/*
 * aclnnUpsampleBilinear2dBackwardV2: checks (phase one, in CANN's order),
 * plan and launch. The arithmetic is in upsample_bilinear2d_backward_v2_kernel.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>

#include "../../meta/meta.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"
#include "upsample_bilinear2d_backward_v2.h"

static const char API[] = "aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize";
static const char *const TENSOR_NAMES[] = {"gradOut", "out"};

static int run(const emu_launch *l, char *msg, size_t cap)
{
    const emu_view grad_out = emu_launch_view(l, 0), out = emu_launch_view(l, 1);
    return upsample_bilinear2d_backward_kernel(&grad_out, &out, (const upsample_plan *)l->params, msg, cap);
}

static const emu_op_def OP = {
    .name = "aclnnUpsampleBilinear2dBackwardV2",
    .tensor_names = TENSOR_NAMES,
    .n_inputs = 1,
    .n_outputs = 1,
    .run = run,
};

/* CANN's rule (Atlas A2/A3): the scales are used only if they reproduce the output size. */
static bool scales_usable(const upsample_plan *p, double scales_h, double scales_w)
{
    if (!(fabs(scales_h) > 1e-9 || fabs(scales_w) > 1e-9))
        return false;
    if ((double)p->out_h != floor((double)p->h * scales_h) || (double)p->out_w != floor((double)p->w * scales_w))
        return false;
    double rh = scales_h > 0 ? 1.0 / scales_h : (double)p->h / (double)p->out_h;
    double rw = scales_w > 0 ? 1.0 / scales_w : (double)p->w / (double)p->out_w;
    return rh >= 0.01 && rw >= 0.01;
}

static double axis_ratio(bool align_corners, bool usable, double scale, int64_t in, int64_t out)
{
    if (align_corners)
        return out > 1 ? (double)(in - 1) / (double)(out - 1) : 0.0;
    if (usable && scale > 0)
        return 1.0 / scale;
    return (double)in / (double)out;
}

/* Phase one's checks, in CANN's order; fills the sizes of the plan. */
static int check(const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize,
                 const aclTensor *out, const uint64_t *workspaceSize, aclOpExecutor *const *executor,
                 upsample_plan *p)
{
    /* 1. NULL pointers, then stale handles (never dereferenced). */
    EMU_TRY(emu_check_not_null(API, gradOut, "gradOut"));
    EMU_TRY(emu_check_not_null(API, outputSize, "outputSize"));
    EMU_TRY(emu_check_not_null(API, inputSize, "inputSize"));
    EMU_TRY(emu_check_not_null(API, out, "out"));
    EMU_TRY(emu_check_not_null(API, workspaceSize, "workspaceSize"));
    EMU_TRY(emu_check_not_null(API, executor, "executor"));
    EMU_TRY(emu_check_tensor_live(API, gradOut, "gradOut"));
    EMU_TRY(emu_check_int_array_live(API, outputSize, "outputSize"));
    EMU_TRY(emu_check_int_array_live(API, inputSize, "inputSize"));
    EMU_TRY(emu_check_tensor_live(API, out, "out"));

    /* 2. ranks and array sizes */
    EMU_TRY(emu_check_rank(API, gradOut, "gradOut", 4));
    EMU_TRY(emu_check_array_len(API, inputSize, "inputSize", 4, ""));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 2, ""));

    /* 3. out's format decides the layout */
    EMU_TRY(emu_check_format_in(API, out, "out", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC)));
    p->nhwc = out->format == ACL_FORMAT_NHWC;

    /* 4. sizes, and gradOut's shape against them */
    const int64_t *in = inputSize->values;
    p->n = in[0];
    p->c = p->nhwc ? in[3] : in[1];
    p->h = p->nhwc ? in[1] : in[2];
    p->w = p->nhwc ? in[2] : in[3];
    p->out_h = outputSize->values[0];
    p->out_w = outputSize->values[1];
    if (p->h <= 0 || p->w <= 0 || p->out_h <= 0 || p->out_w <= 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API,
                         "input H, W and outputSize must be > 0, got H=%lld W=%lld outH=%lld outW=%lld",
                         (long long)p->h, (long long)p->w, (long long)p->out_h, (long long)p->out_w);
    EMU_TRY(emu_check_min(API, p->n, 0, "inputSize N"));
    EMU_TRY(emu_check_min(API, p->c, 0, "inputSize C"));
    const int64_t nchw[4] = {p->n, p->c, p->out_h, p->out_w}, nhwc[4] = {p->n, p->out_h, p->out_w, p->c};
    EMU_TRY(emu_check_shape(API, gradOut, "gradOut", p->nhwc ? nhwc : nchw, 4,
                            p->nhwc ? " (N,outH,outW,C from inputSize and outputSize)"
                                    : " (N,C,outH,outW from inputSize and outputSize)"));

    /* 5. out: inputSize's shape (so gradOut's N and C) */
    EMU_TRY(emu_check_shape(API, out, "out", in, 4, " (inputSize)"));

    /* 6. dtypes */
    EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", gradOut->dtype, " (gradOut's)"));

    /* 7. dims fit int32 (CANN's limit; byte sizes were checked at tensor creation) */
    for (int i = 0; i < 4; i++)
        if (gradOut->dims[i] > INT32_MAX)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut dim %d is %lld, above INT32_MAX", i,
                             (long long)gradOut->dims[i]);

    return emu_check_output_writable(API, out, "out");
}

ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scalesH, double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {0};
    int st = check(gradOut, outputSize, inputSize, out, workspaceSize, executor, &p);
    if (st)
        return st;
    bool usable = scales_usable(&p, scalesH, scalesW);
    p.align_corners = alignCorners;
    p.ratio_h = axis_ratio(alignCorners, usable, scalesH, p.h, p.out_h);
    p.ratio_w = axis_ratio(alignCorners, usable, scalesW, p.w, p.out_w);
    char attrs[192];
    snprintf(attrs, sizeof attrs, "alignCorners=%d scalesH=%g scalesW=%g (%s) format=%s", (int)alignCorners, scalesH,
             scalesW, usable ? "scales used" : "size ratio", p.nhwc ? "NHWC" : "NCHW");
    const aclTensor *tensors[] = {gradOut, out};
    return emu_executor_create(&OP, tensors, &p, sizeof p, 0, attrs, workspaceSize, executor);
}

ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardV2(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream)
{
    return emu_executor_launch(&OP, workspace, workspaceSize, executor, stream);
}
