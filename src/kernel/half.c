/*
 * Row conversions between float16 and float32 for the kernels: F16C
 * instructions where the CPU has them (chosen once at run time), else a
 * 65536-entry table (widening) and the bit-exact scalar rounding (narrowing).
 * Both round to nearest even, so results do not depend on the path.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>

#include "half.h"
#include "kernel.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_F16C_PATH 1
#endif

/* The table is built on the first call that asks for it (a float16 tensor's kernel), not for every
 * process: the row conversions only need to know the CPU. */
static float table[65536];
static pthread_once_t table_once = PTHREAD_ONCE_INIT, cpu_once = PTHREAD_ONCE_INIT;
static bool use_f16c, use_avx512;

static void build_table(void)
{
    for (uint32_t i = 0; i < 65536; i++)
        table[i] = emu_f16_to_f32((uint16_t)i);
}

static void read_cpu(void)
{
#ifdef HAVE_F16C_PATH
    use_f16c = emu_cpu_isa() >= EMU_ISA_AVX2; /* which includes F16C */
    use_avx512 = use_f16c && emu_cpu_isa() >= EMU_ISA_AVX512;
#endif
}

const float *emu_f16_table(void)
{
    pthread_once(&table_once, build_table);
    return table;
}

bool emu_cpu_f16c(void)
{
    pthread_once(&cpu_once, read_cpu);
    return use_f16c;
}

const float *emu_f16_table_for(aclDataType dt)
{
    return dt == ACL_FLOAT16 ? emu_f16_table() : NULL;
}

#ifdef HAVE_F16C_PATH
__attribute__((target("avx,f16c"))) static void widen_f16c(float *dst, const uint16_t *src, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
    for (; i < n; i++)
        dst[i] = emu_f16_to_f32(src[i]);
}

/* AVX-512's conversions take sixteen values an instruction: float16 rows widen in half the instructions (a
 * float16 U5 row's two fresh gradOut rows, 512 values, 21 -> 19 ns on Zen 4, which runs them as two halves). */
__attribute__((target("avx512f"))) static void widen_avx512(float *dst, const uint16_t *src, int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(dst + i, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(src + i))));
    widen_f16c(dst + i, src + i, n - i);
}

/* A float32 row narrowed to float16, telling whether every value was finite (an exponent field of all ones is
 * Inf or NaN). */
__attribute__((target("avx,f16c"))) static bool narrow_f16c_finite(uint16_t *dst, const float *src, int64_t n)
{
    const __m256 exp = _mm256_castsi256_ps(_mm256_set1_epi32(0x7f800000));
    __m256 bad = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(src + i);
        bad = _mm256_or_ps(bad, _mm256_cmp_ps(_mm256_and_ps(v, exp), exp, _CMP_EQ_OQ));
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    bool finite = _mm256_movemask_ps(bad) == 0;
    for (; i < n; i++) {
        finite &= src[i] - src[i] == 0.0f;
        dst[i] = emu_f32_to_f16(src[i]);
    }
    return finite;
}

__attribute__((target("avx512f"))) static bool narrow_avx512_finite(uint16_t *dst, const float *src, int64_t n)
{
    const __m512i exp = _mm512_set1_epi32(0x7f800000);
    __mmask16 bad = 0;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 v = _mm512_loadu_ps(src + i);
        bad |= _mm512_cmpeq_epi32_mask(_mm512_and_si512(_mm512_castps_si512(v), exp), exp);
        _mm256_storeu_si256((__m256i *)(dst + i), _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    return narrow_f16c_finite(dst + i, src + i, n - i) && !bad;
}
#endif

void emu_f16_row_to_f32(float *dst, const uint16_t *src, int64_t n)
{
    pthread_once(&cpu_once, read_cpu);
#ifdef HAVE_F16C_PATH
    if (use_avx512) {
        widen_avx512(dst, src, n);
        return;
    }
    if (use_f16c) {
        widen_f16c(dst, src, n);
        return;
    }
#endif
    const float *f16 = emu_f16_table();
    for (int64_t i = 0; i < n; i++)
        dst[i] = f16[src[i]];
}

bool emu_f32_row_to_f16_finite(uint16_t *dst, const float *src, int64_t n)
{
    pthread_once(&cpu_once, read_cpu);
#ifdef HAVE_F16C_PATH
    if (use_avx512)
        return narrow_avx512_finite(dst, src, n);
    if (use_f16c)
        return narrow_f16c_finite(dst, src, n);
#endif
    for (int64_t i = 0; i < n; i++)
        dst[i] = emu_f32_to_f16(src[i]);
    return emu_row_finite(src, n);
}

void emu_f32_row_to_f16(uint16_t *dst, const float *src, int64_t n)
{
    (void)emu_f32_row_to_f16_finite(dst, src, n); /* the check costs a mask a vector: one loop for both */
}

/* bfloat16 is the top half of a float32: widening is a shift, narrowing a
 * rounding add (NaN kept quiet). Written as plain loops the compiler vectorises.
 * The clones are static behind plain exported functions: clang (14) gives a
 * target_clones function no symbol other files can link to. */
EMU_HOT static void bf16_widen(float *restrict dst, const uint16_t *restrict src, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        const uint32_t bits = (uint32_t)src[i] << 16;
        memcpy(&dst[i], &bits, sizeof bits);
    }
}

/* Returns whether every value was finite (emu_row_finite's test on the same words). */
EMU_HOT static bool bf16_narrow(uint16_t *restrict dst, const float *restrict src, int64_t n)
{
    uint32_t carry = 0;
    for (int64_t i = 0; i < n; i++) {
        uint32_t x;
        memcpy(&x, &src[i], sizeof x);
        const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
        const uint32_t nan = (x >> 16) | 0x40u;
        dst[i] = (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
        carry |= (x & 0x7f800000u) + 0x00800000u;
    }
    return !(carry & 0x80000000u);
}

#ifdef HAVE_F16C_PATH
/* The same two with AVX-512's sixteen lanes, its masks for the NaN test and its narrowing move: a third of
 * the AVX2 clone's instructions for a narrowed row (whose 32 -> 16 bit packing takes two shuffles a vector). */
__attribute__((target("avx512f"))) static void bf16_widen_avx512(float *restrict dst, const uint16_t *restrict src,
                                                                 int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i h = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(src + i)));
        _mm512_storeu_si512(dst + i, _mm512_slli_epi32(h, 16));
    }
    bf16_widen(dst + i, src + i, n - i);
}

__attribute__((target("avx512f"))) static bool bf16_narrow_avx512(uint16_t *restrict dst, const float *restrict src,
                                                                  int64_t n)
{
    const __m512i one = _mm512_set1_epi32(1), half = _mm512_set1_epi32(0x7fff), quiet = _mm512_set1_epi32(0x40);
    const __m512i abs = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000);
    __mmask16 bad = 0;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i x = _mm512_loadu_si512(src + i), top = _mm512_srli_epi32(x, 16);
        const __m512i lsb = _mm512_and_si512(top, one); /* ties to even */
        const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(x, _mm512_add_epi32(half, lsb)), 16);
        const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(x, abs), inf);
        bad |= _mm512_cmpeq_epi32_mask(_mm512_and_si512(x, inf), inf);
        const __m512i bits = _mm512_mask_blend_epi32(nan, rounded, _mm512_or_si512(top, quiet));
        _mm256_storeu_si256((__m256i *)(dst + i), _mm512_cvtepi32_epi16(bits));
    }
    return bf16_narrow(dst + i, src + i, n - i) && !bad; /* the tail is narrowed either way */
}
#endif

void emu_bf16_row_to_f32(float *restrict dst, const uint16_t *restrict src, int64_t n)
{
    pthread_once(&cpu_once, read_cpu);
#ifdef HAVE_F16C_PATH
    if (use_avx512) {
        bf16_widen_avx512(dst, src, n);
        return;
    }
#endif
    bf16_widen(dst, src, n);
}

bool emu_f32_row_to_bf16_finite(uint16_t *restrict dst, const float *restrict src, int64_t n)
{
    pthread_once(&cpu_once, read_cpu);
#ifdef HAVE_F16C_PATH
    if (use_avx512)
        return bf16_narrow_avx512(dst, src, n);
#endif
    return bf16_narrow(dst, src, n);
}

void emu_f32_row_to_bf16(uint16_t *restrict dst, const float *restrict src, int64_t n)
{
    (void)emu_f32_row_to_bf16_finite(dst, src, n);
}
