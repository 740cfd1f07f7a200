/*
 * The RoI family's op-side steps (roi_op.h): what both RoIAlign forward
 * APIs do the same way. Op layer: meta and below.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include "roi_op.h"

int roi_align_run(const char *op, const emu_view *self, const emu_view *rois, const emu_view *batch_indices,
                  const emu_view *out, const roi_plan *p, char *msg, size_t cap)
{
    roi_align_report r;
    roi_plan plan = *p;
    plan.threads = emu_kernel_threads();
    roi_book_forward(&plan);
    int st = emu_scratch_grant(&plan.scratch, plan.threads, op, msg, cap);
    if (!st)
        st = roi_align_kernel(self, rois, batch_indices, out, &plan, &r, msg, cap);
    emu_scratch_release(&plan.scratch);
    if (!st && r.skipped)
        st = emu_run_misuse(op, msg, cap, "%lld box(es) name an image outside [0, %lld) or have no sample "
                            "(first: box %lld); CANN leaves their output unwritten, the emulator writes zeros",
                            (long long)r.skipped, (long long)self->dims[0], (long long)r.first_skipped);
    if (!st && r.nonfinite)
        st = emu_run_misuse(op, msg, cap, "%lld box(es) have NaN or infinite coordinates", (long long)r.nonfinite);
    return st;
}

int roi_forward_plan(const char *api, const aclTensor *self, const aclTensor *boxes, const aclTensor *out,
                     int64_t pooled_h, int64_t pooled_w, float spatial_scale, int64_t samples, roi_plan *p,
                     bool *empty)
{
    *empty = emu_tensor_numel(self) == 0 || emu_tensor_numel(boxes) == 0;
    if (emu_tensor_numel(out) > 0)
        EMU_TRY(emu_check_output_writable(api, out, "out"));
    *p = (roi_plan){
        .batch = self->dims[0], .channels = self->dims[1], .height = self->dims[2], .width = self->dims[3],
        .boxes = *empty ? 0 : boxes->dims[0], .pooled_h = pooled_h, .pooled_w = pooled_w,
        .spatial_scale = spatial_scale, .samples = (int32_t)samples,
        .samples_reciprocal = samples > 0 ? 1.0f / (float)samples : 0.0f,
        .pooled_h_reciprocal = 1.0f / (float)pooled_h, .pooled_w_reciprocal = 1.0f / (float)pooled_w,
    };
    return 0;
}
