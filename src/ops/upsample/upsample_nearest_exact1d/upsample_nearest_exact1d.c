/*
 * aclnnUpsampleNearestExact1d: checks in the order of CANN's op_api
 * (image/upsample_nearest/op_host/op_api/aclnn_upsample_nearest_exact1d.cpp)
 * and the plan. Kernel: UpsampleNearest with exactMode over NLC on Atlas A2
 * (ResizeNearestNeighborV2 with half-pixel centres on Ascend950): source
 * floor((i + 0.5) * ratio), clamped, float32, with ratio float(1 / scales)
 * for a positive scales (Ascend950: 1.0f / float(scales)), else in / out.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_exact1d.h"

#define OP_NAME "aclnnUpsampleNearestExact1d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

static int check(const aclTensor *self, const aclIntArray *outputSize, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor, upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(self), EMU_INT_ARRAY_ARG(outputSize), EMU_TENSOR_ARG(out))));
    if (emu_soc_current()->family == EMU_SOC_950)
        EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16)));
    else
        EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
                                                              ACL_UINT8)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    /* CheckInputElement reads N, C, L and outL before the rank is checked (a missing dim reads as 0 here). */
    const int64_t n = self->ndim > 0 ? self->dims[0] : 0, c = self->ndim > 1 ? self->dims[1] : 0;
    const int64_t l = self->ndim > 2 ? self->dims[2] : 0, ol = outputSize->size ? outputSize->values[0] : 0;
    if (n <= 0 || c <= 0 || l <= 0 || ol <= 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "N, C, L and outputSize must be > 0, got N=%lld C=%lld "
                         "L=%lld outL=%lld", (long long)n, (long long)c, (long long)l, (long long)ol);
    EMU_TRY(emu_check_rank(API, self, "self", 3));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 1, ""));
    upsample_sizes_from(self, outputSize, p);
    /* CANN checks neither out's rank nor its shape; its kernel writes (N, C, outL). */
    return upsample_check_out_shape(API, out, p);
}

ACLNN_API aclnnStatus aclnnUpsampleNearestExact1dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                                  double scales, aclTensor *out,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    const bool soc950 = emu_soc_current()->family == EMU_SOC_950;
    upsample_plan p = {.axes = 1, .mode = UPSAMPLE_NEAREST_EXACT,
                       .kernel_name = soc950 ? "ResizeNearestNeighborV2" : "UpsampleNearest",
                       .axis = {[UPSAMPLE_W] = {.scale = scales}}};
    EMU_TRY(check(self, outputSize, out, workspaceSize, executor, &p));
    upsample_nearest_ratios(&p, true);
    return upsample_nearest_create(&OP, API, self, out, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearestExact1d)
