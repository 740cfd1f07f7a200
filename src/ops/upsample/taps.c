/*
 * The upsample family's coordinate rule: where output index i of an axis
 * reads its input. One function for every API and both directions; a
 * gradient kernel is the transpose of these taps.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>

#include "upsample.h"

void upsample_nearest_grad_range(const upsample_plan *p, int axis, int64_t i, int64_t *lo, int64_t *hi)
{
    const upsample_axis *a = &p->axis[axis];
    const float shift = p->mode == UPSAMPLE_NEAREST_EXACT ? 0.5f : 0.0f;
    const float l = ceilf((float)i * a->ratio - shift), h = ceilf((float)(i + 1) * a->ratio - shift);
    *lo = l < (float)a->out ? (l > 0.0f ? (int64_t)l : 0) : a->out;
    *hi = h < (float)a->out ? (h > 0.0f ? (int64_t)h : 0) : a->out;
}

upsample_tap upsample_tap_of(const upsample_plan *p, int axis, int64_t i)
{
    const upsample_axis *a = &p->axis[axis];
    const int64_t last = a->in - 1;
    upsample_tap t = {.lo = 0, .hi = 0, .wl = 1.0f, .wh = 0.0f, .count = 0};
    if (p->mode != UPSAMPLE_LINEAR) {
        /* UpsampleNearest(3d) and ResizeNearestNeighborV2: index (+0.5), times the ratio, floored, clamped. */
        const float c = p->mode == UPSAMPLE_NEAREST_EXACT ? ((float)i + 0.5f) * a->ratio : (float)i * a->ratio;
        t.lo = t.hi = a->skip ? (i < last ? i : last) : c < (float)last ? (int64_t)floorf(c) : last;
        t.count = 1;
        return t;
    }
    if (a->skip) { /* the kernel copies along this axis */
        if (i > last && p->drop_past_end)
            return t;
        t.lo = t.hi = i < last ? i : last;
        t.count = 1;
        return t;
    }
    /* getCenterValue / getLambda (AscendC) and calcu_out_in_idx (TBE), float32:
     * the coordinate is clamped at 0 (NaN too), its floor is the low tap. */
    float c = p->align_corners ? a->ratio * (float)i : a->ratio * ((float)i + 0.5f) - 0.5f;
    if (!(c > 0.0f))
        c = 0.0f;
    const float f = floorf(c);
    t.count = 2;
    if (f < (float)last && (int64_t)f < last) {
        t.lo = (int64_t)f;
        t.hi = t.lo + 1;
        t.wh = c - f;
        t.wl = 1.0f - t.wh;
        return t;
    }
    /* At or past the last index: the forward kernels clamp to it (weight 1);
     * the bilinear gradient kernels drop a source whose floor lies past it. */
    if (p->drop_past_end && !(f <= (float)last))
        t.count = 0;
    t.lo = t.hi = last;
    return t;
}

int64_t upsample_taps_most(const upsample_plan *p, int axis)
{
    /* lo and hi (hi <= lo + 1) never decrease with i, so an input index is done once one two further on
     * appears: two open ranges, by parity, suffice. */
    int64_t most = 1, open[2] = {-1, -1}, first[2] = {0, 0}, last[2] = {0, 0};
    for (int64_t i = 0; i < p->axis[axis].out; i++) {
        const upsample_tap t = upsample_tap_of(p, axis, i);
        if (t.count == 0)
            continue;
        const int64_t ends[2] = {t.lo, t.hi};
        for (int e = 0; e < 2; e++) {
            const int slot = (int)(ends[e] & 1);
            if (open[slot] != ends[e]) {
                most = open[slot] >= 0 && last[slot] - first[slot] + 1 > most ? last[slot] - first[slot] + 1 : most;
                open[slot] = ends[e];
                first[slot] = i;
            }
            last[slot] = i;
        }
    }
    for (int slot = 0; slot < 2; slot++)
        most = open[slot] >= 0 && last[slot] - first[slot] + 1 > most ? last[slot] - first[slot] + 1 : most;
    return most;
}

/* Output b + period reads step inputs further on than output b, with the same weights. */
static bool map_repeats(const void *ctx, int64_t b)
{
    const upsample_map *m = ctx;
    const int64_t p = m->period, s = m->step;
    return m->lo[b + p] == m->lo[b] + s && m->hi[b + p] == m->hi[b] + s && m->wl[b + p] == m->wl[b] &&
           m->wh[b + p] == m->wh[b];
}

void upsample_map_period(upsample_map *m, int64_t in, int64_t out)
{
    m->period = m->step = m->o0 = m->runs = 0;
    const int64_t up = in > 0 && out % in == 0 ? out / in : 0, down = out > 0 && in % out == 0 ? in / out : 0;
    const int64_t s = up == 2 || up == 4 || up == 8 ? 1 : down == 2 || down == 4 || down == 8 ? down : 0;
    if (!s)
        return;
    /* emu_longest_repeat reads the candidate period and step from the map. */
    m->period = s == 1 ? up : 1;
    m->step = s;
    const int64_t len = emu_longest_repeat(out, m->period, map_repeats, m, &m->o0);
    if (len >= 4 * m->period)
        m->runs = len / m->period;
    else
        m->period = m->step = m->o0 = 0;
}
