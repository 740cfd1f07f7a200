/*
 * Row copies for kernels that compute in a cache-resident scratch buffer and
 * then write it out once, and the phase split of a row in eights.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "kernel.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(ACLNN_EMU_NO_CLONES)
#include <immintrin.h>

/* Streaming stores go to whole cache lines only: the part of a line before the first boundary and after
 * the last one is stored through the cache. A streaming store that covers part of a line leaves a write-
 * combining buffer to be flushed partly filled, which costs a memory transaction per piece: with rows 16
 * bytes off a line (a numpy array's offset), V1's out= path took 14.5 ms where the aligned result took 8.3. */

__attribute__((target("avx2"))) static void copy_stream_avx2(float *restrict dst, const float *restrict src,
                                                              int64_t n)
{
    int64_t i = 0;
    for (const int64_t head = emu_line_head(dst, n); i < head; i++)
        dst[i] = src[i];
    for (; i + EMU_LINE_FLOATS <= n; i += EMU_LINE_FLOATS) {
        _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
        _mm256_stream_ps(dst + i + 8, _mm256_loadu_ps(src + i + 8));
    }
    for (; i < n; i++)
        dst[i] = src[i];
}
/* The same streamed copy, also taking the largest exponent field it moved
 * (all ones only for Inf and NaN): two more vector operations on data in
 * registers, free beside the memory traffic. */
__attribute__((target("avx2"))) static uint32_t copy_stream_exp_avx2(float *restrict dst, const float *restrict src,
                                                                     int64_t n)
{
    uint32_t mx = 0, bits;
    int64_t i = 0;
    for (const int64_t head = emu_line_head(dst, n); i < head; i++) {
        dst[i] = src[i];
        memcpy(&bits, src + i, sizeof bits);
        mx = (bits & 0x7f800000u) > mx ? bits & 0x7f800000u : mx;
    }
    const __m256i mask = _mm256_set1_epi32(0x7f800000);
    __m256i vmx = _mm256_setzero_si256();
    for (; i + EMU_LINE_FLOATS <= n; i += EMU_LINE_FLOATS) {
        const __m256 v = _mm256_loadu_ps(src + i), u = _mm256_loadu_ps(src + i + 8);
        vmx = _mm256_max_epu32(vmx, _mm256_and_si256(_mm256_castps_si256(v), mask));
        vmx = _mm256_max_epu32(vmx, _mm256_and_si256(_mm256_castps_si256(u), mask));
        _mm256_stream_ps(dst + i, v);
        _mm256_stream_ps(dst + i + 8, u);
    }
    uint32_t lanes[8];
    _mm256_storeu_si256((__m256i *)lanes, vmx);
    for (int k = 0; k < 8; k++)
        mx = lanes[k] > mx ? lanes[k] : mx;
    for (; i < n; i++) {
        dst[i] = src[i];
        memcpy(&bits, src + i, sizeof bits);
        mx = (bits & 0x7f800000u) > mx ? bits & 0x7f800000u : mx;
    }
    return mx;
}

/* Eight rows of eight at src (row i at src + 8 * i) transposed: column q to dst + q * stride. */
__attribute__((target("avx2"))) static inline void transpose8_avx2(float *dst, const float *src, int64_t stride)
{
    __m256 r[8], t[8], u[8];
    for (int i = 0; i < 8; i++)
        r[i] = _mm256_loadu_ps(src + 8 * i);
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);     /* a0 b0 a1 b1 | a4 b4 a5 b5 */
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]); /* a2 b2 a3 b3 | a6 b6 a7 b7 */
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);     /* a0 b0 c0 d0 | a4 b4 c4 d4 */
        u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xee); /* column 1 | 5 */
        u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xee);
    }
    for (int q = 0; q < 4; q++) {
        _mm256_storeu_ps(dst + q * stride, _mm256_permute2f128_ps(u[q], u[q + 4], 0x20));
        _mm256_storeu_ps(dst + (q + 4) * stride, _mm256_permute2f128_ps(u[q], u[q + 4], 0x31));
    }
}

__attribute__((target("avx2"))) static void deinterleave8_avx2(float *restrict phases, const float *restrict src,
                                                                int64_t plen, int64_t n)
{
    int64_t m = 0;
    for (; m + 8 <= n; m += 8)
        transpose8_avx2(phases + m, src + 8 * m, plen);
    for (; m < n; m++)
        for (int q = 0; q < 8; q++)
            phases[q * plen + m] = src[8 * m + q];
}
#define HAVE_COPY_STREAM 1
#endif

void emu_deinterleave8_f32(float *restrict phases, const float *restrict src, int64_t plen, int64_t n)
{
#ifdef HAVE_COPY_STREAM
    if (emu_cpu_isa() >= EMU_ISA_AVX2) {
        deinterleave8_avx2(phases, src, plen, n);
        return;
    }
#endif
    for (int64_t m = 0; m < n; m++)
        for (int q = 0; q < 8; q++)
            phases[q * plen + m] = src[8 * m + q];
}

bool emu_copy_f32_finite(float *restrict dst, const float *restrict src, int64_t n)
{
    if (n <= 0)
        return true;
#ifdef HAVE_COPY_STREAM
    if (emu_cpu_isa() >= EMU_ISA_AVX2)
        return copy_stream_exp_avx2(dst, src, n) != 0x7f800000u;
#endif
    memcpy(dst, src, (size_t)n * sizeof *dst);
    return emu_row_finite(src, n);
}

void emu_stream_fence(void)
{
#ifdef HAVE_COPY_STREAM
    _mm_sfence();
#endif
}

void emu_copy_f32(float *restrict dst, const float *restrict src, int64_t n, bool stream)
{
    if (n <= 0)
        return;
#ifdef HAVE_COPY_STREAM
    if (stream && emu_cpu_isa() >= EMU_ISA_AVX2) {
        copy_stream_avx2(dst, src, n);
        return;
    }
#endif
    (void)stream;
    memcpy(dst, src, (size_t)n * sizeof *dst);
}

void emu_view_fill_bytes(const emu_view *v, int byte)
{
    const size_t item = emu_view_item_size(v);
    const int64_t n = emu_view_numel(v);
    if (n <= 0 || item == 0)
        return;
    char *base = (char *)v->data + (size_t)v->offset * item;
    int64_t index[EMU_VIEW_MAX_DIMS] = {0};
    for (int64_t e = 0; e < n; e++) {
        int64_t at = 0;
        for (uint64_t d = 0; d < v->ndim; d++)
            at += index[d] * v->strides[d];
        memset(base + (size_t)at * item, byte, item);
        for (uint64_t d = v->ndim; d-- > 0;) { /* the next index, last axis fastest */
            if (++index[d] < v->dims[d])
                break;
            index[d] = 0;
        }
    }
}
