/*
 * aclnnUpsampleBilinear2dBackwardV2: checks (phase one, in the order of
 * CANN's op_api, image/upsample_bilinear2d_grad/op_host/op_api), the choice
 * of kernel path and ratios, and launch. The arithmetic is in
 * upsample_bilinear2d_backward_v2_kernel.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>

#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"

#define OP_NAME "aclnnUpsampleBilinear2dBackwardV2"
UPSAMPLE_DEFINE_OP(OP_NAME, "gradOut");

/* Phase one's checks, in CANN's order; fills the sizes of the plan. */
static int check(const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize,
                 const aclTensor *out, const uint64_t *workspaceSize, aclOpExecutor *const *executor,
                 upsample_plan *p)
{
    /* 1. NULL pointers (CANN's order), then stale handles (never dereferenced). */
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(gradOut), EMU_INT_ARRAY_ARG(inputSize),
                                         EMU_INT_ARRAY_ARG(outputSize), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));

    /* 2. ranks and array sizes */
    EMU_TRY(emu_check_rank(API, gradOut, "gradOut", 4));
    EMU_TRY(emu_check_array_len(API, inputSize, "inputSize", 4, ""));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 2, ""));

    /* 3. out's format */
    EMU_TRY(emu_check_format_in(API, out, "out", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC)));

    /* 4. gradOut's format decides the layout; sizes, and gradOut's shape against them */
    p->nhwc = gradOut->format == ACL_FORMAT_NHWC;
    upsample_read_sizes(inputSize->values, p->nhwc, p);
    const int64_t oh = outputSize->values[0], ow = outputSize->values[1];
    p->axis[UPSAMPLE_H].out = oh;
    p->axis[UPSAMPLE_W].out = ow;
    EMU_TRY(upsample_check_positive(API, p));
    const int64_t nchw[4] = {p->n, p->c, oh, ow}, nhwc[4] = {p->n, oh, ow, p->c};
    EMU_TRY(emu_check_shape(API, gradOut, "gradOut", p->nhwc ? nhwc : nchw, 4,
                            p->nhwc ? " (N,outH,outW,C from inputSize and outputSize)"
                                    : " (N,C,outH,outW from inputSize and outputSize)"));

    /* 5. gradOut's format, and out's N and C in that layout */
    EMU_TRY(emu_check_format_in(API, gradOut, "gradOut", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC)));
    const int c_axis = p->nhwc ? 3 : 1;
    EMU_TRY(emu_check_dim(API, out->dims[0], gradOut->dims[0], "out.shape[0]", "gradOut.shape[0]"));
    EMU_TRY(emu_check_dim(API, out->dims[c_axis], gradOut->dims[c_axis], p->nhwc ? "out.shape[3]" : "out.shape[1]",
                          p->nhwc ? "gradOut.shape[3]" : "gradOut.shape[1]"));

    /* 6. dtypes: the SoC's list only when the sizes differ */
    if (!emu_shape_equals(gradOut, inputSize)) {
        const emu_soc *soc = emu_soc_current();
        if (soc->family == EMU_SOC_950)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API,
                             "support for %s is not implemented (CANN's op_api: gradOut's shape differs from "
                             "inputSize)", soc->name);
        EMU_TRY(emu_check_dtype_in(API, gradOut, "gradOut", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16)));
    }
    EMU_TRY(emu_check_dtype(API, out, "out", gradOut->dtype, " (gradOut's)"));
    return 0;
}

/* The checks of the non-empty path (after CANN's early return for empty tensors). */
static int check_launch_path(const aclTensor *gradOut, const aclIntArray *inputSize, const aclTensor *out)
{
    /* CheckReduceOutShape: the kernel writes inputSize's shape (on the NCHW path
     * CANN does not compare it, and a mismatch would corrupt memory). */
    EMU_TRY(emu_check_shape(API, out, "out", inputSize->values, 4, " (inputSize)"));
    /* Equal sizes admit any dtype; the kernel path casts to FLOAT and back
     * (the emulator's Cast covers the floats, INT32 and DOUBLE). */
    switch (gradOut->dtype) {
    case ACL_FLOAT: case ACL_FLOAT16: case ACL_BF16: case ACL_INT32: case ACL_DOUBLE:
        break;
    default:
        return emu_error(ACLNN_ERR_INNER_NULLPTR, API, "gradOut dtype %s is not cast to FLOAT by the emulator's Cast",
                         emu_dtype_name(gradOut->dtype) ? emu_dtype_name(gradOut->dtype) : "?");
    }
    for (int i = 0; i < 4; i++)
        if (gradOut->dims[i] > INT32_MAX)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "gradOut dim %d is %lld, above INT32_MAX", i,
                             (long long)gradOut->dims[i]);
    return emu_check_output_writable(API, out, "out");
}

/* Which of CANN's kernels runs and with what ratios (910B/910_93 op_api). */
static void choose_path(const aclTensor *gradOut, const aclIntArray *inputSize, bool alignCorners, double scalesH,
                        double scalesW, upsample_plan *p)
{
    const bool same = emu_shape_equals(gradOut, inputSize);
    p->align_corners = alignCorners;
    if (emu_soc_current()->family == EMU_SOC_950) {
        p->kernel = UPSAMPLE_KERNEL_NONE_ON_SOC; /* only equal sizes get here (check 6) */
        return;
    }
    /* ComputeCheckScale: scales must reproduce the output size, tested only if either is above 1e-9. */
    bool scales_consistent = true;
    if (fabs(scalesH) > 1e-9 || fabs(scalesW) > 1e-9)
        scales_consistent = (double)p->axis[UPSAMPLE_H].out == floor((double)p->axis[UPSAMPLE_H].in * scalesH) &&
                            (double)p->axis[UPSAMPLE_W].out == floor((double)p->axis[UPSAMPLE_W].in * scalesW);
    /* CheckMinScale reads inputSize[2], [3] and gradOut's dims 2, 3 whatever the layout. */
    const double in2 = (double)inputSize->values[2], in3 = (double)inputSize->values[3];
    const double rh = scalesH > 0 ? 1.0 / scalesH : (gradOut->dims[2] ? in2 / (double)gradOut->dims[2] : 0.0);
    const double rw = scalesW > 0 ? 1.0 / scalesW : (gradOut->dims[3] ? in3 / (double)gradOut->dims[3] : 0.0);
    const bool min_scale_ok = rh >= 0.01 && rw >= 0.01;
    if (!same && (!scales_consistent || !min_scale_ok)) {
        /* ResizeBilinearV2Grad: the sizes' ratio, no scales. */
        p->kernel = UPSAMPLE_KERNEL_TBE;
        p->kernel_name = "ResizeBilinearV2Grad";
        for (int a = 0; a < 2; a++)
            p->axis[a].ratio = upsample_ratio(p->axis[a].in, p->axis[a].out, alignCorners, 0.0f, 0.0f);
        return;
    }
    /* UpsampleBilinear2dGrad with realScales = float(1 / scale) for a positive scale. */
    p->kernel = UPSAMPLE_KERNEL_ASCENDC;
    const float real_h = scalesH > 0 ? (float)(1.0 / scalesH) : 0.0f;
    const float real_w = scalesW > 0 ? (float)(1.0 / scalesW) : 0.0f;
    p->kernel_name = "UpsampleBilinear2dGrad";
    const float real[2] = {[UPSAMPLE_W] = real_w, [UPSAMPLE_H] = real_h};
    for (int a = 0; a < 2; a++)
        p->axis[a].ratio = upsample_ratio(p->axis[a].in, p->axis[a].out, alignCorners, real[a], 0.0f);
    /* The kernel skips the W pass at ratio 1, and the H pass only when the W pass ran. */
    upsample_skip_unit_ratios(p);
}

/* Workspace CANN's phase one reports (an estimate of the executor's total, which opbase's
 * aclOpExecutor::GetWorkspaceSize sums from the tilings' workspaces and the op_api's intermediate tensors):
 * Contiguous copies of non-contiguous tensors, the casts to and from FLOAT, the layout changes (NHWC transposes, or
 * NC1HWC0 on the ResizeBilinearV2Grad path), the kernel's FLOAT result, and the UpsampleBilinear2dGrad tiling's
 * workspace (an intermediate of N*C*outH*W, 8 bytes an element as the tiling counts it, the weight matrices of each
 * cube core, plus a fixed 32 MiB). Each tensor 512-byte aligned. */
static uint64_t workspace_estimate(const aclTensor *gradOut, const aclTensor *out, const upsample_plan *p)
{
    const int64_t h = p->axis[UPSAMPLE_H].in, w = p->axis[UPSAMPLE_W].in;
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out;
    if (p->kernel == UPSAMPLE_KERNEL_NONE_ON_SOC)
        return 0;
    const size_t item = emu_dtype_size(gradOut->dtype);
    const int64_t n_go = emu_tensor_numel(gradOut), n_out = emu_tensor_numel(out);
    const int64_t c1 = (p->c + 15) / 16;
    const bool is_float = gradOut->dtype == ACL_FLOAT;
    uint64_t total = 0;
    if (!emu_tensor_contiguous(gradOut))
        total += emu_ws_bytes(n_go, item);
    if (!emu_tensor_contiguous(out))
        total += emu_ws_bytes(n_out, item);
    if (p->kernel == UPSAMPLE_KERNEL_TBE) {
        total += emu_ws_bytes(p->n * c1 * oh * ow * 16, item);   /* gradOut in NC1HWC0 */
        if (!is_float)
            total += emu_ws_bytes(p->n * c1 * oh * ow * 16, 4);  /* cast to FLOAT */
        total += 2 * emu_ws_bytes(p->n * c1 * h * w * 16, 4);         /* image, result */
        if (!is_float)
            total += emu_ws_bytes(p->n * c1 * h * w * 16, item);      /* cast back */
        return total + emu_ws_bytes(n_out, item);                           /* back to NCHW / NHWC */
    }
    if (p->nhwc)
        total += emu_ws_bytes(n_go, item) + emu_ws_bytes(n_out, 4);          /* transposes */
    if (!is_float)
        total += emu_ws_bytes(n_go, 4) + emu_ws_bytes(n_out, item);          /* casts */
    total += emu_ws_bytes(n_out, 4);                                         /* the kernel's result */
    /* The tiling's own workspace (upsample_bilinear2d_grad_tiling.cpp, getWorkSpace). */
    const int64_t slide = 16;
    const double rw = p->axis[UPSAMPLE_W].ratio, rh = p->axis[UPSAMPLE_H].ratio;
    int64_t k_w = rw > 1e-6 ? ((int64_t)ceil((double)(slide + 4) / rw) + 8 + 7) / 8 * 8 : w;
    int64_t k_h = rh > 1e-6 ? ((int64_t)ceil((double)(slide + 4) / rh) + 8 + 7) / 8 * 8 : h;
    k_w = k_w < slide ? slide : k_w;
    k_h = k_h < slide ? slide : k_h;
    const int64_t radio = slide * (k_w > k_h ? k_w : k_h);
    const int64_t intermediate = p->n * p->c * oh * w;
    const uint64_t tiling = (uint64_t)(intermediate + radio * emu_soc_current()->cube_cores) * 8 + ((uint64_t)32 << 20);
    return total + tiling;
}

ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scalesH, double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 2, .mode = UPSAMPLE_LINEAR, .backward = true, .drop_past_end = true,
                       .axis = {[UPSAMPLE_W] = {.scale = scalesW}, [UPSAMPLE_H] = {.scale = scalesH}}};
    int st = check(gradOut, outputSize, inputSize, out, workspaceSize, executor, &p);
    if (st)
        return st;
    const bool empty = emu_tensor_numel(gradOut) == 0 || emu_tensor_numel(out) == 0;
    if (!empty && (st = check_launch_path(gradOut, inputSize, out)) != 0)
        return st;
    uint64_t ws = 0; /* empty tensors: CANN returns before any kernel, with a workspace of 0 */
    if (!empty) {
        choose_path(gradOut, inputSize, alignCorners, scalesH, scalesW, &p);
        ws = workspace_estimate(gradOut, out, &p);
    }
    return upsample_create(&OP, gradOut, out, &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleBilinear2dBackwardV2)
