/*
 * Events: markers recorded into a stream's order. Recording enqueues a task
 * that completes the event (and stamps it with the host's monotonic clock)
 * when the stream reaches it; aclrtStreamWaitEvent enqueues a task that
 * blocks its stream until the event's latest record has completed, which
 * gives real ordering between streams.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

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

typedef struct emu_event {
    int refs;           /* the handle, plus one per queued task that uses the event */
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
    if (--e->refs == 0)
        free(e);
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
    if (e->completed < gen)
        e->completed = gen;
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

static int wait_run(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    ev_task *t = ctx;
    int st = 0;
    pthread_mutex_lock(&ev_mu);
    while (t->e->completed < t->gen) {
        if (emu_stream_fork_pending()) {
            st = EMU_TASK_AGAIN;
            break;
        }
        pthread_cond_wait(&ev_cv, &ev_mu);
    }
    pthread_mutex_unlock(&ev_mu);
    return st;
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

/* Enqueues fn on the stream for event e; gen is the record it concerns. */
static int enqueue(const char *api, aclrtStream stream, emu_event *e, emu_task_fn fn, emu_release_fn release,
                   bool new_record)
{
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st)
        return st;
    ev_task *t = malloc(sizeof *t);
    if (!t)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    pthread_mutex_lock(&ev_mu);
    e->refs++;
    t->e = e;
    t->gen = new_record ? ++e->recorded : e->recorded;
    pthread_mutex_unlock(&ev_mu);
    /* On failure enqueue releases the task: a record then completes at once. */
    uint64_t gen = t->gen, seq = 0;
    if ((st = emu_stream_enqueue(s, fn, release, t, &seq)) != 0)
        return emu_error(st, api, "out of memory");
    if (new_record) {
        pthread_mutex_lock(&ev_mu);
        if (e->recorded == gen) {
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

static void fork_prepare(void)
{
    pthread_mutex_lock(&ev_mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&ev_mu);
}

static void fork_child(void)
{
    pthread_cond_init(&ev_cv, NULL); /* its waiters were threads that do not exist here */
    pthread_mutex_unlock(&ev_mu);
}

__attribute__((constructor(EMU_ATFORK_EVENT))) static void event_atfork(void)
{
    emu_stream_on_fork(kick_waits);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* ---- API --------------------------------------------------------------- */

static int check_event(const char *api, aclrtEvent event, const char *param)
{
    if (!event)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", param);
    return emu_check_handle(event, EMU_EVENT, ACL_ERROR_RT_INVALID_HANDLE, api, param);
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
    if (flag & EVENT_IPC)
        return emu_error(ACL_ERROR_FEATURE_UNSUPPORTED, api,
                         "ACL_EVENT_IPC (events shared between processes) is not supported by the emulator");
    int32_t dev = 0;
    int st = emu_current_device(api, &dev);
    if (st)
        return st;
    emu_event *e = calloc(1, sizeof *e);
    if (!e)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    e->refs = 1;
    e->flags = flag;
    if (emu_registry_add(e, EMU_EVENT, api) != 0) {
        free(e);
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
    /* Queued records and waits keep the event alive; the handle dies now. */
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

ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    EMU_API_ENTRY();
    int st = check_event(api, event, "event");
    if (st)
        return st;
    if (flag > 1)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "flag %u is not ACL_EVENT_RECORD_DEFAULT (0) or ACL_EVENT_RECORD_EXTERNAL (1)", (unsigned)flag);
    return enqueue(api, stream, event, record_run, record_release, true);
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
    EMU_API_ENTRY();
    int st = check_event(api, event, "event");
    return st ? st : enqueue(api, stream, event, reset_run, task_release, false);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    EMU_API_ENTRY();
    int st = check_event(api, event, "event");
    return st ? st : enqueue(api, stream, event, wait_run, task_release, false);
}

/* The arguments of a status query. */
static int check_query(const char *api, aclrtEvent event, const void *status)
{
    int st = check_event(api, event, "event");
    if (!st && !status)
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "status is NULL");
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
    EMU_API_ENTRY();
    int st = check_query(api, event, status);
    if (st)
        return st;
    emu_event *e = event;
    pthread_mutex_lock(&ev_mu);
    *status = e->completed >= e->recorded ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    pthread_mutex_unlock(&ev_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    EMU_API_ENTRY();
    int st = check_query(api, event, status);
    if (st)
        return st;
    emu_event *e = event;
    pthread_mutex_lock(&ev_mu);
    /* Recorded-status semantics: an event never recorded (or reset) is not complete. */
    bool done = e->recorded > 0 && e->completed >= e->recorded && !e->reset;
    *status = done ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    pthread_mutex_unlock(&ev_mu);
    return ACL_SUCCESS;
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
    uint64_t target = e->recorded;
    emu_stream *rec_stream = e->rec_stream;
    uint64_t rec_seq = e->rec_seq;
    while (e->completed < target && st == 0) {
        if (timeout < 0)
            pthread_cond_wait(&ev_cv, &ev_mu);
        else if (pthread_cond_timedwait(&ev_cv, &ev_mu, &deadline) == ETIMEDOUT && e->completed < target)
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

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    EMU_API_ENTRY();
    int st = 0;
    if (!ms)
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "ms is NULL");
    if (!st)
        st = check_event(api, startEvent, "startEvent");
    if (!st)
        st = check_event(api, endEvent, "endEvent");
    if (st)
        return st;
    emu_event *a = startEvent, *b = endEvent;
    pthread_mutex_lock(&ev_mu);
    bool ready = a->stamped && b->stamped && a->completed >= a->recorded && b->completed >= b->recorded;
    double d = (double)(b->stamp.tv_sec - a->stamp.tv_sec) * 1e3 + (double)(b->stamp.tv_nsec - a->stamp.tv_nsec) / 1e6;
    pthread_mutex_unlock(&ev_mu);
    if (!ready)
        return emu_error(ACL_ERROR_RT_EVENT_NOT_COMPLETE, api,
                         "both events must have been recorded and completed (synchronise the event or its stream "
                         "first)");
    *ms = (float)d;
    emu_log(EMU_LOG_INFO, "%s start=%p end=%p -> 0 (%.3f ms)", api, startEvent, endEvent, d);
    return ACL_SUCCESS;
}
