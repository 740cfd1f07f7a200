/*
 * aclnnUpsampleLinear1d: checks (phase one, in the order of CANN's op_api,
 * image/upsample_linear1d/op_host/op_api/aclnn_upsample_linear_1d.cpp) and
 * the plan. Kernels: on Atlas A2 a ViewCopy when the sizes (or a scale of 1)
 * leave L unchanged, else UpsampleLinear1d (AscendC; the ResizeD fallback
 * beyond its 0.00125-50 ratio computes the same coordinates); on Ascend950
 * ResizeLinear. Both take the source coordinate in float32 from the ratio
 * (1 / scale for a positive scale, else the sizes') as the family's rule.
 * The AscendC kernel's matmul spreading an Inf or NaN over its tile is not
 * modelled here (UpsampleBilinear2d's is).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>

#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_linear_1d.h"

#define OP_NAME "aclnnUpsampleLinear1d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

/* CheckParams: NULLs, CheckShape, CheckDtypeValid. */
static int check(const aclTensor *self, const aclIntArray *outputSize, double scale, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor, upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_TENSOR_ARG(out), EMU_INT_ARRAY_ARG(outputSize),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(self, 3), EMU_WANT(out, 3))));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 1, ""));
    if (self->dims[1] == 0 || self->dims[2] == 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Non-empty 3D data tensor expected but got self with sizes "
                         "(%lld, %lld, %lld)", (long long)self->dims[0], (long long)self->dims[1],
                         (long long)self->dims[2]);
    const int64_t out_l = outputSize->values[0];
    EMU_TRY(emu_check_min(API, out_l, 1, "outputSize[0]"));
    const int64_t want[3] = {self->dims[0], self->dims[1], out_l};
    EMU_TRY(emu_check_shape(API, out, "out", want, 3, " (N, C, outputSize[0])"));
    /* Atlas A2: a scale >= 0 must reproduce outputSize (int64(L * scale)); -1 leaves it unset. A product
     * beyond int64 (undefined in C) never does. */
    const double product = (double)self->dims[2] * scale;
    const bool fits = product > -9.2e18 && product < 9.2e18 && (int64_t)product == out_l;
    if (emu_soc_current()->family != EMU_SOC_950 && scale >= 0 && !fits)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Scale conflicts with outputSize: int64(L=%lld * scale=%g) "
                         "!= outputSize[0]=%lld", (long long)self->dims[2], scale, (long long)out_l);
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    p->n = self->dims[0];
    p->c = self->dims[1];
    p->axis[UPSAMPLE_W].in = self->dims[2];
    p->axis[UPSAMPLE_W].out = out_l;
    return 0;
}

/* Which kernel runs and its ratio. */
static void choose_kernel(double scale, bool align, upsample_plan *p)
{
    upsample_axis *a = &p->axis[UPSAMPLE_W];
    const bool soc950 = emu_soc_current()->family == EMU_SOC_950;
    if (a->in == a->out || (!soc950 && fabs(scale - 1.0) < 1e-9)) {
        p->kernel = UPSAMPLE_KERNEL_COPY; /* a ViewCopy (Ascend950's ResizeLinear copies too) */
        return;
    }
    p->kernel = UPSAMPLE_KERNEL_TBE;
    p->kernel_name = soc950 ? "ResizeLinear" : "UpsampleLinear1d";
    /* The AscendC tiling takes float(1 / scale); ResizeLinear's in/out for one output with alignCorners. */
    const float real = scale > 0 ? (float)(1.0 / scale) : 0.0f;
    a->ratio = upsample_ratio(a->in, a->out, align, real, soc950 ? (float)a->in / (float)a->out : 0.0f);
}

ACLNN_API aclnnStatus aclnnUpsampleLinear1dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                            const bool alignCorners, const double scale,
                                                            aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 1, .mode = UPSAMPLE_LINEAR, .align_corners = alignCorners,
                       .axis = {[UPSAMPLE_W] = {.scale = scale}}};
    int st = check(self, outputSize, scale, out, workspaceSize, executor, &p);
    if (st)
        return st;
    uint64_t ws = 0; /* an empty batch: CANN returns before any kernel, with a workspace of 0 */
    if (emu_tensor_numel(self) > 0) {
        EMU_TRY(emu_check_output_writable(API, out, "out"));
        choose_kernel(scale, alignCorners, &p);
        /* Contiguous copies, the casts to FLOAT and back, the kernel's result. */
        const size_t item = emu_dtype_size(self->dtype);
        ws = (emu_tensor_contiguous(self) ? 0 : emu_ws_bytes(emu_tensor_numel(self), item)) +
             (self->dtype == ACL_FLOAT ? 0 : emu_ws_bytes(emu_tensor_numel(self), 4)) +
             emu_ws_bytes(emu_tensor_numel(out), 4);
    }
    return upsample_create(&OP, self, out, &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleLinear1d)
