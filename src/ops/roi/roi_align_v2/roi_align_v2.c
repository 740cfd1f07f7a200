/*
 * aclnnRoiAlignV2: checks (phase one, in the order of CANN's op_api,
 * objdetect/roi_align/op_host/op_api/aclnn_roi_align_v2.cpp), plan and
 * launch of the l0 ROIAlign (roi_end_mode 2 when aligned, else 0; "avg").
 * The arithmetic is in roi_align_v2_kernel.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <stdio.h>

#include "../../../meta/meta.h"
#include "aclnnop/aclnn_roi_align_v2.h"
#include "../roi_op.h"

#define OP_NAME "aclnnRoiAlignV2"
static const char API[] = OP_NAME "GetWorkspaceSize";
enum { SELF, BOXES, OUT }; /* the tensors' slots */
static const char *const TENSOR_NAMES[] = {[SELF] = "self", [BOXES] = "boxes", [OUT] = "out"};

static int run(const emu_launch *l, char *msg, size_t cap)
{
    const emu_view self = emu_launch_view(l, SELF), boxes = emu_launch_view(l, BOXES), out = emu_launch_view(l, OUT);
    return roi_align_run(OP_NAME, &self, &boxes, NULL, &out, (const roi_plan *)l->params, msg, cap);
}

EMU_DEFINE_OP(OP_NAME, TENSOR_NAMES, 2, 1, run);

/* Phase one's checks, in CANN's order (CheckParams). */
static int check(const aclTensor *self, const aclTensor *boxes, int64_t pooledHeight, int64_t pooledWidth,
                 float spatialScale, int64_t samplingRatio, const aclTensor *out, const uint64_t *workspaceSize,
                 aclOpExecutor *const *executor)
{
    /* 1. NULL pointers, then stale handles (never dereferenced) */
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_TENSOR_ARG(boxes), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor))));

    /* 2. dtypes: FLOAT or FLOAT16, the same for all three */
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16)));
    EMU_TRY(emu_check_each_dtype(API, EMU_EACH(EMU_WANT(boxes, self->dtype), EMU_WANT(out, self->dtype)), " (self's)"));

    /* 3. formats */
    EMU_TRY(emu_check_each_format(API, EMU_EACH(EMU_WANT(self, ACL_FORMAT_NCHW), EMU_WANT(boxes, ACL_FORMAT_ND),
                                                EMU_WANT(out, ACL_FORMAT_NCHW))));

    /* 4. ranks and shapes */
    EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(self, 4), EMU_WANT(boxes, 2), EMU_WANT(out, 4))));
    if (self->dims[0] == 0 || self->dims[2] == 0 || self->dims[3] == 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "self shape (%lld,%lld,%lld,%lld) contains 0 in N, H or W",
                         (long long)self->dims[0], (long long)self->dims[1], (long long)self->dims[2],
                         (long long)self->dims[3]);
    EMU_TRY(emu_check_dim(API, boxes->dims[1], 5, "boxes.shape[1]", "(image index, x1, y1, x2, y2)"));
    EMU_TRY(emu_check_dim(API, out->dims[0], boxes->dims[0], "out.shape[0]", "boxes.shape[0]"));
    EMU_TRY(emu_check_dim(API, out->dims[1], self->dims[1], "out.shape[1]", "self.shape[1]"));
    EMU_TRY(emu_check_dim(API, out->dims[2], pooledHeight, "out.shape[2]", "pooledHeight"));
    EMU_TRY(emu_check_dim(API, out->dims[3], pooledWidth, "out.shape[3]", "pooledWidth"));

    /* 5. attributes */
    EMU_TRY(emu_check_min(API, samplingRatio, 0, "samplingRatio"));
    if (spatialScale <= FLT_MIN) /* CANN's test: a NaN passes it */
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "spatialScale must be > 0, got %g", (double)spatialScale);
    EMU_TRY(emu_warn_roi_attributes(API, spatialScale, samplingRatio));
    return 0;
}

ACLNN_API aclnnStatus aclnnRoiAlignV2GetWorkspaceSize(const aclTensor *self, const aclTensor *boxes,
                                                      int64_t pooledHeight, int64_t pooledWidth, float spatialScale,
                                                      int64_t samplingRatio, bool aligned, aclTensor *out,
                                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    int st = check(self, boxes, pooledHeight, pooledWidth, spatialScale, samplingRatio, out, workspaceSize, executor);
    if (st)
        return st;
    roi_plan p;
    bool empty;
    EMU_TRY(roi_forward_plan(API, self, boxes, out, pooledHeight, pooledWidth, spatialScale, samplingRatio, &p, &empty));
    p.roi_end_mode = aligned ? 2 : 0;
    const size_t item = emu_dtype_size(self->dtype);
    uint64_t ws;
    if (empty) { /* CANN fills out with zeros: the Fill's value and result */
        ws = emu_ws_bytes(1, item) + emu_ws_bytes(emu_tensor_numel(out), item);
    } else {
        ws = roi_align_workspace(&p, item);
        if (!emu_tensor_contiguous(self))
            ws += emu_ws_bytes(emu_tensor_numel(self), item);
        if (!emu_tensor_contiguous(boxes))
            ws += emu_ws_bytes(emu_tensor_numel(boxes), item);
    }
    char attrs[160];
    snprintf(attrs, sizeof attrs, "pooled=%lldx%lld spatialScale=%g samplingRatio=%lld aligned=%d roi_end_mode=%d",
             (long long)pooledHeight, (long long)pooledWidth, (double)spatialScale, (long long)samplingRatio,
             (int)aligned, (int)p.roi_end_mode);
    const aclTensor *tensors[] = {[SELF] = self, [BOXES] = boxes, [OUT] = out};
    return emu_executor_create(&OP, tensors, &p, sizeof p, ws, attrs, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnRoiAlignV2)
