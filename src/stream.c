/*
 * Streams: a FIFO of tasks run in order by one worker thread per stream,
 * asynchronously to the host threads that enqueue them.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

typedef struct task {
    emu_task_fn fn;
    emu_release_fn release;
    void *ctx;
    struct task *next;
} task;

struct emu_stream {
    pthread_mutex_t mu;
    pthread_cond_t work; /* signalled when a task arrives or on shutdown */
    pthread_cond_t done; /* signalled when a task finishes */
    pthread_t thread;
    task *head, *tail;
    uint64_t enqueued, completed, host_synced;
    int error_status; /* first failure since the last synchronisation */
    char error_msg[EMU_MSG_MAX];
    int32_t device;
    bool is_default, shutdown;
    bool running; /* a task is executing (on the worker or on a synchronising host thread) */
    atomic_uint_fast64_t completed_mirror; /* `completed`, readable without the lock */
};

/* How long a waiting host thread polls before it sleeps: short tasks finish
 * sooner than a futex wake-up takes. */
#define SPIN_POLLS 4000

/* Runs the head task with s->mu held on entry and on return (released while it runs). */
static void run_head_locked(emu_stream *s, char *msg, size_t cap)
{
    task *t = s->head;
    s->head = t->next;
    if (!s->head)
        s->tail = NULL;
    s->running = true;
    pthread_mutex_unlock(&s->mu);

    msg[0] = '\0';
    int st = t->fn(t->ctx, msg, cap);
    if (t->release)
        t->release(t->ctx);
    free(t);

    pthread_mutex_lock(&s->mu);
    s->running = false;
    s->completed++;
    atomic_store_explicit(&s->completed_mirror, s->completed, memory_order_release);
    if (st != 0 && s->error_status == 0) {
        s->error_status = st;
        snprintf(s->error_msg, sizeof s->error_msg, "%s", msg);
    }
    pthread_cond_broadcast(&s->done);
    if (s->head)
        pthread_cond_signal(&s->work);
}

/* Waits until task seq has completed. A host thread that waits would only
 * sleep, so it runs pending tasks itself (in order, one at a time, like the
 * worker): enqueue-then-synchronize costs no thread hand-off. */
static void wait_for_locked(emu_stream *s, uint64_t seq)
{
    char msg[EMU_MSG_MAX];
    while (s->completed < seq) {
        if (s->head && !s->running) {
            run_head_locked(s, msg, sizeof msg);
            continue;
        }
        pthread_mutex_unlock(&s->mu);
        for (int i = 0; i < SPIN_POLLS && atomic_load_explicit(&s->completed_mirror, memory_order_acquire) < seq; i++)
            if (i % 64 == 63)
                sched_yield();
        pthread_mutex_lock(&s->mu);
        if (s->completed < seq && (!s->head || s->running))
            pthread_cond_wait(&s->done, &s->mu);
    }
}

static void *worker(void *arg)
{
    emu_stream *s = arg;
    char msg[EMU_MSG_MAX];
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while ((!s->head || s->running) && !s->shutdown)
            pthread_cond_wait(&s->work, &s->mu);
        if (s->shutdown) {
            wait_for_locked(s, s->enqueued); /* destroying a stream finishes its work first */
            break;
        }
        run_head_locked(s, msg, sizeof msg);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

emu_stream *emu_stream_create(int32_t device, bool is_default)
{
    emu_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->device = device;
    s->is_default = is_default;
    if (pthread_mutex_init(&s->mu, NULL) != 0)
        goto fail_mu;
    if (pthread_cond_init(&s->work, NULL) != 0)
        goto fail_work;
    if (pthread_cond_init(&s->done, NULL) != 0)
        goto fail_done;
    if (pthread_create(&s->thread, NULL, worker, s) != 0)
        goto fail_thread;
    if (emu_registry_add(s, EMU_STREAM, is_default ? "aclrtSetDevice" : "aclrtCreateStream") != 0)
        goto fail_registry;
    return s;
fail_registry:
    pthread_mutex_lock(&s->mu);
    s->shutdown = true;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
fail_thread:
    pthread_cond_destroy(&s->done);
fail_done:
    pthread_cond_destroy(&s->work);
fail_work:
    pthread_mutex_destroy(&s->mu);
fail_mu:
    free(s);
    return NULL;
}

/* Waits for pending work (CANN: destroying a stream waits for it), then frees. */
void emu_stream_destroy(emu_stream *s)
{
    if (!s)
        return;
    emu_registry_remove(s, EMU_STREAM, false);
    pthread_mutex_lock(&s->mu);
    s->shutdown = true;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    if (s->error_status)
        emu_log(EMU_LOG_WARNING, "stream %p destroyed with an unreported failure: %s", (void *)s, s->error_msg);
    emu_mem_forget_stream(s);
    pthread_cond_destroy(&s->done);
    pthread_cond_destroy(&s->work);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

int emu_stream_enqueue(emu_stream *s, emu_task_fn fn, emu_release_fn release, void *ctx, uint64_t *seq)
{
    task *t = malloc(sizeof *t);
    if (!t) {
        if (release)
            release(ctx);
        return ACL_ERROR_BAD_ALLOC;
    }
    *t = (task){.fn = fn, .release = release, .ctx = ctx, .next = NULL};
    pthread_mutex_lock(&s->mu);
    if (s->tail)
        s->tail->next = t;
    else
        s->head = t;
    s->tail = t;
    uint64_t n = ++s->enqueued;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->mu);
    if (seq)
        *seq = n;
    return 0;
}

void emu_stream_wait(emu_stream *s, uint64_t seq)
{
    pthread_mutex_lock(&s->mu);
    wait_for_locked(s, seq);
    pthread_mutex_unlock(&s->mu);
}

int emu_stream_sync(emu_stream *s, const char *api)
{
    pthread_mutex_lock(&s->mu);
    uint64_t target = s->enqueued;
    wait_for_locked(s, target);
    if (target > s->host_synced)
        s->host_synced = target;
    int st = s->error_status;
    char msg[EMU_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", s->error_msg);
    s->error_status = 0;
    s->error_msg[0] = '\0';
    pthread_mutex_unlock(&s->mu);
    if (st != 0) {
        char full[EMU_MSG_MAX + 64];
        snprintf(full, sizeof full, "%s: a task on stream %p failed: %s", api, (void *)s, msg);
        emu_error_set_raw(full);
        emu_log(EMU_LOG_ERROR, "%s -> %d", full, st);
    }
    return st;
}

bool emu_stream_host_synced(emu_stream *s, uint64_t seq)
{
    pthread_mutex_lock(&s->mu);
    bool synced = s->host_synced >= seq;
    pthread_mutex_unlock(&s->mu);
    return synced;
}

int32_t emu_stream_device(const emu_stream *s)
{
    return s->device;
}
