/*
 * aclnnUpsampleNearest2dV2: checks in the order of CANN's op_api
 * (image/upsample_nearest3d/op_host/op_api/aclnn_upsample_nearest_2d_v2.cpp)
 * and the plan. Kernel on Atlas A2: with both scales positive UpsampleNearest3d
 * (NHWC transposed to NCHW), stepping by float(1 / scale), except 1 for an
 * unchanged size and exactly 0.5 where the output doubles the input and the
 * layout is NHWC with C > 3 or outH + outW <= 128 (computeScale, "as the
 * CPU"); otherwise ResizeNearestNeighborV2 (TBE) by in / out, scales ignored.
 * Ascend950: ResizeNearestNeighborV2 with each positive scale's 1.0f / scale.
 * Source floor(i * ratio), clamped, float32.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"

#define OP_NAME "aclnnUpsampleNearest2dV2"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

static int check(const aclTensor *self, const aclIntArray *outputSize, const aclTensor *out, upsample_plan *p)
{
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8,
                                                          ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    EMU_TRY(emu_check_array_len(API, outputSize, "outputSize", 2, ""));
    EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(self, 4), EMU_WANT(out, 4))));
    EMU_TRY(emu_check_format_in(API, self, "self", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC)));
    p->nhwc = upsample_channels_last(self->format);
    upsample_sizes_from(self, outputSize, p);
    EMU_TRY(upsample_check_positive(API, p));
    EMU_TRY(emu_check_min(API, p->c, 1, "self's C"));
    return upsample_check_out_shape(API, out, p); /* CheckNCDimValid and CheckOutEqual */
}

ACLNN_API aclnnStatus aclnnUpsampleNearest2dV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                               float scalesH, float scalesW, aclTensor *out,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    const bool soc950 = emu_soc_current()->family == EMU_SOC_950, scaled = scalesH > 0 && scalesW > 0;
    upsample_plan p = {.axes = 2, .mode = UPSAMPLE_NEAREST,
                       .kernel_name = !soc950 && scaled ? "UpsampleNearest3d" : "ResizeNearestNeighborV2",
                       .axis = {[UPSAMPLE_W] = {.scale = scalesW}, [UPSAMPLE_H] = {.scale = scalesH}}};
    /* CANN checks self and out only (a NULL outputSize would be dereferenced: refused here). */
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_TENSOR_ARG(out), EMU_INT_ARRAY_ARG(outputSize),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));
    if (emu_tensor_numel(self) == 0 || emu_tensor_numel(out) == 0) /* CANN returns before its other checks */
        return upsample_create(&OP, self, out, &p, 0, workspaceSize, executor);
    EMU_TRY(check(self, outputSize, out, &p));
    upsample_nearest_ratios(&p, scaled);
    const upsample_axis *h = &p.axis[UPSAMPLE_H], *w = &p.axis[UPSAMPLE_W];
    for (int a = 0; !soc950 && scaled && a < 2; a++) { /* computeScale */
        upsample_axis *ax = &p.axis[a];
        if (ax->in == ax->out)
            ax->ratio = 1.0f;
        else if (2 * ax->in == ax->out && ((p.nhwc && p.c > 3) || h->out + w->out <= 128))
            ax->ratio = 0.5f;
    }
    return upsample_nearest_create(&OP, API, self, out, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearest2dV2)
