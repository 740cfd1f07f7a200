/*
 * The upsample family's run step (op layer): every upsample API's launch
 * goes through here. It adds what phase one cannot know (the thread count,
 * the reference switch), applies the policy for launches CANN makes no
 * kernel for, and calls the family's kernel entry point.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include "../../meta/meta.h"
#include "upsample.h"

int upsample_run(const emu_launch *l, char *msg, size_t cap)
{
    upsample_plan p = *(const upsample_plan *)l->params;
    if (p.kernel == UPSAMPLE_KERNEL_NONE) { /* CANN returns before any kernel: out stays as it was */
        emu_launch_leave_unwritten(l, 1);
        return 0;
    }
    if (p.kernel == UPSAMPLE_KERNEL_NONE_ON_SOC) {
        emu_launch_leave_unwritten(l, 1);
        return emu_run_misuse(l->op->name, msg, cap, "CANN launches no kernel on %s when %s's shape equals %s; out "
                              "is left unchanged", emu_soc_current()->name, l->op->tensor_names[0],
                              p.backward ? "inputSize" : "outputSize");
    }
    p.threads = emu_kernel_threads();
    p.reference = emu_reference_kernels();
    const emu_view in = emu_launch_view(l, 0), out = emu_launch_view(l, 1);
    return p.backward ? upsample_backward(&in, &out, &p, msg, cap) : upsample_forward(&in, &out, &p, msg, cap);
}
