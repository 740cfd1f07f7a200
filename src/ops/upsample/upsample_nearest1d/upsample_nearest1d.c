/*
 * aclnnUpsampleNearest1d: checks in the order of CANN's op_api
 * (image/resize_nearest_neighbor_v2/op_api/aclnn_upsample_nearest_1d.cpp) and
 * the plan. Kernel: on Atlas A2 UpsampleNearest3d over (N, C, 1, 1, L) for
 * the float types (ResizeNearestNeighborV2 on Ascend950, AI CPU for DOUBLE and
 * UINT8): source floor(i * in / out), clamped, in float32; no scales.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_1d.h"

#define OP_NAME "aclnnUpsampleNearest1d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

static int check(const aclTensor *self, const aclIntArray *outputSize, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor, upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_INT_ARRAY_ARG(outputSize), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8,
                                                          ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    if (outputSize->size == 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "The size of outputSize should be greater than 0, but got 0");
    EMU_TRY(emu_check_rank(API, self, "self", 3));
    if (self->dims[1] == 0 || self->dims[2] == 0 || outputSize->values[0] == 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Non-empty 3D data tensor expected but got self (%lld, %lld, "
                         "%lld) and outputSize[0] %lld", (long long)self->dims[0], (long long)self->dims[1],
                         (long long)self->dims[2], (long long)outputSize->values[0]);
    EMU_TRY(emu_check_format(API, out, "out", self->format));
    EMU_TRY(emu_check_format(API, self, "self", ACL_FORMAT_NCL));
    upsample_sizes_from(self, outputSize, p);
    EMU_TRY(upsample_check_positive(API, p));
    /* CANN does not compare out's L with outputSize; its kernel writes outputSize[0] values a row. */
    return upsample_check_out_shape(API, out, p);
}

ACLNN_API aclnnStatus aclnnUpsampleNearest1dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                             aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 1, .mode = UPSAMPLE_NEAREST, .kernel_name = "UpsampleNearest3d"};
    EMU_TRY(check(self, outputSize, out, workspaceSize, executor, &p));
    upsample_nearest_ratios(&p, false);
    return upsample_nearest_create(&OP, API, self, out, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearest1d)
