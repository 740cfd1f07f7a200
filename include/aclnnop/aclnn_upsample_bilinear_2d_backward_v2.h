/*
 * aclnn-emu: aclnnUpsampleBilinear2dBackwardV2, the backward pass of 2-D bilinear upsampling.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_V2_H_
#define ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Spreads every gradOut element onto the (up to) four input pixels the forward
 * bilinear interpolation read, as torch.ops.aten.upsample_bilinear2d_backward.
 *
 * @param gradOut      (N, C, outH, outW) NCHW or (N, outH, outW, C) NHWC; FLOAT, FLOAT16 or BF16; any strides
 * @param outputSize   host array (outH, outW)
 * @param inputSize    host array (N, C, H, W) for NCHW, (N, H, W, C) for NHWC
 * @param alignCorners align corner pixel centres (true) or edges (false)
 * @param scalesH      forward scale factor along H; <= 0 derives it from the sizes
 * @param scalesW      forward scale factor along W; <= 0 derives it from the sizes
 * @param out          gradient of the forward input, gradOut's dtype, NCHW or NHWC, shape = inputSize
 * @param workspaceSize [out] bytes of workspace phase two needs
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL argument;
 *          ACLNN_ERR_PARAM_INVALID (161002) for, in this order, wrong ranks or array sizes, out's
 *          format, sizes or gradOut's shape, out's N and C, dtypes, dims above INT32_MAX.
 */
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(
    const aclTensor *gradOut, const aclIntArray *outputSize, const aclIntArray *inputSize, bool alignCorners,
    double scalesH, double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Parameters and errors as aclnnRoiAlignV2Backward.
 */
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dBackwardV2(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_BACKWARD_V2_H_ */
