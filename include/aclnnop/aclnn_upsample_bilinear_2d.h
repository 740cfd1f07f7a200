/*
 * aclnn-emu: aclnnUpsampleBilinear2d, 2-D bilinear upsampling (and downsampling).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H_
#define ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Phase one: validates, plans, and returns the workspace size and an executor.
 *
 * Resizes each (N, C) plane of self to outputSize by bilinear interpolation,
 * as torch.nn.functional.interpolate(mode="bilinear"). CANN's kernel uses the
 * scales (1/scalesH, 1/scalesW) only when they reproduce outputSize
 * (int(H * scalesH) == outH, likewise W) and shrink at most 50x; otherwise,
 * and for scales <= 0, the sizes' ratio.
 *
 * @param self         (N, C, H, W) NCHW or (N, H, W, C) NHWC; FLOAT, FLOAT16, BF16, or DOUBLE (NHWC only); any strides
 * @param outputSize   host array (outH, outW); must equal out's H and W
 * @param alignCorners align corner pixel centres (true) or edges (false)
 * @param scalesH      scale factor along H (outH / H); 0 when unset; negative is refused
 * @param scalesW      scale factor along W; as scalesH
 * @param out          self's dtype and storage format, (N, C, outH, outW) or (N, outH, outW, C)
 * @param workspaceSize [out] bytes of workspace phase two needs (0 for empty tensors)
 * @param executor      [out] the executor for phase two
 * @returns ACLNN_SUCCESS; ACLNN_ERR_INNER_NULLPTR (561103) for a NULL self or out (CANN's code);
 *          ACLNN_ERR_PARAM_NULLPTR (161001) for a NULL workspaceSize or executor;
 *          ACLNN_ERR_PARAM_INVALID (161002) for, in this order, self's dtype, out's dtype, the
 *          formats (equal, NCHW or NHWC, 4-D, no DOUBLE in NCHW), N and C, negative scales,
 *          outputSize (NULL, not 2 values, not out's H and W).
 */
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                              const bool alignCorners, const double scalesH,
                                                              const double scalesW, aclTensor *out,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor);

/**
 * Phase two: enqueues the computation on stream and returns at once.
 * Parameters and errors as aclnnRoiAlignV2Backward.
 */
ACLNN_API aclnnStatus aclnnUpsampleBilinear2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H_ */
