/*
 * aclnnUpsampleBilinear2dBackwardV2: checks (phase one, in CANN's order),
 * plan and launch. The arithmetic is in upsample_bilinear2d_backward_v2_kernel.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>

#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"
#include "upsample_bilinear2d_backward_v2.h"

static const char API[] = "aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize";
static const char *const TENSOR_NAMES[] = {"gradOut", "out"};

static int run(const emu_launch *l, char *msg, size_t cap)
{
    return upsample_bilinear2d_backward_kernel(&l->tensors[0], &l->tensors[1], (const upsample_plan *)l->params, msg,
                                               cap);
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

static int check(const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize,
                 const aclTensor *out, const uint64_t *workspaceSize, aclOpExecutor *const *executor,
                 upsample_plan *p)
{
    int st;
    /* 1. NULL pointers, then stale handles (never dereferenced). */
    if ((st = emu_check_not_null(gradOut, API, "gradOut")) || (st = emu_check_not_null(outputSize, API, "outputSize")) ||
        (st = emu_check_not_null(inputSize, API, "inputSize")) || (st = emu_check_not_null(out, API, "out")) ||
        (st = emu_check_not_null(workspaceSize, API, "workspaceSize")) ||
        (st = emu_check_not_null(executor, API, "executor")))
        return st;
    if ((st = emu_check_tensor_live(gradOut, API, "gradOut")) ||
        (st = emu_check_array_live(outputSize, API, "outputSize")) ||
        (st = emu_check_array_live(inputSize, API, "inputSize")) || (st = emu_check_tensor_live(out, API, "out")))
        return st;

    char a[256], b[256];
    /* 2. ranks and array sizes */
    if (gradOut->ndim != 4) {
        emu_dims_describe(gradOut->dims, gradOut->ndim, a, sizeof a);
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut must be 4-D, got %llu-D %s",
                         (unsigned long long)gradOut->ndim, a);
    }
    if (inputSize->size != 4)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "inputSize must have 4 values, got %llu",
                         (unsigned long long)inputSize->size);
    if (outputSize->size != 2)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "outputSize must have 2 values, got %llu",
                         (unsigned long long)outputSize->size);

    /* 3. out's format decides the layout */
    if (out->format != ACL_FORMAT_NCHW && out->format != ACL_FORMAT_NHWC)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "out format must be NCHW or NHWC, got %s",
                         emu_format_name(out->format));
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
    if (p->n < 0 || p->c < 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "inputSize N and C must be >= 0, got N=%lld C=%lld",
                         (long long)p->n, (long long)p->c);
    int64_t want[4] = {p->n, p->c, p->out_h, p->out_w};
    if (p->nhwc) {
        want[1] = p->out_h;
        want[2] = p->out_w;
        want[3] = p->c;
    }
    for (int i = 0; i < 4; i++) {
        if (gradOut->dims[i] != want[i]) {
            emu_dims_describe(want, 4, a, sizeof a);
            emu_dims_describe(gradOut->dims, 4, b, sizeof b);
            return emu_error(ACLNN_ERR_PARAM_INVALID, API,
                             "gradOut shape must be %s (%s from inputSize and outputSize), got %s", a,
                             p->nhwc ? "N,outH,outW,C" : "N,C,outH,outW", b);
        }
    }

    /* 5. out: gradOut's N and C, and inputSize's shape */
    int64_t want_out[4];
    for (int i = 0; i < 4; i++)
        want_out[i] = in[i];
    int c_axis = p->nhwc ? 3 : 1;
    if (out->ndim != 4 || out->dims[0] != gradOut->dims[0] || out->dims[c_axis] != gradOut->dims[c_axis] ||
        out->dims[1] != want_out[1] || out->dims[2] != want_out[2] || out->dims[3] != want_out[3]) {
        emu_dims_describe(want_out, 4, a, sizeof a);
        emu_dims_describe(out->dims, out->ndim, b, sizeof b);
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "out shape must be inputSize %s (gradOut's N and C), got %s",
                         a, b);
    }

    /* 6. dtypes */
    if (gradOut->dtype != ACL_FLOAT && gradOut->dtype != ACL_FLOAT16 && gradOut->dtype != ACL_BF16)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut dtype must be FLOAT, FLOAT16 or BF16, got %s",
                         emu_dtype_name(gradOut->dtype));
    if (out->dtype != gradOut->dtype)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "out dtype must equal gradOut's (%s), got %s",
                         emu_dtype_name(gradOut->dtype), emu_dtype_name(out->dtype));

    /* 7. dims fit int32 (CANN's limit; byte sizes were checked at tensor creation) */
    for (int i = 0; i < 4; i++)
        if (gradOut->dims[i] > INT32_MAX)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut dim %d is %lld, above INT32_MAX", i,
                             (long long)gradOut->dims[i]);

    return emu_check_output_writable(out, API, "out");
}

ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scalesH, double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(API);
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
