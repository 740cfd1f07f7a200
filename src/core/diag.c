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

#include "core.h"

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
    /* Names are literals: the pointer finds them (one compare per entry); the same text at another
     * address (another translation unit's literal) is found by content. */
    size_t i = 0;
    while (i < *n && table[i].name != name)
        i++;
    if (i == *n)
        for (i = 0; i < *n && strcmp(table[i].name, name) != 0;)
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

void emu_append(char *buf, size_t cap, size_t *used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf && *used < cap ? buf + *used : NULL, buf && *used < cap ? cap - *used : 0, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used += (size_t)w;
}

void emu_diag_format(char *buf, size_t cap, size_t *used)
{
    pthread_mutex_lock(&mu);
    emu_append(buf, cap, used, "APIs called:\n");
    for (size_t i = 0; i < n_apis; i++)
        emu_append(buf, cap, used, "  %-52s %8llu\n", apis[i].name, (unsigned long long)apis[i].calls);
    emu_append(buf, cap, used, "operators run:\n");
    for (size_t i = 0; i < n_ops; i++)
        emu_append(buf, cap, used, "  %-52s %8llu  %10.3f ms total\n", ops[i].name, (unsigned long long)ops[i].calls,
                   1e3 * ops[i].seconds);
    emu_append(buf, cap, used, "errors returned: %llu\n", (unsigned long long)errors);
    emu_append(buf, cap, used, "warnings: %llu\n", (unsigned long long)warnings);
    if (finalize_leaks)
        emu_append(buf, cap, used, "leaked at aclFinalize:\n%s", finalize_leaks);
    pthread_mutex_unlock(&mu);
}

EMU_FORK_SAFE_MUTEX(mu, EMU_ATFORK_DIAG)
