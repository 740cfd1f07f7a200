/*
 * Events: markers recorded into a stream's order. Recording enqueues a task
 * that completes the event (and stamps it with the host's monotonic clock)
 * when the stream reaches it; aclrtStreamWaitEvent enqueues a task that
 * blocks its stream until the event's latest record has completed, which
 * gives real ordering between streams. Host callbacks (at the end) are
 * stream work that waits on a host thread, and share the events' lock.
 * An IPC event (ACL_EVENT_IPC) keeps its record counters in POSIX shared
 * memory, so that every process that opened its handle records and waits on
 * the same event; its waits poll, since no condition spans processes.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"

/* Flags CANN defines for aclrtCreateEventWithFlag (acl_rt.h). */
#define EVENT_SYNC 0x01U
#define EVENT_CAPTURE_STREAM_PROGRESS 0x02U
#define EVENT_TIME_LINE 0x08U
#define EVENT_DEVICE_USE_ONLY 0x10U
#define EVENT_EXTERNAL 0x20U
#define EVENT_IPC 0x40U
#define EVENT_KNOWN_FLAGS \
    (EVENT_SYNC | EVENT_CAPTURE_STREAM_PROGRESS | EVENT_TIME_LINE | EVENT_DEVICE_USE_ONLY | EVENT_EXTERNAL | EVENT_IPC)

/* An IPC event's state, in shared memory: CANN's record counters, as seen by every process. */
typedef struct ipc_state {
    uint64_t magic;
    _Atomic uint64_t recorded, completed;
} ipc_state;

#define IPC_MAGIC 0x6e6576456d6541ULL /* "AEmEven" */
#define IPC_POLL_MS 1

/* What aclrtIpcGetEventHandle writes into the handle's 64 bytes. */
typedef struct ipc_handle_bytes {
    uint64_t magic;
    char name[48]; /* the shared memory object's name */
} ipc_handle_bytes;

typedef struct emu_event {
    int refs;           /* the handle, plus one per queued task that uses the event */
    ipc_state *ipc;     /* an IPC event's shared counters (else NULL): they stand for recorded/completed */
    bool ipc_owner;     /* this process created it: it removes the shared memory object */
    char ipc_name[48];
    uint32_t flags;
    uint64_t recorded;  /* records enqueued */
    uint64_t completed; /* the latest record that has completed (records finish in stream order) */
    bool reset;         /* aclrtResetEvent ran after the latest record */
    bool stamped;
    struct timespec stamp; /* CLOCK_MONOTONIC when the latest record ran */
    emu_stream *rec_stream; /* where the latest record was enqueued, as task rec_seq: */
    uint64_t rec_seq;       /* synchronising with the event synchronises with that stream up to it */
} emu_event;

/* One lock and one condition for all events: waits are rare and short to check. */
static pthread_mutex_t ev_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cv = PTHREAD_COND_INITIALIZER;

static void unref_locked(emu_event *e)
{
    if (--e->refs)
        return;
    if (e->ipc) {
        munmap(e->ipc, sizeof *e->ipc);
        if (e->ipc_owner)
            shm_unlink(e->ipc_name);
    }
    free(e);
}

/* The latest record enqueued and the latest completed: this process's, or the shared ones. */
static uint64_t recorded_of(const emu_event *e)
{
    return e->ipc ? atomic_load(&e->ipc->recorded) : e->recorded;
}

static uint64_t completed_of(const emu_event *e)
{
    return e->ipc ? atomic_load(&e->ipc->completed) : e->completed;
}

/* Waits on ev_cv (held) until deadline (NULL: forever); an IPC event's is a poll. ETIMEDOUT past it. */
static int wait_cv(const emu_event *e, const struct timespec *deadline)
{
    if (!e->ipc)
        return deadline ? pthread_cond_timedwait(&ev_cv, &ev_mu, deadline) : pthread_cond_wait(&ev_cv, &ev_mu);
    struct timespec poll = emu_deadline_after_ms(IPC_POLL_MS);
    bool last = deadline && (deadline->tv_sec < poll.tv_sec ||
                             (deadline->tv_sec == poll.tv_sec && deadline->tv_nsec < poll.tv_nsec));
    int rc = pthread_cond_timedwait(&ev_cv, &ev_mu, last ? deadline : &poll);
    return last ? rc : 0;
}

static void event_unref(void *p)
{
    pthread_mutex_lock(&ev_mu);
    unref_locked(p);
    pthread_mutex_unlock(&ev_mu);
}

/* ---- stream tasks ------------------------------------------------------ */

typedef struct ev_task {
    emu_event *e;
    uint64_t gen;
} ev_task;

static void complete_locked(emu_event *e, uint64_t gen)
{
    if (e->ipc) {
        uint64_t seen = atomic_load(&e->ipc->completed);
        while (seen < gen && !atomic_compare_exchange_weak(&e->ipc->completed, &seen, gen))
            ;
    } else if (e->completed < gen) {
        e->completed = gen;
    }
    pthread_cond_broadcast(&ev_cv);
}

static int record_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    ev_task *t = ctx;
    pthread_mutex_lock(&ev_mu);
    clock_gettime(CLOCK_MONOTONIC, &t->e->stamp);
    t->e->stamped = true;
    t->e->reset = false;
    complete_locked(t->e, t->gen);
    pthread_mutex_unlock(&ev_mu);
    return 0;
}

/* Also runs for a record that was dropped (aclrtDestroyStreamForce, stop on
 * failure): the event still completes, so no stream waits on it forever. */
static void record_release(void *ctx)
{
    ev_task *t = ctx;
    pthread_mutex_lock(&ev_mu);
    complete_locked(t->e, t->gen);
    unref_locked(t->e);
    pthread_mutex_unlock(&ev_mu);
    free(t);
}

/* Blocks a stream task until done(t), stepping aside when fork() is waiting. */
static int wait_for(const ev_task *t, bool (*done)(const ev_task *))
{
    int st = 0;
    pthread_mutex_lock(&ev_mu);
    while (!done(t)) {
        if (emu_stream_fork_pending()) {
            st = EMU_TASK_AGAIN;
            break;
        }
        wait_cv(t->e, NULL);
    }
    pthread_mutex_unlock(&ev_mu);
    return st;
}

static bool record_completed(const ev_task *t)
{
    return completed_of(t->e) >= t->gen;
}

static int wait_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    return wait_for(ctx, record_completed);
}

static int reset_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    ev_task *t = ctx;
    pthread_mutex_lock(&ev_mu);
    t->e->reset = true;
    t->e->stamped = false;
    pthread_mutex_unlock(&ev_mu);
    return 0;
}

static void task_release(void *ctx)
{
    ev_task *t = ctx;
    event_unref(t->e);
    free(t);
}

/* ---- event work in a model (captured, or on a stream bound to a model) ----
 * Its record or wait is bound when the model is launched, not when it was
 * captured: a record takes a new record number at every launch, a wait the
 * latest record at launch (none after a reset), as CANN's capture models do.
 * A legacy event made with ACL_EVENT_EXTERNAL is waited on level-triggered
 * instead: at every run, until it has a completed record with no reset after
 * it (the host's record releases the model, the model's reset re-arms it). */

static void bind_record(void *ctx, emu_stream *exec)
{
    (void)exec;
    ev_task *t = ctx;
    pthread_mutex_lock(&ev_mu);
    t->gen = t->e->ipc ? atomic_fetch_add(&t->e->ipc->recorded, 1) + 1 : ++t->e->recorded;
    t->e->rec_stream = NULL; /* the model's launch, not a stream task, completes it */
    pthread_mutex_unlock(&ev_mu);
}

static void bind_wait(void *ctx, emu_stream *exec)
{
    (void)exec;
    ev_task *t = ctx;
    pthread_mutex_lock(&ev_mu);
    t->gen = t->e->reset ? 0 : recorded_of(t->e);
    pthread_mutex_unlock(&ev_mu);
}

static bool recorded_not_reset(const ev_task *t)
{
    return recorded_of(t->e) > 0 && completed_of(t->e) >= recorded_of(t->e) && !t->e->reset;
}

static int wait_level_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    return wait_for(ctx, recorded_not_reset);
}

static int enqueue_captured(const char *api, emu_stream *s, emu_event *e, emu_task_fn fn, emu_release_fn release,
                            bool new_record)
{
    if (e->ipc)
        return emu_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api, "event %p is an IPC event: a model cannot use it",
                         (void *)e);
    ev_task *t = malloc(sizeof *t);
    if (!t)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    pthread_mutex_lock(&ev_mu);
    e->refs++;
    pthread_mutex_unlock(&ev_mu);
    *t = (ev_task){.e = e};
    emu_bind_fn bind = NULL;
    if (new_record)
        bind = bind_record;
    else if (fn == wait_run && (e->flags & EVENT_EXTERNAL))
        fn = wait_level_run;
    else if (fn == wait_run)
        bind = bind_wait;
    int st = emu_stream_enqueue_bound(s, fn, release, t, bind, NULL);
    if (st)
        return emu_error(st, api, "the model refused the event's task (see the stream's capture state)");
    emu_log(EMU_LOG_INFO, "%s event=%p stream=%p -> 0 (in a model)", api, (void *)e, (void *)s);
    return ACL_SUCCESS;
}

/* Enqueues fn on the stream for event e; gen is the record it concerns. */
static int enqueue(const char *api, aclrtStream stream, emu_event *e, emu_task_fn fn, emu_release_fn release,
                   bool new_record)
{
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st)
        return st;
    if (emu_stream_sink(s, NULL, NULL))
        return enqueue_captured(api, s, e, fn, release, new_record);
    ev_task *t = malloc(sizeof *t);
    if (!t)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    pthread_mutex_lock(&ev_mu);
    e->refs++;
    t->e = e;
    if (e->ipc)
        t->gen = new_record ? atomic_fetch_add(&e->ipc->recorded, 1) + 1 : atomic_load(&e->ipc->recorded);
    else
        t->gen = new_record ? ++e->recorded : e->recorded;
    pthread_mutex_unlock(&ev_mu);
    /* On failure enqueue releases the task: a record then completes at once. */
    uint64_t gen = t->gen, seq = 0;
    if ((st = emu_stream_enqueue(s, fn, release, t, &seq)) != 0)
        return emu_error(st, api, "out of memory");
    if (new_record) {
        pthread_mutex_lock(&ev_mu);
        if (recorded_of(e) == gen) {
            e->rec_stream = s;
            e->rec_seq = seq;
        }
        pthread_mutex_unlock(&ev_mu);
    }
    emu_log(EMU_LOG_INFO, "%s event=%p stream=%p -> 0", api, (void *)e, stream);
    return ACL_SUCCESS;
}

/* fork(): wake blocked waits so that they step aside (see stream.c). */
static void kick_waits(void)
{
    pthread_mutex_lock(&ev_mu);
    pthread_cond_broadcast(&ev_cv);
    pthread_mutex_unlock(&ev_mu);
}

EMU_FORK_SAFE_MUTEX_COND(ev_mu, ev_cv, EMU_ATFORK_EVENT)

__attribute__((constructor)) static void event_on_fork(void) /* fork() wakes the event waits */
{
    emu_stream_on_fork(kick_waits);
}

/* ---- API --------------------------------------------------------------- */

static int check_event(const char *api, aclrtEvent event, const char *param)
{
    return emu_check_handle_arg(event, EMU_EVENT, ACL_ERROR_RT_INVALID_HANDLE, api, param);
}

/* ---- IPC events ------------------------------------------------------------ */

/* Maps the shared counters of name; creates them when create. */
static ipc_state *ipc_map(const char *name, bool create)
{
    int fd = shm_open(name, create ? O_RDWR | O_CREAT | O_EXCL : O_RDWR, 0600);
    if (fd < 0)
        return NULL;
    if (create && ftruncate(fd, sizeof(ipc_state)) != 0) {
        close(fd);
        shm_unlink(name);
        return NULL;
    }
    void *p = mmap(NULL, sizeof(ipc_state), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        if (create)
            shm_unlink(name);
        return NULL;
    }
    return p;
}

static int ipc_create(const char *api, emu_event *e)
{
    static atomic_uint serial;
    snprintf(e->ipc_name, sizeof e->ipc_name, "/aclnn_emu_event_%ld_%u", (long)getpid(),
             atomic_fetch_add(&serial, 1));
    e->ipc = ipc_map(e->ipc_name, true);
    if (!e->ipc)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "cannot make the IPC event's shared memory %s: %s",
                         e->ipc_name, strerror(errno));
    e->ipc_owner = true;
    e->ipc->magic = IPC_MAGIC;
    return 0;
}

/* CANN refuses these calls on an IPC event (RT_FEATURE_NOT_SUPPORT). */
static int refuse_ipc(const char *api, aclrtEvent event)
{
    const emu_event *e = event;
    return e->ipc ? emu_error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api, "event %p is an IPC event: %s does not take one",
                              event, api)
                  : 0;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
    EMU_API_ENTRY();
    if (!handle)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "handle is NULL");
    int st = check_event(api, event, "event");
    if (st)
        return st;
    const emu_event *e = event;
    if (!e->ipc)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "event %p was not created with ACL_EVENT_IPC: only IPC events have a handle", event);
    ipc_handle_bytes b = {.magic = IPC_MAGIC};
    memcpy(b.name, e->ipc_name, sizeof b.name);
    memcpy(handle->reserved, &b, sizeof b);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
    EMU_API_ENTRY();
    if (!event)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "event is NULL");
    int32_t dev = 0;
    int st = emu_current_device(api, &dev);
    if (st)
        return st;
    ipc_handle_bytes b;
    memcpy(&b, handle.reserved, sizeof b);
    b.name[sizeof b.name - 1] = 0;
    ipc_state *shared = b.magic == IPC_MAGIC && b.name[0] == '/' ? ipc_map(b.name, false) : NULL;
    if (!shared || shared->magic != IPC_MAGIC) {
        if (shared)
            munmap(shared, sizeof *shared);
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api,
                         "the handle is not one aclrtIpcGetEventHandle gave for a live IPC event");
    }
    emu_event *e = calloc(1, sizeof *e);
    if (!e) {
        munmap(shared, sizeof *shared);
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    }
    *e = (emu_event){.refs = 1, .flags = EVENT_IPC, .ipc = shared};
    memcpy(e->ipc_name, b.name, sizeof e->ipc_name);
    if (emu_registry_add(e, EMU_EVENT, api) != 0) {
        unref_locked(e);
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    }
    *event = e;
    return ACL_SUCCESS;
}

static aclError create_event(const char *api, aclrtEvent *event, uint32_t flag)
{
    if (!event)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "event is NULL");
    if (flag & ~EVENT_KNOWN_FLAGS)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "flag 0x%x has bits CANN does not define (ACL_EVENT_SYNC, _CAPTURE_STREAM_PROGRESS, "
                         "_TIME_LINE, _DEVICE_USE_ONLY, _EXTERNAL, _IPC)",
                         (unsigned)flag);
    if ((flag & EVENT_IPC) && flag != EVENT_IPC)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "flag 0x%x: ACL_EVENT_IPC stands alone, with no other flag",
                         (unsigned)flag);
    int32_t dev = 0;
    int st = emu_current_device(api, &dev);
    if (st)
        return st;
    emu_event *e = calloc(1, sizeof *e);
    if (!e)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    e->refs = 1;
    e->flags = flag;
    if ((flag & EVENT_IPC) && (st = ipc_create(api, e)) != 0) {
        free(e);
        return st;
    }
    if (emu_registry_add(e, EMU_EVENT, api) != 0) {
        unref_locked(e);
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    }
    *event = e;
    emu_log(EMU_LOG_INFO, "%s flag=0x%x -> 0 (event %p)", api, (unsigned)flag, (void *)e);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event)
{
    EMU_API_ENTRY();
    return create_event(api, event, EVENT_SYNC);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
    EMU_API_ENTRY();
    return create_event(api, event, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
    EMU_API_ENTRY();
    return create_event(api, event, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
    EMU_API_ENTRY();
    int st = check_event(api, event, "event");
    if (st)
        return st;
    /* Queued records and waits keep the event alive; the handle dies now, and so does an IPC event's
     * name: no process opens it after its creator destroyed it (those that did keep their mapping). */
    emu_event *e = event;
    pthread_mutex_lock(&ev_mu);
    if (e->ipc_owner) {
        shm_unlink(e->ipc_name);
        e->ipc_owner = false;
    }
    pthread_mutex_unlock(&ev_mu);
    emu_registry_release(event, EMU_EVENT, sizeof(emu_event), event_unref);
    emu_log(EMU_LOG_INFO, "%s event=%p -> 0", api, event);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = check_event(api, event, "event");
    return st ? st : enqueue(api, stream, event, record_run, record_release, true);
}

/* An external record or wait belongs in a capture: ACL_ERROR_RT_STREAM_NOT_CAPTURED elsewhere. */
static int require_capture(const char *api, aclrtStream stream)
{
    emu_stream *s;
    int mode, st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (!st)
        emu_stream_sink(s, &mode, NULL);
    if (!st && mode < 0)
        st = emu_error(ACL_ERROR_RT_STREAM_NOT_CAPTURED, api,
                       "stream %p is not being captured: the EXTERNAL flag is for work inside a capture", stream);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    EMU_API_ENTRY();
    int st = check_event(api, event, "event");
    if (st)
        return st;
    if (flag > 1)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "flag %u is not ACL_EVENT_RECORD_DEFAULT (0) or ACL_EVENT_RECORD_EXTERNAL (1)", (unsigned)flag);
    if (flag == 1 && (st = require_capture(api, stream)) != 0)
        return st;
    return enqueue(api, stream, event, record_run, record_release, true);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag)
{
    EMU_API_ENTRY();
    if (!event)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "event is NULL");
    if (flag > 1 || (flag == 1 && timeout != 0))
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         flag > 1 ? "flag %u is not ACL_EVENT_WAIT_DEFAULT (0) or ACL_EVENT_WAIT_EXTERNAL (1)"
                                  : "flag %u (ACL_EVENT_WAIT_EXTERNAL) takes timeout 0",
                         (unsigned)flag);
    int st = check_event(api, event, "event");
    if (!st && flag == 1)
        st = require_capture(api, stream);
    return st ? st : enqueue(api, stream, event, wait_run, task_release, false);
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = check_event(api, event, "event");
    if (!st)
        st = refuse_ipc(api, event);
    return st ? st : enqueue(api, stream, event, reset_run, task_release, false);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    EMU_API_ENTRY();
    int st = check_event(api, event, "event");
    return st ? st : enqueue(api, stream, event, wait_run, task_release, false);
}

/* What the queries report of an event, read at once. */
typedef struct ev_state {
    bool nothing_pending; /* the latest record (if any) has completed */
    bool recorded;        /* ... and there was one, not reset since */
    bool timed;           /* ... and it carries a time stamp */
    double stamp_us;      /* CLOCK_MONOTONIC, microseconds */
} ev_state;

static ev_state snapshot(const emu_event *e)
{
    pthread_mutex_lock(&ev_mu);
    uint64_t recorded = recorded_of(e);
    ev_state v = {.nothing_pending = completed_of(e) >= recorded};
    /* CANN: an IPC event with nothing pending reads as recorded, whether a record ever ran or not. */
    v.recorded = v.nothing_pending && (e->ipc || (recorded > 0 && !e->reset));
    v.timed = v.nothing_pending && e->stamped;
    v.stamp_us = (double)e->stamp.tv_sec * 1e6 + (double)e->stamp.tv_nsec / 1e3;
    pthread_mutex_unlock(&ev_mu);
    return v;
}

/* Checks a query's arguments (event, then output), then reads the event. */
static int query(const char *api, aclrtEvent event, const char *event_param, const void *out, const char *out_param,
                 ev_state *v)
{
    int st = check_event(api, event, event_param);
    if (!st && !out)
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", out_param);
    if (!st)
        *v = snapshot(event);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
    EMU_API_ENTRY();
    ev_state v;
    int st = query(api, event, "event", status, "status", &v);
    if (!st)
        st = refuse_ipc(api, event);
    if (!st)
        *status = v.nothing_pending ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    EMU_API_ENTRY();
    ev_state v;
    int st = query(api, event, "event", status, "status", &v);
    /* Recorded-status semantics: an event never recorded (or reset) is not complete. */
    if (!st)
        *status = v.recorded ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return st;
}

static aclError synchronize(const char *api, aclrtEvent event, int32_t timeout)
{
    int st = emu_check_timeout(api, timeout);
    if (!st)
        st = check_event(api, event, "event");
    if (st)
        return st;
    emu_event *e = event;
    struct timespec deadline = emu_deadline_after_ms(timeout < 0 ? 0 : timeout);
    pthread_mutex_lock(&ev_mu);
    e->refs++; /* a concurrent aclrtDestroyEvent must not free it under us */
    uint64_t target = recorded_of(e);
    emu_stream *rec_stream = e->rec_stream;
    uint64_t rec_seq = e->rec_seq;
    while (completed_of(e) < target && st == 0) {
        if (wait_cv(e, timeout < 0 ? NULL : &deadline) == ETIMEDOUT && completed_of(e) < target)
            st = ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
    }
    unref_locked(e);
    pthread_mutex_unlock(&ev_mu);
    if (st)
        return emu_error(st, api, "event %p did not complete within %d ms", event, (int)timeout);
    /* Validation mode: the host has now seen that stream's work up to the record. */
    if (rec_stream && emu_registry_find(rec_stream, EMU_STREAM) == EMU_LIVE)
        emu_stream_mark_host_synced(rec_stream, rec_seq);
    emu_log(EMU_LOG_INFO, "%s event=%p -> 0", api, event);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event)
{
    EMU_API_ENTRY();
    return synchronize(api, event, -1);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
    EMU_API_ENTRY();
    return synchronize(api, event, timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
    EMU_API_ENTRY();
    ev_state v;
    int st = query(api, event, "event", timestamp, "timestamp", &v);
    if (!st)
        st = refuse_ipc(api, event);
    if (!st && !v.timed)
        st = emu_error(ACL_ERROR_RT_EVENT_NOT_COMPLETE, api,
                       "event %p has no completed record (synchronise the event or its stream first)", event);
    if (!st)
        *timestamp = (uint64_t)v.stamp_us;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    EMU_API_ENTRY();
    ev_state a, b;
    int st = ms ? 0 : emu_error(ACL_ERROR_INVALID_PARAM, api, "ms is NULL");
    if (!st)
        st = query(api, startEvent, "startEvent", ms, "ms", &a);
    if (!st)
        st = query(api, endEvent, "endEvent", ms, "ms", &b);
    if (!st && (st = refuse_ipc(api, startEvent)) == 0)
        st = refuse_ipc(api, endEvent);
    if (!st && !(a.timed && b.timed))
        st = emu_error(ACL_ERROR_RT_EVENT_NOT_COMPLETE, api,
                       "both events must have been recorded and completed (synchronise the event or its stream "
                       "first)");
    if (st)
        return st;
    *ms = (float)((b.stamp_us - a.stamp_us) / 1e3);
    emu_log(EMU_LOG_INFO, "%s start=%p end=%p -> 0 (%.3f ms)", api, startEvent, endEvent, (double)*ms);
    return ACL_SUCCESS;
}

/* ---- notifies -------------------------------------------------------------
 * A notify is a flag one stream raises (aclrtRecordNotify) and another
 * stream waits for and lowers (aclrtWaitAndResetNotify): each record wakes
 * one wait. It shares the events' lock and fork() handling. */

typedef struct emu_notify {
    int refs;  /* the handle, plus one per queued task */
    bool set;  /* recorded and not yet consumed by a wait */
} emu_notify;

typedef struct notify_task {
    emu_notify *n;
    uint32_t timeout_ms; /* 0: wait for ever */
} notify_task;

static void notify_unref_locked(emu_notify *n)
{
    if (--n->refs == 0)
        free(n);
}

static void notify_unref(void *p)
{
    pthread_mutex_lock(&ev_mu);
    notify_unref_locked(p);
    pthread_mutex_unlock(&ev_mu);
}

static void notify_task_release(void *ctx)
{
    notify_task *t = ctx;
    notify_unref(t->n);
    free(t);
}

static int notify_record_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    notify_task *t = ctx;
    pthread_mutex_lock(&ev_mu);
    t->n->set = true;
    pthread_cond_broadcast(&ev_cv);
    pthread_mutex_unlock(&ev_mu);
    return 0;
}

static int notify_wait_run(void *ctx, char *msg, size_t cap)
{
    notify_task *t = ctx;
    struct timespec deadline = emu_deadline_after_ms((int32_t)(t->timeout_ms > INT32_MAX ? INT32_MAX : t->timeout_ms));
    int st = 0;
    pthread_mutex_lock(&ev_mu);
    while (!t->n->set && st == 0) {
        if (emu_stream_fork_pending())
            st = EMU_TASK_AGAIN;
        else if (t->timeout_ms == 0)
            pthread_cond_wait(&ev_cv, &ev_mu);
        else if (pthread_cond_timedwait(&ev_cv, &ev_mu, &deadline) == ETIMEDOUT && !t->n->set)
            st = ACL_ERROR_RT_WAIT_TIMEOUT;
    }
    if (st == 0)
        t->n->set = false;
    pthread_mutex_unlock(&ev_mu);
    if (st == ACL_ERROR_RT_WAIT_TIMEOUT)
        snprintf(msg, cap, "aclrtWaitAndResetNotify: the notify was not recorded within %u ms",
                 (unsigned)t->timeout_ms);
    return st;
}

static int check_notify(const char *api, aclrtNotify notify)
{
    return emu_check_handle_arg(notify, EMU_NOTIFY, ACL_ERROR_RT_INVALID_HANDLE, api, "notify");
}

static aclError enqueue_notify(const char *api, aclrtNotify notify, aclrtStream stream, emu_task_fn fn,
                               uint32_t timeout_ms)
{
    int st = check_notify(api, notify);
    emu_stream *s;
    if (st || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    notify_task *t = malloc(sizeof *t);
    if (!t)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    pthread_mutex_lock(&ev_mu);
    ((emu_notify *)notify)->refs++;
    pthread_mutex_unlock(&ev_mu);
    *t = (notify_task){notify, timeout_ms};
    if ((st = emu_stream_enqueue(s, fn, notify_task_release, t, NULL)) != 0)
        return emu_error(st, api, "out of memory");
    emu_log(EMU_LOG_INFO, "%s notify=%p stream=%p -> 0", api, notify, stream);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
    EMU_API_ENTRY();
    if (!notify)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "notify is NULL");
    if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "flag 0x%llx is not ACL_NOTIFY_DEFAULT (0) or ACL_NOTIFY_DEVICE_USE_ONLY (1)",
                         (unsigned long long)flag);
    int32_t dev = 0;
    int st = emu_current_device(api, &dev);
    if (st)
        return st;
    emu_notify *n = calloc(1, sizeof *n);
    if (!n)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    n->refs = 1;
    if (emu_registry_add(n, EMU_NOTIFY, api) != 0) {
        free(n);
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    }
    *notify = n;
    emu_log(EMU_LOG_INFO, "%s flag=0x%llx -> 0 (notify %p)", api, (unsigned long long)flag, (void *)n);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify)
{
    EMU_API_ENTRY();
    int st = check_notify(api, notify);
    if (st)
        return st;
    emu_registry_release(notify, EMU_NOTIFY, sizeof(emu_notify), notify_unref); /* queued tasks keep it alive */
    emu_log(EMU_LOG_INFO, "%s notify=%p -> 0", api, notify);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
    EMU_API_ENTRY();
    return enqueue_notify(api, notify, stream, notify_record_run, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout)
{
    EMU_API_ENTRY();
    return enqueue_notify(api, notify, stream, notify_wait_run, timeout);
}

/* ---- host callbacks ------------------------------------------------------
 * aclrtLaunchCallback enqueues a task that hands a report to the host thread
 * subscribed to the stream (aclrtSubscribeReport); that thread runs it in
 * aclrtProcessReport. A blocking callback holds its stream until it has run.
 * Host functions are the same with their own subscription
 * (aclrtSubscribeHostFunc / aclrtProcessHostFunc), always blocking; on a
 * stream no thread subscribed to, they run on the stream's worker.
 * They share the events' lock and fork() handling: both are stream work that
 * waits on the host. */

typedef enum sub_kind { SUB_REPORT, SUB_HOST_FUNC } sub_kind;

static const struct {
    const char *subscribe, *process;
} sub_names[] = {{"aclrtSubscribeReport", "aclrtProcessReport"}, {"aclrtSubscribeHostFunc", "aclrtProcessHostFunc"}};

typedef struct report {
    aclrtCallback fn;
    void *user_data;
    uint64_t thread;
    emu_stream *stream;
    sub_kind kind;
    bool block; /* the stream waits until it has run */
    bool queued, done;
    int refs; /* the task, and the queue while it holds the report */
    struct report *next;
} report;

typedef struct subscription {
    emu_stream *stream;
    uint64_t thread;
    sub_kind kind;
} subscription;

#define MAX_SUBSCRIPTIONS 1024
static subscription subs[MAX_SUBSCRIPTIONS]; /* guarded by ev_mu */
static size_t n_subs;
static report *reports_head, *reports_tail; /* reports waiting for their thread, guarded by ev_mu */

static void report_unref_locked(report *r)
{
    if (--r->refs == 0)
        free(r);
}

static ptrdiff_t find_sub_locked(const emu_stream *s, sub_kind kind)
{
    for (size_t i = 0; i < n_subs; i++)
        if (subs[i].stream == s && subs[i].kind == kind)
            return (ptrdiff_t)i;
    return -1;
}

static int callback_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    report *r = ctx;
    int st = 0;
    pthread_mutex_lock(&ev_mu);
    if (!r->queued) { /* first run (a blocking one may be re-run after a fork) */
        r->queued = true;
        r->refs++;
        if (reports_tail)
            reports_tail->next = r;
        else
            reports_head = r;
        reports_tail = r;
        pthread_cond_broadcast(&ev_cv);
    }
    while (r->block && !r->done && st == 0) {
        if (emu_stream_fork_pending())
            st = EMU_TASK_AGAIN;
        else
            pthread_cond_wait(&ev_cv, &ev_mu);
    }
    pthread_mutex_unlock(&ev_mu);
    return st;
}

static void callback_release(void *ctx)
{
    pthread_mutex_lock(&ev_mu);
    report_unref_locked(ctx);
    pthread_mutex_unlock(&ev_mu);
}

static aclError subscribe(const char *api, sub_kind kind, uint64_t threadId, aclrtStream stream)
{
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st)
        return st;
    pthread_mutex_lock(&ev_mu);
    for (size_t i = 0; i < n_subs;) /* forget streams destroyed since they were subscribed */
        if (emu_registry_find(subs[i].stream, EMU_STREAM) != EMU_LIVE)
            subs[i] = subs[--n_subs];
        else
            i++;
    ptrdiff_t at = find_sub_locked(s, kind);
    if (at >= 0)
        st = emu_error(ACL_ERROR_RT_STREAM_SUBSCRIBE, api, "stream %p is already subscribed by thread %llu",
                       (void *)s, (unsigned long long)subs[at].thread);
    else if (n_subs == MAX_SUBSCRIPTIONS)
        st = emu_error(ACL_ERROR_RT_STREAM_SUBSCRIBE, api, "more than %d subscriptions", MAX_SUBSCRIPTIONS);
    else
        subs[n_subs++] = (subscription){s, threadId, kind};
    pthread_mutex_unlock(&ev_mu);
    if (st == 0)
        emu_log(EMU_LOG_INFO, "%s threadId=%llu stream=%p -> 0", api, (unsigned long long)threadId, stream);
    return st;
}

static aclError unsubscribe(const char *api, sub_kind kind, uint64_t threadId, aclrtStream stream)
{
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st)
        return st;
    size_t dropped = 0;
    pthread_mutex_lock(&ev_mu);
    ptrdiff_t at = find_sub_locked(s, kind);
    if (at < 0 || subs[at].thread != threadId) {
        st = emu_error(ACL_ERROR_RT_STREAM_SUBSCRIBE, api, "stream %p is not subscribed by thread %llu (%s)",
                       (void *)s, (unsigned long long)threadId, sub_names[kind].subscribe);
    } else {
        subs[at] = subs[--n_subs];
        /* Reports of the stream that no thread will process now: dropped, so nothing waits for them. */
        report **pp = &reports_head;
        reports_tail = NULL;
        while (*pp) {
            report *r = *pp;
            if (r->stream == s && r->kind == kind) {
                *pp = r->next;
                r->done = true;
                dropped++;
                report_unref_locked(r);
            } else {
                reports_tail = r;
                pp = &r->next;
            }
        }
        pthread_cond_broadcast(&ev_cv);
    }
    pthread_mutex_unlock(&ev_mu);
    if (dropped)
        emu_log(EMU_LOG_WARNING, "%s: %zu callback(s) of stream %p were never processed and are dropped", api, dropped,
                (void *)s);
    if (st == 0)
        emu_log(EMU_LOG_INFO, "%s threadId=%llu stream=%p -> 0", api, (unsigned long long)threadId, stream);
    return st;
}

/* Enqueues fn as a report for the thread subscribed to the stream with kind;
 * *subscribed says whether there is one (nothing is enqueued otherwise). */
static aclError launch_report(const char *api, sub_kind kind, aclrtCallback fn, void *userData, bool block,
                              emu_stream *s, bool *subscribed)
{
    report *r = calloc(1, sizeof *r);
    if (!r)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    *r = (report){.fn = fn, .user_data = userData, .stream = s, .kind = kind, .block = block, .refs = 1};
    pthread_mutex_lock(&ev_mu);
    ptrdiff_t at = find_sub_locked(s, kind);
    if (at >= 0)
        r->thread = subs[at].thread;
    pthread_mutex_unlock(&ev_mu);
    *subscribed = at >= 0;
    if (at < 0) {
        free(r);
        return ACL_SUCCESS;
    }
    int st = emu_stream_enqueue(s, callback_run, callback_release, r, NULL);
    return st ? emu_error(st, api, "out of memory") : ACL_SUCCESS;
}

static aclError process(const char *api, sub_kind kind, int32_t timeout)
{
    if (timeout < -1 || timeout == 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "timeout %d: -1 waits for ever, a value > 0 waits that many milliseconds", (int)timeout);
    uint64_t self = (uint64_t)pthread_self();
    struct timespec deadline = emu_deadline_after_ms(timeout < 0 ? 0 : timeout);
    int st = 0;
    report *mine = NULL;
    pthread_mutex_lock(&ev_mu);
    bool subscribed = false;
    for (size_t i = 0; i < n_subs && !subscribed; i++)
        subscribed = subs[i].thread == self && subs[i].kind == kind;
    if (!subscribed)
        st = ACL_ERROR_RT_THREAD_SUBSCRIBE;
    while (st == 0 && !mine) {
        report **pp = &reports_head, *prev = NULL;
        while (*pp && ((*pp)->thread != self || (*pp)->kind != kind))
            prev = *pp, pp = &(*pp)->next;
        if (*pp) { /* the oldest report for this thread */
            mine = *pp;
            *pp = mine->next;
            if (reports_tail == mine)
                reports_tail = prev;
        } else if (timeout < 0) {
            pthread_cond_wait(&ev_cv, &ev_mu);
        } else if (pthread_cond_timedwait(&ev_cv, &ev_mu, &deadline) == ETIMEDOUT) {
            st = ACL_ERROR_RT_REPORT_TIMEOUT;
        }
    }
    pthread_mutex_unlock(&ev_mu);
    if (st == ACL_ERROR_RT_THREAD_SUBSCRIBE)
        return emu_error(st, api, "this thread (%llu) is not subscribed to any stream (%s)", (unsigned long long)self,
                         sub_names[kind].subscribe);
    if (st)
        return emu_error(st, api, "no callback report arrived within %d ms", (int)timeout);
    mine->fn(mine->user_data); /* on this thread, outside every lock */
    pthread_mutex_lock(&ev_mu);
    mine->done = true;
    pthread_cond_broadcast(&ev_cv);
    report_unref_locked(mine);
    pthread_mutex_unlock(&ev_mu);
    emu_log(EMU_LOG_INFO, "%s timeout=%d -> 0", api, (int)timeout);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    EMU_API_ENTRY();
    return subscribe(api, SUB_REPORT, threadId, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    EMU_API_ENTRY();
    return unsubscribe(api, SUB_REPORT, threadId, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    EMU_API_ENTRY();
    return subscribe(api, SUB_HOST_FUNC, hostFuncThreadId, exeStream);
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    EMU_API_ENTRY();
    return unsubscribe(api, SUB_HOST_FUNC, hostFuncThreadId, exeStream);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream)
{
    EMU_API_ENTRY();
    if (blockType != ACL_CALLBACK_BLOCK && blockType != ACL_CALLBACK_NO_BLOCK)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "blockType %d is not ACL_CALLBACK_BLOCK (1) or ACL_CALLBACK_NO_BLOCK (0)", (int)blockType);
    if (!fn)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "fn is NULL");
    emu_stream *s;
    bool subscribed;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st || (st = launch_report(api, SUB_REPORT, fn, userData, blockType == ACL_CALLBACK_BLOCK, s, &subscribed)))
        return st;
    if (!subscribed)
        return emu_error(ACL_ERROR_RT_STREAM_SUBSCRIBE, api,
                         "no thread is subscribed to stream %p (call aclrtSubscribeReport first)", (void *)s);
    emu_log(EMU_LOG_INFO, "%s blockType=%d stream=%p -> 0", api, (int)blockType, stream);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout)
{
    EMU_API_ENTRY();
    return process(api, SUB_REPORT, timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout)
{
    EMU_API_ENTRY();
    return process(api, SUB_HOST_FUNC, timeout);
}

typedef struct host_func {
    aclrtHostFunc fn;
    void *args;
} host_func;

static int host_func_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    host_func *h = ctx;
    h->fn(h->args);
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
    EMU_API_ENTRY();
    if (!fn)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "fn is NULL");
    emu_stream *s;
    bool subscribed;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st || (st = launch_report(api, SUB_HOST_FUNC, fn, args, true, s, &subscribed)))
        return st;
    if (!subscribed) { /* nobody subscribed: the stream's worker runs it */
        host_func *h = malloc(sizeof *h);
        if (!h)
            return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
        *h = (host_func){fn, args};
        if ((st = emu_stream_enqueue(s, host_func_run, free, h, NULL)) != 0)
            return emu_error(st, api, "out of memory");
    }
    emu_log(EMU_LOG_INFO, "%s stream=%p -> 0%s", api, stream, subscribed ? " (to the subscribed thread)" : "");
    return ACL_SUCCESS;
}
