/*
 * The upsample family's per-pixel bilinear forward: CANN's TBE
 * ResizeBilinearV2 (half-pixel centres) weighs each output pixel's four
 * taps with 2-D products and adds them in one order (its vbi instruction),
 *     out = ((TL * w00 + TR * w01) + BL * w10) + BR * w11,
 *     w00 = wl_x * wl_y, w01 = wh_x * wl_y, w10 = wl_x * wh_y, w11 = wh_x * wh_y,
 * in float32, where the separable kernels pass W then H. The taps are the
 * family's (upsample_tap_of). Plain loops: this path is its own reference.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include "../../kernel/rows.h"
#include "upsample.h"

void upsample_joint_book(const upsample_plan *p, emu_scratch *s)
{
    for (int a = UPSAMPLE_W; a <= UPSAMPLE_H; a++)
        emu_scratch_book(s, UPSAMPLE_SCRATCH_TABLE + a, (size_t)p->axis[a].out, sizeof(upsample_tap), false);
}

int upsample_joint_forward(const emu_view *in, const emu_view *out, const upsample_plan *p, char *msg, size_t cap)
{
    const int64_t oh = p->axis[UPSAMPLE_H].out, ow = p->axis[UPSAMPLE_W].out;
    upsample_tap *ty = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_TABLE + UPSAMPLE_H, (size_t)oh * sizeof *ty);
    upsample_tap *tx = emu_scratch_get(&p->scratch, UPSAMPLE_SCRATCH_TABLE + UPSAMPLE_W, (size_t)ow * sizeof *tx);
    if (!ty || !tx)
        return snprintf(msg, cap, "the tap tables were not booked"), EMU_KERNEL_ERR_INNER;
    for (int64_t i = 0; i < oh; i++)
        ty[i] = upsample_tap_of(p, UPSAMPLE_H, i);
    for (int64_t j = 0; j < ow; j++)
        tx[j] = upsample_tap_of(p, UPSAMPLE_W, j);
    int64_t i_n, i_c, i_ax[UPSAMPLE_MAX_AXES], o_n, o_c, o_ax[UPSAMPLE_MAX_AXES];
    upsample_strides(in, p, &i_n, &i_c, i_ax);
    upsample_strides(out, p, &o_n, &o_c, o_ax);
    const float *f16 = emu_f16_table();
    const int64_t rows = p->n * p->c * oh;
#pragma omp parallel for schedule(static) num_threads(rows * ow < 32768 ? 1 : p->threads)
    for (int64_t r = 0; r < rows; r++) {
        const int64_t i = r % oh, c = r / oh % p->c, n = r / oh / p->c;
        const upsample_tap y = ty[i];
        const int64_t src = in->offset + n * i_n + c * i_c, top = src + y.lo * i_ax[UPSAMPLE_H];
        const int64_t bottom = src + y.hi * i_ax[UPSAMPLE_H];
        const int64_t dst = out->offset + n * o_n + c * o_c + i * o_ax[UPSAMPLE_H];
        for (int64_t j = 0; j < ow; j++) {
            const upsample_tap x = tx[j];
            const int64_t lo = x.lo * i_ax[UPSAMPLE_W], hi = x.hi * i_ax[UPSAMPLE_W];
            const float w00 = x.wl * y.wl, w01 = x.wh * y.wl, w10 = x.wl * y.wh, w11 = x.wh * y.wh;
            const float v = ((emu_load_one(in->data, in->dtype, top + lo, f16) * w00 +
                              emu_load_one(in->data, in->dtype, top + hi, f16) * w01) +
                             emu_load_one(in->data, in->dtype, bottom + lo, f16) * w10) +
                            emu_load_one(in->data, in->dtype, bottom + hi, f16) * w11;
            emu_store_one(out->data, out->dtype, dst + j * o_ax[UPSAMPLE_W], v);
        }
    }
    return 0;
}
