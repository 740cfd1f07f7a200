/*
 * The upsample family's op-side steps: the run step every upsample API's
 * launch goes through (it adds what phase one cannot know, the thread count
 * and the reference switch, applies the policy for launches CANN makes no
 * kernel for, and calls the family's kernel entry point), and the parts of
 * phase one every API does alike.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include "upsample_op.h"

int upsample_run(const emu_launch *l, char *msg, size_t cap)
{
    upsample_plan p = *(const upsample_plan *)l->params;
    if (p.kernel == UPSAMPLE_KERNEL_NONE) { /* CANN returns before any kernel: out stays as it was */
        emu_launch_leave_unwritten(l, UPSAMPLE_OUT);
        return 0;
    }
    if (p.kernel == UPSAMPLE_KERNEL_NONE_ON_SOC) {
        emu_launch_leave_unwritten(l, UPSAMPLE_OUT);
        return emu_run_misuse(l->op->name, msg, cap, "CANN launches no kernel on %s when %s's shape equals %s; out "
                              "is left unchanged", emu_soc_current()->name, l->op->tensor_names[UPSAMPLE_IN],
                              p.backward ? "inputSize" : "outputSize");
    }
    p.threads = emu_kernel_threads();
    p.reference = emu_reference_kernels();
    upsample_book(&p);
    int st = emu_scratch_grant(&p.scratch, p.threads, l->op->name, msg, cap);
    const emu_view in = emu_launch_view(l, UPSAMPLE_IN), out = emu_launch_view(l, UPSAMPLE_OUT);
    if (!st)
        st = p.backward ? upsample_backward(&in, &out, &p, msg, cap) : upsample_forward(&in, &out, &p, msg, cap);
    emu_scratch_release(&p.scratch);
    return st;
}

void upsample_read_sizes(const int64_t *v, bool nhwc, upsample_plan *p)
{
    const int last = p->axes + 1;
    p->n = v[0];
    p->c = nhwc ? v[last] : v[1];
    for (int a = 0; a < p->axes; a++)
        p->axis[a].in = v[(nhwc ? last - 1 : last) - a];
}

int upsample_check_positive(const char *api, const upsample_plan *p)
{
    static const char *const names[UPSAMPLE_MAX_AXES] = {"W", "H", "D"};
    bool ok = true;
    for (int a = 0; a < p->axes; a++)
        ok = ok && p->axis[a].in > 0 && p->axis[a].out > 0;
    if (ok)
        return 0;
    char sizes[160];
    size_t used = 0;
    sizes[0] = '\0';
    for (int a = p->axes - 1; a >= 0; a--)
        emu_append(sizes, sizeof sizes, &used, "%s=%lld ", names[a], (long long)p->axis[a].in);
    for (int a = p->axes - 1; a >= 0; a--)
        emu_append(sizes, sizeof sizes, &used, "out%s=%lld%s", names[a], (long long)p->axis[a].out, a ? " " : "");
    return emu_error(ACLNN_ERR_PARAM_INVALID, api, "input %s and outputSize must be > 0, got %s",
                     p->axes == 3 ? "D, H, W" : p->axes == 2 ? "H, W" : "W", sizes);
}

float upsample_ratio(int64_t in, int64_t out, bool align_corners, float scale, float single)
{
    if (align_corners)
        return out > 1 ? (float)(in - 1) / (float)(out - 1) : single;
    return scale > 0 ? scale : (float)in / (float)out;
}

static bool float_equal(float a, float b)
{
    return a > b ? a - b < 1e-6f : b - a < 1e-6f;
}

void upsample_skip_unit_ratios(upsample_plan *p)
{
    p->axis[UPSAMPLE_W].skip = float_equal(p->axis[UPSAMPLE_W].ratio, 1.0f);
    p->axis[UPSAMPLE_H].skip = float_equal(p->axis[UPSAMPLE_H].ratio, 1.0f) && !p->axis[UPSAMPLE_W].skip;
}

int upsample_create(const emu_op_def *op, const aclTensor *in, const aclTensor *out, const upsample_plan *p,
                    uint64_t workspace, uint64_t *workspace_size, aclOpExecutor **executor)
{
    char attrs[256];
    size_t used = 0;
    attrs[0] = '\0';
    if (emu_log_enabled(EMU_LOG_INFO)) { /* for the log line only: formatting costs a small call's time */
        emu_append(attrs, sizeof attrs, &used, "alignCorners=%d format=%s kernel=%s scales=", (int)p->align_corners,
                   p->nhwc ? "channels-last" : "channels-first",
                   p->kernel == UPSAMPLE_KERNEL_COPY ? "copy" : p->kernel_name ? p->kernel_name : "none");
        for (int a = p->axes - 1; a >= 0; a--)
            emu_append(attrs, sizeof attrs, &used, "%g%s", p->axis[a].scale, a ? "x" : " ratio=");
        for (int a = p->axes - 1; a >= 0; a--)
            emu_append(attrs, sizeof attrs, &used, "%g%s", (double)p->axis[a].ratio, a ? "x" : "");
    }
    const aclTensor *tensors[] = {[UPSAMPLE_IN] = in, [UPSAMPLE_OUT] = out};
    return emu_executor_create(op, tensors, p, sizeof *p, workspace, attrs, workspace_size, executor);
}

bool upsample_channels_last(aclFormat format)
{
    return format == ACL_FORMAT_NHWC || format == ACL_FORMAT_NDHWC;
}

void upsample_sizes_from(const aclTensor *self, const aclIntArray *output_size, upsample_plan *p)
{
    upsample_read_sizes(self->dims, p->nhwc, p);
    for (int a = 0; a < p->axes; a++)
        p->axis[a].out = output_size->values[p->axes - 1 - a];
}

int upsample_check_out_shape(const char *api, const aclTensor *out, const upsample_plan *p)
{
    int64_t want[2 + UPSAMPLE_MAX_AXES];
    const int last = p->axes + 1;
    want[0] = p->n;
    want[p->nhwc ? last : 1] = p->c;
    for (int a = 0; a < p->axes; a++)
        want[(p->nhwc ? last - 1 : last) - a] = p->axis[a].out;
    return emu_check_shape(api, out, "out", want, (uint64_t)last + 1, " (self's N and C, outputSize)");
}

void upsample_nearest_ratios(upsample_plan *p, bool scales_on_910b)
{
    const bool soc950 = emu_soc_current()->family == EMU_SOC_950;
    for (int a = 0; a < p->axes; a++) {
        upsample_axis *ax = &p->axis[a];
        if (soc950 && ax->scale > 0)
            ax->ratio = 1.0f / (float)ax->scale;
        else if (!soc950 && scales_on_910b && ax->scale > 0)
            ax->ratio = (float)(1.0 / ax->scale);
        else
            ax->ratio = (float)ax->in / (float)ax->out;
    }
}

int upsample_check_volume(const char *api, const aclTensor *self, const aclIntArray *output_size,
                          const aclTensor *out, upsample_plan *p)
{
    EMU_TRY(emu_check_each_rank(api, EMU_EACH(EMU_WANT(self, 5), EMU_WANT(out, 5))));
    EMU_TRY(emu_check_array_len(api, output_size, "outputSize", 3, ""));
    p->nhwc = upsample_channels_last(self->format);
    upsample_sizes_from(self, output_size, p);
    EMU_TRY(upsample_check_positive(api, p));
    if (p->c <= 0)
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "Non-empty 5D data tensor expected but got C=%lld",
                         (long long)p->c);
    return 0;
}

int upsample_create_tbe(const emu_op_def *op, const char *api, const aclTensor *in, aclTensor *out,
                        const char *out_name, upsample_plan *p, uint64_t ws, uint64_t *workspace_size,
                        aclOpExecutor **executor)
{
    if (emu_tensor_numel(in) == 0 || emu_tensor_numel(out) == 0)
        ws = 0; /* empty tensors: CANN returns before any kernel, with a workspace of 0 */
    else {
        EMU_TRY(emu_check_output_writable(api, out, out_name));
        p->kernel = UPSAMPLE_KERNEL_TBE;
    }
    return upsample_create(op, in, out, p, ws, workspace_size, executor);
}

int upsample_nearest_create(const emu_op_def *op, const char *api, const aclTensor *self, aclTensor *out,
                            upsample_plan *p, uint64_t *workspace_size, aclOpExecutor **executor)
{
    const size_t item = emu_dtype_size(self->dtype);
    const uint64_t ws = (emu_tensor_contiguous(self) ? 0 : emu_ws_bytes(emu_tensor_numel(self), item)) +
                        (emu_tensor_contiguous(out) ? 0 : emu_ws_bytes(emu_tensor_numel(out), item));
    return upsample_create_tbe(op, api, self, out, "out", p, ws, workspace_size, executor);
}

int upsample_volume_grad_create(const emu_op_def *op, const char *api, const aclTensor *grad_out,
                                        aclTensor *grad_input, upsample_plan *p, uint64_t *workspace_size,
                                        aclOpExecutor **executor)
{
    const int64_t n_g = emu_tensor_numel(grad_out), n_i = emu_tensor_numel(grad_input);
    const uint64_t ws = emu_ws_bytes(n_g, 4) + 3 * emu_ws_bytes(n_i > n_g ? n_i : n_g, 4); /* FLOAT copy, passes */
    return upsample_create_tbe(op, api, grad_out, grad_input, "gradInput", p, ws, workspace_size, executor);
}

int upsample_check_grad_sizes(const char *api, const aclTensor *grad_out, const char *grad_out_name,
                              const aclIntArray *output_size, const aclIntArray *input_size,
                              const aclTensor *grad_input, const char *grad_input_name, upsample_plan *p)
{
    const uint64_t rank = (uint64_t)p->axes + 2;
    upsample_read_sizes(input_size->values, p->nhwc, p);
    for (int a = 0; a < p->axes; a++)
        p->axis[a].out = output_size->values[p->axes - 1 - a];
    EMU_TRY(upsample_check_positive(api, p));
    int64_t want[2 + UPSAMPLE_MAX_AXES]; /* gradOut's shape: the forward's output */
    want[0] = p->n;
    want[p->nhwc ? rank - 1 : 1] = p->c;
    for (int a = 0; a < p->axes; a++)
        want[(p->nhwc ? rank - 2 : rank - 1) - (uint64_t)a] = p->axis[a].out;
    EMU_TRY(emu_check_shape(api, grad_out, grad_out_name, want, rank, " (inputSize's N and C, outputSize)"));
    return emu_check_shape(api, grad_input, grad_input_name, input_size->values, rank, " (inputSize)");
}

int upsample_check_volume_grad(const char *api, const aclTensor *grad_out, const aclIntArray *output_size,
                               const aclIntArray *input_size, const aclTensor *grad_input, upsample_plan *p)
{
    EMU_TRY(emu_check_rank(api, grad_out, "gradOut", 5));
    EMU_TRY(emu_check_array_len(api, output_size, "outputSize", 3, ""));
    EMU_TRY(emu_check_array_len(api, input_size, "inputSize", 5, ""));
    p->nhwc = upsample_channels_last(grad_out->format);
    return upsample_check_grad_sizes(api, grad_out, "gradOut", output_size, input_size, grad_input, "gradInput", p);
}

float upsample_nearest_grad_ratio_950(const upsample_axis *ax)
{
    const float scale = ax->scale > 0 ? 1.0f / (float)ax->scale : (float)ax->in / (float)ax->out;
    return 1.0f / scale;
}

void upsample_nearest_grad_ratios(upsample_plan *p)
{
    const bool all = p->axis[0].scale > 0 && p->axis[1].scale > 0 && p->axis[2].scale > 0;
    const bool soc950 = emu_soc_current()->family == EMU_SOC_950; /* there each positive scale counts */
    for (int a = 0; a < p->axes; a++) {
        upsample_axis *ax = &p->axis[a];
        ax->ratio = (all || soc950) && ax->scale > 0 ? (float)ax->scale : (float)ax->out / (float)ax->in;
    }
}

void upsample_set_scales(upsample_plan *p, const double *scales)
{
    for (int a = 0; a < p->axes; a++)
        p->axis[a].scale = scales[p->axes - 1 - a];
}

void upsample_linear_volume_ratios(upsample_plan *p)
{
    const bool all = p->axis[0].scale > 0 && p->axis[1].scale > 0 && p->axis[2].scale > 0;
    for (int a = 0; a < 3; a++) {
        upsample_axis *ax = &p->axis[a];
        const float real = all ? (float)(1.0 / ax->scale) : 0.0f;
        ax->ratio = ax->in == ax->out ? 1.0f : upsample_ratio(ax->in, ax->out, p->align_corners, real, 0.0f);
    }
}

int upsample_check_exact_grad(const char *api, const aclTensor *grad_output, const aclIntArray *output_size,
                              const aclIntArray *input_size, const aclTensor *out, upsample_plan *p)
{
    const uint64_t rank = (uint64_t)p->axes + 2;
    EMU_TRY(emu_check_dtype_in(api, grad_output, "gradOutput", EMU_SET(aclDataType, ACL_FLOAT, ACL_FLOAT16, ACL_BF16)));
    EMU_TRY(emu_check_dtype(api, out, "out", grad_output->dtype, " (gradOutput's)"));
    EMU_TRY(emu_check_format(api, out, "out", grad_output->format)); /* CheckShape: the same format, ranks, lengths */
    EMU_TRY(emu_check_rank(api, grad_output, "gradOutput", rank));
    EMU_TRY(emu_check_rank(api, out, "out", rank));
    EMU_TRY(emu_check_array_len(api, input_size, "inputSize", rank, ""));
    EMU_TRY(emu_check_array_len(api, output_size, "outputSize", (uint64_t)p->axes, ""));
    if (grad_output->format == ACL_FORMAT_NHWC) /* CheckNCDimEqual */
        return emu_error(ACLNN_ERR_PARAM_INVALID, api, "gradOutput format must be NCHW or ND (CANN's op_api has "
                         "no NHWC path), got NHWC");
    EMU_TRY(emu_check_dim(api, out->dims[0], grad_output->dims[0], "out.shape[0]", "gradOutput.shape[0]"));
    EMU_TRY(emu_check_dim(api, out->dims[1], grad_output->dims[1], "out.shape[1]", "gradOutput.shape[1]"));
    p->n = grad_output->dims[0];
    p->c = grad_output->dims[1];
    for (int a = 0; a < p->axes; a++) { /* gradOut's sizes from its shape: CANN reads no outputSize value */
        p->axis[a].out = grad_output->dims[rank - 1 - (uint64_t)a];
        p->axis[a].in = input_size->values[rank - 1 - (uint64_t)a];
        if (p->axis[a].scale < 0)
            return emu_error(ACLNN_ERR_PARAM_INVALID, api, "scales cannot be negative, got %g", p->axis[a].scale);
    }
    for (int a = 0; a < p->axes; a++) { /* the forward's step at least 0.02 (ComputeNearestExact2dBackwardScales) */
        const upsample_axis *ax = &p->axis[a];
        const double real = ax->scale > 0 ? 1.0 / ax->scale : ax->out ? (double)ax->in / (double)ax->out : 0.0;
        if (!(real >= 0.02))
            return emu_error(ACLNN_ERR_PARAM_INVALID, api, "scales are too large: the step %g is below 0.02", real);
    }
    EMU_TRY(emu_check_min(api, p->n, 1, "gradOutput's N"));
    EMU_TRY(emu_check_min(api, p->c, 1, "gradOutput's C"));
    EMU_TRY(upsample_check_positive(api, p));
    return emu_check_shape(api, out, "out", input_size->values, rank, " (inputSize)");
}
