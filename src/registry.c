/*
 * Registry of live handles, so that a destroyed or foreign pointer is
 * reported instead of dereferenced.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu.h"

typedef struct entry {
    const void *key;
    const char *creator;
    struct entry *next;
    emu_kind kind;
    bool retired;
} entry;

/* Retired entries make "already executed" messages possible; they are
 * dropped wholesale past this many so the table cannot grow without bound. */
#define MAX_RETIRED 65536

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static entry **buckets;
static size_t n_buckets;
static size_t n_entries;
static size_t n_retired;
static size_t live_by_kind[EMU_KIND_COUNT];

static size_t hash_ptr(const void *p, size_t n)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)(x & (n - 1));
}

const char *emu_kind_name(emu_kind kind)
{
    switch (kind) {
    case EMU_TENSOR: return "aclTensor";
    case EMU_INT_ARRAY: return "aclIntArray";
    case EMU_FLOAT_ARRAY: return "aclFloatArray";
    case EMU_BOOL_ARRAY: return "aclBoolArray";
    case EMU_EXECUTOR: return "aclOpExecutor";
    case EMU_STREAM: return "aclrtStream";
    default: return "handle";
    }
}

static bool grow_locked(void)
{
    size_t n = n_buckets ? 2 * n_buckets : 256;
    entry **nb = calloc(n, sizeof *nb);
    if (!nb)
        return false;
    for (size_t i = 0; i < n_buckets; i++) {
        for (entry *e = buckets[i], *next; e; e = next) {
            next = e->next;
            size_t h = hash_ptr(e->key, n);
            e->next = nb[h];
            nb[h] = e;
        }
    }
    free(buckets);
    buckets = nb;
    n_buckets = n;
    return true;
}

static entry **slot_locked(const void *p)
{
    if (!n_buckets)
        return NULL;
    entry **pp = &buckets[hash_ptr(p, n_buckets)];
    while (*pp && (*pp)->key != p)
        pp = &(*pp)->next;
    return pp;
}

static void drop_retired_locked(void)
{
    for (size_t i = 0; i < n_buckets; i++) {
        entry **pp = &buckets[i];
        while (*pp) {
            if ((*pp)->retired) {
                entry *dead = *pp;
                *pp = dead->next;
                free(dead);
                n_entries--;
            } else {
                pp = &(*pp)->next;
            }
        }
    }
    n_retired = 0;
}

int emu_registry_add(const void *p, emu_kind kind, const char *creator)
{
    int rc = 0;
    pthread_mutex_lock(&mu);
    if (n_entries + 1 > 2 * n_buckets && !grow_locked() && !n_buckets) {
        rc = -1;
        goto out;
    }
    entry **pp = slot_locked(p);
    if (*pp) {
        /* The allocator reused the address of a retired (or leaked-and-freed) handle. */
        entry *e = *pp;
        if (e->retired)
            n_retired--;
        else
            live_by_kind[e->kind]--;
        e->kind = kind;
        e->creator = creator;
        e->retired = false;
    } else {
        entry *e = malloc(sizeof *e);
        if (!e) {
            rc = -1;
            goto out;
        }
        *e = (entry){.key = p, .creator = creator, .next = NULL, .kind = kind, .retired = false};
        *pp = e;
        n_entries++;
    }
    live_by_kind[kind]++;
out:
    pthread_mutex_unlock(&mu);
    return rc;
}

static emu_found classify(const entry *e, emu_kind kind)
{
    if (!e)
        return EMU_ABSENT;
    if (e->kind != kind)
        return e->retired ? EMU_ABSENT : EMU_OTHER_KIND;
    return e->retired ? EMU_RETIRED : EMU_LIVE;
}

emu_found emu_registry_find(const void *p, emu_kind kind)
{
    pthread_mutex_lock(&mu);
    entry **pp = slot_locked(p);
    emu_found f = classify(pp ? *pp : NULL, kind);
    pthread_mutex_unlock(&mu);
    return f;
}

emu_found emu_registry_remove(const void *p, emu_kind kind, bool retire)
{
    pthread_mutex_lock(&mu);
    entry **pp = slot_locked(p);
    emu_found f = classify(pp ? *pp : NULL, kind);
    if (f == EMU_LIVE) {
        entry *e = *pp;
        live_by_kind[kind]--;
        if (retire) {
            e->retired = true;
            if (++n_retired > MAX_RETIRED)
                drop_retired_locked();
        } else {
            *pp = e->next;
            free(e);
            n_entries--;
        }
    }
    pthread_mutex_unlock(&mu);
    return f;
}

size_t emu_registry_count(emu_kind kind)
{
    pthread_mutex_lock(&mu);
    size_t n = live_by_kind[kind];
    pthread_mutex_unlock(&mu);
    return n;
}

size_t emu_registry_report(emu_kind kind, char *buf, size_t cap, size_t *used)
{
    size_t n = 0;
    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < n_buckets; i++) {
        for (const entry *e = buckets[i]; e; e = e->next) {
            if (e->retired || e->kind != kind)
                continue;
            n++;
            int w = snprintf(*used < cap ? buf + *used : NULL, *used < cap ? cap - *used : 0,
                             "  leaked %s %p created by %s\n", emu_kind_name(kind), e->key, e->creator);
            if (w > 0)
                *used += (size_t)w;
        }
    }
    pthread_mutex_unlock(&mu);
    return n;
}

int emu_check_handle(const void *p, emu_kind kind, int status_invalid, const char *api, const char *param)
{
    switch (emu_registry_find(p, kind)) {
    case EMU_LIVE:
        return 0;
    case EMU_RETIRED:
        return emu_error(status_invalid, api, "%s %p was already used up or destroyed (%s)", param, p,
                         kind == EMU_EXECUTOR ? "a non-repeatable executor runs once"
                                              : "stale handle");
    case EMU_OTHER_KIND:
        return emu_error(status_invalid, api, "%s %p is not an %s", param, p, emu_kind_name(kind));
    default:
        return emu_error(status_invalid, api, "%s %p is not a live %s (destroyed or never created)", param, p,
                         emu_kind_name(kind));
    }
}
