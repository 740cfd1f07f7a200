/*
 * Per-thread scratch buffers of a kernel, carved from one block.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdlib.h>

#include "kernel.h"

/* Each buffer starts on its own cache line (no false sharing with another
 * thread's buffers, which malloc may place next to ours), and consecutive
 * buffers are staggered by this many bytes within a page, so a buffer and
 * the page-aligned rows a kernel streams through rarely share address bits
 * 0-11 (4K aliasing: a load then waits for an unrelated store). */
#define LINE 64
#define STAGGER 576

void *emu_scratch_alloc(const size_t *sizes, void **bufs, size_t n)
{
    size_t total = 4096;
    for (size_t i = 0; i < n; i++) {
        if (sizes[i] > SIZE_MAX / 2 - total)
            return NULL;
        total += (sizes[i] + LINE - 1) / LINE * LINE + STAGGER;
    }
    void *block = NULL;
    if (posix_memalign(&block, 4096, total) != 0 || !block)
        return NULL;
    size_t off = STAGGER;
    for (size_t i = 0; i < n; i++) {
        bufs[i] = (char *)block + off;
        off += (sizes[i] + LINE - 1) / LINE * LINE + STAGGER;
    }
    return block;
}
