/*
 * aclnnUpsampleNearest2d: checks in the order of CANN's op_api
 * (image/resize_nearest_neighbor_v2/op_api/aclnn_upsample_nearest_2d.cpp) and
 * the plan. Kernel: ResizeNearestNeighborV2 (TBE on NC1HWC0 on Atlas A2, SIMT
 * on Ascend950; AI CPU for DOUBLE and UINT8): source floor(i * in / out),
 * clamped, in float32; no scales.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"

#define OP_NAME "aclnnUpsampleNearest2d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

static int check(const aclTensor *self, const aclIntArray *outputSize, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor, upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_INT_ARRAY_ARG(outputSize), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8,
                                                          ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 2, ""));
    EMU_TRY(emu_check_rank(API, self, "self", 4));
    EMU_TRY(emu_check_format_in(API, self, "self", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC)));
    EMU_TRY(emu_check_format(API, out, "out", self->format));
    EMU_TRY(emu_check_rank(API, out, "out", 4));
    p->nhwc = upsample_channels_last(self->format);
    upsample_sizes_from(self, outputSize, p);
    EMU_TRY(upsample_check_positive(API, p));
    EMU_TRY(emu_check_min(API, p->c, 1, "self's C"));
    EMU_TRY(upsample_check_out_shape(API, out, p)); /* CheckNCDimValid and CheckOutputSize */
    for (int a = 0; a < 2; a++)
        if (p->axis[a].in > INT32_MAX || p->axis[a].out > INT32_MAX)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "self's and out's H and W must be at most INT32_MAX");
    return 0;
}

ACLNN_API aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                             aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 2, .mode = UPSAMPLE_NEAREST, .kernel_name = "ResizeNearestNeighborV2"};
    EMU_TRY(check(self, outputSize, out, workspaceSize, executor, &p));
    upsample_nearest_ratios(&p, false);
    return upsample_nearest_create(&OP, API, self, out, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearest2d)
