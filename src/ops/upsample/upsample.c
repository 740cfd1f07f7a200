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

emu_view upsample_face_4d(const emu_view *v, const upsample_plan *p, int64_t *s_d)
{
    emu_view f = *v;
    *s_d = 0;
    if (p->axes == 3) {
        const int d = p->nhwc ? 1 : 2;
        *s_d = v->strides[d];
        for (int k = d; k < 4; k++) {
            f.dims[k] = v->dims[k + 1];
            f.strides[k] = v->strides[k + 1];
        }
        f.ndim = 4;
    }
    return f;
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

/* The fast paths: linear, 2 or 3 spatial axes (1 axis runs as 2 with H = 1, as CANN's op_apis reshape it). */
static bool fast_covers(const upsample_plan *p)
{
    return !p->reference && p->mode == UPSAMPLE_LINEAR;
}

/* A 1-axis plan as a 2-axis one: an H of one element, copied (the fast paths' view). */
static void plan_2d(const upsample_plan *p, upsample_plan *p2)
{
    *p2 = *p;
    if (p->axes == 1) {
        p2->axes = 2;
        p2->axis[UPSAMPLE_H] = (upsample_axis){.in = 1, .out = 1, .ratio = 1.0f, .skip = true};
    }
}

/* A 1-axis problem as a 2-axis one: an H of one element inserted before W (the views share their data). */
static void as_2d(const emu_view *v, emu_view *v2, const upsample_plan *p, upsample_plan *p2)
{
    *v2 = *v;
    const int64_t w_axis = p->nhwc ? 1 : 2; /* (N, C, L) or (N, L, C) */
    for (int64_t d = (int64_t)v->ndim; d > w_axis; d--) {
        v2->dims[d] = v->dims[d - 1];
        v2->strides[d] = v->strides[d - 1];
    }
    v2->dims[w_axis] = 1;
    v2->strides[w_axis] = 0;
    v2->ndim = v->ndim + 1;
    plan_2d(p, p2);
}

/* The kernels a plan runs, in order: the dispatch below and the booking read the same routes. */
typedef enum route {
    ROUTE_NONE,
    ROUTE_COPY,
    ROUTE_NEAREST,
    ROUTE_NEAREST_GRAD,
    ROUTE_JOINT,
    ROUTE_REFERENCE,
    ROUTE_FAST
} route;

static route route_of(const upsample_plan *p)
{
    if (p->kernel == UPSAMPLE_KERNEL_COPY)
        return ROUTE_COPY;
    if (!p->backward && p->mode != UPSAMPLE_LINEAR)
        return ROUTE_NEAREST;
    if (p->backward && p->mode != UPSAMPLE_LINEAR)
        return p->reference ? ROUTE_REFERENCE : ROUTE_NEAREST_GRAD;
    if (!p->backward && p->joint_weights)
        return ROUTE_JOINT;
    return fast_covers(p) ? ROUTE_FAST : ROUTE_REFERENCE;
}

void upsample_book(upsample_plan *p)
{
    emu_scratch *s = &p->scratch;
    *s = (emu_scratch){0};
    upsample_plan p2;
    plan_2d(p, &p2);
    switch (route_of(p)) {
    case ROUTE_NEAREST: upsample_nearest_book(p, s); break;
    case ROUTE_JOINT: upsample_joint_book(p, s); break;
    case ROUTE_NEAREST_GRAD: upsample_nearest_grad_book(p, s); break;
    case ROUTE_REFERENCE: upsample_reference_book(p->mode == UPSAMPLE_LINEAR ? &p2 : p, s); break;
    case ROUTE_FAST:
        if (p->backward) { /* and what a non-finite gradOut falls back to */
            upsample_linear_fast_backward_book(&p2, s);
            upsample_reference_book(&p2, s);
        } else {
            upsample_linear_fast_forward_book(&p2, s);
            if (p->kernel == UPSAMPLE_KERNEL_ASCENDC)
                upsample_cube_book(&p2, s);
        }
        break;
    default: break;
    }
}

int upsample_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    if (emu_view_numel(in) == 0 || emu_view_numel(out) == 0)
        return 0;
    if (p->axes == 1 && p->mode == UPSAMPLE_LINEAR && p->kernel != UPSAMPLE_KERNEL_COPY) {
        emu_view in2, out2; /* the linear kernels (and the cube rule) see 2 axes, as CANN's op_apis reshape */
        upsample_plan p2;
        as_2d(in, &in2, p, &p2);
        as_2d(out, &out2, p, &p2);
        return upsample_forward(&in2, &out2, &p2, msg, cap);
    }
    switch (route_of(p)) {
    case ROUTE_COPY: upsample_copy(in, out, p); return 0;
    case ROUTE_NEAREST: return upsample_nearest_forward(in, out, p, msg, cap);
    case ROUTE_JOINT: return upsample_joint_forward(in, out, p, msg, cap);
    case ROUTE_REFERENCE: return upsample_reference(in, out, p, msg, cap);
    default: break;
    }
    int status = upsample_linear_fast_forward(in, out, p, msg, cap);
    if (!status && p->kernel == UPSAMPLE_KERNEL_ASCENDC)
        status = upsample_cube(in, out, p, msg, cap);
    return status;
}

int upsample_backward(const emu_view *grad_out, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    if (emu_view_numel(grad_out) == 0 || emu_view_numel(out) == 0)
        return 0;
    if (p->axes == 1 && p->mode == UPSAMPLE_LINEAR && p->kernel != UPSAMPLE_KERNEL_COPY) {
        emu_view g2, out2;
        upsample_plan p2;
        as_2d(grad_out, &g2, p, &p2);
        as_2d(out, &out2, p, &p2);
        return upsample_backward(&g2, &out2, &p2, msg, cap);
    }
    switch (route_of(p)) {
    case ROUTE_COPY: upsample_copy(grad_out, out, p); return 0;
    case ROUTE_REFERENCE: return upsample_reference(grad_out, out, p, msg, cap);
    case ROUTE_NEAREST_GRAD: return upsample_nearest_grad_fast(grad_out, out, p, msg, cap);
    default: break;
    }
    bool nonfinite = false;
    int status = upsample_linear_fast_backward(grad_out, out, p, &nonfinite, msg, cap);
    if (status || !nonfinite)
        return status;
    /* An Inf or NaN in gradOut: the fast path's padded taps (weight 0) would
     * spread it to outputs it does not reach; the TBE kernel's scatter does
     * not, so the reference recomputes them. The AscendC kernel's cube tiles
     * spread it further than the padding: cube.c rewrites those outputs. */
    if (p->kernel != UPSAMPLE_KERNEL_ASCENDC)
        return upsample_reference(grad_out, out, p, msg, cap);
    return upsample_cube(grad_out, out, p, msg, cap);
}
