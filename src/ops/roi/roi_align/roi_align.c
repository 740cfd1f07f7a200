/*
 * aclnnRoiAlign (ONNX-style): checks (phase one, in the order of CANN's
 * op_api, objdetect/roi_align/op_host/op_api/aclnn_roi_align.cpp), plan and
 * launch. Its op_api runs the same l0 ROIAlign as aclnnRoiAlignV2 (with
 * roi_end_mode 0 and the chosen pool mode), whose kernel this file shares;
 * the image of box k comes from batchIndices (CANN concatenates it, Cast to
 * the boxes' dtype, in front of the boxes).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "../../../meta/meta.h"
#include "aclnnop/aclnn_roi_align.h"
#include "../roi_op.h"

#define OP_NAME "aclnnRoiAlign"
static const char API[] = OP_NAME "GetWorkspaceSize";
enum { SELF, ROIS, BATCH_INDICES, OUT }; /* the tensors' slots */
static const char *const TENSOR_NAMES[] = {[SELF] = "self", [ROIS] = "rois", [BATCH_INDICES] = "batchIndices",
                                           [OUT] = "out"};

static int run(const emu_launch *l, char *msg, size_t cap)
{
    const emu_view self = emu_launch_view(l, SELF), rois = emu_launch_view(l, ROIS);
    const emu_view idx = emu_launch_view(l, BATCH_INDICES), out = emu_launch_view(l, OUT);
    return roi_align_run(OP_NAME, &self, &rois, &idx, &out, (const roi_plan *)l->params, msg, cap);
}

EMU_DEFINE_OP(OP_NAME, TENSOR_NAMES, 3, 1, run);

/* Phase one's checks, in CANN's order (CheckParams). */
static int check(const aclTensor *self, const aclTensor *rois, const aclTensor *batchIndices, const char *mode,
                 int outputHeight, int outputWidth, int samplingRatio, float spatialScale, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor)
{
    /* 1. NULL pointers, then stale handles (never dereferenced) */
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_TENSOR_ARG(self), EMU_TENSOR_ARG(rois), EMU_TENSOR_ARG(batchIndices),
                                         EMU_TENSOR_ARG(out), EMU_POINTER_ARG(workspaceSize),
                                         EMU_POINTER_ARG(executor))));

    /* 2. dtypes */
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16)));
    EMU_TRY(emu_check_dtype(API, batchIndices, "batchIndices", ACL_INT32, ""));
    EMU_TRY(emu_check_each_dtype(API, EMU_EACH(EMU_WANT(rois, self->dtype), EMU_WANT(out, self->dtype)), " (self's)"));

    /* 3. formats */
    EMU_TRY(emu_check_each_format(API, EMU_EACH(EMU_WANT(self, ACL_FORMAT_NCHW), EMU_WANT(rois, ACL_FORMAT_ND),
                                                EMU_WANT(batchIndices, ACL_FORMAT_ND),
                                                EMU_WANT(out, ACL_FORMAT_NCHW))));

    /* 4. ranks and shapes */
    EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(self, 4), EMU_WANT(rois, 2), EMU_WANT(batchIndices, 1),
                                              EMU_WANT(out, 4))));
    EMU_TRY(emu_check_dim(API, batchIndices->dims[0], rois->dims[0], "batchIndices.shape[0]", "rois.shape[0]"));
    EMU_TRY(emu_check_dim(API, rois->dims[1], 4, "rois.shape[1]", "(x1, y1, x2, y2)"));
    EMU_TRY(emu_check_dim(API, out->dims[0], rois->dims[0], "out.shape[0]", "rois.shape[0]"));
    EMU_TRY(emu_check_dim(API, out->dims[1], self->dims[1], "out.shape[1]", "self.shape[1]"));
    EMU_TRY(emu_check_dim(API, out->dims[2], outputHeight, "out.shape[2]", "outputHeight"));
    EMU_TRY(emu_check_dim(API, out->dims[3], outputWidth, "out.shape[3]", "outputWidth"));

    /* 5. attributes */
    if (!mode)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "mode is NULL (\"avg\" or \"max\")");
    if (strcmp(mode, "avg") != 0 && strcmp(mode, "max") != 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "mode must be \"avg\" or \"max\", got \"%.32s\"", mode);
    EMU_TRY(emu_check_min(API, samplingRatio, 0, "samplingRatio"));
    if (!(spatialScale > 0)) /* CANN: spatialScale <= 0 is refused, a NaN passes */
        if (spatialScale == spatialScale)
            return emu_error(ACLNN_ERR_PARAM_INVALID, API, "spatialScale must be > 0, got %g", (double)spatialScale);
    return emu_warn_roi_attributes(API, spatialScale, samplingRatio);
}

ACLNN_API aclnnStatus aclnnRoiAlignGetWorkspaceSize(const aclTensor *self, const aclTensor *rois,
                                                    const aclTensor *batchIndices, const char *mode, int outputHeight,
                                                    int outputWidth, int samplingRatio, float spatialScale,
                                                    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    int st = check(self, rois, batchIndices, mode, outputHeight, outputWidth, samplingRatio, spatialScale, out,
                   workspaceSize, executor);
    if (st)
        return st;
    roi_plan p;
    bool empty;
    EMU_TRY(roi_forward_plan(API, self, rois, out, outputHeight, outputWidth, spatialScale, samplingRatio, &p, &empty));
    p.max_mode = strcmp(mode, "max") == 0; /* roi_end_mode 0 */
    const size_t item = emu_dtype_size(self->dtype);
    const int64_t k = rois->dims[0];
    uint64_t ws;
    if (empty) { /* CANN fills out with zeros: the Fill's value and result */
        ws = emu_ws_bytes(1, item) + emu_ws_bytes(emu_tensor_numel(out), item);
    } else { /* plus the boxes' preparation: Cast of the indices, ConcatD into (K, 5) */
        ws = roi_align_workspace(&p, item) + emu_ws_bytes(k, item) + emu_ws_bytes(k * 5, item);
        const aclTensor *inputs[] = {self, rois, batchIndices};
        for (int i = 0; i < 3; i++)
            if (!emu_tensor_contiguous(inputs[i]))
                ws += emu_ws_bytes(emu_tensor_numel(inputs[i]), emu_dtype_size(inputs[i]->dtype));
    }
    char attrs[160];
    snprintf(attrs, sizeof attrs, "mode=%s output=%dx%d samplingRatio=%d spatialScale=%g roi_end_mode=0", mode,
             outputHeight, outputWidth, samplingRatio, (double)spatialScale);
    const aclTensor *tensors[] = {[SELF] = self, [ROIS] = rois, [BATCH_INDICES] = batchIndices, [OUT] = out};
    return emu_executor_create(&OP, tensors, &p, sizeof p, ws, attrs, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnRoiAlign)
