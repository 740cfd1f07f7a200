/*
 * Row copies for kernels that compute in a cache-resident scratch buffer and
 * then write it out once.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "kernel.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(ACLNN_EMU_NO_CLONES)
#include <immintrin.h>

__attribute__((target("avx2"))) static void copy_stream_avx2(float *restrict dst, const float *restrict src,
                                                              int64_t n)
{
    int64_t i = 0;
    for (; i < n && ((uintptr_t)(dst + i) & 31) != 0; i++)
        dst[i] = src[i];
    for (; i + 8 <= n; i += 8)
        _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
    for (; i < n; i++)
        dst[i] = src[i];
}
#define HAVE_COPY_STREAM 1
#endif

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
    if (stream && __builtin_cpu_supports("avx2")) {
        copy_stream_avx2(dst, src, n);
        return;
    }
#endif
    (void)stream;
    memcpy(dst, src, (size_t)n * sizeof *dst);
}
