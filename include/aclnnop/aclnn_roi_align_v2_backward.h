/*
 * aclnn-emu: aclnnRoiAlignV2Backward, the backward pass of RoIAlign.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_ROI_ALIGN_V2_BACKWARD_H_
#define ACLNNOP_ACLNN_ROI_ALIGN_V2_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Scatters gradOutput back onto a zeroed gradInput as CANN's ROIAlignGrad
 * does: bilinear samples, averaged per bin, like torchvision's roi_align
 * backward, but with CANN's float32 bin size (the box's size times
 * fl(1 / pooled)), sample count (ceil of that bin size when adaptive) and
 * sample positions, which can differ from torchvision's by a rounding.
 *
 * @param gradOutput    (K, C, pooledHeight, pooledWidth), FLOAT, NCHW; any strides
 * @param boxes         (K, 5) rows (image_id, x1, y1, x2, y2) in image coordinates, FLOAT, ND
 * @param inputShape    host array (B, C, H, W), the forward input's shape
 * @param pooledHeight  forward output grid height
 * @param pooledWidth   forward output grid width
 * @param spatialScale  feature map scale relative to the image; > 0
 * @param samplingRatio samples per bin per axis; 0 = adaptive (ceil(bin size)); >= 0
 * @param aligned       true: shift box coordinates by -0.5 pixel
 * @param gradInput     (B, C, H, W) output, FLOAT, NCHW; any non-overlapping strides
 * @param workspaceSize [out] bytes of workspace phase two needs
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS;
 *          ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument;
 *          ACLNN_ERR_PARAM_INVALID (161002) for, in this order, a wrong dtype, format,
 *          input shape, output shape or attribute (the message names which).
 */
ACLNN_API aclnnStatus aclnnRoiAlignV2BackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *boxes, const aclIntArray *inputShape, int64_t pooledHeight,
    int64_t pooledWidth, float spatialScale, int64_t samplingRatio, bool aligned, aclTensor *gradInput,
    uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 *
 * @param workspace     at least workspaceSize bytes (may be NULL when phase one returned 0)
 * @param workspaceSize what phase one returned (or more)
 * @param executor      from phase one; released here unless made repeatable
 * @param stream        a stream, or NULL for the default stream
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR for a NULL executor or workspace;
 *          ACLNN_ERR_PARAM_INVALID for a stale or already executed executor, a workspace
 *          smaller than requested or an invalid stream.
 */
ACLNN_API aclnnStatus aclnnRoiAlignV2Backward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_ROI_ALIGN_V2_BACKWARD_H_ */
