/*
 * aclnnUpsampleBilinear2dBackward (V1): checks (phase one, in the order of
 * CANN's op_api, image/resize_bilinear_v2_grad/op_api/
 * aclnn_upsample_bilinear_2d_backward.cpp) and launch. On Atlas A2 that
 * op_api always runs ResizeBilinearV2Grad (the sizes' ratio; the scales are
 * not used) or, for equal sizes, copies gradOut: both are paths of the V2
 * operator's kernel, which this file shares.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward.h"

#define OP_NAME "aclnnUpsampleBilinear2dBackward"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOut");

/* Phase one's checks, in CANN's order (CheckParams); fills the plan's sizes (gradOut's layout). */
static int check(const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize,
                 const aclTensor *out, const uint64_t *workspaceSize, aclOpExecutor *const *executor,
                 upsample_plan *p)
{
    /* 1. NULL pointers (CANN's order), then stale handles (never dereferenced). */
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(gradOut), EMU_INT_ARRAY_ARG(outputSize),
                                         EMU_INT_ARRAY_ARG(inputSize), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));

    /* 2. CheckShape: ranks, array sizes, then both shapes in out's layout (any format but NCHW reads as NHWC). */
    EMU_TRY(emu_check_rank(API, gradOut, "gradOut", 4));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 2, ""));
    EMU_TRY(emu_check_array_len(API, inputSize, "inputSize", 4, ""));
    EMU_TRY(emu_check_rank(API, out, "out", 4)); /* CANN reads out's four dims unchecked */
    const bool out_nhwc = out->format != ACL_FORMAT_NCHW;
    const int64_t oh = outputSize->values[0], ow = outputSize->values[1];
    p->axis[UPSAMPLE_H].out = oh;
    p->axis[UPSAMPLE_W].out = ow;
    upsample_read_sizes(inputSize->values, out_nhwc, p);
    EMU_TRY(upsample_check_positive(API, p));
    const int64_t n = p->n, c = p->c, go_nchw[4] = {n, c, oh, ow}, go_nhwc[4] = {n, oh, ow, c};
    const int64_t *want_go = out_nhwc ? go_nhwc : go_nchw;
    static const char *const go_dims[] = {"gradOut.shape[0]", "gradOut.shape[1]", "gradOut.shape[2]",
                                          "gradOut.shape[3]"};
    static const char *const out_dims[] = {"out.shape[0]", "out.shape[1]", "out.shape[2]", "out.shape[3]"};
    /* CANN reads the sizes in out's layout: say so when out's format is neither NCHW nor NHWC. */
    char what[96];
    snprintf(what, sizeof what, "inputSize and outputSize%s",
             out->format == ACL_FORMAT_NCHW || out->format == ACL_FORMAT_NHWC ? ""
             : out->format == ACL_FORMAT_ND ? ", read as NHWC because out's format is ND (CANN's CheckShape)"
                                            : ", read as NHWC because out's format is not NCHW (CANN's CheckShape)");
    for (int i = 0; i < 4; i++) {
        EMU_TRY(emu_check_dim(API, gradOut->dims[i], want_go[i], go_dims[i], what));
        EMU_TRY(emu_check_dim(API, out->dims[i], inputSize->values[i], out_dims[i], "inputSize"));
    }

    /* 3. dtypes: FLOAT16 or FLOAT only when the sizes differ; out's always gradOut's */
    if (!emu_shape_equals(gradOut, inputSize)) {
        if (emu_soc_current()->family == EMU_SOC_950)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API,
                             "the emulator does not model CANN's %s ResizeBilinearV2Grad kernel (arch35)",
                             emu_soc_current()->name);
        EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT)));
    }
    EMU_TRY(emu_check_dtype(API, out, "out", gradOut->dtype, " (gradOut's)"));

    /* 4. ChecksInputElement: gradOut's shape again, in gradOut's own layout */
    p->nhwc = gradOut->format == ACL_FORMAT_NHWC;
    upsample_read_sizes(inputSize->values, p->nhwc, p);
    EMU_TRY(upsample_check_positive(API, p));
    const int64_t full_nchw[4] = {p->n, p->c, oh, ow}, full_nhwc[4] = {p->n, oh, ow, p->c};
    EMU_TRY(emu_check_shape(API, gradOut, "gradOut", p->nhwc ? full_nhwc : full_nchw, 4,
                            p->nhwc ? " (N,outH,outW,C in gradOut's format)" : " (N,C,outH,outW in gradOut's format)"));

    /* 5. CheckNCDimValid: gradOut's format, and out's N and C in it */
    if (gradOut->format != ACL_FORMAT_NCHW && gradOut->format != ACL_FORMAT_NHWC)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut format must be NCHW or NHWC, got %s",
                         emu_format_name(gradOut->format));
    const int c_axis = p->nhwc ? 3 : 1;
    EMU_TRY(emu_check_dim(API, out->dims[0], gradOut->dims[0], "out.shape[0]", "gradOut.shape[0]"));
    EMU_TRY(emu_check_dim(API, out->dims[c_axis], gradOut->dims[c_axis], out_dims[c_axis], go_dims[c_axis]));
    return 0;
}

/* Workspace CANN's phase one reports (an estimate of the executor's total, which opbase's
 * aclOpExecutor::GetWorkspaceSize sums from the tilings' workspaces and the op_api's intermediate tensors). Equal
 * sizes: a Contiguous copy of gradOut when it is not contiguous. Otherwise also gradOut in NC1HWC0, cast to FLOAT,
 * the image (NCHW and NC1HWC0), the kernel's result, its cast back and the layout change back to out's format. Each
 * tensor 512-byte aligned. */
static uint64_t workspace_estimate(const aclTensor *gradOut, const upsample_plan *p)
{
    const int64_t h = p->axis[UPSAMPLE_H].in, w = p->axis[UPSAMPLE_W].in;
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out;
    const size_t item = emu_dtype_size(gradOut->dtype);
    uint64_t total = emu_tensor_contiguous(gradOut) ? 0 : emu_ws_bytes(emu_tensor_numel(gradOut), item);
    if (p->kernel == UPSAMPLE_KERNEL_COPY)
        return total;
    const int64_t c1 = (p->c + 15) / 16, go5 = p->n * c1 * oh * ow * 16, in5 = p->n * c1 * h * w * 16;
    const bool is_float = gradOut->dtype == ACL_FLOAT;
    total += emu_ws_bytes(go5, item) + (is_float ? 0 : emu_ws_bytes(go5, 4));
    total += emu_ws_bytes(p->n * p->c * h * w, 4) + 2 * emu_ws_bytes(in5, 4); /* image, its 5HD, result */
    if (!is_float)
        total += emu_ws_bytes(in5, item);
    return total + emu_ws_bytes(p->n * p->c * h * w, item);
}

ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scalesH, double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 2, .mode = UPSAMPLE_LINEAR, .backward = true, .drop_past_end = true,
                       .axis = {[UPSAMPLE_W] = {.scale = scalesW}, [UPSAMPLE_H] = {.scale = scalesH}}};
    int st = check(gradOut, outputSize, inputSize, out, workspaceSize, executor, &p);
    if (st)
        return st;
    const bool empty = emu_tensor_numel(gradOut) == 0;
    uint64_t ws = 0; /* an empty gradOut: CANN returns before any kernel, with a workspace of 0 */
    if (!empty) {
        if ((st = emu_check_output_writable(API, out, "out")) != 0)
            return st;
        if (emu_dtype_size(gradOut->dtype) == 0)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut dtype %s has no whole-byte size; the emulator "
                             "cannot copy it", emu_dtype_name(gradOut->dtype) ? emu_dtype_name(gradOut->dtype) : "?");
        for (int i = 0; i < 4; i++)
            if (gradOut->dims[i] > INT32_MAX)
                return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut dim %d is %lld, above INT32_MAX", i,
                                 (long long)gradOut->dims[i]);
        p.align_corners = alignCorners;
        if (emu_shape_equals(gradOut, inputSize)) {
            p.kernel = UPSAMPLE_KERNEL_COPY;
        } else { /* ResizeBilinearV2Grad with half_pixel_centers = !alignCorners: the sizes' ratio, float32 */
            p.kernel = UPSAMPLE_KERNEL_TBE;
            p.kernel_name = "ResizeBilinearV2Grad";
            for (int a = 0; a < 2; a++)
                p.axis[a].ratio = upsample_ratio(p.axis[a].in, p.axis[a].out, alignCorners, 0.0f, 0.0f);
        }
        ws = workspace_estimate(gradOut, &p);
    }
    return upsample_create(&OP, gradOut, out, &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleBilinear2dBackward)
