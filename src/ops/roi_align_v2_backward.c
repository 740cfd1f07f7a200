/*
 * aclnnRoiAlignV2Backward: checks (phase one, in CANN's order), plan and
 * launch. The arithmetic is in roi_align_v2_backward_kernel.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "aclnnop/aclnn_roi_align_v2_backward.h"
#include "roi_align_v2_backward.h"

static const char API[] = "aclnnRoiAlignV2BackwardGetWorkspaceSize";
static const char *const TENSOR_NAMES[] = {"gradOutput", "boxes", "gradInput"};

static int run(const emu_launch *l, char *msg, size_t cap)
{
    return roi_align_v2_backward_kernel(&l->tensors[0], &l->tensors[1], &l->tensors[2], (const roi_plan *)l->params,
                                        msg, cap);
}

static const emu_op_def OP = {
    .name = "aclnnRoiAlignV2Backward",
    .tensor_names = TENSOR_NAMES,
    .n_inputs = 2,
    .n_outputs = 1,
    .run = run,
};

static int check_dtype(const aclTensor *t, aclDataType want, const char *name, const char *why)
{
    if (t->dtype == want)
        return 0;
    return emu_error(ACLNN_ERR_PARAM_INVALID, API, "%s dtype must be %s%s, got %s", name, emu_dtype_name(want), why,
                     emu_dtype_name(t->dtype) ? emu_dtype_name(t->dtype) : "?");
}

static int check_format(const aclTensor *t, aclFormat want, const char *name)
{
    if (t->format == want)
        return 0;
    return emu_error(ACLNN_ERR_PARAM_INVALID, API, "%s format must be %s, got %s", name, emu_format_name(want),
                     emu_format_name(t->format));
}

static int check_rank(const aclTensor *t, uint64_t rank, const char *name)
{
    if (t->ndim == rank)
        return 0;
    char d[256];
    emu_dims_describe(t->dims, t->ndim, d, sizeof d);
    return emu_error(ACLNN_ERR_PARAM_INVALID, API, "%s must be %llu-D, got %llu-D %s", name, (unsigned long long)rank,
                     (unsigned long long)t->ndim, d);
}

static int check_dim(int64_t got, int64_t want, const char *what, const char *from)
{
    if (got == want)
        return 0;
    return emu_error(ACLNN_ERR_PARAM_INVALID, API, "%s must equal %s (%lld), got %lld", what, from, (long long)want,
                     (long long)got);
}

static int check(const aclTensor *gradOutput, const aclTensor *boxes, const aclIntArray *inputShape,
                 int64_t pooledHeight, int64_t pooledWidth, float spatialScale, int64_t samplingRatio,
                 const aclTensor *gradInput, const uint64_t *workspaceSize, aclOpExecutor *const *executor)
{
    int st;
    /* 1. NULL pointers, then stale handles (never dereferenced) */
    if ((st = emu_check_not_null(gradOutput, API, "gradOutput")) || (st = emu_check_not_null(boxes, API, "boxes")) ||
        (st = emu_check_not_null(inputShape, API, "inputShape")) ||
        (st = emu_check_not_null(gradInput, API, "gradInput")) ||
        (st = emu_check_not_null(workspaceSize, API, "workspaceSize")) ||
        (st = emu_check_not_null(executor, API, "executor")))
        return st;
    if ((st = emu_check_tensor_live(gradOutput, API, "gradOutput")) || (st = emu_check_tensor_live(boxes, API, "boxes")) ||
        (st = emu_check_array_live(inputShape, API, "inputShape")) ||
        (st = emu_check_tensor_live(gradInput, API, "gradInput")))
        return st;

    /* 2. dtypes */
    if ((st = check_dtype(gradOutput, ACL_FLOAT, "gradOutput", "")) ||
        (st = check_dtype(boxes, gradOutput->dtype, "boxes", " (gradOutput's)")) ||
        (st = check_dtype(gradInput, gradOutput->dtype, "gradInput", " (gradOutput's)")))
        return st;

    /* 3. formats */
    if ((st = check_format(gradOutput, ACL_FORMAT_NCHW, "gradOutput")) || (st = check_format(boxes, ACL_FORMAT_ND, "boxes")) ||
        (st = check_format(gradInput, ACL_FORMAT_NCHW, "gradInput")))
        return st;

    /* 4. input shapes */
    if ((st = check_rank(gradOutput, 4, "gradOutput")) || (st = check_rank(boxes, 2, "boxes")) ||
        (st = check_dim(boxes->dims[1], 5, "boxes.shape[1]", "5")))
        return st;
    if (inputShape->size != 4)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "inputShape must have 4 values (B, C, H, W), got %llu",
                         (unsigned long long)inputShape->size);
    if ((st = check_dim(boxes->dims[0], gradOutput->dims[0], "boxes.shape[0]", "gradOutput.shape[0]")) ||
        (st = check_dim(gradOutput->dims[2], pooledHeight, "gradOutput.shape[2]", "pooledHeight")) ||
        (st = check_dim(gradOutput->dims[3], pooledWidth, "gradOutput.shape[3]", "pooledWidth")))
        return st;

    /* 5. output shape */
    static const char *const in_names[] = {"inputShape[0]", "inputShape[1]", "inputShape[2]", "inputShape[3]"};
    static const char *const out_names[] = {"gradInput.shape[0]", "gradInput.shape[1]", "gradInput.shape[2]",
                                            "gradInput.shape[3]"};
    if ((st = check_rank(gradInput, 4, "gradInput")) ||
        (st = check_dim(gradInput->dims[1], gradOutput->dims[1], "gradInput.shape[1]", "gradOutput.shape[1]")))
        return st;
    for (int i = 0; i < 4; i++)
        if ((st = check_dim(gradInput->dims[i], inputShape->values[i], out_names[i], in_names[i])))
            return st;

    /* 6. attributes */
    if (samplingRatio < 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "samplingRatio must be >= 0, got %lld",
                         (long long)samplingRatio);
    if (!(spatialScale > FLT_MIN))
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "spatialScale must be > 0 (above FLT_MIN), got %g",
                         (double)spatialScale);

    return emu_check_output_writable(gradInput, API, "gradInput");
}

ACLNN_API aclnnStatus aclnnRoiAlignV2BackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *boxes, const aclIntArray *inputShape, int64_t pooledHeight,
    int64_t pooledWidth, float spatialScale, int64_t samplingRatio, bool aligned, aclTensor *gradInput,
    uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(API);
    int st = check(gradOutput, boxes, inputShape, pooledHeight, pooledWidth, spatialScale, samplingRatio, gradInput,
                   workspaceSize, executor);
    if (st)
        return st;
    roi_plan p = {
        .batch = gradInput->dims[0],
        .channels = gradInput->dims[1],
        .height = gradInput->dims[2],
        .width = gradInput->dims[3],
        .boxes = boxes->dims[0],
        .pooled_h = pooledHeight,
        .pooled_w = pooledWidth,
        .spatial_scale = spatialScale,
        .sampling_ratio = samplingRatio,
        .aligned = aligned,
    };
    char attrs[192];
    snprintf(attrs, sizeof attrs, "pooled=%lldx%lld spatialScale=%g samplingRatio=%lld aligned=%d",
             (long long)pooledHeight, (long long)pooledWidth, (double)spatialScale, (long long)samplingRatio,
             (int)aligned);
    const aclTensor *tensors[] = {gradOutput, boxes, gradInput};
    return emu_executor_create(&OP, tensors, &p, sizeof p, 0, attrs, workspaceSize, executor);
}

ACLNN_API aclnnStatus aclnnRoiAlignV2Backward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream)
{
    return emu_executor_launch(&OP, workspace, workspaceSize, executor, stream);
}
