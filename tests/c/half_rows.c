/*
 * The row conversions of half.c, on whichever path this CPU takes (AVX-512, F16C, AVX2 clones or plain C),
 * against the scalar definitions in half.h: every float16 and bfloat16 value widened, and float32 values
 * with every high half and the low halves that decide a rounding (zero, one, just below, at and above the
 * tie, all ones) narrowed, in rows whose lengths leave tails after every vector width. Compiled with
 * src/kernel/half.c itself (the symbols are internal).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/half.h"
#include "kernel/kernel.h"

static int failures;
#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        if (!(cond) && failures++ < 10) {                                                                    \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);                                       \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                             \
        }                                                                                                    \
    } while (0)

#define LOWS 8
static const uint32_t low_halves[LOWS] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xc000, 0xfffe, 0xffff};

static bool is_nan_bits(uint32_t x)
{
    return (x & 0x7fffffffu) > 0x7f800000u;
}

int main(void)
{
    const int64_t n = 65536 * LOWS; /* a multiple of 16: each row below starts at another offset */
    uint16_t *h = malloc(65536 * sizeof *h), *narrow = malloc((size_t)n * sizeof *narrow);
    uint16_t *plain = malloc((size_t)n * sizeof *plain);
    float *f = malloc((size_t)n * sizeof *f), *wide = malloc(65536 * sizeof *wide);
    if (!h || !narrow || !plain || !f || !wide)
        return fprintf(stderr, "out of memory\n"), 1;
    for (uint32_t i = 0; i < 65536; i++)
        h[i] = (uint16_t)i;
    for (int64_t i = 0; i < n; i++)
        f[i] = emu_bits_to_f32((uint32_t)(i / LOWS) << 16 | low_halves[i % LOWS]);
    /* Rows of 1 .. 37 values, one after another: every length mod 8 and mod 16 at every alignment. */
    for (int pass = 0; pass < 2; pass++) {
        const bool bf16 = pass == 1;
        for (int64_t at = 0, len = 1; at < 65536; at += len, len = len % 37 + 1) {
            const int64_t m = at + len <= 65536 ? len : 65536 - at;
            (bf16 ? emu_bf16_row_to_f32 : emu_f16_row_to_f32)(wide + at, h + at, m);
        }
        for (uint32_t i = 0; i < 65536; i++) {
            const float want = bf16 ? emu_bf16_to_f32((uint16_t)i) : emu_f16_to_f32((uint16_t)i);
            /* Signalling float16 NaNs: F16C quiets them, the table keeps them; both are NaN. */
            const bool same = is_nan_bits(emu_f32_to_bits(want)) ? is_nan_bits(emu_f32_to_bits(wide[i]))
                                                                 : emu_f32_to_bits(wide[i]) == emu_f32_to_bits(want);
            CHECK(same, "%s widen %04x: %08x, want %08x",
                  bf16 ? "bf16" : "f16", i, emu_f32_to_bits(wide[i]), emu_f32_to_bits(want));
        }
        for (int64_t at = 0, len = 1; at < n; at += len, len = len % 37 + 1) {
            const int64_t m = at + len <= n ? len : n - at;
            bool finite = true;
            for (int64_t j = at; j < at + m; j++)
                finite &= f[j] - f[j] == 0.0f;
            const bool told = bf16 ? emu_f32_row_to_bf16_finite(narrow + at, f + at, m)
                                   : emu_f32_row_to_f16_finite(narrow + at, f + at, m);
            (bf16 ? emu_f32_row_to_bf16 : emu_f32_row_to_f16)(plain + at, f + at, m);
            CHECK(told == finite, "%s row at %lld of %lld: finite %d, want %d", bf16 ? "bf16" : "f16",
                  (long long)at, (long long)m, told, finite);
        }
        for (int64_t i = 0; i < n; i++) {
            const uint32_t x = emu_f32_to_bits(f[i]);
            const uint16_t want = bf16 ? emu_f32_to_bf16(f[i]) : emu_f32_to_f16(f[i]);
            /* float16 NaNs: F16C keeps payload bits the scalar conversion drops; both are NaN. */
            const bool same = !bf16 && is_nan_bits(x) ? (narrow[i] & 0x7c00u) == 0x7c00u && (narrow[i] & 0x3ffu)
                                                      : narrow[i] == want;
            CHECK(same, "%s narrow %08x: %04x, want %04x", bf16 ? "bf16" : "f16", x, narrow[i], want);
            CHECK(plain[i] == narrow[i], "%s narrow %08x: %04x without the check, %04x with it", bf16 ? "bf16" : "f16",
                  x, plain[i], narrow[i]);
        }
    }
    free(h), free(narrow), free(plain), free(f), free(wide);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures != 0;
}
