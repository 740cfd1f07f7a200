/*
 * aclnnUpsampleBilinear2d: checks (phase one, in the order of CANN's op_api,
 * image/upsample_bilinear2d/op_host/op_api/aclnn_upsample_bilinear_2d.cpp),
 * the choice of kernel and ratios, and launch. The arithmetic is in
 * upsample_bilinear2d_kernel.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"

#define OP_NAME "aclnnUpsampleBilinear2d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

/* Phase one's checks, in CANN's order (CheckParams); fills the sizes of the plan. */
static int check(const aclTensor *self, const aclIntArray *outputSize, double scalesH, double scalesW,
                 const aclTensor *out, const uint64_t *workspaceSize, aclOpExecutor *const *executor, upsample_plan *p)
{
    /* 1. NULL self or out: CANN's CheckNotNull returns ACLNN_ERR_INNER_NULLPTR here. */
    EMU_TRY(emu_check_args(API, EMU_ARGS({self, "self", EMU_ARG_TENSOR, ACLNN_ERR_INNER_NULLPTR},
                                         {out, "out", EMU_ARG_TENSOR, ACLNN_ERR_INNER_NULLPTR},
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));

    /* 2., 3. dtypes */
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));

    /* 4. formats (equal; NCHW or NHWC), ranks, and DOUBLE only in NHWC */
    if (self->format != out->format)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "self and out must have the same format, got self %s and out %s",
                         emu_format_name(self->format), emu_format_name(out->format));
    EMU_TRY(emu_check_format_in(API, self, "self", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC)));
    EMU_TRY(emu_check_rank(API, self, "self", 4));
    EMU_TRY(emu_check_rank(API, out, "out", 4));
    p->nhwc = self->format == ACL_FORMAT_NHWC;
    if (!p->nhwc && self->dtype == ACL_DOUBLE)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "self dtype DOUBLE is supported only in NHWC format");

    /* 5. N and C of self and out, in self's layout (CheckNCDimValid) */
    const int c_axis = p->nhwc ? 3 : 1;
    EMU_TRY(emu_check_dim(API, out->dims[0], self->dims[0], "out.shape[0]", "self.shape[0]"));
    EMU_TRY(emu_check_dim(API, out->dims[c_axis], self->dims[c_axis], p->nhwc ? "out.shape[3]" : "out.shape[1]",
                          p->nhwc ? "self.shape[3]" : "self.shape[1]"));

    /* 6. scales */
    if (scalesW < 0 || scalesH < 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "scalesH and scalesW cannot be negative, got scalesH=%g scalesW=%g",
                         scalesH, scalesW);

    /* 7. outputSize: 2 values equal to out's H and W (in out's layout) */
    if (!outputSize)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "outputSize must not be NULL");
    EMU_TRY(emu_check_int_array_live(API, outputSize, "outputSize"));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 2, ""));
    const int h_axis = p->nhwc ? 1 : 2;
    EMU_TRY(emu_check_dim(API, out->dims[h_axis], outputSize->values[0], p->nhwc ? "out.shape[1]" : "out.shape[2]",
                          "outputSize[0]"));
    EMU_TRY(emu_check_dim(API, out->dims[h_axis + 1], outputSize->values[1], p->nhwc ? "out.shape[2]" : "out.shape[3]",
                          "outputSize[1]"));

    p->n = self->dims[0];
    p->c = self->dims[c_axis];
    p->axis[UPSAMPLE_H].in = self->dims[h_axis];
    p->axis[UPSAMPLE_W].in = self->dims[h_axis + 1];
    p->axis[UPSAMPLE_H].out = outputSize->values[0];
    p->axis[UPSAMPLE_W].out = outputSize->values[1];
    return 0;
}

/* double -> float as the hardware rounds it, without C's undefined behaviour beyond FLT_MAX. */
static float narrow(double v)
{
    return v > FLT_MAX ? INFINITY : v < -FLT_MAX ? -INFINITY : (float)v;
}

/* GetBilinearScales of the op_api (double, then narrowed to float by its caller). */
static float bilinear_scale(int64_t in, int64_t out, double scale, bool align_corners)
{
    if (out == in)
        return 1.0f;
    if (align_corners)
        return out > 1 ? narrow((double)(in - 1) / (double)(out - 1)) : 0.0f;
    return narrow(scale > 0 ? 1.0 / scale : (double)in / (double)out);
}

/* CheckBilinear2dScales and CheckScalesAndShapeValid: whether the op_api takes
 * the UpsampleBilinear2d kernel. Both read view dims 2 and 3, whatever the layout. */
static bool takes_upsample_kernel(const aclTensor *self, const aclTensor *out, double sh, double sw, bool align)
{
    const int64_t in_h = self->dims[2], in_w = self->dims[3], out_h = out->dims[2], out_w = out->dims[3];
    if (fabs(sw - 2.0) < 1e-9 && fabs(sh - 2.0) < 1e-9 && self->dtype != ACL_BF16)
        return false;
    if (fabs(sh) < 1e-12 || fabs(sw) < 1e-12)
        return false;
    double sh1 = sh, sw1 = sw;
    if (fabs(sh - 1.0) < 1e-9 && fabs(sw - 1.0) < 1e-9 && (out_h != in_h || out_w != in_w)) {
        if (self->dtype != ACL_BF16)
            return false;
        sh1 = sw1 = 0.0;
    }
    if (bilinear_scale(in_h, out_h, sh1, align) > 50.0f || bilinear_scale(in_w, out_w, sw1, align) > 50.0f)
        return false;
    /* static_cast<int64_t>(in * scale) == out; a product beyond int64 (undefined in C) never equals. */
    return trunc((double)in_h * sh) == (double)out_h && trunc((double)in_w * sw) == (double)out_w;
}

/* Which kernel runs and with what ratios (910B op_api). NHWC never takes the
 * UpsampleBilinear2d kernel here: CANN's predicate reads dims 2 and 3 as H and W
 * and would run an NCHW kernel on NHWC data (see the closing note of issue 14). */
static void choose_path(const aclTensor *self, const aclTensor *out, bool align, double sh, double sw, upsample_plan *p)
{
    p->align_corners = align;
    const bool aicore = self->dtype != ACL_DOUBLE;
    if (aicore && !p->nhwc && emu_soc_current()->family != EMU_SOC_950 &&
        takes_upsample_kernel(self, out, sh, sw, align)) {
        if (p->axis[UPSAMPLE_H].in == p->axis[UPSAMPLE_H].out && p->axis[UPSAMPLE_W].in == p->axis[UPSAMPLE_W].out) {
            p->kernel = UPSAMPLE_KERNEL_COPY; /* the op_api returns the (contiguous) input */
            return;
        }
        p->kernel = UPSAMPLE_KERNEL_ASCENDC;
        p->kernel_name = "UpsampleBilinear2d";
        p->cube_cores = emu_soc_current()->cube_cores;
        /* UpsampleBilinear2dNcdhw passes float(1 / scale) to the tiling (0, i.e. the sizes' ratio, when both are 1). */
        const bool both_one = fabs(sh - 1.0) <= 1e-9 && fabs(sw - 1.0) <= 1e-9;
        const float real_h = both_one ? 0.0f : narrow(1.0 / sh), real_w = both_one ? 0.0f : narrow(1.0 / sw);
        const float real[2] = {[UPSAMPLE_W] = real_w, [UPSAMPLE_H] = real_h};
        for (int a = 0; a < 2; a++) { /* the tiling's ratio: 1 for equal sizes */
            upsample_axis *ax = &p->axis[a];
            ax->ratio = ax->in == ax->out ? 1.0f : upsample_ratio(ax->in, ax->out, align, real[a], 0.0f);
        }
        upsample_skip_unit_ratios(p);
        return;
    }
    p->kernel = UPSAMPLE_KERNEL_TBE;
    p->kernel_name = "ResizeBilinearV2";
    for (int a = 0; a < 2; a++) /* calculate_scale: in/out for a single output also with alignCorners */
        p->axis[a].ratio = upsample_ratio(p->axis[a].in, p->axis[a].out, align, 0.0f,
                                          (float)p->axis[a].in / (float)p->axis[a].out);
}

/* Workspace CANN's phase one reports (an estimate of the executor's total, which opbase's
 * aclOpExecutor::GetWorkspaceSize sums from the tilings' workspaces and the op_api's intermediate tensors):
 * Contiguous copies of non-contiguous tensors; on the UpsampleBilinear2d path the casts to and from FLOAT and the
 * tiling's workspace (an N*C*H*outW FLOAT intermediate, 128-byte aligned, the weight matrices of each cube core,
 * plus a fixed 32 MiB); on the ResizeBilinearV2 path the NC1HWC0 layouts in and out (BF16 via FLOAT). Each tensor
 * 512-byte aligned. */
static uint64_t workspace_estimate(const aclTensor *self, const aclTensor *out, const upsample_plan *p)
{
    const int64_t h = p->axis[UPSAMPLE_H].in, w = p->axis[UPSAMPLE_W].in;
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out;
    const size_t item = emu_dtype_size(self->dtype);
    const int64_t n_in = emu_tensor_numel(self), n_out = emu_tensor_numel(out);
    uint64_t total = 0;
    if (!emu_tensor_contiguous(self))
        total += emu_ws_bytes(n_in, item);
    if (!emu_tensor_contiguous(out))
        total += emu_ws_bytes(n_out, item);
    if (p->kernel == UPSAMPLE_KERNEL_COPY)
        return total;
    if (p->kernel == UPSAMPLE_KERNEL_ASCENDC) {
        if (self->dtype != ACL_FLOAT)
            total += emu_ws_bytes(n_in, 4) + 2 * emu_ws_bytes(n_out, 4); /* casts of self, out, and back */
        const uint64_t inter = ((uint64_t)(p->n * p->c * h * ow) * 4 + 127) / 128 * 128;
        const uint64_t radio = (uint64_t)16 * 64 * 4 * (uint64_t)emu_soc_current()->cube_cores;
        return total + emu_ws_bytes(n_out, item) + inter + radio + ((uint64_t)32 << 20);
    }
    if (self->dtype == ACL_DOUBLE) /* AI CPU: the result, then the Cast (a copy) */
        return total + emu_ws_bytes(n_out, item);
    const size_t inner = self->dtype == ACL_BF16 ? 4 : item;
    const int64_t c1 = (p->c + 15) / 16;
    if (self->dtype == ACL_BF16)
        total += emu_ws_bytes(n_in, 4) + emu_ws_bytes(n_out, 4);
    total += emu_ws_bytes(p->n * c1 * h * w * 16, inner);         /* self in NC1HWC0 */
    total += 2 * emu_ws_bytes(p->n * c1 * oh * ow * 16, inner); /* out in NC1HWC0, result */
    return total + 2 * emu_ws_bytes(n_out, item);                        /* back to the layout, Cast */
}

ACLNN_API aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                              const bool alignCorners, const double scalesH,
                                                              const double scalesW, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 2, .mode = UPSAMPLE_LINEAR,
                       .axis = {[UPSAMPLE_W] = {.scale = scalesW}, [UPSAMPLE_H] = {.scale = scalesH}}};
    int st = check(self, outputSize, scalesH, scalesW, out, workspaceSize, executor, &p);
    if (st)
        return st;
    const bool empty = emu_tensor_numel(self) == 0 || emu_tensor_numel(out) == 0;
    if (!empty && (st = emu_check_output_writable(API, out, "out")) != 0)
        return st;
    if (!empty && (p.axis[UPSAMPLE_H].in > INT32_MAX || p.axis[UPSAMPLE_W].in > INT32_MAX))
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "self H and W must be at most INT32_MAX, got H=%lld W=%lld",
                         (long long)p.axis[UPSAMPLE_H].in, (long long)p.axis[UPSAMPLE_W].in);
    uint64_t ws = 0; /* empty tensors: CANN returns before any kernel, with a workspace of 0 */
    if (!empty) {
        choose_path(self, out, alignCorners, scalesH, scalesW, &p);
        ws = workspace_estimate(self, out, &p);
    }
    return upsample_create(&OP, self, out, &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleBilinear2d)
