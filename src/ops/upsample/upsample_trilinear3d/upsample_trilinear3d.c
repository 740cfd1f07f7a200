/*
 * aclnnUpsampleTrilinear3d: checks in the order of CANN's op_api
 * (image/resize_upsample_trilinear/op_host/op_api/aclnn_upsample_trilinear_3d.cpp)
 * and the plan. Kernel: ResizeUpsampleTrilinear (AscendC on Atlas A2 for
 * FLOAT, FLOAT16 and BF16 up to a ratio of 50, computing in FLOAT; the AI CPU
 * kernel beyond and for DOUBLE, whose source is not published, is taken to
 * compute the same in float32 here), NCDHW (NDHWC transposed to it and back):
 * separable passes W, then H, then D in float32, each skipped at a ratio of 1
 * (the D pass runs when all three are 1); the ratio 1 for an unchanged size,
 * (in-1)/(out-1) with alignCorners, else float(1 / scale) when all three
 * scales are positive, else in / out. Not modelled: the matmul's spreading of
 * an Inf or NaN over its tile, Ascend950's fused multiply-add in the index.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_trilinear_3d.h"

#define OP_NAME "aclnnUpsampleTrilinear3d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

static int check(const aclTensor *self, const aclIntArray *outputSize, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor, upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(self), EMU_INT_ARRAY_ARG(outputSize), EMU_TENSOR_ARG(out))));
    if (emu_soc_current()->family == EMU_SOC_950)
        EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16)));
    else
        EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                                                              ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    EMU_TRY(emu_check_format_in(API, self, "self", EMU_SET(aclFormat, ACL_FORMAT_ND, ACL_FORMAT_NCDHW,
                                                           ACL_FORMAT_NDHWC)));
    EMU_TRY(upsample_check_volume(API, self, outputSize, out, p));
    EMU_TRY(upsample_check_out_shape(API, out, p));
    for (int a = 0; emu_soc_current()->family != EMU_SOC_950 && a < 3; a++)
        if (p->axis[a].in > INT32_MAX || p->axis[a].out > INT32_MAX)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "self's and out's D, H and W must be at most INT32_MAX");
    return 0;
}

ACLNN_API aclnnStatus aclnnUpsampleTrilinear3dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, bool alignCorners, double scalesD, double scalesH,
    double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 3, .mode = UPSAMPLE_LINEAR, .align_corners = alignCorners,
                       .kernel_name = "ResizeUpsampleTrilinear"};
    upsample_set_scales(&p, (const double[]){scalesD, scalesH, scalesW});
    EMU_TRY(check(self, outputSize, out, workspaceSize, executor, &p));
    upsample_linear_volume_ratios(&p);
    int unit = 0;
    for (int a = 0; a < 3; a++)
        unit += p.axis[a].skip = p.axis[a].ratio > 1.0f - 1e-6f && p.axis[a].ratio < 1.0f + 1e-6f;
    p.axis[UPSAMPLE_D].skip = p.axis[UPSAMPLE_D].skip && unit < 3; /* all three at 1: the D pass runs */
    /* Contiguous copies, the casts to FLOAT and back, each pass's intermediate. */
    const size_t item = emu_dtype_size(self->dtype);
    const int64_t n_in = emu_tensor_numel(self), n_out = emu_tensor_numel(out);
    const uint64_t ws = (emu_tensor_contiguous(self) ? 0 : emu_ws_bytes(n_in, item)) +
                        (self->dtype == ACL_FLOAT ? 0 : emu_ws_bytes(n_in, 4) + emu_ws_bytes(n_out, 4)) +
                        2 * emu_ws_bytes(n_out, 4);
    return upsample_create_tbe(&OP, API, self, out, "out", &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleTrilinear3d)
