/*
 * The scratch booking of kernel.h: buffers where the layout says, each on its
 * own cache line, per-thread parts disjoint, and every misuse a NULL (a
 * booking that disagrees with its kernel fails the call, never overruns).
 * Compiled with src/kernel/scratch.c itself (the symbols are internal).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/kernel.h"

static int failures;
#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);                                       \
            failures++;                                                                                      \
        }                                                                                                    \
    } while (0)

int main(void)
{
    emu_scratch s = {0};
    emu_scratch_book(&s, 0, 100, 4, false);
    emu_scratch_book(&s, 0, 10, 4, false); /* a smaller second booking keeps the first */
    emu_scratch_book(&s, 3, 7, 8, true);
    emu_scratch_book(&s, 5, 1000, 1, true);
    const int threads = 4;
    const size_t total = emu_scratch_layout(&s, threads);
    CHECK(total != SIZE_MAX && total >= 400 + threads * (56 + 1000));
    CHECK(emu_scratch_get(&s, 0, 1) == NULL); /* not granted */
    void *block = NULL;
    CHECK(posix_memalign(&block, 4096, total) == 0);
    s.base = block;
    unsigned char *a = emu_scratch_get(&s, 0, 400);
    CHECK(a && (uintptr_t)a % 64 == 0 && a >= s.base && a + 400 <= s.base + s.shared_bytes);
    CHECK(emu_scratch_get(&s, 0, 401) == NULL); /* more than booked */
    CHECK(emu_scratch_get(&s, 1, 0) == NULL);   /* never booked */
    CHECK(emu_scratch_get(&s, EMU_SCRATCH_KEYS, 0) == NULL);
    unsigned char *mine[8][2] = {{0}};
#pragma omp parallel num_threads(threads)
    {
        const int t = emu_thread_num();
        mine[t][0] = emu_scratch_get(&s, 3, 56);
        mine[t][1] = emu_scratch_get(&s, 5, 1000);
    }
    for (int t = 0; t < threads; t++) {
        if (!mine[t][0]) /* OpenMP may give fewer threads */
            continue;
        for (int k = 0; k < 2; k++) {
            const size_t len = k ? 1000 : 56;
            CHECK((uintptr_t)mine[t][k] % 64 == 0);
            CHECK(mine[t][k] >= s.base + s.shared_bytes + (size_t)t * s.thread_bytes);
            CHECK(mine[t][k] + len <= s.base + s.shared_bytes + (size_t)(t + 1) * s.thread_bytes);
        }
        CHECK(mine[t][0] + 56 <= mine[t][1]);
    }
    free(block);

    emu_scratch big = {0};
    emu_scratch_book(&big, 0, SIZE_MAX / 2, 2, false); /* count * item overflows */
    CHECK(emu_scratch_layout(&big, 1) == SIZE_MAX);
    emu_scratch many = {0};
    emu_scratch_book(&many, 0, SIZE_MAX / 16, 1, true); /* times the threads overflows */
    CHECK(emu_scratch_layout(&many, 64) == SIZE_MAX);
    emu_scratch none = {0};
    CHECK(emu_scratch_layout(&none, 2) == 0);
    if (failures)
        return 1;
    puts("scratch: ok");
    return 0;
}
