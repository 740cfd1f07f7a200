/*
 * aclnn-emu: aclnnUpsampleBilinear2dBackward (V1), the backward pass of 2-D bilinear upsampling.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_H_
#define ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * As aclnnUpsampleBilinear2dBackwardV2, with CANN's V1 op_api
 * (image/resize_bilinear_v2_grad): on Atlas A2 it always runs
 * ResizeBilinearV2Grad, so the scales are ignored and the sizes' ratio is
 * used; FLOAT16 and FLOAT only; when gradOut's shape equals inputSize, out is
 * gradOut copied unchanged (any dtype).
 *
 * @param gradOut      (N, C, outH, outW) NCHW or (N, outH, outW, C) NHWC; FLOAT or FLOAT16; any strides
 * @param outputSize   host array (outH, outW)
 * @param inputSize    host array (N, C, H, W) for NCHW, (N, H, W, C) for NHWC
 * @param alignCorners align corner pixel centres (true) or edges (false)
 * @param scalesH      forward scale factor along H (not used on Atlas A2)
 * @param scalesW      forward scale factor along W (not used on Atlas A2)
 * @param out          gradient of the forward input, gradOut's dtype, shape = inputSize
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for an empty gradOut)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument;
 *          ACLNN_ERR_PARAM_INVALID (161002) for, in this order, gradOut's rank, the array sizes,
 *          H and W, gradOut's and out's shapes, dtypes, gradOut's shape in its own format,
 *          N and C, the formats (NCHW or NHWC).
 */
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scalesH, double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Parameters and errors as aclnnRoiAlignV2Backward.
 */
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackward(void *workspace, uint64_t workspaceSize,
                                                      aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_H_ */
