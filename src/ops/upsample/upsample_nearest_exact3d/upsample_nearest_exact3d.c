/*
 * aclnnUpsampleNearestExact3d: checks in the order of CANN's op_api
 * (image/upsample_nearest_exact3d/op_host/op_api/aclnn_upsample_nearest_exact3d.cpp) and the plan. Kernel:
 * UpsampleNearestExact3d (AICore on Atlas A2 for FLOAT, FLOAT16 and BF16; SIMT on
 * Ascend950), NCDHW (NDHWC transposed to it and back): source
 * floor((i + 0.5) * ratio), clamped, float32; the ratio is float(1 / scale) when all
 * three scales are positive (Ascend950: 1.0f / float(scale) per axis), else in / out.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "../upsample_op.h"
#include "aclnnop/aclnn_upsample_nearest_exact3d.h"

#define OP_NAME "aclnnUpsampleNearestExact3d"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

static int check(const aclTensor *self, const aclIntArray *outputSize, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor, upsample_plan *p)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(self), EMU_TENSOR_ARG(out), EMU_INT_ARRAY_ARG(outputSize))));
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    EMU_TRY(upsample_check_volume(API, self, outputSize, out, p));
    /* With all three scales positive, each output size must be int64(in * scale), within 1e-5 of the scale. */
    static const char *const axis_names[] = {"W", "H", "D"};
    for (int a = 0; p->axis[0].scale > 0 && p->axis[1].scale > 0 && p->axis[2].scale > 0 && a < 3; a++) {
        const upsample_axis *ax = &p->axis[a];
        const double in = (double)ax->in, s = ax->scale;
        const double lo = in * (s - 1e-5), hi = in * (s + 1e-5), exact = in * s;
        const bool fits = exact < 9.2e18 && ((int64_t)exact == ax->out ||
                                             (hi < 9.2e18 && ax->out >= (int64_t)lo && ax->out <= (int64_t)hi));
        if (!fits)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "Scale conflicts with outputSize. scale_%s * input_%s "
                             "should be equal to outputSize_%s, got %g * %lld and %lld", axis_names[a], axis_names[a],
                             axis_names[a], s, (long long)ax->in, (long long)ax->out);
    }
    return upsample_check_out_shape(API, out, p);
}

ACLNN_API aclnnStatus aclnnUpsampleNearestExact3dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, double scalesD, double scalesH, double scalesW,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    upsample_plan p = {.axes = 3, .mode = UPSAMPLE_NEAREST_EXACT, .kernel_name = "UpsampleNearestExact3d",};
    upsample_set_scales(&p, (const double[]){scalesD, scalesH, scalesW});
    EMU_TRY(check(self, outputSize, out, workspaceSize, executor, &p));
    upsample_nearest_ratios(&p, scalesD > 0 && scalesH > 0 && scalesW > 0); /* all three, or none */
    return upsample_nearest_create(&OP, API, self, out, &p, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnUpsampleNearestExact3d)
