/*
 * Registry of live handles, so that a destroyed or foreign pointer is
 * reported instead of dereferenced.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime.h"

typedef struct entry {
    const void *key;
    const char *creator;
    struct entry *next;
    emu_kind kind;
    bool retired;  /* destroyed; its memory is in quarantine (or pinned: see below) */
    bool internal; /* made by the library itself (default streams): not a user's leak */
    /* Callers using the handle's memory now (emu_registry_pin). A handle
     * destroyed while pinned is retired at once (later lookups see it
     * destroyed) but its memory is released when the last pin goes. */
    unsigned pins;
    size_t pending_size;
    void (*pending_release)(void *);
} entry;

/* Quarantine: destroyed handles' memory is kept out of reuse for the last
 * QUARANTINE_COUNT handles (QUARANTINE_BYTES at most), as sanitizers do, so
 * a stale pointer is reported as destroyed instead of finding a new handle
 * that the allocator placed at the same address. */
#define QUARANTINE_COUNT 1024
#define QUARANTINE_BYTES ((size_t)4 << 20)
#define QUARANTINE_ITEM_MAX ((size_t)64 << 10)

/* Under AddressSanitizer its own quarantine keeps freed memory out of reuse
 * (and reports use after free), and LeakSanitizer must see frees at once:
 * there only the registry entries are held back, not the memory. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMU_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(EMU_ASAN)
#define HOLD_MEMORY 0
#else
#define HOLD_MEMORY 1
#endif

typedef struct quarantined {
    void *p;
    size_t size;
    void (*release)(void *);
} quarantined;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static entry **buckets;
static size_t n_buckets;
static size_t n_entries;
static size_t live_by_kind[EMU_KIND_COUNT];
static quarantined *ring; /* QUARANTINE_COUNT slots, allocated on first use */
static size_t ring_head, ring_count, ring_bytes;

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
    case EMU_SCALAR: return "aclScalar";
    case EMU_TENSOR_LIST: return "aclTensorList";
    case EMU_SCALAR_LIST: return "aclScalarList";
    case EMU_EVENT: return "aclrtEvent";
    case EMU_CONTEXT: return "aclrtContext";
    case EMU_ALLOCATOR_DESC: return "aclrtAllocatorDesc";
    case EMU_PROF_CONFIG: return "aclprofConfig";
    case EMU_NOTIFY: return "aclrtNotify";
    case EMU_CACHE_BLOCK: return "aclnnEmuCacheAlloc block";
    case EMU_DATA_BUFFER: return "aclDataBuffer";
    case EMU_TDT_DATA_ITEM: return "acltdtDataItem";
    case EMU_TDT_DATASET: return "acltdtDataset";
    case EMU_TDT_CHANNEL: return "acltdtChannelHandle";
    case EMU_TDT_QUEUE_ATTR: return "acltdtQueueAttr";
    case EMU_TDT_ROUTE: return "acltdtQueueRoute";
    case EMU_TDT_ROUTE_LIST: return "acltdtQueueRouteList";
    case EMU_TDT_ROUTE_QUERY: return "acltdtQueueRouteQueryInfo";
    case EMU_PROF_STEP: return "aclprofStepInfo";
    case EMU_STREAM_CONFIG: return "aclrtStreamConfigHandle";
    case EMU_PROF_SUBSCRIBE_CONFIG: return "aclprofSubscribeConfig";
    case EMU_MODEL: return "aclmdlRI";
    case EMU_LABEL: return "aclrtLabel";
    case EMU_LABEL_LIST: return "aclrtLabelList";
    case EMU_TASK_GROUP: return "aclrtTaskGrp";
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

int emu_registry_add(const void *p, emu_kind kind, const char *creator)
{
    int rc = 0;
    pthread_mutex_lock(&mu);
    if (n_entries + 1 > n_buckets && !grow_locked() && !n_buckets) {
        rc = -1;
        goto out;
    }
    entry **pp = slot_locked(p);
    if (*pp) {
        /* The allocator reused the address of a retired (or leaked-and-freed) handle. */
        entry *e = *pp;
        if (!e->retired && !e->internal)
            live_by_kind[e->kind]--;
        e->kind = kind;
        e->creator = creator;
        e->retired = false;
        e->internal = false;
    } else {
        entry *e = malloc(sizeof *e);
        if (!e) {
            rc = -1;
            goto out;
        }
        *e = (entry){.key = p, .creator = creator, .next = NULL, .kind = kind};
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

void emu_registry_mark_internal(const void *p)
{
    pthread_mutex_lock(&mu);
    entry **pp = slot_locked(p);
    if (pp && *pp && !(*pp)->retired && !(*pp)->internal) {
        (*pp)->internal = true;
        live_by_kind[(*pp)->kind]--;
    }
    pthread_mutex_unlock(&mu);
}

static void unlink_locked(entry **pp)
{
    entry *dead = *pp;
    *pp = dead->next;
    free(dead);
    n_entries--;
}

/* Frees the oldest quarantined handle and forgets its entry. */
static void evict_oldest_locked(void)
{
    quarantined q = ring[ring_head];
    ring_head = (ring_head + 1) % QUARANTINE_COUNT;
    ring_count--;
    ring_bytes -= q.size;
    entry **pp = slot_locked(q.p);
    if (pp && *pp && (*pp)->retired)
        unlink_locked(pp);
    if (q.release)
        q.release(q.p);
}

/* Quarantines (or, when too large, frees) the memory of a retired entry. Caller holds mu;
 * returns the release to call after unlocking, or NULL. */
static void (*quarantine_locked(entry **pp, void *p, size_t size, void (*release)(void *)))(void *)
{
    if (!ring)
        ring = malloc(QUARANTINE_COUNT * sizeof *ring);
    if (!ring || size > QUARANTINE_ITEM_MAX) {
        /* Too large to hold back (or no memory to remember it): freed now. */
        unlink_locked(pp);
        return release;
    }
    while (ring_count == QUARANTINE_COUNT || (ring_count && ring_bytes + size > QUARANTINE_BYTES))
        evict_oldest_locked();
    ring[(ring_head + ring_count) % QUARANTINE_COUNT] =
        (quarantined){.p = p, .size = HOLD_MEMORY ? size : 0, .release = HOLD_MEMORY ? release : NULL};
    ring_count++;
    ring_bytes += HOLD_MEMORY ? size : 0;
    return HOLD_MEMORY ? NULL : release;
}

emu_found emu_registry_release(void *p, emu_kind kind, size_t size, void (*release)(void *))
{
    pthread_mutex_lock(&mu);
    entry **pp = slot_locked(p);
    emu_found f = classify(pp ? *pp : NULL, kind);
    if (f != EMU_LIVE) {
        pthread_mutex_unlock(&mu);
        return f;
    }
    entry *e = *pp;
    if (!e->internal)
        live_by_kind[kind]--;
    e->retired = true;
    void (*now)(void *) = NULL;
    if (e->pins) {
        e->pending_size = size; /* the last emu_registry_unpin releases it */
        e->pending_release = release;
    } else {
        now = quarantine_locked(pp, p, size, release);
    }
    pthread_mutex_unlock(&mu);
    if (now)
        now(p);
    return f;
}

emu_found emu_registry_pin(const void *p, emu_kind kind)
{
    pthread_mutex_lock(&mu);
    entry **pp = slot_locked(p);
    emu_found f = classify(pp ? *pp : NULL, kind);
    if (f == EMU_LIVE)
        (*pp)->pins++;
    pthread_mutex_unlock(&mu);
    return f;
}

void emu_registry_unpin(const void *p)
{
    pthread_mutex_lock(&mu);
    entry **pp = slot_locked(p);
    void (*now)(void *) = NULL;
    entry *e = pp ? *pp : NULL;
    if (e && e->pins && --e->pins == 0 && e->pending_release) {
        void (*release)(void *) = e->pending_release;
        e->pending_release = NULL;
        now = quarantine_locked(pp, (void *)p, e->pending_size, release);
    }
    pthread_mutex_unlock(&mu);
    if (now)
        now((void *)p);
}

bool emu_registry_forget(const void *p, emu_kind kind)
{
    pthread_mutex_lock(&mu);
    entry **pp = slot_locked(p);
    const bool live = classify(pp ? *pp : NULL, kind) == EMU_LIVE;
    if (live) {
        if (!(*pp)->internal)
            live_by_kind[kind]--;
        unlink_locked(pp);
    }
    pthread_mutex_unlock(&mu);
    return live;
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
            if (e->retired || e->internal || e->kind != kind)
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

int emu_handle_error(emu_found found, const void *p, emu_kind kind, int status_invalid, const char *api,
                     const char *param)
{
    switch (found) {
    case EMU_LIVE:
        return 0;
    case EMU_RETIRED:
        return emu_error(status_invalid, api, "%s %p was already %s", param, p,
                         kind == EMU_EXECUTOR ? "used up or destroyed (a non-repeatable executor runs once)"
                                              : "destroyed (stale handle)");
    case EMU_OTHER_KIND:
        return emu_error(status_invalid, api, "%s %p is not an %s", param, p, emu_kind_name(kind));
    default:
        return emu_error(status_invalid, api, "%s %p is not a live %s (destroyed or never created)", param, p,
                         emu_kind_name(kind));
    }
}

bool emu_grow(void **items, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return true;
    size_t want = *cap ? 2 * *cap : 8;
    if (want > SIZE_MAX / elem)
        return false;
    void *p = realloc(*items, want * elem);
    if (!p)
        return false;
    *items = p, *cap = want;
    return true;
}

void *emu_handle_alloc(size_t size, emu_kind kind, const char *api)
{
    void *p = calloc(1, size);
    if (p && emu_registry_add(p, kind, api) == 0)
        return p;
    free(p);
    emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    return NULL;
}

int emu_check_handle(const void *p, emu_kind kind, int status_invalid, const char *api, const char *param)
{
    return emu_handle_error(emu_registry_find(p, kind), p, kind, status_invalid, api, param);
}

int emu_check_handle_arg(const void *p, emu_kind kind, int status_invalid, const char *api, const char *param)
{
    if (!p)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", param);
    return emu_check_handle(p, kind, status_invalid, api, param);
}

EMU_FORK_SAFE_MUTEX(mu, EMU_ATFORK_REGISTRY)
