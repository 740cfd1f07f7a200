/*
 * Scratch booked in a plan: the layout of one block (kernel.h says why).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "kernel.h"

#define LINE 64
#define PAGE 4096
#define STAGGER 576

int emu_thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

int emu_team_size(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

int emu_parallel(int threads, int (*team)(void *ctx), void *ctx)
{
    if (threads <= 1)
        return team(ctx);
    int status = 0;
#pragma omp parallel num_threads(threads) reduction(| : status)
    status |= team(ctx);
    return status;
}

void emu_scratch_book(emu_scratch *s, int key, size_t count, size_t item, bool per_thread)
{
    if (key < 0 || key >= EMU_SCRATCH_KEYS) {
        s->overflow = true;
        return;
    }
    if (item && count > (SIZE_MAX / 4) / item) {
        s->overflow = true;
        return;
    }
    const size_t bytes = count * item;
    s->bytes[key] = bytes > s->bytes[key] ? bytes : s->bytes[key];
    s->per_thread[key] = s->per_thread[key] || per_thread;
}

/* Lays out the keys of one kind from `start`; returns the end, or SIZE_MAX. */
static size_t lay(emu_scratch *s, bool per_thread, size_t start)
{
    size_t off = start;
    for (int k = 0; k < EMU_SCRATCH_KEYS; k++) {
        if (!s->bytes[k] || s->per_thread[k] != per_thread)
            continue;
        off += STAGGER;
        s->offset[k] = off;
        const size_t len = (s->bytes[k] + LINE - 1) / LINE * LINE;
        if (len > SIZE_MAX / 4 - off)
            return SIZE_MAX;
        off += len;
    }
    return off;
}

size_t emu_scratch_layout(emu_scratch *s, int threads)
{
    s->threads = threads > 0 ? threads : 1;
    const size_t shared = lay(s, false, 0), part = lay(s, true, 0);
    if (s->overflow || shared == SIZE_MAX || part == SIZE_MAX)
        return SIZE_MAX;
    s->shared_bytes = (shared + PAGE - 1) / PAGE * PAGE;
    s->thread_bytes = part ? (part + PAGE - 1) / PAGE * PAGE : 0;
    if (s->thread_bytes && (size_t)s->threads > (SIZE_MAX / 4 - s->shared_bytes) / s->thread_bytes)
        return SIZE_MAX;
    return s->shared_bytes + (size_t)s->threads * s->thread_bytes;
}

void *emu_scratch_get(const emu_scratch *s, int key, size_t bytes)
{
    if (!s->base || key < 0 || key >= EMU_SCRATCH_KEYS || !s->bytes[key] || s->bytes[key] < bytes)
        return NULL;
    if (!s->per_thread[key])
        return s->base + s->offset[key];
    const int t = emu_thread_num();
    if (t >= s->threads) /* more threads than granted: the caller reports it */
        return NULL;
    return s->base + s->shared_bytes + (size_t)t * s->thread_bytes + s->offset[key];
}
