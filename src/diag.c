/*
 * Diagnostics counters behind the report of `aclnn-emu run`: which APIs were
 * called, which operators ran and for how long, how many warnings.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

#define MAX_NAMES 128

typedef struct counter {
    const char *name; /* a literal: compared by content, stored by pointer */
    uint64_t calls;
    double seconds;
} counter;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static counter apis[MAX_NAMES], ops[MAX_NAMES];
static size_t n_apis, n_ops;
static uint64_t warnings, errors;
static char *finalize_leaks; /* the leak report of the last aclFinalize */

static void bump(counter *table, size_t *n, const char *name, double seconds)
{
    pthread_mutex_lock(&mu);
    size_t i = 0;
    while (i < *n && table[i].name != name && strcmp(table[i].name, name) != 0)
        i++;
    if (i == *n && *n < MAX_NAMES)
        table[(*n)++] = (counter){.name = name};
    if (i < *n) {
        table[i].calls++;
        table[i].seconds += seconds;
    }
    pthread_mutex_unlock(&mu);
}

void emu_diag_api(const char *api)
{
    bump(apis, &n_apis, api, 0.0);
}

void emu_diag_op(const char *op, double seconds)
{
    bump(ops, &n_ops, op, seconds);
}

void emu_diag_warning(void)
{
    pthread_mutex_lock(&mu);
    warnings++;
    pthread_mutex_unlock(&mu);
}

void emu_diag_error(void)
{
    pthread_mutex_lock(&mu);
    errors++;
    pthread_mutex_unlock(&mu);
}

void emu_diag_leaks(const char *text)
{
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (copy)
        memcpy(copy, text, n + 1);
    pthread_mutex_lock(&mu);
    free(finalize_leaks);
    finalize_leaks = copy;
    pthread_mutex_unlock(&mu);
}

#define APPEND(...)                                                                                      \
    do {                                                                                                 \
        int w_ = snprintf(used < cap ? buf + used : NULL, used < cap ? cap - used : 0, __VA_ARGS__);    \
        if (w_ > 0)                                                                                      \
            used += (size_t)w_;                                                                          \
    } while (0)

ACL_FUNC_VISIBILITY size_t aclnnEmuReport(char *buf, size_t cap)
{
    size_t used = 0;
    if (!buf)
        cap = 0;
    pthread_mutex_lock(&mu);
    APPEND("aclnn-emu report\n");
    APPEND("APIs called:\n");
    for (size_t i = 0; i < n_apis; i++)
        APPEND("  %-52s %8llu\n", apis[i].name, (unsigned long long)apis[i].calls);
    APPEND("operators run:\n");
    for (size_t i = 0; i < n_ops; i++)
        APPEND("  %-52s %8llu  %10.3f ms total\n", ops[i].name, (unsigned long long)ops[i].calls,
               1e3 * ops[i].seconds);
    APPEND("errors returned: %llu\n", (unsigned long long)errors);
    APPEND("warnings: %llu\n", (unsigned long long)warnings);
    if (finalize_leaks)
        APPEND("leaked at aclFinalize:\n%s", finalize_leaks);
    pthread_mutex_unlock(&mu);
    APPEND("live resources:\n");
    size_t live = 0;
    for (int k = EMU_TENSOR; k < EMU_KIND_COUNT; k++)
        live += emu_registry_report((emu_kind)k, buf, cap, &used);
    live += emu_mem_live_blocks(buf, cap, &used);
    if (!live)
        APPEND("  none\n");
    if (cap)
        buf[used < cap ? used : cap - 1] = '\0';
    return used;
}

/* `aclnn-emu run` asks for the report through the environment; written when
 * the program exits normally (also when it never called aclFinalize). */
__attribute__((destructor)) static void write_report_at_exit(void)
{
    const char *path = getenv("ACLNN_EMU_REPORT_FILE");
    if (!path || !*path)
        return;
    size_t need = aclnnEmuReport(NULL, 0) + 1;
    char *buf = malloc(need);
    FILE *f = buf ? fopen(path, "w") : NULL;
    if (f) {
        aclnnEmuReport(buf, need);
        fputs(buf, f);
        fclose(f);
    }
    free(buf);
}

ACL_FUNC_VISIBILITY uint64_t aclnnEmuLiveHandles(void)
{
    uint64_t n = 0;
    for (int k = EMU_TENSOR; k < EMU_KIND_COUNT; k++)
        n += emu_registry_count((emu_kind)k);
    size_t used = 0;
    n += emu_mem_live_blocks(NULL, 0, &used);
    return n;
}

EMU_FORK_SAFE_MUTEX(mu, EMU_ATFORK_DIAG)
