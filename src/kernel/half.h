/*
 * float16 / bfloat16 <-> float32 conversions, round to nearest even.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_HALF_H_
#define ACLNN_EMU_HALF_H_

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl_base.h" /* aclDataType */

static inline float emu_bits_to_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static inline uint32_t emu_f32_to_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static inline float emu_bf16_to_f32(uint16_t h)
{
    return emu_bits_to_f32((uint32_t)h << 16);
}

static inline uint16_t emu_f32_to_bf16(float f)
{
    uint32_t x = emu_f32_to_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN, sign kept */
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

static inline float emu_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0x1f)
        return emu_bits_to_f32(sign | 0x7f800000u | (mant << 13));
    if (exp != 0)
        return emu_bits_to_f32(sign | ((exp + 112u) << 23) | (mant << 13));
    float v = (float)mant * 0x1p-24f; /* zero or subnormal: exact */
    return emu_bits_to_f32(sign | emu_f32_to_bits(v));
}

static inline uint16_t emu_f32_to_f16(float f)
{
    uint32_t x = emu_f32_to_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)
        return sign | 0x7e00u; /* NaN */
    if (ax >= 0x477ff000u)
        return sign | 0x7c00u; /* rounds to infinity (65520 ties to even = inf) */
    if (ax < 0x38800000u)      /* below 2^-14: subnormal result, exact scaling then RNE */
        return sign | (uint16_t)nearbyintf(emu_bits_to_f32(ax) * 0x1p24f);
    ax += 0xfffu + ((ax >> 13) & 1u);
    return sign | (uint16_t)((ax - 0x38000000u) >> 13);
}

/* All 65536 float16 values as float32 (built once, thread-safe): a load
 * instead of the branchy conversion in the kernels' inner loops. */
const float *emu_f16_table(void);
/* The table when dt is FLOAT16, else NULL (and the table is not built): what a kernel loading dt passes
 * to emu_load_one and emu_load_row, which read the table for float16 only. */
const float *emu_f16_table_for(aclDataType dt);

/* Whether the CPU (and OS) run AVX and F16C: the conversions below then use them, and so may kernels
 * compiled for "avx2,f16c" (x86-64 only; false elsewhere). */
bool emu_cpu_f16c(void);

/* Contiguous row conversions (round to nearest even), vectorised where the CPU allows. */
void emu_f16_row_to_f32(float *dst, const uint16_t *src, int64_t n);
void emu_f32_row_to_f16(uint16_t *dst, const float *src, int64_t n);
void emu_bf16_row_to_f32(float *restrict dst, const uint16_t *restrict src, int64_t n);
void emu_f32_row_to_bf16(uint16_t *restrict dst, const float *restrict src, int64_t n);
/* The narrowing conversions, also returning whether every value of src was finite: one pass over a row a
 * kernel both stores and checks (see emu_row_finite). */
bool emu_f32_row_to_f16_finite(uint16_t *dst, const float *src, int64_t n);
bool emu_f32_row_to_bf16_finite(uint16_t *restrict dst, const float *restrict src, int64_t n);

#endif /* ACLNN_EMU_HALF_H_ */
