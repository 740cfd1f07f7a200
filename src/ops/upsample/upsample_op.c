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
    const emu_view in = emu_launch_view(l, UPSAMPLE_IN), out = emu_launch_view(l, UPSAMPLE_OUT);
    return p.backward ? upsample_backward(&in, &out, &p, msg, cap) : upsample_forward(&in, &out, &p, msg, cap);
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
    emu_append(attrs, sizeof attrs, &used, "alignCorners=%d format=%s kernel=%s scales=", (int)p->align_corners,
               p->nhwc ? "channels-last" : "channels-first",
               p->kernel == UPSAMPLE_KERNEL_COPY ? "copy" : p->kernel_name ? p->kernel_name : "none");
    for (int a = p->axes - 1; a >= 0; a--)
        emu_append(attrs, sizeof attrs, &used, "%g%s", p->axis[a].scale, a ? "x" : " ratio=");
    for (int a = p->axes - 1; a >= 0; a--)
        emu_append(attrs, sizeof attrs, &used, "%g%s", (double)p->axis[a].ratio, a ? "x" : "");
    const aclTensor *tensors[] = {[UPSAMPLE_IN] = in, [UPSAMPLE_OUT] = out};
    return emu_executor_create(op, tensors, p, sizeof *p, workspace, attrs, workspace_size, executor);
}
