/*
 * Events, stream timeouts, failure mode and forced destruction. Linked
 * against the library's objects so that it can enqueue test tasks that sleep
 * or fail (no public operator fails on demand); everything else goes through
 * the public API. Run with ACLNN_EMU_DEVICE_COUNT=2 (peer access).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "expect.h"
#include "runtime/runtime.h"


/* ---- test tasks ------------------------------------------------------ */

typedef struct sleep_task {
    long us;
    atomic_long *cell; /* written after the sleep (when not NULL) */
    long value;
} sleep_task;

static int run_sleep(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    sleep_task *t = ctx;
    struct timespec d = {t->us / 1000000, (t->us % 1000000) * 1000};
    nanosleep(&d, NULL);
    if (t->cell)
        atomic_store(t->cell, t->value);
    return 0;
}

static void sleep_then_store(aclrtStream stream, long us, atomic_long *cell, long value)
{
    sleep_task *t = malloc(sizeof *t);
    *t = (sleep_task){us, cell, value};
    if (emu_stream_enqueue(stream, run_sleep, free, t, NULL) != 0)
        ok(0, "enqueue");
}

typedef struct copy_task {
    atomic_long *from, *to;
} copy_task;

static int run_copy(void *ctx, char *msg, size_t cap)
{
    (void)msg, (void)cap;
    copy_task *t = ctx;
    atomic_store(t->to, atomic_load(t->from));
    return 0;
}

static int run_fail(void *ctx, char *msg, size_t cap)
{
    (void)ctx;
    snprintf(msg, cap, "test task failed on purpose");
    return ACL_ERROR_RT_INTERNAL_ERROR;
}

/* ---- tests ------------------------------------------------------------- */

/* A slow write on stream a, an event, stream b waiting: b's copy must see a's result. */
static void cross_stream_order(aclrtStream a, aclrtStream b)
{
    enum { N = 1000 };
    static atomic_long cell, seen[N];
    aclrtEvent e;
    expect(aclrtCreateEvent(&e), 0, NULL, "create event");
    for (long i = 0; i < N; i++) {
        sleep_then_store(a, i % 7 == 0 ? 200 : 0, &cell, i + 1);
        expect(aclrtRecordEvent(e, a), 0, NULL, "record");
        expect(aclrtStreamWaitEvent(b, e), 0, NULL, "wait");
        copy_task *t = malloc(sizeof *t);
        *t = (copy_task){&cell, &seen[i]};
        emu_stream_enqueue(b, run_copy, free, t, NULL);
    }
    expect(aclrtSynchronizeStream(b), 0, NULL, "sync b");
    int bad = 0;
    for (long i = 0; i < N; i++)
        bad += atomic_load(&seen[i]) < i + 1;
    ok(bad == 0, "stream b saw every write of stream a that it waited for");
    expect(aclrtSynchronizeStream(a), 0, NULL, "sync a");
    expect(aclrtDestroyEvent(e), 0, NULL, "destroy event");
}

static void timeouts(aclrtStream a)
{
    aclrtEvent e;
    expect(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE), 0, NULL, "create with flag");
    sleep_then_store(a, 300000, NULL, 0);
    expect(aclrtRecordEvent(e, a), 0, NULL, "record");
    expect(aclrtSynchronizeStreamWithTimeout(a, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "did not finish within 10 ms",
           "stream timeout");
    expect(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "within 0 ms", "device timeout");
    expect(aclrtSynchronizeEventWithTimeout(e, 10), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "did not complete within 10 ms",
           "event timeout");
    aclrtStreamStatus ss = ACL_STREAM_STATUS_RESERVED;
    expect(aclrtStreamQuery(a, &ss), 0, NULL, "stream query");
    ok(ss == ACL_STREAM_STATUS_NOT_READY, "a busy stream is not ready");
    expect(aclrtStreamQuery(a, NULL), ACL_ERROR_INVALID_PARAM, "status is NULL", "stream query NULL");
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    expect(aclrtQueryEvent(e, &st), 0, NULL, "query");
    ok(st == ACL_EVENT_STATUS_NOT_READY, "pending event is not ready");
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    expect(aclrtQueryEventStatus(e, &rs), 0, NULL, "query status");
    ok(rs == ACL_EVENT_RECORDED_STATUS_NOT_READY, "pending event status");
    expect(aclrtSynchronizeStreamWithTimeout(a, -2), ACL_ERROR_RT_PARAM_INVALID, "[-1, INT_MAX]", "timeout -2");
    expect(aclrtSynchronizeEventWithTimeout(e, -2), ACL_ERROR_RT_PARAM_INVALID, "[-1, INT_MAX]", "event timeout -2");
    expect(aclrtSynchronizeDeviceWithTimeout(-5), ACL_ERROR_RT_PARAM_INVALID, "[-1, INT_MAX]", "device timeout -5");
    expect(aclrtSynchronizeEvent(e), 0, NULL, "sync event");
    expect(aclrtQueryEvent(e, &st), 0, NULL, "query");
    ok(st == ACL_EVENT_STATUS_COMPLETE, "completed event");
    expect(aclrtQueryEventStatus(e, &rs), 0, NULL, "query status");
    ok(rs == ACL_EVENT_RECORDED_STATUS_COMPLETE, "completed event status");
    expect(aclrtSynchronizeStreamWithTimeout(a, -1), 0, NULL, "stream sync forever");
    expect(aclrtStreamQuery(a, &ss), 0, NULL, "stream query");
    ok(ss == ACL_STREAM_STATUS_COMPLETE, "a finished stream is complete");
    expect(aclrtSynchronizeDeviceWithTimeout(1000), 0, NULL, "device sync in time");
    expect(aclrtResetEvent(e, a), 0, NULL, "reset");
    expect(aclrtSynchronizeStream(a), 0, NULL, "sync");
    expect(aclrtQueryEventStatus(e, &rs), 0, NULL, "query status after reset");
    ok(rs == ACL_EVENT_RECORDED_STATUS_NOT_READY, "reset event reads as not recorded");
    expect(aclrtDestroyEvent(e), 0, NULL, "destroy");
}

static void elapsed(aclrtStream a)
{
    aclrtEvent start, end, never;
    aclrtCreateEvent(&start);
    aclrtCreateEvent(&end);
    aclrtCreateEvent(&never);
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    expect(aclrtQueryEventStatus(never, &rs), 0, NULL, "query fresh");
    ok(rs == ACL_EVENT_RECORDED_STATUS_NOT_READY, "a fresh event is not recorded");
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    expect(aclrtQueryEvent(never, &st), 0, NULL, "query fresh");
    ok(st == ACL_EVENT_STATUS_COMPLETE, "a fresh event has nothing pending");
    expect(aclrtSynchronizeEvent(never), 0, NULL, "sync fresh event returns at once");
    aclrtRecordEvent(start, a);
    sleep_then_store(a, 50000, NULL, 0);
    aclrtRecordEvent(end, a);
    float ms = -1;
    aclrtSynchronizeStream(a);
    expect(aclrtEventElapsedTime(&ms, start, end), 0, NULL, "elapsed");
    ok(ms >= 45.0f && ms < 5000.0f, "elapsed time covers the 50 ms task");
    expect(aclrtEventElapsedTime(&ms, start, never), ACL_ERROR_RT_EVENT_NOT_COMPLETE, "recorded and completed",
           "elapsed with an unrecorded event");
    expect(aclrtEventElapsedTime(NULL, start, end), ACL_ERROR_INVALID_PARAM, "ms is NULL", "elapsed NULL");
    uint64_t t0 = 0, t1 = 0;
    expect(aclrtEventGetTimestamp(start, &t0), 0, NULL, "timestamp start");
    expect(aclrtEventGetTimestamp(end, &t1), 0, NULL, "timestamp end");
    ok(t1 >= t0 + 45000, "timestamps (us) are 50 ms apart");
    expect(aclrtEventGetTimestamp(never, &t0), ACL_ERROR_RT_EVENT_NOT_COMPLETE, "no completed record",
           "timestamp of an unrecorded event");
    expect(aclrtEventGetTimestamp(start, NULL), ACL_ERROR_INVALID_PARAM, "timestamp is NULL", "timestamp NULL");
    expect(aclrtEventElapsedTime(&ms, start, NULL), ACL_ERROR_INVALID_PARAM, "endEvent is NULL", "elapsed NULL end");
    aclrtDestroyEvent(start);
    aclrtDestroyEvent(end);
    aclrtDestroyEvent(never);
}

static atomic_uint exc_calls, exc_code, exc_task, exc_stream_ok;

static void on_exception(aclrtExceptionInfo *info)
{
    atomic_fetch_add(&exc_calls, 1);
    atomic_store(&exc_code, aclrtGetErrorCodeFromExceptionInfo(info));
    atomic_store(&exc_task, aclrtGetTaskIdFromExceptionInfo(info));
    atomic_store(&exc_stream_ok, aclrtGetDeviceIdFromExceptionInfo(info) == 0 &&
                                     aclrtGetThreadIdFromExceptionInfo(info) != 0xFFFFFFFFu);
}

static void failure_mode(aclrtStream a)
{
    expect(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_RT_PARAM_INVALID, "callback is NULL", "register NULL");
    expect(aclrtExceptionInfoCallbackRegister(on_exception), 0, NULL, "register");
    expect(aclrtExceptionInfoCallbackRegister(on_exception), 0, NULL, "register twice adds it once");
    ok(aclrtGetErrorCodeFromExceptionInfo(NULL) == 0xFFFFFFFFu, "getter of NULL info");
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    expect(aclrtPeekAtLastError((aclrtLastErrLevel)3), ACL_ERROR_INVALID_PARAM, "ACL_RT_THREAD_LEVEL", "bad level");
    ok(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_INVALID_PARAM, "last error is the last failing status");
    ok(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_SUCCESS, "getting the last error clears it");
    static atomic_long flag;
    aclrtEvent e;
    aclrtCreateEvent(&e);
    expect(aclrtSetStreamFailureMode(a, 2), ACL_ERROR_INVALID_PARAM, "ACL_STOP_ON_FAILURE", "bad mode");
    expect(aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE), 0, NULL, "stop on failure");
    emu_stream_enqueue(a, run_fail, NULL, NULL, NULL);
    sleep_then_store(a, 0, &flag, 1);
    aclrtRecordEvent(e, a);
    expect(aclrtSynchronizeStream(a), ACL_ERROR_RT_INTERNAL_ERROR, "2 later task(s) skipped", "stop: failure reported");
    ok(atomic_load(&flag) == 0, "stop on failure skips later tasks");
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    aclrtQueryEvent(e, &st);
    ok(st == ACL_EVENT_STATUS_COMPLETE, "a skipped record still completes its event");
    sleep_then_store(a, 0, &flag, 2);
    expect(aclrtSynchronizeStream(a), 0, NULL, "stream runs again after the report");
    ok(atomic_load(&flag) == 2, "work after the report runs");
    expect(aclrtSetStreamFailureMode(a, ACL_CONTINUE_ON_FAILURE), 0, NULL, "continue on failure");
    emu_stream_enqueue(a, run_fail, NULL, NULL, NULL);
    sleep_then_store(a, 0, &flag, 3);
    expect(aclrtSynchronizeStream(a), ACL_ERROR_RT_INTERNAL_ERROR, "failed on purpose", "continue: failure reported");
    ok(atomic_load(&flag) == 3, "continue on failure runs later tasks");
    ok(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INTERNAL_ERROR, "a task failure is the last error");
    ok(atomic_load(&exc_calls) == 2, "the exception callback ran once per failed task");
    ok(atomic_load(&exc_code) == ACL_ERROR_RT_INTERNAL_ERROR && atomic_load(&exc_task) > 0 && atomic_load(&exc_stream_ok),
       "exception info fields");
    expect(aclrtExceptionInfoCallbackUnregister(on_exception), 0, NULL, "unregister");
    emu_stream_enqueue(a, run_fail, NULL, NULL, NULL);
    aclrtSynchronizeStream(a);
    ok(atomic_load(&exc_calls) == 2, "an unregistered callback is not called");
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    aclrtDestroyEvent(e);
}

static void destroy_force(aclrtStream b)
{
    static atomic_long flag;
    aclrtStream a;
    aclrtEvent e;
    aclrtCreateStream(&a);
    aclrtCreateEvent(&e);
    sleep_then_store(a, 100000, NULL, 0);
    sleep_then_store(a, 0, &flag, 1);
    aclrtRecordEvent(e, a);
    aclrtStreamWaitEvent(b, e);
    aclrtDestroyEvent(e); /* the queued record and wait keep it alive */
    expect(aclrtDestroyStreamForce(a), 0, NULL, "destroy force");
    ok(atomic_load(&flag) == 0, "queued work of a force-destroyed stream does not run");
    expect(aclrtSynchronizeStream(b), 0, NULL, "a wait on a dropped record does not hang");
    expect(aclrtDestroyStreamForce(a), ACL_ERROR_RT_INVALID_HANDLE, "destroyed", "destroy force twice");
    expect(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL", "destroy force NULL");
}

static void bad_arguments(aclrtStream a)
{
    aclrtEvent e;
    expect(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM, "event is NULL", "create NULL");
    expect(aclrtCreateEventWithFlag(&e, 0x80), ACL_ERROR_INVALID_PARAM, "flag 0x80", "unknown flag");
    expect(aclrtCreateEventWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID,
           "ACL_EVENT_IPC stands alone", "ipc flag with another");
    expect(aclrtRecordEvent(NULL, a), ACL_ERROR_INVALID_PARAM, "event is NULL", "record NULL");
    expect(aclrtStreamWaitEvent(a, NULL), ACL_ERROR_INVALID_PARAM, "event is NULL", "wait NULL");
    expect(aclrtQueryEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM, "event is NULL", "query NULL");
    aclrtCreateEvent(&e);
    expect(aclrtQueryEvent(e, NULL), ACL_ERROR_INVALID_PARAM, "status is NULL", "query NULL status");
    expect(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM, "status is NULL", "query status NULL");
    expect(aclrtRecordEventWithFlag(e, a, 2), ACL_ERROR_INVALID_PARAM, "ACL_EVENT_RECORD_EXTERNAL", "record flag");
    expect(aclrtRecordEvent(e, (aclrtStream)&fails), ACL_ERROR_RT_INVALID_HANDLE, "not a live aclrtStream",
           "record on a foreign stream");
    aclrtDestroyEvent(e);
    expect(aclrtRecordEvent(e, a), ACL_ERROR_RT_INVALID_HANDLE, "destroyed (stale handle)", "record stale");
    expect(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE, "destroyed", "destroy twice");
    expect(aclrtSynchronizeEvent(e), ACL_ERROR_RT_INVALID_HANDLE, "destroyed", "sync stale");
    expect(aclrtRecordEvent(a, a), ACL_ERROR_RT_INVALID_HANDLE, "is not an aclrtEvent", "stream as event");
}

static void devices(void)
{
    aclrtRunMode mode = ACL_DEVICE;
    expect(aclrtGetRunMode(&mode), 0, NULL, "run mode");
    ok(mode == ACL_HOST, "run mode is ACL_HOST");
    expect(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM, "runMode is NULL", "run mode NULL");
    int32_t v[3] = {0, 0, 0};
    expect(aclrtGetVersion(&v[0], &v[1], &v[2]), 0, NULL, "version");
    ok(v[0] == ACL_MAJOR_VERSION && v[1] == ACL_MINOR_VERSION && v[2] == ACL_PATCH_VERSION, "version values");
    expect(aclrtGetVersion(&v[0], NULL, &v[2]), ACL_ERROR_INVALID_PARAM, "minorVersion is NULL", "version NULL");
    int32_t can = 0;
    expect(aclrtDeviceCanAccessPeer(&can, 0, 1), 0, NULL, "can access peer");
    ok(can == 1, "devices can access each other");
    expect(aclrtDeviceCanAccessPeer(&can, 1, 1), ACL_ERROR_INVALID_PARAM, "cannot be equal", "peer equal");
    expect(aclrtDeviceCanAccessPeer(&can, 0, 7), ACL_ERROR_RT_INVALID_DEVICEID, "peerDeviceId 7", "peer range");
    expect(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_INVALID_PARAM, "canAccessPeer is NULL", "peer NULL");
    expect(aclrtDeviceEnablePeerAccess(1, 0), 0, NULL, "enable peer");
    expect(aclrtDeviceEnablePeerAccess(1, 3), ACL_ERROR_FEATURE_UNSUPPORTED, "flags must be 0", "enable flags");
    expect(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM, "cannot be equal", "enable self");
    expect(aclrtDeviceDisablePeerAccess(1), 0, NULL, "disable peer");
}

/* fork() while a stream is blocked on an event: neither process may hang. */
static void fork_with_blocked_wait(aclrtStream a, aclrtStream b)
{
    static atomic_long cell, seen;
    aclrtEvent e;
    aclrtCreateEvent(&e);
    sleep_then_store(a, 200000, &cell, 42);
    aclrtRecordEvent(e, a);
    aclrtStreamWaitEvent(b, e);
    copy_task *t = malloc(sizeof *t);
    *t = (copy_task){&cell, &seen};
    emu_stream_enqueue(b, run_copy, free, t, NULL);
    struct timespec d = {0, 20000000};
    nanosleep(&d, NULL); /* b is now blocked in its wait */
    pid_t pid = fork();
    if (pid == 0) {
        alarm(30);
        int st = aclrtSynchronizeStream(b);
        _exit(st == 0 && atomic_load(&seen) == 42 ? 0 : 3);
    }
    expect(aclrtSynchronizeStream(b), 0, NULL, "parent sync after fork");
    ok(atomic_load(&seen) == 42, "parent: b saw a's write");
    int status = 0;
    waitpid(pid, &status, 0);
    ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: b finished and saw a's write");
    aclrtDestroyEvent(e);
}

static void reset_force(void)
{
    expect(aclrtSetDevice(1), 0, NULL, "set 1");
    expect(aclrtSetDevice(1), 0, NULL, "set 1 again");
    expect(aclrtResetDeviceForce(1), 0, NULL, "reset force");
    int32_t d = -1;
    expect(aclrtGetDevice(&d), ACL_ERROR_RT_CONTEXT_NULL, "was reset", "device gone after one forced reset");
    expect(aclrtResetDeviceForce(1), ACL_ERROR_RT_INVALID_DEVICEID, "not open", "reset force twice");
    expect(aclrtSetDevice(0), 0, NULL, "back to 0");
}

/* ---- host callbacks ---- */

enum { N_CALLBACKS = 200 };
static atomic_int cb_count, cb_order_ok = 1, cb_thread_ok = 1, stop_worker, subscribed;
static atomic_int cb_seen_flag = 1;
static atomic_long block_flag;
static pthread_t report_thread;

static void on_callback(void *user_data)
{
    int i = (int)(intptr_t)user_data;
    if (atomic_fetch_add(&cb_count, 1) != i)
        cb_order_ok = 0;
    if (!pthread_equal(pthread_self(), report_thread))
        cb_thread_ok = 0;
}

static void on_block_callback(void *user_data)
{
    struct timespec d = {0, 20000000};
    nanosleep(&d, NULL); /* the stream must still wait */
    atomic_store((atomic_long *)user_data, 1);
}

static void check_flag(void *args)
{
    if (atomic_load((atomic_long *)args) != 1)
        cb_seen_flag = 0;
}

static void *process_reports(void *arg)
{
    (void)arg;
    while (!atomic_load(&subscribed)) {
        struct timespec d = {0, 1000000};
        nanosleep(&d, NULL);
    }
    while (!atomic_load(&stop_worker)) {
        int st = aclrtProcessReport(50);
        if (st != 0 && st != ACL_ERROR_RT_REPORT_TIMEOUT) {
            printf("FAIL aclrtProcessReport: %d %s\n", st, aclGetRecentErrMsg());
            fails++;
            break;
        }
    }
    return NULL;
}

static void callbacks(aclrtStream a)
{
    expect(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM, "timeout 0", "process timeout 0");
    expect(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "not subscribed", "process unsubscribed");
    expect(aclrtLaunchCallback(on_callback, NULL, ACL_CALLBACK_BLOCK, a), ACL_ERROR_RT_STREAM_SUBSCRIBE,
           "no thread is subscribed", "launch unsubscribed");
    pthread_create(&report_thread, NULL, process_reports, NULL);
    uint64_t tid = (uint64_t)report_thread;
    expect(aclrtSubscribeReport(tid, a), 0, NULL, "subscribe");
    atomic_store(&subscribed, 1);
    expect(aclrtSubscribeReport(tid, a), ACL_ERROR_RT_STREAM_SUBSCRIBE, "already subscribed", "subscribe twice");
    expect(aclrtLaunchCallback(on_callback, NULL, (aclrtCallbackBlockType)5, a), ACL_ERROR_INVALID_PARAM,
           "blockType 5", "bad block type");
    expect(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, a), ACL_ERROR_INVALID_PARAM, "fn is NULL", "NULL fn");
    expect(aclrtLaunchHostFunc(a, NULL, NULL), ACL_ERROR_INVALID_PARAM, "fn is NULL", "NULL host func");
    for (int i = 0; i < N_CALLBACKS; i++) {
        if (i % 3 == 0)
            sleep_then_store(a, 100, NULL, 0);
        expect(aclrtLaunchCallback(on_callback, (void *)(intptr_t)i, i % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK,
                                   a),
               0, NULL, "launch");
    }
    expect(aclrtLaunchCallback(on_block_callback, &block_flag, ACL_CALLBACK_BLOCK, a), 0, NULL, "launch block");
    expect(aclrtLaunchHostFunc(a, check_flag, &block_flag), 0, NULL, "host func after a blocking callback");
    expect(aclrtSynchronizeStream(a), 0, NULL, "sync after callbacks");
    for (int spin = 0; spin < 2000 && atomic_load(&cb_count) < N_CALLBACKS; spin++) {
        struct timespec d = {0, 1000000};
        nanosleep(&d, NULL);
    }
    ok(atomic_load(&cb_count) == N_CALLBACKS, "every callback ran");
    ok(cb_order_ok, "callbacks ran in stream order");
    ok(cb_thread_ok, "callbacks ran on the subscribed thread");
    ok(cb_seen_flag, "work after a blocking callback sees its effect");
    expect(aclrtUnSubscribeReport(tid + 1, a), ACL_ERROR_RT_STREAM_SUBSCRIBE, "not subscribed by thread",
           "unsubscribe wrong thread");
    expect(aclrtUnSubscribeReport(tid, a), 0, NULL, "unsubscribe");
    atomic_store(&stop_worker, 1);
    pthread_join(report_thread, NULL);
}

/* ---- stream allocator ---- */

static char arena[256];
static void *arena_alloc(aclrtAllocator a, size_t size) { (void)size; return a; }
static void arena_free(aclrtAllocator a, aclrtAllocatorBlock b) { (void)a, (void)b; }
static void *arena_addr(aclrtAllocatorBlock b) { return b; }

static void allocator(aclrtStream a)
{
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    ok(d != NULL, "create allocator description");
    expect(aclrtAllocatorRegister(a, d), ACL_ERROR_INVALID_PARAM, "allocatorDesc->obj is NULL", "register empty");
    expect(aclrtAllocatorSetObjToDesc(d, NULL), ACL_ERROR_INVALID_PARAM, "allocator is NULL", "set NULL obj");
    expect(aclrtAllocatorSetObjToDesc(NULL, arena), ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL", "NULL desc");
    expect(aclrtAllocatorSetObjToDesc(d, arena), 0, NULL, "set obj");
    expect(aclrtAllocatorSetAllocFuncToDesc(d, arena_alloc), 0, NULL, "set alloc");
    expect(aclrtAllocatorRegister(a, d), ACL_ERROR_INVALID_PARAM, "allocatorDesc->freeFunc is NULL", "no free");
    expect(aclrtAllocatorSetFreeFuncToDesc(d, arena_free), 0, NULL, "set free");
    expect(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, arena_addr), 0, NULL, "set addr");
    aclrtAllocatorDesc got = NULL;
    expect(aclrtAllocatorGetByStream(a, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
           "not registered with any allocator", "get before register");
    expect(aclrtAllocatorRegister(NULL, d), ACL_ERROR_INVALID_PARAM, "stream is NULL", "register NULL stream");
    expect(aclrtAllocatorRegister(a, d), 0, NULL, "register");
    aclrtAllocator obj = NULL;
    aclrtAllocatorAllocFunc af = NULL;
    aclrtAllocatorGetAddrFromBlockFunc gf = NULL;
    expect(aclrtAllocatorGetByStream(a, &got, &obj, &af, NULL, NULL, &gf), 0, NULL, "get by stream");
    ok(got == d && obj == arena && af == arena_alloc && gf == arena_addr, "the registration comes back");
    ok(gf(af(obj, 16)) == arena, "its functions work");
    expect(aclrtAllocatorDestroyDesc(d), 0, NULL, "destroy desc (the registration keeps a copy)");
    expect(aclrtAllocatorGetByStream(a, &got, &obj, NULL, NULL, NULL, NULL), 0, NULL, "get after destroying desc");
    expect(aclrtAllocatorDestroyDesc(d), ACL_ERROR_INVALID_PARAM, "destroyed", "destroy desc twice");
    expect(aclrtAllocatorUnregister(a), 0, NULL, "unregister");
    expect(aclrtAllocatorGetByStream(a, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
           "not registered", "get after unregister");
}

static void contexts(void)
{
    aclrtContext dflt = NULL, c = NULL, cur = NULL;
    expect(aclrtGetCurrentContext(&dflt), 0, NULL, "default context after aclrtSetDevice");
    expect(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "context is NULL", "get NULL");
    expect(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "context is NULL", "create NULL");
    expect(aclrtCreateContext(&c, 5), ACL_ERROR_RT_INVALID_DEVICEID, "deviceId 5 is out of range", "create bad id");
    expect(aclrtCreateContext(&c, 1), 0, NULL, "create on device 1");
    int32_t d = -1;
    expect(aclrtGetDevice(&d), 0, NULL, "device of the new context");
    ok(d == 1, "a new context becomes current");
    expect(aclrtDestroyContext(dflt), ACL_ERROR_INVALID_PARAM, "default context of device 0", "destroy default");
    expect(aclrtSetCurrentContext(dflt), 0, NULL, "back to the default context");
    expect(aclrtGetDevice(&d), 0, NULL, "device");
    ok(d == 0, "default context's device");
    aclrtStream ctx_stream = NULL, dflt_stream = NULL;
    expect(aclrtCtxGetCurrentDefaultStream(&dflt_stream), 0, NULL, "default context's stream");
    expect(aclrtSetCurrentContext(c), 0, NULL, "set user context");
    expect(aclrtCtxGetCurrentDefaultStream(&ctx_stream), 0, NULL, "user context's stream");
    ok(ctx_stream && dflt_stream && ctx_stream != dflt_stream, "a user context has its own stream");
    expect(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM, "stream is NULL", "ctx stream NULL");
    expect(aclrtGetCurrentContext(&cur), 0, NULL, "get user context");
    ok(cur == c, "current context");
    expect(aclrtDestroyContext(c), 0, NULL, "destroy user context");
    expect(aclrtGetDevice(&d), ACL_ERROR_RT_CONTEXT_NULL, "no device is set", "no context after destroying it");
    expect(aclrtDestroyContext(c), ACL_ERROR_RT_INVALID_HANDLE, "destroyed", "destroy twice");
    expect(aclrtSetCurrentContext(c), ACL_ERROR_RT_INVALID_HANDLE, "destroyed", "set destroyed");
    expect(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "context is NULL", "set NULL");
    expect(aclrtSetCurrentContext(&fails), ACL_ERROR_RT_INVALID_HANDLE, "not a live aclrtContext", "set foreign");
    expect(aclrtSetCurrentContext(dflt), 0, NULL, "default again");
}

int main(void)
{
    alarm(120); /* a hang is a failure */
    expect(aclInit(NULL), 0, NULL, "init");
    expect(aclrtSetDevice(0), 0, NULL, "set device");
    aclrtStream a, b;
    aclrtCreateStream(&a);
    aclrtCreateStream(&b);
    cross_stream_order(a, b);
    timeouts(a);
    elapsed(a);
    failure_mode(a);
    destroy_force(b);
    bad_arguments(a);
    devices();
    callbacks(a);
    allocator(a);
    contexts();
    fork_with_blocked_wait(a, b);
    aclrtDestroyStream(a);
    aclrtDestroyStream(b);
    reset_force();
    expect(aclrtResetDevice(0), 0, NULL, "reset");
    expect(aclFinalize(), 0, NULL, "finalize");
    if (fails)
        printf("%d check(s) failed\n", fails);
    else
        printf("events: all checks passed\n");
    return fails != 0;
}
