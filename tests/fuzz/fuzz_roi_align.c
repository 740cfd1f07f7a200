/*
 * libFuzzer target: aclnnRoiAlign (ONNX-style), the RoiAlignV2 target's
 * inputs with boxes of 4 columns, int32 image indices and a pool mode.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#define ROI_ALIGN_ONNX 1
#include "fuzz_roi_align_v2.c"
