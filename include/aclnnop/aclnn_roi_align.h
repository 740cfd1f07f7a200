/*
 * aclnn-emu: aclnnRoiAlign, ONNX-style RoIAlign ("avg" or "max") on NCHW feature maps.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_ROI_ALIGN_H_
#define ACLNNOP_ACLNN_ROI_ALIGN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * CANN's ROIAlign kernel with roi_end_mode 0 (boxes as given, sizes at least
 * 1 pixel): per bin, the average ("avg") or the maximum ("max") of its
 * bilinear samples. The image of box k is batchIndices[k].
 *
 * @param self          (N, C, H, W) NCHW feature map; FLOAT or FLOAT16; any strides
 * @param rois          (K, 4) ND, self's dtype: (x1, y1, x2, y2) in image coordinates
 * @param batchIndices  (K) ND, INT32: the image of each box
 * @param mode          "avg" or "max"
 * @param outputHeight  bins along H; must equal out's dim 2
 * @param outputWidth   bins along W; must equal out's dim 3
 * @param samplingRatio samples per bin and axis; 0 adaptive (ceil of the bin size); >= 0
 * @param spatialScale  feature-map scale relative to the image; > 0
 * @param out           (K, C, outputHeight, outputWidth) NCHW, self's dtype
 * @param workspaceSize [out] bytes of workspace phase two needs
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL tensor, workspaceSize or
 *          executor; ACLNN_ERR_PARAM_INVALID (161002) for, in this order, dtypes, formats, ranks
 *          and shapes, then mode (NULL or another string), samplingRatio < 0, spatialScale <= 0.
 */
ACLNN_API aclnnStatus aclnnRoiAlignGetWorkspaceSize(const aclTensor *self, const aclTensor *rois,
                                                    const aclTensor *batchIndices, const char *mode, int outputHeight,
                                                    int outputWidth, int samplingRatio, float spatialScale,
                                                    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Parameters and errors as aclnnRoiAlignV2Backward.
 */
ACLNN_API aclnnStatus aclnnRoiAlign(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_ROI_ALIGN_H_ */
