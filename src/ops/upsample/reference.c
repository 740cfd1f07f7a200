/*
 * The upsample family's reference kernels: what every fast path computes,
 * written to be read. Per (n, c) plane, in CANN's float32: the plane is
 * loaded as float32, passed along W, then H, then D, and stored in out's
 * dtype. A forward pass gathers each output's taps,
 *     out[i] = wl * in[lo] + wh * in[hi]    (or in[lo] where the kernel copies);
 * a gradient pass is its transpose, scattering each gradOut value to the
 * taps of its index in index order,
 *     out[lo] += wl * g[i],  out[hi] += wh * g[i]
 * (a nearest gradient sums each input's range of gradOut instead, as CANN's
 * kernels take it; the nearest forward is a gather, nearest.c).
 * The taps are upsample_tap_of's. The AscendC kernels' cube tiles are then
 * applied to non-finite inputs (cube.c), as after the fast paths.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "../../kernel/rows.h"
#include "upsample.h"

/* Moves a plane between a view (strides s_ax) and a dense float32 buffer (W fastest). */
static void plane_io(const emu_view *v, int64_t base, const int64_t *s_ax, const int64_t *size, int axes, float *buf,
                     bool load)
{
    const float *f16 = emu_f16_table_for(v->dtype);
    int64_t count = 1;
    for (int a = 0; a < axes; a++)
        count *= size[a];
    for (int64_t e = 0; e < count; e++) {
        int64_t off = v->offset + base, rest = e;
        for (int a = 0; a < axes; a++) {
            off += rest % size[a] * s_ax[a];
            rest /= size[a];
        }
        if (load)
            buf[e] = emu_load_one(v->data, v->dtype, off, f16);
        else
            emu_store_one(v->data, v->dtype, off, buf[e]);
    }
}

/* One pass along axis a: src has size[] (size[a] = the pass's input length), dst gets len along a. */
static void pass(const upsample_plan *p, int a, const float *src, float *dst, const int64_t *size, int64_t len)
{
    int64_t inner = 1, outer = 1;
    for (int b = 0; b < a; b++)
        inner *= size[b];
    for (int b = a + 1; b < p->axes; b++)
        outer *= size[b];
    const int64_t n_src = size[a];
    if (p->backward)
        memset(dst, 0, (size_t)(outer * len * inner) * sizeof *dst);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t q = 0; q < inner; q++) {
            const float *s = src + o * n_src * inner + q;
            float *d = dst + o * len * inner + q;
            const int64_t taps = p->backward ? n_src : len; /* the index the taps belong to */
            if (p->backward && p->mode != UPSAMPLE_LINEAR && !p->nearest_scatter) { /* each input: its range */
                for (int64_t i = 0; i < len; i++) {
                    int64_t lo, hi;
                    upsample_nearest_grad_range(p, a, i, &lo, &hi);
                    for (int64_t g = lo; g < hi; g++)
                        d[i * inner] += s[g * inner];
                }
                continue;
            }
            for (int64_t i = 0; i < taps; i++) {
                const upsample_tap t = upsample_tap_of(p, a, i);
                if (p->backward && t.count == 1) {
                    d[t.lo * inner] += s[i * inner];
                } else if (p->backward && t.count == 2) {
                    d[t.lo * inner] += t.wl * s[i * inner];
                    d[t.hi * inner] += t.wh * s[i * inner];
                } else if (!p->backward) {
                    d[i * inner] = t.count == 1 ? s[t.lo * inner] : t.wl * s[t.lo * inner] + t.wh * s[t.hi * inner];
                }
            }
        }
}

/* Each axis' extent before and after its pass; returns the largest plane any pass holds. */
static int64_t extents(const upsample_plan *p, int64_t *from, int64_t *to)
{
    int64_t most = 1;
    for (int a = 0; a < p->axes; a++) {
        from[a] = p->backward ? p->axis[a].out : p->axis[a].in;
        to[a] = p->backward ? p->axis[a].in : p->axis[a].out;
    }
    for (int k = 0; k <= p->axes; k++) {
        int64_t v = 1;
        for (int a = 0; a < p->axes; a++)
            v *= a < k ? to[a] : from[a];
        most = v > most ? v : most;
    }
    return most;
}

void upsample_reference_book(const upsample_plan *p, emu_scratch *s)
{
    int64_t from[UPSAMPLE_MAX_AXES], to[UPSAMPLE_MAX_AXES];
    const size_t most = (size_t)extents(p, from, to);
    emu_scratch_book(s, UPSAMPLE_SCRATCH_PLANE, most, sizeof(float), true);
    emu_scratch_book(s, UPSAMPLE_SCRATCH_PLANE + 1, most, sizeof(float), true);
    if (p->kernel == UPSAMPLE_KERNEL_ASCENDC)
        upsample_cube_book(p, s);
}

int upsample_reference(const emu_view *src, const emu_view *dst, const upsample_plan *p, char *msg, size_t cap)
{
    int64_t from[UPSAMPLE_MAX_AXES], to[UPSAMPLE_MAX_AXES], s_n, s_c, d_n, d_c;
    int64_t s_ax[UPSAMPLE_MAX_AXES], d_ax[UPSAMPLE_MAX_AXES];
    const size_t plane_bytes = (size_t)extents(p, from, to) * sizeof(float);
    upsample_strides(src, p, &s_n, &s_c, s_ax);
    upsample_strides(dst, p, &d_n, &d_c, d_ax);
    int missing = 0; /* a thread without its planes (more threads than booked) */
#pragma omp parallel num_threads(p->threads) reduction(| : missing)
    {
        float *buf[2] = {emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_PLANE, plane_bytes),
                         emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_PLANE + 1, plane_bytes)};
        missing |= !buf[0] || !buf[1];
#pragma omp for schedule(static)
        for (int64_t plane = 0; plane < p->n * p->c; plane++) {
            if (missing)
                continue;
            const int64_t n = plane / p->c, c = plane % p->c;
            int64_t size[UPSAMPLE_MAX_AXES];
            memcpy(size, from, sizeof size);
            plane_io(src, n * s_n + c * s_c, s_ax, size, p->axes, buf[0], true);
            int cur = 0;
            for (int a = 0; a < p->axes; a++) {
                pass(p, a, buf[cur], buf[1 - cur], size, to[a]);
                size[a] = to[a];
                cur = 1 - cur;
            }
            plane_io(dst, n * d_n + c * d_c, d_ax, size, p->axes, buf[cur], false);
        }
    }
    if (missing)
        return snprintf(msg, cap, "the reference kernel's planes were not booked"), EMU_KERNEL_ERR_INNER;
    return p->kernel == UPSAMPLE_KERNEL_ASCENDC ? upsample_cube(src, dst, p, msg, cap) : 0;
}
