/*
 * Loading and storing rows of a strided 4-D view as float32: what a kernel
 * that computes in float32 (as CANN's do after their Cast to FLOAT) needs
 * for every dtype it accepts.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_ROWS_H_
#define ACLNN_EMU_ROWS_H_

#include <string.h>

#include "half.h"
#include "kernel.h"

/* Element strides of a 4-D view in logical (n, c, h, w) order. */
typedef struct emu_nchw_strides {
    int64_t n, c, h, w;
} emu_nchw_strides;

static inline emu_nchw_strides emu_logical_strides(const emu_view *t, bool nhwc)
{
    const int64_t *s = t->strides;
    return nhwc ? (emu_nchw_strides){s[0], s[3], s[1], s[2]} : (emu_nchw_strides){s[0], s[1], s[2], s[3]};
}

/* A 4-D tensor as rows along W, each item `vec` lanes (C in NHWC, 1 in NCHW). */
typedef struct emu_rows {
    char *base;           /* element 0 of the view */
    emu_nchw_strides s;   /* element strides in logical order */
    int64_t lane;         /* stride between lanes (C's in NHWC, 0 in NCHW) */
    bool contiguous;      /* each row is one contiguous run */
    bool direct;          /* ... of float32: usable in place, not copied */
} emu_rows;

static inline emu_rows emu_rows_of(const emu_view *t, bool nhwc, int64_t vec)
{
    emu_rows r = {.base = (char *)t->data + (size_t)t->offset * emu_view_item_size(t),
                  .s = emu_logical_strides(t, nhwc)};
    r.lane = nhwc ? r.s.c : 0;
    r.contiguous = r.s.w == vec && (vec == 1 || r.lane == 1);
    r.direct = t->dtype == ACL_FLOAT && r.contiguous;
    return r;
}

/* Whether a kernel writes r's rows of row_items floats with streaming stores: r is float32 in place and
 * emu_stream_rows' rule holds (d_stride: a 3-D output's D stride, else 0). */
static inline bool emu_rows_stream(const emu_rows *r, int64_t row_items, int64_t d_stride, int64_t bytes)
{
    const int64_t line = EMU_LINE_FLOATS;
    const int64_t c_stride = r->lane ? 0 : r->s.c; /* NHWC: C is a row's lanes, not a stride between rows */
    const bool tiled = ((uintptr_t)r->base & 63) == 0 && row_items % line == 0 && r->s.n % line == 0 &&
                       c_stride % line == 0 && r->s.h % line == 0 && d_stride % line == 0;
    return r->direct && emu_stream_rows(tiled, row_items * (int64_t)sizeof(float), bytes);
}

/* Element offset of row (n, c, y); c is 0 in NHWC, where a row holds every channel. */
static inline int64_t emu_row_offset(const emu_rows *r, int64_t n, int64_t c, int64_t y)
{
    return n * r->s.n + c * r->s.c + y * r->s.h;
}

/* One element as float32 (CANN casts inputs to FLOAT before its float kernels). */
static inline float emu_load_one(const void *base, aclDataType dt, int64_t o, const float *restrict f16)
{
    switch (dt) {
    case ACL_FLOAT16: return f16[((const uint16_t *)base)[o]];
    case ACL_BF16: return emu_bf16_to_f32(((const uint16_t *)base)[o]);
    case ACL_DOUBLE: return (float)((const double *)base)[o];
    case ACL_INT32: return (float)((const int32_t *)base)[o];
    default: return ((const float *)base)[o];
    }
}

/* float32 -> int32 as the Cast back to out's dtype does it here: toward zero, saturating, NaN to 0. */
static inline int32_t emu_f32_to_i32(float x)
{
    if (!(x == x))
        return 0;
    return x >= 2147483648.0f ? INT32_MAX : x < -2147483648.0f ? INT32_MIN : (int32_t)x;
}

static inline void emu_store_one(void *base, aclDataType dt, int64_t o, float x)
{
    switch (dt) {
    case ACL_FLOAT16: ((uint16_t *)base)[o] = emu_f32_to_f16(x); break;
    case ACL_BF16: ((uint16_t *)base)[o] = emu_f32_to_bf16(x); break;
    case ACL_DOUBLE: ((double *)base)[o] = (double)x; break;
    case ACL_INT32: ((int32_t *)base)[o] = emu_f32_to_i32(x); break;
    default: ((float *)base)[o] = x; break;
    }
}

/* A row is `len` items of `vec` lanes: (j, lane) at j*sj + lane*sl elements from base. */
static inline void emu_load_row(float *restrict dst, const void *base, aclDataType dt, int64_t len, int64_t vec,
                            int64_t sj, int64_t sl, const float *restrict f16)
{
    if (vec == 1 ? sj == 1 : (sl == 1 && sj == vec)) { /* contiguous: one flat loop */
        const int64_t n = len * vec;
        if (dt == ACL_FLOAT16)
            emu_f16_row_to_f32(dst, base, n);
        else if (dt == ACL_BF16)
            emu_bf16_row_to_f32(dst, base, n);
        else if (dt == ACL_FLOAT)
            memcpy(dst, base, (size_t)n * sizeof *dst);
        else
            for (int64_t i = 0; i < n; i++)
                dst[i] = emu_load_one(base, dt, i, f16);
        return;
    }
    for (int64_t j = 0; j < len; j++)
        for (int64_t v = 0; v < vec; v++)
            dst[j * vec + v] = emu_load_one(base, dt, j * sj + v * sl, f16);
}

static inline void emu_store_row(void *base, aclDataType dt, const float *restrict src, int64_t len, int64_t vec, int64_t sj,
                      int64_t sl)
{
    const bool contiguous = vec == 1 ? sj == 1 : (sl == 1 && sj == vec);
    if (contiguous && (dt == ACL_FLOAT16 || dt == ACL_BF16)) { /* contiguous half row */
        (dt == ACL_FLOAT16 ? emu_f32_row_to_f16 : emu_f32_row_to_bf16)(base, src, len * vec);
        return;
    }
    for (int64_t j = 0; j < len; j++)
        for (int64_t v = 0; v < vec; v++)
            emu_store_one(base, dt, j * sj + v * sl, src[j * vec + v]);
}

/* emu_store_row, returning whether every value of src was finite (emu_row_finite): contiguous half rows
 * are stored and checked in one pass. */
static inline bool emu_store_row_finite(void *base, aclDataType dt, const float *restrict src, int64_t len,
                                        int64_t vec, int64_t sj, int64_t sl)
{
    const bool contiguous = vec == 1 ? sj == 1 : (sl == 1 && sj == vec);
    if (contiguous && dt == ACL_FLOAT16)
        return emu_f32_row_to_f16_finite(base, src, len * vec);
    if (contiguous && dt == ACL_BF16)
        return emu_f32_row_to_bf16_finite(base, src, len * vec);
    emu_store_row(base, dt, src, len, vec, sj, sl);
    return emu_row_finite(src, len * vec);
}

/* Plane (n, c) of a 4-D tensor (h x w, as rows r describes it) as float32 with
 * every finite value replaced by 0: the part of it that can make a sum
 * non-finite. Returns whether there is any. */
static inline bool emu_plane_nonfinite(const emu_rows *r, aclDataType dt, const float *f16, int64_t n, int64_t c,
                                       int64_t h, int64_t w, float *dst)
{
    bool any = false;
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) {
            const float v = emu_load_one(r->base, dt, n * r->s.n + c * r->s.c + y * r->s.h + x * r->s.w, f16);
            const bool finite = v - v == 0.0f;
            any |= !finite;
            dst[y * w + x] = finite ? 0.0f : v;
        }
    return any;
}

/* Stores the non-finite values of src (h x w) into plane (n, c); the other elements stay. */
static inline void emu_plane_store_nonfinite(const emu_rows *r, aclDataType dt, int64_t n, int64_t c,
                                             const float *src, int64_t h, int64_t w)
{
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++)
            if (!(src[y * w + x] - src[y * w + x] == 0.0f))
                emu_store_one(r->base, dt, n * r->s.n + c * r->s.c + y * r->s.h + x * r->s.w, src[y * w + x]);
}

#endif /* ACLNN_EMU_ROWS_H_ */
