/*
 * aclnnUpsampleNearestExact2d: checks in the order of CANN's op_api
 * (image/upsample_nearest/op_host/op_api/aclnn_upsample_nearest_exact2d.cpp)
 * and the plan. Kernel: UpsampleNearest with exactMode over NHWC on Atlas A2
 * (ResizeNearestNeighborV2 with half-pixel centres on Ascend950): source
 * floor((i + 0.5) * ratio), clamped, float32; ratio 1 for an unchanged size,
 * float(1 / scale) for a positive scale (Ascend950: 1.0f / float(scale)),
 * else in / out.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_exact2d.h"

#define OP_NAME "aclnnUpsampleNearestExact2d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

static int check(const aclTensor *self, const aclIntArray *outputSize, const aclTensor *out, upsample_plan *p)
{
    if (emu_soc_current()->family == EMU_SOC_950)
        EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16)));
    else
        EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
                                                              ACL_UINT8)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(self, 4), EMU_WANT(out, 4))));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 2, ""));
    p->nhwc = upsample_channels_last(self->format);
    upsample_sizes_from(self, outputSize, p);
    EMU_TRY(upsample_check_positive(API, p));
    EMU_TRY(emu_check_format_in(API, self, "self", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC,
                                                           ACL_FORMAT_ND)));
    EMU_TRY(emu_check_format(API, out, "out", self->format));
    /* CANN compares N and C only; its kernel writes outputSize's H and W. */
    return upsample_check_out_shape(API, out, p);
}

ACLNN_API aclnnStatus aclnnUpsampleNearestExact2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                                  double scalesH, double scalesW, aclTensor *out,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    const bool soc950 = emu_soc_current()->family == EMU_SOC_950;
    upsample_plan p = {.axes = 2, .mode = UPSAMPLE_NEAREST_EXACT,
                       .kernel_name = soc950 ? "ResizeNearestNeighborV2" : "UpsampleNearest",
                       .axis = {[UPSAMPLE_W] = {.scale = scalesW}, [UPSAMPLE_H] = {.scale = scalesH}}};
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(self), EMU_INT_ARRAY_ARG(outputSize), EMU_TENSOR_ARG(out))));
    if (emu_tensor_numel(self) == 0 || emu_tensor_numel(out) == 0) /* CANN returns before its other checks */
        return upsample_create(&OP, self, out, &p, 0, workspaceSize, executor);
    EMU_TRY(check(self, outputSize, out, &p));
    upsample_nearest_ratios(&p, true);
    for (int a = 0; !soc950 && a < 2; a++) /* UpsampleNearest's 4-D tiling: 1 for an unchanged size */
        if (p.axis[a].in == p.axis[a].out)
            p.axis[a].ratio = 1.0f;
    return upsample_nearest_create(&OP, API, self, out, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearestExact2d)
