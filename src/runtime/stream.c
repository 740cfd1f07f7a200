/*
 * Streams: a FIFO of tasks run in order by one worker thread per stream,
 * asynchronously to the host threads that enqueue them.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE /* gettid */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"

typedef struct task {
    emu_task_fn fn;
    emu_release_fn release;
    void *ctx;
    struct task *next;
} task;

struct emu_stream {
    struct emu_stream *prev, *next; /* every stream of the process (fork handling) */
    pthread_mutex_t mu;
    pthread_cond_t work; /* signalled when a task arrives or on shutdown */
    pthread_cond_t done; /* signalled when a task finishes */
    pthread_t thread;
    task *head, *tail;
    uint64_t enqueued, completed, host_synced;
    int error_status; /* first failure since the last synchronisation */
    char error_msg[EMU_MSG_MAX];
    int32_t device;
    uint32_t id; /* aclrtExceptionInfo's stream id */
    uint32_t priority, flags; /* aclrtCreateStreamWithConfig's, reported back by aclrtStreamGet* */
    uint32_t overflow_switch; /* aclrtSetStreamOverflowSwitch's */
    bool is_default, shutdown;
    bool has_worker; /* false in a fork() child until work arrives */
    bool running;    /* a task is executing (on the worker or on a synchronising host thread) */
    bool stop_on_failure; /* aclrtSetStreamFailureMode(ACL_STOP_ON_FAILURE): skip work after a failure */
    uint64_t skipped;     /* tasks skipped since the last synchronisation */
    emu_warnings warnings; /* raised by tasks since the last synchronisation */
    atomic_uint_fast64_t completed_mirror; /* `completed`, readable without the lock */
    atomic_uint_fast64_t enqueued_mirror; /* `enqueued`, readable without the lock */
    atomic_bool stopping;                 /* `shutdown`, readable without the lock */
    /* While set, enqueued work goes to the sink instead of the queue: a model capturing the stream,
     * a model the stream is bound to, or a task group being updated (emu_stream_set_sink). */
    emu_capture_sink sink;
    void *sink_ctx;
    int capture_mode; /* the capture's aclmdlRICaptureMode, or -1 (no capture) */
    uint64_t capture_thread;
};

static pthread_mutex_t all_mu = PTHREAD_MUTEX_INITIALIZER;
static emu_stream *all_streams;
static void (*_Atomic destroy_hook)(emu_stream *s);
static void (*_Atomic fork_kick)(void);
static atomic_bool fork_pending;    /* a fork() is quiescing the streams: blocked tasks step aside */
static atomic_bool child_restart;   /* fork() child: streams with queued work need a worker */

void emu_stream_on_fork(void (*kick)(void))
{
    fork_kick = kick;
}

bool emu_stream_fork_pending(void)
{
    return atomic_load(&fork_pending);
}

void emu_stream_on_destroy(void (*hook)(emu_stream *s))
{
    destroy_hook = hook;
}

/* ---- exception-info callbacks (aclrtExceptionInfoCallbackRegister) ----- */

struct rtExceptionInfo {
    uint32_t taskid, streamid, tid, deviceid, retcode;
};

#define MAX_EXCEPTION_CALLBACKS 16
static pthread_mutex_t exc_mu = PTHREAD_MUTEX_INITIALIZER;
static aclrtExceptionInfoCallback exc_callbacks[MAX_EXCEPTION_CALLBACKS]; /* [0]: aclrtSetExceptionInfoCallback's */
static atomic_uint next_stream_id;

EMU_FORK_SAFE_MUTEX(exc_mu, EMU_ATFORK_MEMORY)

/* A task failed: every registered callback learns it, on the thread that ran it. */
static void report_exception(const emu_stream *s, uint64_t seq, int status)
{
    aclrtExceptionInfoCallback cbs[MAX_EXCEPTION_CALLBACKS];
    pthread_mutex_lock(&exc_mu);
    memcpy(cbs, exc_callbacks, sizeof cbs);
    pthread_mutex_unlock(&exc_mu);
    struct rtExceptionInfo info = {.taskid = (uint32_t)seq, .streamid = s->id, .tid = (uint32_t)gettid(),
                                   .deviceid = (uint32_t)s->device, .retcode = (uint32_t)status};
    for (int i = 0; i < MAX_EXCEPTION_CALLBACKS; i++)
        if (cbs[i])
            cbs[i](&info);
}

/* Sets slot 0 (set), adds (add) or removes callback; false when the table is full. */
static bool exception_callback(aclrtExceptionInfoCallback callback, int how)
{
    bool ok = true;
    pthread_mutex_lock(&exc_mu);
    if (how == 0) {
        exc_callbacks[0] = callback;
    } else {
        int free_slot = -1, found = -1;
        for (int i = 1; i < MAX_EXCEPTION_CALLBACKS; i++) {
            if (exc_callbacks[i] == callback)
                found = i;
            else if (!exc_callbacks[i] && free_slot < 0)
                free_slot = i;
        }
        if (how > 0 && found < 0)
            ok = free_slot >= 0 && (exc_callbacks[free_slot] = callback, true);
        else if (how < 0 && found >= 0)
            exc_callbacks[found] = NULL;
    }
    pthread_mutex_unlock(&exc_mu);
    return ok;
}

ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
    EMU_API_ENTRY();
    exception_callback(callback, 0);
    emu_log(EMU_LOG_INFO, "%s callback=%p -> 0", api, (void *)(uintptr_t)callback);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
    EMU_API_ENTRY();
    if (!callback)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "callback is NULL");
    if (!exception_callback(callback, 1))
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "more than %d callbacks registered",
                         MAX_EXCEPTION_CALLBACKS - 1);
    emu_log(EMU_LOG_INFO, "%s callback=%p -> 0", api, (void *)(uintptr_t)callback);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
    EMU_API_ENTRY();
    if (!callback)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "callback is NULL");
    exception_callback(callback, -1);
    emu_log(EMU_LOG_INFO, "%s callback=%p -> 0", api, (void *)(uintptr_t)callback);
    return ACL_SUCCESS;
}

/* CANN's getters answer 0xFFFFFFFF for a NULL info. */
#define EXCEPTION_FIELD(name, field)                                                                        \
    ACL_FUNC_VISIBILITY uint32_t name(const aclrtExceptionInfo *info)                                       \
    {                                                                                                        \
        if (!info) {                                                                                         \
            emu_error(ACL_ERROR_INVALID_PARAM, #name, "info is NULL");                                       \
            return 0xFFFFFFFFu;                                                                              \
        }                                                                                                    \
        return info->field;                                                                                  \
    }
EXCEPTION_FIELD(aclrtGetTaskIdFromExceptionInfo, taskid)
EXCEPTION_FIELD(aclrtGetStreamIdFromExceptionInfo, streamid)
EXCEPTION_FIELD(aclrtGetThreadIdFromExceptionInfo, tid)
EXCEPTION_FIELD(aclrtGetDeviceIdFromExceptionInfo, deviceid)
EXCEPTION_FIELD(aclrtGetErrorCodeFromExceptionInfo, retcode)

/* The task id (the stream's sequence number, as exception information gives it) of this thread's last work. */
static _Thread_local uint32_t last_task_id;

ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId)
{
    EMU_API_ENTRY();
    if (!taskId)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "taskId is NULL");
    *taskId = last_task_id;
    return ACL_SUCCESS;
}

/* CANN answers a NULL info with ACL_ERROR_INVALID_EXCEPTION_INFO (0xFFFFFFFF), like the field getters. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info, aclrtFuncHandle *func)
{
    EMU_API_ENTRY();
    if (!info) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "info is NULL");
        return (aclError)0xFFFFFFFFu;
    }
    if (!func)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "func is NULL");
    *func = NULL;
    return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                     "task %u was not a kernel launched from a binary (aclrtBinaryLoad* is not emulated): it has no "
                     "function handle",
                     (unsigned)info->taskid);
}

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
    /* ACL_STOP_ON_FAILURE: after a failure, work is dropped (released, not run) until it is reported. */
    bool skip = s->stop_on_failure && s->error_status != 0;
    s->running = true;
    uint64_t seq = s->completed + 1; /* tasks complete in order */
    pthread_mutex_unlock(&s->mu);

    msg[0] = '\0';
    emu_warnings raised;
    raised.head = raised.count = 0;
    raised.dropped = 0;
    int st = 0;
    if (!skip) {
        emu_warnings *outer = emu_warnings_capture(&raised);
        emu_trace_track_enter(EMU_TRACE_STREAM_TRACKS + s->id, "stream %u (device %d)%s", (unsigned)s->id,
                              (int)s->device, s->is_default ? ", default" : "");
        st = t->fn(t->ctx, msg, cap);
        emu_trace_track_leave();
        emu_warnings_capture(outer);
    }
    if (st != EMU_TASK_AGAIN) { /* released before it counts as done: a synchronised host sees it gone */
        if (t->release)
            t->release(t->ctx);
        free(t);
    }
    if (st != 0 && st != EMU_TASK_AGAIN)
        report_exception(s, seq, st); /* before it counts as done, so a synchronised host sees it */

    pthread_mutex_lock(&s->mu);
    emu_warnings_merge(&s->warnings, &raised); /* for the thread that synchronises */
    s->running = false;
    if (st == EMU_TASK_AGAIN) {
        /* A blocking task (an event wait) stepped aside for fork(): back to the
         * head, and this thread sleeps until the fork is over. */
        t->next = s->head;
        s->head = t;
        if (!s->tail)
            s->tail = t;
        pthread_cond_broadcast(&s->done);
        while (atomic_load(&fork_pending))
            pthread_cond_wait(&s->work, &s->mu);
        return;
    }
    s->completed++;
    s->skipped += skip;
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

/* An idle worker polls for work this long before it sleeps: a host that launches and synchronises in a
 * loop would otherwise pay a futex wake-up (microseconds) for every launch. Work it sees is left to the
 * host for a grace period first: a host about to synchronise runs it itself, on the core whose caches
 * hold its data, and only work a host leaves queued moves to the worker. */
#define WORKER_POLL_S 30e-6
#define WORKER_GRACE_S 4e-6

/* Returns when work has waited past the grace period, on shutdown, or after WORKER_POLL_S without work.
 * Called without s->mu: it reads the mirrors only. */
static void poll_for_work(emu_stream *s)
{
    double idle_since = emu_now(), pending_since = -1.0;
    for (unsigned i = 1; !atomic_load_explicit(&s->stopping, memory_order_relaxed); i++) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (i % 16)
            continue;
        const double t = emu_now();
        if (atomic_load_explicit(&s->enqueued_mirror, memory_order_acquire) !=
            atomic_load_explicit(&s->completed_mirror, memory_order_acquire)) {
            if (pending_since < 0)
                pending_since = t;
            else if (t - pending_since > WORKER_GRACE_S)
                return;
            idle_since = t;
        } else {
            pending_since = -1.0;
            if (t - idle_since > WORKER_POLL_S)
                return;
        }
    }
}

static void *worker(void *arg)
{
    emu_stream *s = arg;
    char msg[EMU_MSG_MAX];
    pthread_mutex_lock(&s->mu);
    for (;;) {
        bool polled = false; /* once per idle spell, then sleep until signalled */
        while ((!s->head || s->running) && !s->shutdown) {
            if (!polled && !atomic_load(&fork_pending)) {
                polled = true;
                pthread_mutex_unlock(&s->mu);
                poll_for_work(s);
                pthread_mutex_lock(&s->mu);
                continue; /* the condition is checked again under the lock: no arrival is lost */
            }
            pthread_cond_wait(&s->work, &s->mu);
            polled = false;
        }
        if (s->shutdown) {
            wait_for_locked(s, s->enqueued); /* destroying a stream finishes its work first */
            break;
        }
        run_head_locked(s, msg, sizeof msg);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Starts the worker; caller holds s->mu or owns s alone. */
static int start_worker_locked(emu_stream *s)
{
    if (s->has_worker)
        return 0;
    if (pthread_create(&s->thread, NULL, worker, s) != 0)
        return -1;
    s->has_worker = true;
    return 0;
}

static void stop_worker(emu_stream *s)
{
    pthread_mutex_lock(&s->mu);
    s->shutdown = true;
    atomic_store_explicit(&s->stopping, true, memory_order_relaxed);
    bool joinable = s->has_worker;
    if (joinable)
        pthread_cond_signal(&s->work);
    else
        wait_for_locked(s, s->enqueued); /* no worker (fork child): finish the work here */
    pthread_mutex_unlock(&s->mu);
    if (joinable)
        pthread_join(s->thread, NULL);
}

emu_stream *emu_stream_create(int32_t device, bool is_default)
{
    emu_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->device = device;
    s->id = atomic_fetch_add(&next_stream_id, 1);
    s->is_default = is_default;
    s->capture_mode = -1;
    if (pthread_mutex_init(&s->mu, NULL) != 0)
        goto fail_mu;
    if (pthread_cond_init(&s->work, NULL) != 0)
        goto fail_work;
    if (pthread_cond_init(&s->done, NULL) != 0)
        goto fail_done;
    if (start_worker_locked(s) != 0)
        goto fail_thread;
    if (emu_registry_add(s, EMU_STREAM, is_default ? "aclrtSetDevice" : "aclrtCreateStream") != 0)
        goto fail_registry;
    if (is_default)
        emu_registry_mark_internal(s);
    pthread_mutex_lock(&all_mu);
    s->next = all_streams;
    if (all_streams)
        all_streams->prev = s;
    all_streams = s;
    pthread_mutex_unlock(&all_mu);
    return s;
fail_registry:
    stop_worker(s);
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

static void stream_free(void *p)
{
    emu_stream *s = p;
    pthread_cond_destroy(&s->done);
    pthread_cond_destroy(&s->work);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* Waits for pending work (CANN: destroying a stream waits for it), then frees. */
void emu_stream_destroy(emu_stream *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&all_mu);
    if (s->prev)
        s->prev->next = s->next;
    else
        all_streams = s->next;
    if (s->next)
        s->next->prev = s->prev;
    pthread_mutex_unlock(&all_mu);
    stop_worker(s);
    if (s->error_status)
        emu_log(EMU_LOG_WARNING, "stream %p destroyed with an unreported failure: %s", (void *)s, s->error_msg);
    void (*hook)(emu_stream *) = destroy_hook;
    if (hook)
        hook(s); /* e.g. memory forgets which blocks s was using */
    /* The memory stays out of reuse for a while, so a stale pointer to it is reported, not mistaken. */
    emu_registry_release(s, EMU_STREAM, sizeof *s, stream_free);
}

/* fork(): no stream may be mid-task (its memory would be half-written in the
 * child), and every stream lock is taken so the child gets consistent queues.
 * A task blocked on another stream (an event wait) would never finish while
 * that stream is held, so blocked tasks are first told to step aside. */
static void streams_prepare(void)
{
    atomic_store(&fork_pending, true);
    void (*kick)(void) = fork_kick;
    if (kick)
        kick();
    pthread_mutex_lock(&all_mu);
    for (emu_stream *s = all_streams; s; s = s->next) {
        pthread_mutex_lock(&s->mu);
        while (s->running)
            pthread_cond_wait(&s->done, &s->mu);
    }
}

static void streams_parent(void)
{
    atomic_store(&fork_pending, false);
    for (emu_stream *s = all_streams; s; s = s->next) {
        pthread_cond_broadcast(&s->work); /* workers that stepped aside carry on */
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&all_mu);
}

/* In the child only the forking thread exists: the workers are gone and the
 * condition variables may count waiters that vanished. Fresh ones; workers
 * start on the child's first stream call (not here: creating threads inside
 * a fork handler is not safe), so tasks queued before the fork run in both
 * processes. */
static void streams_child(void)
{
    atomic_store(&fork_pending, false);
    for (emu_stream *s = all_streams; s; s = s->next) {
        pthread_cond_init(&s->work, NULL);
        pthread_cond_init(&s->done, NULL);
        s->has_worker = false;
        pthread_mutex_unlock(&s->mu);
    }
    atomic_store(&child_restart, true);
    pthread_mutex_unlock(&all_mu);
}

/* Fork child: gives every stream with queued work its worker again (a task
 * on one stream may wait for work queued on another). */
static void restart_workers(void)
{
    /* A plain load first: this runs on every enqueue, and is true only once after a fork. */
    if (!atomic_load_explicit(&child_restart, memory_order_relaxed) || !atomic_exchange(&child_restart, false))
        return;
    pthread_mutex_lock(&all_mu);
    for (emu_stream *s = all_streams; s; s = s->next) {
        pthread_mutex_lock(&s->mu);
        if (s->head && start_worker_locked(s) == 0)
            pthread_cond_signal(&s->work);
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&all_mu);
}

__attribute__((constructor(EMU_ATFORK_STREAM))) static void stream_atfork(void)
{
    pthread_atfork(streams_prepare, streams_parent, streams_child);
}

/* aclnnEmuSetLaunchBlocking: this thread's launches run before they return. */
static _Thread_local bool launch_blocking;

ACL_FUNC_VISIBILITY aclError aclnnEmuSetLaunchBlocking(int32_t blocking)
{
    launch_blocking = blocking != 0;
    return ACL_SUCCESS;
}

bool emu_launch_blocking(void)
{
    return launch_blocking;
}

int emu_stream_enqueue(emu_stream *s, emu_task_fn fn, emu_release_fn release, void *ctx, uint64_t *seq)
{
    return emu_stream_enqueue_bound(s, fn, release, ctx, NULL, seq);
}

int emu_stream_enqueue_bound(emu_stream *s, emu_task_fn fn, emu_release_fn release, void *ctx, emu_bind_fn bind,
                             uint64_t *seq)
{
    pthread_mutex_lock(&s->mu);
    emu_capture_sink sink = s->sink;
    void *sink_ctx = s->sink_ctx;
    uint64_t now = s->enqueued;
    pthread_mutex_unlock(&s->mu);
    if (sink) {
        if (seq)
            *seq = now; /* nothing new runs on s: its users see the work already there */
        return sink(sink_ctx, fn, release, ctx, bind);
    }
    if (bind)
        bind(ctx, s);
    restart_workers();
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
    atomic_store_explicit(&s->enqueued_mirror, n, memory_order_release);
    last_task_id = (uint32_t)n;
    if (launch_blocking && s->head == t && !s->running) {
        /* Nothing ahead of it: run it here, as a host that synchronises would,
         * without waking the worker (a wake-up costs more than a small task). */
        wait_for_locked(s, n);
    } else {
        if (start_worker_locked(s) != 0) /* if none can start, synchronising runs the work */
            emu_log(EMU_LOG_WARNING, "stream %p: cannot start a worker thread; work runs when the host synchronises",
                    (void *)s);
        pthread_cond_signal(&s->work);
    }
    pthread_mutex_unlock(&s->mu);
    if (seq)
        *seq = n;
    return 0;
}

void emu_stream_wait(emu_stream *s, uint64_t seq)
{
    restart_workers();
    pthread_mutex_lock(&s->mu);
    wait_for_locked(s, seq);
    pthread_mutex_unlock(&s->mu);
}

/* Waits for task seq until the CLOCK_REALTIME deadline, leaving the work to
 * the worker (a host thread running a long task itself could not time out).
 * Returns false on timeout. */
static bool wait_until_locked(emu_stream *s, uint64_t seq, const struct timespec *deadline)
{
    if (!s->has_worker) { /* no worker can start: the host has to run the work */
        wait_for_locked(s, seq);
        return true;
    }
    while (s->completed < seq)
        if (pthread_cond_timedwait(&s->done, &s->mu, deadline) == ETIMEDOUT)
            return s->completed >= seq;
    return true;
}

int emu_check_timeout(const char *api, int32_t timeout_ms)
{
    if (timeout_ms < -1)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "timeout %d ms is out of range [-1, INT_MAX]",
                         (int)timeout_ms);
    return 0;
}

struct timespec emu_deadline_after_ms(int32_t timeout_ms)
{
    struct timespec d;
    clock_gettime(CLOCK_REALTIME, &d);
    d.tv_sec += timeout_ms / 1000;
    d.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (d.tv_nsec >= 1000000000L) {
        d.tv_sec++;
        d.tv_nsec -= 1000000000L;
    }
    return d;
}

int emu_stream_sync(emu_stream *s, const char *api, int32_t timeout_ms)
{
    int mode;
    emu_stream_sink(s, &mode, NULL);
    if (mode >= 0)
        return emu_error(ACL_ERROR_RT_STREAM_CAPTURED, api,
                         "stream %p is being captured (aclmdlRICaptureBegin): its work runs when the model does",
                         (void *)s);
    restart_workers();
    struct timespec deadline = emu_deadline_after_ms(timeout_ms < 0 ? 0 : timeout_ms);
    pthread_mutex_lock(&s->mu);
    uint64_t target = s->enqueued;
    if (timeout_ms < 0) {
        wait_for_locked(s, target);
    } else if (!wait_until_locked(s, target, &deadline)) {
        uint64_t left = target - s->completed;
        pthread_mutex_unlock(&s->mu);
        return emu_error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, api,
                         "stream %p did not finish within %d ms (%llu task(s) still pending)", (void *)s,
                         (int)timeout_ms, (unsigned long long)left);
    }
    if (target > s->host_synced)
        s->host_synced = target;
    int st = s->error_status;
    char msg[EMU_MSG_MAX];
    if (st)
        snprintf(msg, sizeof msg, "%s", s->error_msg);
    uint64_t skipped = s->skipped;
    s->error_status = 0;
    s->error_msg[0] = '\0';
    s->skipped = 0;
    emu_warnings_deliver(&s->warnings);
    pthread_mutex_unlock(&s->mu);
    if (st != 0) {
        char full[EMU_MSG_MAX + 128];
        if (skipped)
            snprintf(full, sizeof full, "%s: a task on stream %p failed: %s (stop-on-failure: %llu later task(s) skipped)",
                     api, (void *)s, msg, (unsigned long long)skipped);
        else
            snprintf(full, sizeof full, "%s: a task on stream %p failed: %s", api, (void *)s, msg);
        emu_error_set_raw(full);
        emu_set_last_status(st);
        emu_log(EMU_LOG_ERROR, "%s -> %d", full, st);
    }
    return st;
}

size_t emu_stream_discard(emu_stream *s)
{
    pthread_mutex_lock(&s->mu);
    task *t = s->head;
    s->head = s->tail = NULL;
    while (s->running) /* sequence numbers complete in order: the running task first */
        pthread_cond_wait(&s->done, &s->mu);
    pthread_mutex_unlock(&s->mu);
    size_t n = 0;
    while (t) {
        task *next = t->next;
        if (t->release)
            t->release(t->ctx);
        free(t);
        t = next;
        n++;
    }
    pthread_mutex_lock(&s->mu);
    s->completed += n;
    atomic_store_explicit(&s->completed_mirror, s->completed, memory_order_release);
    pthread_cond_broadcast(&s->done);
    pthread_mutex_unlock(&s->mu);
    return n;
}

void emu_stream_set_stop_on_failure(emu_stream *s, bool stop)
{
    pthread_mutex_lock(&s->mu);
    s->stop_on_failure = stop;
    pthread_mutex_unlock(&s->mu);
}

void emu_stream_set_config(emu_stream *s, uint32_t priority, uint32_t flags)
{
    pthread_mutex_lock(&s->mu);
    s->priority = priority;
    s->flags = flags;
    pthread_mutex_unlock(&s->mu);
}

/* ---- capture and binding (model runtime instances, model.c) ---- */

/* Captures under way, for the rule on synchronous work (CANN's Context::IsCaptureModeSupport). */
static pthread_mutex_t capture_mu = PTHREAD_MUTEX_INITIALIZER;
typedef struct capture_entry {
    emu_stream *s;
    int mode;
    uint64_t thread;
} capture_entry;
static capture_entry captures[64];
static size_t n_captures;
static _Thread_local int exchange_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
static emu_task_fn kernel_task;
EMU_FORK_SAFE_MUTEX(capture_mu, EMU_ATFORK_CAPTURE)

static uint64_t this_thread(void)
{
    return (uint64_t)pthread_self();
}

int emu_stream_set_sink(emu_stream *s, emu_capture_sink sink, void *sink_ctx, int capture_mode)
{
    pthread_mutex_lock(&capture_mu);
    if (capture_mode >= 0 && n_captures == sizeof captures / sizeof *captures) {
        pthread_mutex_unlock(&capture_mu);
        return ACL_ERROR_RT_INTERNAL_ERROR;
    }
    for (size_t i = 0; i < n_captures; i++)
        if (captures[i].s == s)
            captures[i--] = captures[--n_captures];
    if (sink && capture_mode >= 0)
        captures[n_captures++] = (capture_entry){s, capture_mode, this_thread()};
    pthread_mutex_lock(&s->mu);
    s->sink = sink;
    s->sink_ctx = sink ? sink_ctx : NULL;
    s->capture_mode = sink ? capture_mode : -1;
    s->capture_thread = this_thread();
    pthread_mutex_unlock(&s->mu);
    pthread_mutex_unlock(&capture_mu);
    return 0;
}

void *emu_stream_sink(emu_stream *s, int *capture_mode, uint64_t *thread)
{
    pthread_mutex_lock(&s->mu);
    void *ctx = s->sink_ctx;
    if (capture_mode)
        *capture_mode = s->sink ? s->capture_mode : -1;
    if (thread)
        *thread = s->capture_thread;
    pthread_mutex_unlock(&s->mu);
    return ctx;
}

bool emu_stream_is_default(const emu_stream *s)
{
    return s->is_default;
}

int emu_capture_exchange_mode(int mode)
{
    int old = exchange_mode;
    exchange_mode = mode;
    return old;
}

int emu_capture_check_sync(const char *api)
{
    int context_mode = 3, thread_mode = 3; /* the least over the captures: GLOBAL < THREAD_LOCAL < RELAXED */
    uint64_t me = this_thread();
    pthread_mutex_lock(&capture_mu);
    for (size_t i = 0; i < n_captures; i++) {
        if (captures[i].mode < context_mode)
            context_mode = captures[i].mode;
        if (captures[i].thread == me && captures[i].mode < thread_mode)
            thread_mode = captures[i].mode;
    }
    pthread_mutex_unlock(&capture_mu);
    bool refused = context_mode < 3 && exchange_mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED &&
                   (exchange_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
                        ? context_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ||
                              thread_mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL
                        : thread_mode <= ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
    return refused ? emu_error(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, api,
                               "a stream capture (aclmdlRICaptureBegin) in mode %d is under way: synchronous work is "
                               "refused (aclmdlRICaptureThreadExchangeMode(RELAXED) lets this thread do it)",
                               context_mode)
                   : 0;
}

void emu_stream_on_kernel_task(emu_task_fn fn)
{
    kernel_task = fn;
}

bool emu_task_is_kernel(emu_task_fn fn)
{
    return fn && fn == kernel_task;
}

uint32_t emu_stream_overflow_switch(emu_stream *s, int set)
{
    pthread_mutex_lock(&s->mu);
    if (set >= 0)
        s->overflow_switch = (uint32_t)set;
    uint32_t v = s->overflow_switch;
    pthread_mutex_unlock(&s->mu);
    return v;
}

void emu_stream_get_config(emu_stream *s, uint32_t *priority, uint32_t *flags, uint32_t *id)
{
    pthread_mutex_lock(&s->mu);
    *priority = s->priority;
    *flags = s->flags;
    *id = s->id;
    pthread_mutex_unlock(&s->mu);
}

bool emu_stream_wait_idle(emu_stream *s, int32_t timeout_ms)
{
    restart_workers();
    struct timespec deadline = emu_deadline_after_ms(timeout_ms);
    pthread_mutex_lock(&s->mu);
    bool idle = s->completed >= s->enqueued || wait_until_locked(s, s->enqueued, &deadline);
    pthread_mutex_unlock(&s->mu);
    return idle;
}

bool emu_stream_idle(emu_stream *s)
{
    pthread_mutex_lock(&s->mu);
    bool idle = s->completed >= s->enqueued;
    pthread_mutex_unlock(&s->mu);
    return idle;
}

void emu_stream_mark_host_synced(emu_stream *s, uint64_t seq)
{
    pthread_mutex_lock(&s->mu);
    if (seq > s->host_synced) /* tasks before seq have completed; seq itself is an event record */
        s->host_synced = seq;
    pthread_mutex_unlock(&s->mu);
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
