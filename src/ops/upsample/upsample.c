/*
 * The upsample family's kernel entry points: each plan goes to the fast
 * path that covers it, or to the reference kernel (reference.c) when none
 * does or the user asked for it; then the AscendC kernels' cube rule.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "upsample.h"

void upsample_strides(const emu_view *v, const upsample_plan *p, int64_t *s_n, int64_t *s_c, int64_t *s_ax)
{
    const int last = (int)v->ndim - 1;
    *s_n = v->strides[0];
    *s_c = p->nhwc ? v->strides[last] : v->strides[1];
    for (int a = 0; a < p->axes; a++)
        s_ax[a] = v->strides[(p->nhwc ? last - 1 : last) - a];
}

void upsample_copy(const emu_view *in, const emu_view *out, const upsample_plan *p)
{
    const size_t item = emu_view_item_size(in);
    int64_t i_n, i_c, i_ax[UPSAMPLE_MAX_AXES], o_n, o_c, o_ax[UPSAMPLE_MAX_AXES], volume = 1;
    upsample_strides(in, p, &i_n, &i_c, i_ax);
    upsample_strides(out, p, &o_n, &o_c, o_ax);
    for (int a = 0; a < p->axes; a++)
        volume *= p->axis[a].in;
#pragma omp parallel for schedule(static) num_threads(p->threads)
    for (int64_t plane = 0; plane < p->n * p->c; plane++) {
        const int64_t n = plane / p->c, c = plane % p->c;
        for (int64_t e = 0; e < volume; e++) {
            int64_t io = in->offset + n * i_n + c * i_c, oo = out->offset + n * o_n + c * o_c, rest = e;
            for (int a = 0; a < p->axes; a++) {
                const int64_t k = rest % p->axis[a].in;
                io += k * i_ax[a];
                oo += k * o_ax[a];
                rest /= p->axis[a].in;
            }
            memcpy((char *)out->data + (size_t)oo * item, (const char *)in->data + (size_t)io * item, item);
        }
    }
}

/* The fast paths: 2 spatial axes, linear. */
static bool fast_covers(const upsample_plan *p)
{
    return !p->reference && p->axes == 2 && p->mode == UPSAMPLE_LINEAR;
}

int upsample_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    if (emu_view_numel(in) == 0 || emu_view_numel(out) == 0)
        return 0;
    if (p->kernel == UPSAMPLE_KERNEL_COPY) {
        upsample_copy(in, out, p);
        return 0;
    }
    if (!fast_covers(p))
        return upsample_reference_forward(in, out, p, msg, cap);
    int status = upsample_bilinear2d_fast_forward(in, out, p, msg, cap);
    if (!status && p->kernel == UPSAMPLE_KERNEL_ASCENDC && (status = upsample_cube_forward(in, out, p)) != 0)
        snprintf(msg, cap, "out of memory for the non-finite input pass");
    return status;
}

int upsample_backward(const emu_view *grad_out, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    if (emu_view_numel(grad_out) == 0 || emu_view_numel(out) == 0)
        return 0;
    if (p->kernel == UPSAMPLE_KERNEL_COPY) {
        upsample_copy(grad_out, out, p);
        return 0;
    }
    if (!fast_covers(p))
        return upsample_reference_backward(grad_out, out, p, msg, cap);
    bool nonfinite = false;
    int status = upsample_bilinear2d_fast_backward(grad_out, out, p, &nonfinite, msg, cap);
    if (status || !nonfinite)
        return status;
    /* An Inf or NaN in gradOut: the fast path's padded taps (weight 0) would
     * spread it to outputs it does not reach; the TBE kernel's scatter does
     * not, so the reference recomputes them. The AscendC kernel's cube tiles
     * spread it further than the padding: cube.c rewrites those outputs. */
    if (p->kernel != UPSAMPLE_KERNEL_ASCENDC)
        return upsample_reference_backward(grad_out, out, p, msg, cap);
    if ((status = upsample_cube_backward(grad_out, out, p)) != 0)
        snprintf(msg, cap, "out of memory for the non-finite gradOut pass");
    return status;
}
