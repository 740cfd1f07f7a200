/*
 * libFuzzer target: aclnnUpsampleBilinear2dBackward (V1) through the public
 * API, with the V2 target's inputs (the two take the same arguments).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include "aclnnop/aclnn_upsample_bilinear_2d_backward.h"
#define PHASE_ONE aclnnUpsampleBilinear2dBackwardGetWorkspaceSize
#define PHASE_TWO aclnnUpsampleBilinear2dBackward
#include "fuzz_upsample_bilinear2d_backward_v2.c"
