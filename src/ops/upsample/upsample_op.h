/*
 * The upsample family's op-side steps (upsample_op.c): what every upsample
 * API's op file does the same way. Op layer: meta and below.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_UPSAMPLE_OP_H_
#define ACLNN_EMU_UPSAMPLE_OP_H_

#include "../../meta/meta.h"
#include "upsample.h"

/* CANN's op_api's static_cast<int64_t> of a double as its x86 host computes it (cvttsd2si): the value
 * truncated, INT64_MIN for NaN and out of range (in C that cast would be undefined). */
static inline int64_t upsample_int64_of(double v)
{
    return v > -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}

/* The run step of every upsample API (its emu_op_def's run). */
int upsample_run(const emu_launch *l, char *msg, size_t cap);

/* An upsample API's definitions: API (its phase one's name, for messages) and OP, the
 * executor framework's description (its input named input_name, then out). */
#define UPSAMPLE_DEFINE_OP(op_name, input_name)                                                         \
    static const char API[] = op_name "GetWorkspaceSize";                                               \
    static const char *const TENSOR_NAMES[] = {[UPSAMPLE_IN] = input_name, [UPSAMPLE_OUT] = "out"};     \
    EMU_DEFINE_OP(op_name, TENSOR_NAMES, 1, 1, upsample_run)

/* Reads (N, C, spatial...) from the 2 + p->axes values of a size array in NCHW-like
 * or, with nhwc, NHWC-like order into p->n, p->c and p->axis[].in. */
void upsample_read_sizes(const int64_t *v, bool nhwc, upsample_plan *p);

/* "input H, W and outputSize must be > 0": CANN's CheckShape / ChecksInputElement. */
int upsample_check_positive(const char *api, const upsample_plan *p);

/* An axis' source step per output index as CANN's tilings compute it, in float32
 * (compute_scale_value, calculate_scale): with alignCorners (in-1)/(out-1), or `single`
 * for one output; else the scale the API passes on (> 0) or in/out. */
float upsample_ratio(int64_t in, int64_t out, bool align_corners, float scale, float single);

/* The AscendC kernels' skip rule (FloatEqual within 1e-6): the W pass is skipped at
 * ratio 1, and the H pass at ratio 1 only when the W pass ran. */
void upsample_skip_unit_ratios(upsample_plan *p);

/* The layout of an upsample API's tensor of 2 + p->axes dims: channels last (NHWC, NDHWC, NLC). */
bool upsample_channels_last(aclFormat format);

/* Reads p->n, p->c and the axes' input sizes from self's dims, and the output sizes from outputSize. */
void upsample_sizes_from(const aclTensor *self, const aclIntArray *output_size, upsample_plan *p);

/* out's shape must be self's with the spatial dims of outputSize: "<param> shape must be (..) (...), got (..)". */
int upsample_check_out_shape(const char *api, const aclTensor *out, const upsample_plan *p);

/* The nearest kernels' ratio of each axis (UpsampleNearest3d, UpsampleNearest and ResizeNearestNeighborV2
 * alike): on Atlas A2 float(1 / scale) for a positive scale when the op_api passes the scales on
 * (`scales_on_910b`), on Ascend950 1.0f / float(scale) for each positive scale; else float(in) / float(out). */
void upsample_nearest_ratios(upsample_plan *p, bool scales_on_910b);

/* The shape checks of the 3-D nearest APIs (CheckShape, CheckInputElement): 5-D self and out, 3 output
 * sizes, all sizes > 0, a C > 0; fills the plan's layout and sizes. */
int upsample_check_volume(const char *api, const aclTensor *self, const aclIntArray *output_size,
                          const aclTensor *out, upsample_plan *p);

/* The shape checks of the 3-D nearest gradients (CheckUpsampleShape, CheckInputElement): 5-D gradOut,
 * 3 output and 5 input sizes, all > 0, gradOut's and gradInput's shapes from them in gradOut's layout;
 * fills the plan (axis in: the forward input's sizes, out: gradOut's). */
int upsample_check_volume_grad(const char *api, const aclTensor *grad_out, const aclIntArray *output_size,
                               const aclIntArray *input_size, const aclTensor *grad_input, upsample_plan *p);

/* After a gradient API's rank and length checks: reads the sizes (inputSize in p->nhwc's layout, outputSize),
 * "sizes must be > 0", then gradOut's shape (the forward's output) and gradInput's (inputSize). */
int upsample_check_grad_sizes(const char *api, const aclTensor *grad_out, const char *grad_out_name,
                              const aclIntArray *output_size, const aclIntArray *input_size,
                              const aclTensor *grad_input, const char *grad_input_name, upsample_plan *p);

/* The checks of the nearest-exact 1-D and 2-D gradients (CANN's CheckParams after the NULLs): dtypes, one
 * format, ranks, lengths, no NHWC, N and C, scales >= 0, steps >= 0.02, sizes > 0; out's shape inputSize.
 * Fills the plan's sizes, gradOut's from gradOutput's shape. */
int upsample_check_exact_grad(const char *api, const aclTensor *grad_output, const aclIntArray *output_size,
                              const aclIntArray *input_size, const aclTensor *out, upsample_plan *p);

/* Ascend950's ResizeNearestNeighborV2Grad step (gradOut indices per input index): the reciprocal of its
 * scale, 1 / float(scale) when positive, else the sizes' float(in) / float(out). */
float upsample_nearest_grad_ratio_950(const upsample_axis *ax);

/* The nearest gradients' step per input index (gradOut indices): float(scale) when all scales are
 * positive (the op_api passes them on; on Ascend950 each positive one), else float(out) / float(in). */
void upsample_nearest_grad_ratios(upsample_plan *p);

/* Phase one's end for the nearest forwards: an empty tensor launches nothing, else out must be writable
 * and the gather's only workspace is the Contiguous copies. */
int upsample_nearest_create(const emu_op_def *op, const char *api, const aclTensor *self, aclTensor *out,
                            upsample_plan *p, uint64_t *workspace_size, aclOpExecutor **executor);

/* Phase one's end for an API whose op_api launches one TBE kernel: an empty tensor launches nothing (and
 * asks no workspace), else out (named out_name) must be writable and the workspace is ws. */
int upsample_create_tbe(const emu_op_def *op, const char *api, const aclTensor *in, aclTensor *out,
                        const char *out_name, upsample_plan *p, uint64_t ws, uint64_t *workspace_size,
                        aclOpExecutor **executor);

/* Phase one's end for the 3-D gradients (nearest, trilinear): upsample_create_tbe with their workspace (gradOut's FLOAT
 * copy and the three passes). */
int upsample_volume_grad_create(const emu_op_def *op, const char *api, const aclTensor *grad_out,
                                        aclTensor *grad_input, upsample_plan *p, uint64_t *workspace_size,
                                        aclOpExecutor **executor);

/* Phase one's last step: logs what runs (the kernel CANN's op_api launches, its ratios)
 * and creates the executor over the API's input and out. */
int upsample_create(const emu_op_def *op, const aclTensor *in, const aclTensor *out, const upsample_plan *p,
                    uint64_t workspace, uint64_t *workspace_size, aclOpExecutor **executor);

/* The API's scales, in its signature's order (outermost axis first: scalesD, scalesH, scalesW), into the
 * plan's axes. */
void upsample_set_scales(upsample_plan *p, const double *scales);

/* The trilinear kernels' ratio per axis: 1 for an unchanged size, else upsample_ratio's with float(1 / scale)
 * when all three scales are positive (the op_api passes them on), else the sizes'. */
void upsample_linear_volume_ratios(upsample_plan *p);

#endif /* ACLNN_EMU_UPSAMPLE_OP_H_ */
