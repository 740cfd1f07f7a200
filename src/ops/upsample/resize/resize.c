/*
 * aclnnResize: checks (phase one, in the order of CANN's op_api,
 * image/resize_bilinear_v2/op_api/aclnn_resize.cpp) and the kernel it
 * launches. out's H and W are the result's size (the scales are only
 * checked against them). Atlas A2 runs the TBE kernels on NC1HWC0 copies:
 * "nearest" ResizeNearestNeighborV2 (source floor(dst * in / out), a copy
 * of whole elements), "bilinear" ResizeBilinearV2 with half-pixel centres
 * (the taps of (dst + 0.5) * in / out - 0.5, weighed per pixel:
 * resize_bilinear.c); both copy for equal sizes or a 1 x 1 input. Ascend950
 * runs its AscendC kernels: the same nearest rule, and the bilinear one as
 * a W then an H pass (its clamped last taps can differ in the last bit).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "../upsample_op.h"
#include "aclnnop/aclnn_resize.h"

#define OP_NAME "aclnnResize"
UPSAMPLE_DEFINE_OP(OP_NAME, "self");

/* CheckInputElement's rule: out's size along an axis lies in [int(in * (s - 1e-5)), int(in * (s + 1e-5))]. */
static int check_axis(int64_t in, int64_t out, float scale, const char *name)
{
    const int64_t lo = upsample_int64_of((double)in * ((double)scale - 1e-5));
    const int64_t hi = upsample_int64_of((double)in * ((double)scale + 1e-5));
    if (out >= lo && out <= hi)
        return 0;
    return emu_error(ACLNN_ERR_PARAM_INVALID, API, "The dim of %s is not matched: out's %lld is outside [%lld, %lld], "
                     "%lld times the scale %g", name, (long long)out, (long long)lo, (long long)hi, (long long)in,
                     (double)scale);
}

static int check(const aclTensor *self, const aclFloatArray *scales, const char *mode, const aclTensor *out,
                 const uint64_t *workspaceSize, aclOpExecutor *const *executor)
{
    EMU_TRY(emu_check_args(API, EMU_ARGS(EMU_POINTER_ARG(workspaceSize), EMU_POINTER_ARG(executor),
                                         EMU_TENSOR_ARG(self), EMU_FLOAT_ARRAY_ARG(scales), EMU_TENSOR_ARG(out),
                                         EMU_POINTER_ARG(mode))));
    if (strncmp(mode, "nearest", 7) != 0 && strncmp(mode, "bilinear", 8) != 0) /* a prefix, as CANN compares */
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "mode must be \"nearest\" or \"bilinear\", got \"%.40s\"", mode);
    EMU_TRY(emu_check_dtype_in(API, self, "self", EMU_SET(aclDataType, ACL_FLOAT16, ACL_FLOAT, ACL_BF16)));
    EMU_TRY(emu_check_dtype(API, out, "out", self->dtype, " (self's)"));
    EMU_TRY(emu_check_format(API, out, "out", self->format));
    EMU_TRY(emu_check_format_in(API, self, "self", EMU_SET(aclFormat, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC)));
    /* CheckInputElement reads four dims and four scales before CheckShape counts them: counted first here */
    EMU_TRY(emu_check_each_rank(API, EMU_EACH(EMU_WANT(self, 4), EMU_WANT(out, 4))));
    EMU_TRY(emu_check_float_array_len(API, scales, "scales", 4));
    const bool nhwc = self->format == ACL_FORMAT_NHWC;
    const int c = nhwc ? 3 : 1, h = nhwc ? 1 : 2, w = nhwc ? 2 : 3;
    if (self->dims[0] != out->dims[0] || self->dims[c] != out->dims[c])
        return emu_error(ACLNN_ERR_PARAM_INVALID, API, "The dim of batch or channel is not matched: self %lld, %lld, "
                         "out %lld, %lld", (long long)self->dims[0], (long long)self->dims[c], (long long)out->dims[0],
                         (long long)out->dims[c]);
    const float *s = scales->values;
    EMU_TRY(check_axis(self->dims[h], out->dims[h], s[h], "height"));
    return check_axis(self->dims[w], out->dims[w], s[w], "width");
}

ACLNN_API aclnnStatus aclnnResizeGetWorkspaceSize(const aclTensor *self, const aclFloatArray *scales,
                                                  const char *mode, aclTensor *out, uint64_t *workspaceSize,
                                                  aclOpExecutor **executor)
{
    emu_diag_api(__func__);
    EMU_TRY(check(self, scales, mode, out, workspaceSize, executor));
    const bool bilinear = strncmp(mode, "bilinear", 8) == 0, soc950 = emu_soc_current()->family == EMU_SOC_950;
    upsample_plan p = {.axes = 2, .nhwc = self->format == ACL_FORMAT_NHWC};
    upsample_read_sizes(self->dims, p.nhwc, &p);
    p.axis[UPSAMPLE_H].out = out->dims[p.nhwc ? 1 : 2];
    p.axis[UPSAMPLE_W].out = out->dims[p.nhwc ? 2 : 3];
    bool copy = true; /* the TBE kernels' copy key: equal sizes or a 1 x 1 input */
    for (int a = 0; a < 2; a++) {
        p.axis[a].ratio = (float)p.axis[a].in / (float)p.axis[a].out;
        copy = copy && p.axis[a].in == p.axis[a].out;
    }
    copy = copy || (p.axis[0].in == 1 && p.axis[1].in == 1);
    p.mode = bilinear && !(copy && !soc950) ? UPSAMPLE_LINEAR : UPSAMPLE_NEAREST;
    p.joint_weights = !soc950;
    p.kernel_name = bilinear ? "ResizeBilinearV2" : "ResizeNearestNeighborV2";
    if (bilinear && !soc950 && self->dtype == ACL_BF16 && emu_tensor_numel(self) > 0)
        return emu_error(ACLNN_ERR_INNER_NULLPTR, API, "\"bilinear\" on a BF16 self goes to ResizeBilinearV2, whose "
                         "Atlas A2 kernel takes FLOAT16 and FLOAT only");
    /* Atlas A2: self and out in NC1HWC0 (C to 16), the kernel's NC1HWC0 result, and the sizes tensor. */
    const size_t item = emu_dtype_size(self->dtype);
    const int64_t c16 = soc950 ? p.c : (p.c + 15) / 16 * 16, n_in = p.n * c16 * p.axis[0].in * p.axis[1].in;
    const int64_t n_out = p.n * c16 * p.axis[0].out * p.axis[1].out;
    const uint64_t ws = emu_ws_bytes(4, 4) + (soc950 ? 0 : emu_ws_bytes(n_in, item) + 2 * emu_ws_bytes(n_out, item));
    return upsample_create_tbe(&OP, API, self, out, "out", &p, ws, workspaceSize, executor);
}

EMU_DEFINE_PHASE_TWO(aclnnResize)
