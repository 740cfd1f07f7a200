/*
 * The upsample family's nearest modes, forward: every output element is one
 * input element, copied whole (CANN's UpsampleNearest3d, UpsampleNearest and
 * ResizeNearestNeighborV2 kernels move data without arithmetic, so any dtype,
 * uint8 and double included, keeps its bits). The source index per axis is
 * the family's tap rule, tabulated once per axis.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "upsample.h"

void upsample_nearest_book(const upsample_plan *p, emu_scratch *s)
{
    for (int a = 0; a < p->axes; a++)
        emu_scratch_book(s, UPSAMPLE_SCRATCH_TABLE + a, (size_t)p->axis[a].out, sizeof(int64_t), false);
}

int upsample_nearest_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    const size_t item = emu_view_item_size(in);
    int64_t i_n, i_c, i_ax[UPSAMPLE_MAX_AXES], o_n, o_c, o_ax[UPSAMPLE_MAX_AXES], outs = 1;
    int64_t *src[UPSAMPLE_MAX_AXES] = {NULL};
    upsample_strides(in, p, &i_n, &i_c, i_ax);
    upsample_strides(out, p, &o_n, &o_c, o_ax);
    for (int a = 0; a < p->axes; a++) { /* each output index's source, as an input element offset */
        src[a] = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_TABLE + a, (size_t)p->axis[a].out * sizeof **src);
        if (!src[a])
            return snprintf(msg, cap, "the nearest index tables were not booked"), EMU_KERNEL_ERR_INNER;
        for (int64_t j = 0; j < p->axis[a].out; j++)
            src[a][j] = upsample_tap_of(p, a, j).lo * i_ax[a];
        outs *= p->axis[a].out;
    }
    const int64_t ow = p->axis[UPSAMPLE_W].out;
    const char *ib = (const char *)in->data + (size_t)in->offset * item;
    char *ob = (char *)out->data + (size_t)out->offset * item;
    /* Dense channels last: a pixel's C values are one element of C * item bytes (one copy, not C strided ones). */
    const bool pixels = i_c == 1 && o_c == 1 && p->c > 1;
    const int64_t channels = pixels ? 1 : p->c, rows = p->n * channels * (outs / ow);
    const size_t width = pixels ? (size_t)p->c * item : item;
    /* A row is the W line of one (n, c, d, h); the outer axes' sources are looked up per row. */
#pragma omp parallel for schedule(static) num_threads(rows * ow * (int64_t)(width / item) < 32768 ? 1 : p->threads)
    for (int64_t r = 0; r < rows; r++) {
        int64_t rest = r, io = 0, oo = 0;
        for (int a = 1; a < p->axes; a++) {
            const int64_t j = rest % p->axis[a].out;
            rest /= p->axis[a].out;
            io += src[a][j];
            oo += j * o_ax[a];
        }
        const int64_t c = rest % channels, n = rest / channels;
        io += n * i_n + c * i_c;
        oo += n * o_n + c * o_c;
        const int64_t ow_stride = o_ax[UPSAMPLE_W];
        switch (pixels ? 0 : item) { /* the common widths as typed copies */
        case 1:
            for (int64_t j = 0; j < ow; j++)
                ((uint8_t *)ob)[oo + j * ow_stride] = ((const uint8_t *)ib)[io + src[0][j]];
            break;
        case 2:
            for (int64_t j = 0; j < ow; j++)
                ((uint16_t *)ob)[oo + j * ow_stride] = ((const uint16_t *)ib)[io + src[0][j]];
            break;
        case 4:
            for (int64_t j = 0; j < ow; j++)
                ((uint32_t *)ob)[oo + j * ow_stride] = ((const uint32_t *)ib)[io + src[0][j]];
            break;
        default:
            for (int64_t j = 0; j < ow; j++)
                memcpy(ob + (size_t)(oo + j * ow_stride) * item, ib + (size_t)(io + src[0][j]) * item, width);
            break;
        }
    }
    return 0;
}
