/*
 * aclnnRoiAlignV2Backward: checks (phase one, in CANN's order), plan and
 * launch. The arithmetic is in roi_align_v2_backward_kernel.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "../../../meta/meta.h"
#include "aclnnop/aclnn_roi_align_v2_backward.h"
#include "../roi.h"

#define OP_NAME "aclnnRoiAlignV2Backward"
static const char API[] = OP_NAME "GetWorkspaceSize";
enum { GRAD_OUTPUT, BOXES, GRAD_INPUT }; /* the tensors' slots */
static const char *const TENSOR_NAMES[] = {[GRAD_OUTPUT] = "gradOutput", [BOXES] = "boxes", [GRAD_INPUT] = "gradInput"};

/* Boxes CANN accepts but surely are bugs (image id outside [0, B), NaN/Inf
 * coordinates): the kernel skips them; here they become a warning, or an
 * error in strict mode, naming the first. */
static int check_boxes(const roi_plan *p, const emu_view *boxes, int64_t nk, char *msg, size_t cap)
{
    const float *bx = nk ? (const float *)boxes->data + boxes->offset : NULL;
    const int64_t rs = boxes->strides[0], cs = boxes->strides[1];
    int64_t bad = 0, first_bad = -1;
    for (int64_t k = 0; k < nk; k++) {
        const float *row = bx + k * rs;
        bool misuse = emu_roi_image(p, row[0]) < 0 || !isfinite(p->spatial_scale);
        for (int j = 1; j < 5; j++)
            misuse |= !isfinite(row[j * cs]);
        if (misuse && bad++ == 0)
            first_bad = k;
    }
    if (!bad)
        return 0;
    const float *row = bx + first_bad * rs;
    return emu_run_misuse(OP_NAME, msg, cap,
                          "%lld box(es) have an image id outside [0, %lld) or non-finite coordinates (or "
                          "spatialScale is NaN) and are skipped; first: box %lld = (%g, %g, %g, %g, %g)",
                          (long long)bad, (long long)p->batch, (long long)first_bad, (double)row[0], (double)row[cs],
                          (double)row[2 * cs], (double)row[3 * cs], (double)row[4 * cs]);
}

static int run(const emu_launch *l, char *msg, size_t cap)
{
    roi_plan plan = *(const roi_plan *)l->params;
    plan.threads = emu_kernel_threads();
    plan.reference = emu_reference_kernels();
    const roi_plan *p = &plan;
    const emu_view grad_output = emu_launch_view(l, GRAD_OUTPUT), boxes = emu_launch_view(l, BOXES);
    const emu_view grad_input = emu_launch_view(l, GRAD_INPUT);
    const bool any = emu_view_numel(&grad_output) > 0 && emu_view_numel(&boxes) > 0 && emu_view_numel(&grad_input) > 0;
    int st = check_boxes(p, &boxes, any ? p->boxes : 0, msg, cap);
    roi_backward_report r;
    roi_book_backward(&plan, any);
    if (!st)
        st = emu_scratch_grant(&plan.scratch, plan.threads, OP_NAME, msg, cap);
    if (!st)
        st = roi_align_v2_backward_kernel(&grad_output, &boxes, &grad_input, p, &r, msg, cap);
    emu_scratch_release(&plan.scratch);
    /* The forward's rule, in this direction: such a box is surely a bug (CANN computes nothing for it). */
    if (!st && r.no_sample)
        st = emu_run_misuse(OP_NAME, msg, cap, "%lld box(es) have no sample (first: box %lld); CANN computes "
                            "nothing for them, so they add no gradient", (long long)r.no_sample,
                            (long long)r.first_no_sample);
    return st;
}

EMU_DEFINE_OP(OP_NAME, TENSOR_NAMES, 2, 1, run);

/* Phase one's checks, in CANN's order. */
static int check(const aclTensor *gradOutput, const aclTensor *boxes, const aclIntArray *inputShape,
                 int64_t pooledHeight, int64_t pooledWidth, float spatialScale, int64_t samplingRatio,
                 const aclTensor *gradInput, const uint64_t *workspaceSize, aclOpExecutor *const *executor)
{
    /* 1. NULL pointers, then stale handles (never dereferenced) */
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(gradOutput), EMU_TENSOR_ARG(boxes),
                                         EMU_INT_ARRAY_ARG(inputShape), EMU_TENSOR_ARG(gradInput),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));

    /* 2. dtypes */
    EMU_TRY(emu_check_dtype(API, gradOutput, "gradOutput", ACL_FLOAT, ""));
    EMU_TRY(emu_check_each_dtype(API, EMU_EACH(EMU_WANT(boxes, gradOutput->dtype),
                                               EMU_WANT(gradInput, gradOutput->dtype)), " (gradOutput's)"));

    /* 3. formats */
    EMU_TRY(emu_check_each_format(API, EMU_EACH(EMU_WANT(gradOutput, ACL_FORMAT_NCHW), EMU_WANT(boxes, ACL_FORMAT_ND),
                                                EMU_WANT(gradInput, ACL_FORMAT_NCHW))));

    /* 4. input shapes */
    EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(gradOutput, 4), EMU_WANT(boxes, 2))));
    EMU_TRY(emu_check_dim(API, boxes->dims[1], 5, "boxes.shape[1]", "5"));
    EMU_TRY(emu_check_array_len(API, inputShape, "inputShape", 4, " (B, C, H, W)"));
    EMU_TRY(emu_check_dim(API, boxes->dims[0], gradOutput->dims[0], "boxes.shape[0]", "gradOutput.shape[0]"));
    EMU_TRY(emu_check_dim(API, gradOutput->dims[2], pooledHeight, "gradOutput.shape[2]", "pooledHeight"));
    EMU_TRY(emu_check_dim(API, gradOutput->dims[3], pooledWidth, "gradOutput.shape[3]", "pooledWidth"));

    /* 5. output shape */
    EMU_TRY(emu_check_rank(API, gradInput, "gradInput", 4));
    EMU_TRY(emu_check_dim(API, gradInput->dims[1], gradOutput->dims[1], "gradInput.shape[1]", "gradOutput.shape[1]"));
    static const char *const in_names[] = {"inputShape[0]", "inputShape[1]", "inputShape[2]", "inputShape[3]"};
    static const char *const out_names[] = {"gradInput.shape[0]", "gradInput.shape[1]", "gradInput.shape[2]",
                                            "gradInput.shape[3]"};
    for (int i = 0; i < 4; i++)
        EMU_TRY(emu_check_dim(API, gradInput->dims[i], inputShape->values[i], out_names[i], in_names[i]));

    /* 6. attributes */
    EMU_TRY(emu_check_min(API, samplingRatio, 0, "samplingRatio"));
    if (spatialScale <= FLT_MIN) /* CANN's test: a NaN passes it */
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "spatialScale must be > 0 (above FLT_MIN), got %g",
                         (double)spatialScale);

    EMU_TRY(emu_check_output_writable(API, gradInput, "gradInput"));

    EMU_TRY(emu_warn_roi_attributes(API, spatialScale, samplingRatio));

    /* Non-empty gradOutput and boxes with an empty gradInput: CANN's early
     * return does not cover it and the ROIAlignGrad tiling rejects dims <= 0. */
    if (emu_tensor_numel(gradOutput) > 0 && emu_tensor_numel(boxes) > 0 && emu_tensor_numel(gradInput) == 0)
        return emu_error(ACLNN_ERR_INNER_NULLPTR, API,
                         "gradInput is empty (inputShape has a zero dim) while gradOutput and boxes are not; CANN's "
                         "ROIAlignGrad tiling rejects dims <= 0");
    return 0;
}

/* Workspace CANN's phase one reports (an estimate of the executor's total, which opbase's
 * aclOpExecutor::GetWorkspaceSize sums from the tilings' workspaces and the op_api's intermediate tensors): the
 * intermediate tensors of the op_api (Contiguous copies of non-contiguous inputs, gradOutput in NC1HWC0, the
 * kernel's NC1HWC0 result and its NCHW copy), each 512-byte aligned, plus the kernel's workspace of 1 KiB per core
 * (blockDim as the tiling chooses it for the SoC's vector cores). An empty gradOutput or boxes takes CANN's Fill
 * path: the zero-filled gradInput and two small tensors. */
static uint64_t workspace_estimate(const aclTensor *gradOutput, const aclTensor *boxes, const roi_plan *p)
{
    const int64_t B = p->batch, C = p->channels, H = p->height, W = p->width, K = p->boxes;
    if (emu_tensor_numel(gradOutput) == 0 || emu_tensor_numel(boxes) == 0)
        return emu_ws_bytes(B * C * H * W, 4) + 2 * emu_ws_bytes(1, 8);
    const int64_t c1 = (C + 15) / 16, aiv = emu_soc_current()->vector_cores;
    uint64_t total = 0;
    if (!emu_tensor_contiguous(gradOutput))
        total += emu_ws_bytes(emu_tensor_numel(gradOutput), 4);
    if (!emu_tensor_contiguous(boxes))
        total += emu_ws_bytes(emu_tensor_numel(boxes), 4);
    total += emu_ws_bytes(K * c1 * p->pooled_h * p->pooled_w * 16, 4); /* gradOutput, NC1HWC0 */
    total += emu_ws_bytes(B * c1 * H * W * 16, 4);                     /* the kernel's result */
    total += emu_ws_bytes(B * C * H * W, 4);                           /* back to NCHW */
    /* blockDim: channel blocks, or (for wide pooled rows over large planes) boxes x channel blocks. */
    const int64_t by_c1 = c1 < aiv ? c1 : aiv, by_roi = K * c1 < aiv ? K * c1 : aiv;
    const bool roi_split = p->pooled_w >= 16 && H * W >= 4096 && K * c1 >= 16 && c1 < aiv;
    int64_t block_dim = roi_split && by_roi > by_c1 ? by_roi : by_c1;
    return total + (uint64_t)(block_dim > 0 ? block_dim : 1) * 1024;
}

ACLNN_API aclnnStatus aclnnRoiAlignV2BackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *boxes, const aclIntArray *inputShape, int64_t pooledHeight,
    int64_t pooledWidth, float spatialScale, int64_t samplingRatio, bool aligned, aclTensor *gradInput,
    uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    int st = check(gradOutput, boxes, inputShape, pooledHeight, pooledWidth, spatialScale, samplingRatio, gradInput,
                   workspaceSize, executor);
    if (st)
        return st;
    const int32_t samples = (int32_t)(uint32_t)(uint64_t)samplingRatio; /* the tiling's int32 cast */
    roi_plan p = {
        .batch = gradInput->dims[0],
        .channels = gradInput->dims[1],
        .height = gradInput->dims[2],
        .width = gradInput->dims[3],
        .boxes = boxes->dims[0],
        .pooled_h = pooledHeight,
        .pooled_w = pooledWidth,
        .spatial_scale = spatialScale,
        .samples = samples,
        .samples_reciprocal = samplingRatio > 0 ? 1.0f / (float)samplingRatio : 0.0f,
        .pooled_h_reciprocal = 1.0f / (float)pooledHeight,
        .pooled_w_reciprocal = 1.0f / (float)pooledWidth,
        .roi_end_mode = aligned ? 2 : 0,
        .soc950 = emu_soc_current()->family == EMU_SOC_950,
    };
    char attrs[192];
    snprintf(attrs, sizeof attrs, "pooled=%lldx%lld spatialScale=%g samplingRatio=%lld aligned=%d",
             (long long)pooledHeight, (long long)pooledWidth, (double)spatialScale, (long long)samplingRatio,
             (int)aligned);
    const aclTensor *tensors[] = {[GRAD_OUTPUT] = gradOutput, [BOXES] = boxes, [GRAD_INPUT] = gradInput};
    return emu_executor_create(&OP, tensors, &p, sizeof p, workspace_estimate(gradOutput, boxes, &p), attrs,
                               workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnRoiAlignV2Backward)
