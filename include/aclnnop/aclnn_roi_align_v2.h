/*
 * aclnn-emu: aclnnRoiAlignV2, RoIAlign (torchvision's roi_align) on NCHW feature maps.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_ROI_ALIGN_V2_H_
#define ACLNNOP_ACLNN_ROI_ALIGN_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Average of bilinear samples over each of pooledHeight x pooledWidth bins of
 * each box, as CANN's ROIAlign kernel computes it (roi_end_mode 2 when
 * aligned, else 0; see the README for where it differs from torchvision).
 *
 * @param self          (N, C, H, W) NCHW feature map; FLOAT or FLOAT16; N, H, W > 0; any strides
 * @param boxes         (K, 5) ND, self's dtype: (image index, x1, y1, x2, y2) in image coordinates
 * @param pooledHeight  bins along H; must equal out's dim 2
 * @param pooledWidth   bins along W; must equal out's dim 3
 * @param spatialScale  feature-map scale relative to the image; must exceed FLT_MIN
 * @param samplingRatio samples per bin and axis; 0 adaptive (ceil of the bin size); >= 0
 * @param aligned       shift boxes by -0.5 pixel and allow sizes below 1 (torchvision aligned=True)
 * @param out           (K, C, pooledHeight, pooledWidth) NCHW, self's dtype
 * @param workspaceSize [out] bytes of workspace phase two needs
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument;
 *          ACLNN_ERR_PARAM_INVALID (161002) for, in this order, dtypes, formats, ranks and shapes,
 *          samplingRatio < 0, spatialScale <= FLT_MIN. Phase two's run reports boxes CANN would
 *          leave unwritten (image index outside [0, N), no samples) as a warning (they are zeros),
 *          an error in strict mode.
 */
ACLNN_API aclnnStatus aclnnRoiAlignV2GetWorkspaceSize(const aclTensor *self, const aclTensor *boxes,
                                                      int64_t pooledHeight, int64_t pooledWidth, float spatialScale,
                                                      int64_t samplingRatio, bool aligned, aclTensor *out,
                                                      uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Parameters and errors as aclnnRoiAlignV2Backward.
 */
ACLNN_API aclnnStatus aclnnRoiAlignV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_ROI_ALIGN_V2_H_ */
