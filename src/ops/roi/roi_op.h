/*
 * The RoI family's op-side steps (roi_op.c): what the RoIAlign forward APIs'
 * op files do the same way. Op layer: meta and below.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_ROI_OP_H_
#define ACLNN_EMU_ROI_OP_H_

#include "../../meta/meta.h"
#include "roi.h"

/* The run step both RoIAlign forward APIs share: books and grants the kernel's scratch, runs it, and reports
 * the boxes CANN accepts but surely are bugs as warnings (errors in strict mode). */
int roi_align_run(const char *op, const emu_view *self, const emu_view *rois, const emu_view *batch_indices,
                  const emu_view *out, const roi_plan *p, char *msg, size_t cap);

/* Phase one's plan of a forward after its checks: out must be writable when not empty; the map, the boxes
 * (none when self or the boxes are empty: *empty), the bins and the sampling (roi_end_mode 0, "avg"). */
int roi_forward_plan(const char *api, const aclTensor *self, const aclTensor *boxes, const aclTensor *out,
                     int64_t pooled_h, int64_t pooled_w, float spatial_scale, int64_t samples, roi_plan *p,
                     bool *empty);

#endif /* ACLNN_EMU_ROI_OP_H_ */
