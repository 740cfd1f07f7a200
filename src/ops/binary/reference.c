/*
 * The binary family's reference kernel: each output element from its two
 * broadcast sources, computed in the promoted dtype as CANN's kernels do
 * (binary.h's arithmetic), then cast to out's dtype as CANN's Cast does
 * (round to nearest even between floats, wrap between integers, 0/1 from
 * BOOL). A value travels as an int64 (integers, BOOL) or a complex double
 * (floats: exact for every float dtype), so no step rounds but the ones
 * named.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../kernel/half.h"
#include "binary.h"

typedef struct value {
    int64_t i;     /* integers and BOOL */
    double re, im; /* floats and complex */
} value;

static bool is_integral(aclDataType dt)
{
    return dt == ACL_INT8 || dt == ACL_UINT8 || dt == ACL_INT16 || dt == ACL_INT32 || dt == ACL_INT64 ||
           dt == ACL_BOOL;
}

static bool is_complex(aclDataType dt)
{
    return dt == ACL_COMPLEX64 || dt == ACL_COMPLEX128;
}

static value load(const void *base, aclDataType dt, int64_t o)
{
    value v = {0, 0.0, 0.0};
    switch (dt) {
    case ACL_BOOL: v.i = ((const uint8_t *)base)[o] != 0; break;
    case ACL_INT8: v.i = ((const int8_t *)base)[o]; break;
    case ACL_UINT8: v.i = ((const uint8_t *)base)[o]; break;
    case ACL_INT16: v.i = ((const int16_t *)base)[o]; break;
    case ACL_INT32: v.i = ((const int32_t *)base)[o]; break;
    case ACL_INT64: v.i = ((const int64_t *)base)[o]; break;
    case ACL_FLOAT16: v.re = emu_f16_to_f32(((const uint16_t *)base)[o]); break;
    case ACL_BF16: v.re = emu_bf16_to_f32(((const uint16_t *)base)[o]); break;
    case ACL_FLOAT: v.re = ((const float *)base)[o]; break;
    case ACL_DOUBLE: v.re = ((const double *)base)[o]; break;
    case ACL_COMPLEX64:
        v.re = ((const float *)base)[2 * o];
        v.im = ((const float *)base)[2 * o + 1];
        break;
    case ACL_COMPLEX128:
        v.re = ((const double *)base)[2 * o];
        v.im = ((const double *)base)[2 * o + 1];
        break;
    default: break;
    }
    return v;
}

/* An int64 wrapped to dt's width (two's complement), as the integer kernels and Cast keep the low bits. */
static int64_t wrap(uint64_t u, aclDataType dt)
{
    switch (dt) {
    case ACL_INT8: return (int8_t)(uint8_t)u;
    case ACL_UINT8: return (uint8_t)u;
    case ACL_INT16: return (int16_t)(uint16_t)u;
    case ACL_INT32: return (int32_t)(uint32_t)u;
    case ACL_BOOL: return u != 0;
    default: return (int64_t)u;
    }
}

/* A float value rounded to a float dtype (nearest even), exactly representable afterwards. */
static double round_to(double x, aclDataType dt)
{
    switch (dt) {
    case ACL_FLOAT16: return emu_f16_to_f32(emu_f32_to_f16((float)x));
    case ACL_BF16: return emu_bf16_to_f32(emu_f32_to_bf16((float)x));
    case ACL_FLOAT:
    case ACL_COMPLEX64: return (float)x;
    default: return x;
    }
}

/* The value cast from the promoted dtype `from` to out's dtype and stored. */
static void store(void *base, aclDataType dt, int64_t o, value v, aclDataType from)
{
    if (is_integral(from)) { /* the value is v.i */
        v.re = (double)v.i;
        if (dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_COMPLEX64)
            v.re = (float)v.i; /* int64 to FLOAT rounds once, as Cast does */
    } else if (dt == ACL_BOOL) { /* a float or complex to BOOL (Ascend950's aclnnMul does not refuse it) */
        v.i = v.re != 0.0 || v.im != 0.0;
    } else if (is_integral(dt)) { /* a float to an integer: toward zero, saturating, NaN to 0 */
        v.i = !(v.re == v.re) ? 0 : v.re >= 9.2233720368547758e18 ? INT64_MAX : v.re <= -9.2233720368547758e18
              ? INT64_MIN : (int64_t)v.re;
    }
    switch (dt) {
    case ACL_BOOL: ((uint8_t *)base)[o] = v.i != 0; break;
    case ACL_INT8: ((int8_t *)base)[o] = (int8_t)wrap((uint64_t)v.i, ACL_INT8); break;
    case ACL_UINT8: ((uint8_t *)base)[o] = (uint8_t)wrap((uint64_t)v.i, ACL_UINT8); break;
    case ACL_INT16: ((int16_t *)base)[o] = (int16_t)wrap((uint64_t)v.i, ACL_INT16); break;
    case ACL_INT32: ((int32_t *)base)[o] = (int32_t)wrap((uint64_t)v.i, ACL_INT32); break;
    case ACL_INT64: ((int64_t *)base)[o] = v.i; break;
    case ACL_FLOAT16: ((uint16_t *)base)[o] = emu_f32_to_f16((float)v.re); break;
    case ACL_BF16: ((uint16_t *)base)[o] = emu_f32_to_bf16((float)v.re); break;
    case ACL_FLOAT: ((float *)base)[o] = (float)v.re; break;
    case ACL_DOUBLE: ((double *)base)[o] = v.re; break;
    case ACL_COMPLEX64:
        ((float *)base)[2 * o] = (float)v.re;
        ((float *)base)[2 * o + 1] = (float)v.im;
        break;
    case ACL_COMPLEX128:
        ((double *)base)[2 * o] = v.re;
        ((double *)base)[2 * o + 1] = v.im;
        break;
    default: break;
    }
}

/* A value of dtype `from` as the promoted dtype `to` (the Cast before the kernel). */
static value promote(value v, aclDataType from, aclDataType to)
{
    if (is_integral(from) && !is_integral(to))
        v.re = round_to(to == ACL_DOUBLE || to == ACL_COMPLEX128 ? (double)v.i : (double)(float)v.i, to);
    else if (is_integral(to))
        v.i = wrap((uint64_t)v.i, to);
    else if (!is_complex(to))
        v.re = round_to(v.re, to);
    else
        v.re = round_to(v.re, to), v.im = round_to(v.im, to);
    return v;
}

/* The complex product in the dtype's precision (each product and sum rounded, single precision for
 * COMPLEX64), without C's Annex G recovery of infinities (CANN's kernels use the plain formula). */
static value complex_mul(value a, double br, double bi, aclDataType dt)
{
    value r = {0, 0.0, 0.0};
    if (dt == ACL_COMPLEX64) {
        const float ar = (float)a.re, ai = (float)a.im, fr = (float)br, fi = (float)bi;
        r.re = ar * fr - ai * fi;
        r.im = ar * fi + ai * fr;
    } else {
        r.re = a.re * br - a.im * bi;
        r.im = a.re * bi + a.im * br;
    }
    return r;
}

static value compute(const binary_plan *p, value a, value b)
{
    const aclDataType dt = p->compute;
    value r = {0, 0.0, 0.0};
    if (dt == ACL_BOOL) {
        if (p->op == BINARY_MUL)
            r.i = a.i && b.i;
        else if (p->arith == BINARY_BOOL_CLAMP) {
            const int64_t s = a.i + b.i * p->alpha_i;
            r.i = (s < 1 ? s : 1) != 0;
        } else
            r.i = a.i || (b.i && p->alpha_i != 0);
        return r;
    }
    if (is_integral(dt)) {
        if (p->op == BINARY_MUL) {
            r.i = wrap((uint64_t)a.i * (uint64_t)b.i, dt);
        } else if (p->arith == BINARY_FLOAT_TRUNC) {
            const float s = (float)a.i + p->alpha_f * (float)b.i;
            r.i = !(s == s) ? 0 : s >= 2147483648.0f ? INT32_MAX : s < -2147483648.0f ? INT32_MIN : (int32_t)s;
        } else {
            r.i = wrap((uint64_t)a.i + (uint64_t)wrap((uint64_t)b.i * (uint64_t)p->alpha_i, dt), dt);
        }
        return r;
    }
    if (is_complex(dt)) {
        if (p->op == BINARY_MUL)
            return complex_mul(a, b.re, b.im, dt);
        const value t = complex_mul(b, p->alpha_re, p->alpha_im, dt);
        r.re = round_to(a.re + round_to(t.re, dt), dt);
        r.im = round_to(a.im + round_to(t.im, dt), dt);
        return r;
    }
    if (dt == ACL_DOUBLE) {
        r.re = p->op == BINARY_MUL ? a.re * b.re : a.re + p->alpha_re * b.re;
        return r;
    }
    /* FLOAT16, BF16, FLOAT: in FLOAT */
    const float fa = (float)a.re, fb = (float)b.re;
    float s;
    if (p->op == BINARY_MUL)
        s = fa * fb;
    else if (p->arith == BINARY_MUL_THEN_ADD)
        s = fa + (float)round_to((double)(fb * (float)p->alpha_re), dt);
    else
        s = fa + p->alpha_f * fb;
    r.re = round_to(s, dt);
    return r;
}

/* A view's element strides right-aligned to out's rank, 0 where it broadcasts (a dim of 1 or none). */
static void aligned_strides(const emu_view *v, const emu_view *out, int64_t *s)
{
    const int64_t shift = (int64_t)out->ndim - (int64_t)v->ndim;
    for (int64_t d = 0; d < (int64_t)out->ndim; d++) {
        const int64_t k = d - shift;
        s[d] = k < 0 || v->dims[k] == 1 ? 0 : v->strides[k];
    }
}

int binary_reference(const emu_view *self, const emu_view *other, const emu_view *out, const binary_plan *p,
                     char *msg, size_t cap)
{
    (void)msg;
    (void)cap;
    const int64_t rank = (int64_t)out->ndim, numel = emu_view_numel(out);
    if (numel == 0)
        return 0;
    int64_t sa[EMU_VIEW_MAX_DIMS], sb[EMU_VIEW_MAX_DIMS];
    aligned_strides(self, out, sa);
    aligned_strides(other, out, sb);
    /* Rows along out's last dim (a 0-D out is one row of one element). */
    const int64_t len = rank ? out->dims[rank - 1] : 1, rows = numel / len;
    const int64_t la = rank ? sa[rank - 1] : 0, lb = rank ? sb[rank - 1] : 0, lo = rank ? out->strides[rank - 1] : 0;
    const int threads = numel < 65536 ? 1 : p->threads;
    (void)threads; /* unused when built without OpenMP */
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t row = 0; row < rows; row++) {
        int64_t oa = self->offset, ob = other->offset, oo = out->offset, rest = row;
        for (int64_t d = rank - 2; d >= 0; d--) {
            const int64_t k = rest % out->dims[d];
            rest /= out->dims[d];
            oa += k * sa[d];
            ob += k * sb[d];
            oo += k * out->strides[d];
        }
        for (int64_t j = 0; j < len; j++) {
            const value a = promote(load(self->data, self->dtype, oa + j * la), self->dtype, p->compute);
            const value b = promote(load(other->data, other->dtype, ob + j * lb), other->dtype, p->compute);
            store(out->data, out->dtype, oo + j * lo, compute(p, a, b), p->compute);
        }
    }
    return 0;
}
