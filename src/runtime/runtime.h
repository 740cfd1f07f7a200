/*
 * Runtime layer: the handle registry, streams, devices and device memory
 * (in that order inside the layer: a file uses only those before it). Built
 * on the core layer; the meta layer and the operators build on it.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_RUNTIME_H_
#define ACLNN_EMU_RUNTIME_H_

#include <time.h>

#include "../core/core.h"

/* ---- handle registry (registry.c) ------------------------------------- */

typedef enum emu_kind {
    EMU_TENSOR = 1,
    EMU_INT_ARRAY,
    EMU_FLOAT_ARRAY,
    EMU_BOOL_ARRAY,
    EMU_EXECUTOR,
    EMU_STREAM,
    EMU_SCALAR,
    EMU_TENSOR_LIST,
    EMU_SCALAR_LIST,
    EMU_EVENT,
    EMU_CONTEXT,
    EMU_ALLOCATOR_DESC,
    EMU_PROF_CONFIG,
    EMU_NOTIFY,
    EMU_CACHE_BLOCK, /* a live block of aclnnEmuCacheAlloc (internal: never reported) */
    EMU_DATA_BUFFER,
    EMU_TDT_DATA_ITEM,
    EMU_TDT_DATASET,
    EMU_TDT_CHANNEL,
    EMU_TDT_QUEUE_ATTR,
    EMU_TDT_ROUTE,
    EMU_TDT_ROUTE_LIST,
    EMU_TDT_ROUTE_QUERY,
    EMU_PROF_STEP,
    EMU_STREAM_CONFIG,
    EMU_PROF_SUBSCRIBE_CONFIG,
    EMU_MODEL,
    EMU_LABEL,
    EMU_LABEL_LIST,
    EMU_TASK_GROUP,
    EMU_KIND_COUNT
} emu_kind;

typedef enum emu_found { EMU_LIVE, EMU_ABSENT, EMU_OTHER_KIND, EMU_RETIRED } emu_found;

const char *emu_kind_name(emu_kind kind);
/* 0, or -1 when out of memory. creator is the API that made the handle (a literal). */
int emu_registry_add(const void *p, emu_kind kind, const char *creator);
/* Makes room for element n of *items (*cap of elem bytes held), doubling; false when out of memory. */
bool emu_grow(void **items, size_t *cap, size_t n, size_t elem);
/* A zeroed handle of size bytes, registered as kind by api; NULL (ACL_ERROR_BAD_ALLOC set) when out of memory. */
void *emu_handle_alloc(size_t size, emu_kind kind, const char *api);
emu_found emu_registry_find(const void *p, emu_kind kind);
/* Destroys a live handle of size bytes: its memory is quarantined (released
 * later, with release) so that a later use of p is reported as destroyed.
 * Returns what p was; nothing happens unless it was EMU_LIVE of kind. */
emu_found emu_registry_release(void *p, emu_kind kind, size_t size, void (*release)(void *));
/* Keeps a live handle's memory valid until emu_registry_unpin, whoever
 * destroys it meanwhile (the destroy retires it at once: later lookups see
 * it destroyed). Returns what p was; pinned only when EMU_LIVE. */
emu_found emu_registry_pin(const void *p, emu_kind kind);
void emu_registry_unpin(const void *p);
/* Drops a live entry without quarantine (the caller owns the memory); false if p was not live of kind. */
bool emu_registry_forget(const void *p, emu_kind kind);
/* Marks a live handle as the library's own: not counted, not reported as a leak. */
void emu_registry_mark_internal(const void *p);
size_t emu_registry_count(emu_kind kind);
/* Appends one line per live handle of kind to the log; returns how many. */
size_t emu_registry_report(emu_kind kind, char *buf, size_t cap, size_t *used);
/* Validates a handle argument: 0, or the status with a message naming the parameter. */
int emu_check_handle(const void *p, emu_kind kind, int status_invalid, const char *api, const char *param);
/* A handle argument: ACL_ERROR_INVALID_PARAM "<param> is NULL" for NULL, else emu_check_handle's answer. */
int emu_check_handle_arg(const void *p, emu_kind kind, int status_invalid, const char *api, const char *param);
/* The status and message emu_check_handle gives for what a lookup found (0 for EMU_LIVE). */
int emu_handle_error(emu_found found, const void *p, emu_kind kind, int status_invalid, const char *api,
                     const char *param);

/* ---- streams (stream.c) ---------------------------------------------- */

typedef struct emu_stream emu_stream;

/* A unit of stream work: returns 0 or a status, writing a message into msg on failure. */
typedef int (*emu_task_fn)(void *ctx, char *msg, size_t msg_cap);
typedef void (*emu_release_fn)(void *ctx);
/* Whether the calling thread asked for blocking launches (aclnnEmuSetLaunchBlocking). */
bool emu_launch_blocking(void);
/* Enqueues work; on failure releases ctx and returns a status. *seq receives its sequence number.
 * A thread that asked for blocking launches (aclnnEmuSetLaunchBlocking) runs the work before this
 * returns when nothing is pending on s (its status is reported at the next synchronisation, as ever). */
int emu_stream_enqueue(emu_stream *s, emu_task_fn fn, emu_release_fn release, void *ctx, uint64_t *seq);
/* The host-side step of a task that depends on when it is launched (which event record a wait or record
 * concerns): run at enqueue on a plain stream, and at every aclmdlRIExecuteAsync for captured work. */
typedef void (*emu_bind_fn)(void *ctx, emu_stream *exec);
/* emu_stream_enqueue with a bind step. */
int emu_stream_enqueue_bound(emu_stream *s, emu_task_fn fn, emu_release_fn release, void *ctx, emu_bind_fn bind,
                             uint64_t *seq);
/* Where a stream's work goes while it is captured or bound to a model: 0, or a status (ctx released). */
typedef int (*emu_capture_sink)(void *sink_ctx, emu_task_fn fn, emu_release_fn release, void *ctx, emu_bind_fn bind);
/* Sends s's work to sink (NULL: back to its queue); capture_mode >= 0 for a capture (aclmdlRICaptureMode,
 * counted for emu_capture_check_sync), -1 for a bound model or an update. 0, or a status. */
int emu_stream_set_sink(emu_stream *s, emu_capture_sink sink, void *sink_ctx, int capture_mode);
/* s's sink context (NULL: none), its capture mode (-1: no capture) and the thread that set it. */
void *emu_stream_sink(emu_stream *s, int *capture_mode, uint64_t *thread);
bool emu_stream_is_default(const emu_stream *s);
/* aclmdlRICaptureThreadExchangeMode: sets this thread's mode, returns the old one (GLOBAL at first). */
int emu_capture_exchange_mode(int mode);
/* Synchronous work (aclrtMemcpy, aclrtMemset) while captures are under way: 0, or
 * ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT by CANN's rule on the capture and exchange modes. */
int emu_capture_check_sync(const char *api);
/* The operators' stream task (set once by the meta layer): task groups take only kernels. */
void emu_stream_on_kernel_task(emu_task_fn fn);
bool emu_task_is_kernel(emu_task_fn fn);
/* A task's return value asking to be run again later: a blocking task (an
 * event wait) returns it when emu_stream_fork_pending() says fork() is waiting. */
#define EMU_TASK_AGAIN (-1)
/* Waits for the work enqueued so far (timeout_ms < 0: forever) and reports
 * (then clears) the first task failure; ACL_ERROR_RT_STREAM_SYNC_TIMEOUT on timeout. */
int emu_stream_sync(emu_stream *s, const char *api, int32_t timeout_ms);
/* aclrtDestroyStreamForce's part: drops the queued (not yet running) work. Returns how many tasks. */
size_t emu_stream_discard(emu_stream *s);
/* aclrtSetStreamFailureMode: with stop set, work after a failed task is skipped until a synchronisation. */
void emu_stream_set_stop_on_failure(emu_stream *s, bool stop);
/* fork() is quiescing the streams: a blocked task must return EMU_TASK_AGAIN. */
bool emu_stream_fork_pending(void);
/* Called by fork()'s prepare step before the streams are quiesced, to wake blocked tasks (set once at load). */
void emu_stream_on_fork(void (*kick)(void));
/* A *WithTimeout argument (ms, -1: forever): 0, or ACL_ERROR_RT_PARAM_INVALID with a message. */
int emu_check_timeout(const char *api, int32_t timeout_ms);
/* The CLOCK_REALTIME time timeout_ms from now (for pthread_cond_timedwait). */
struct timespec emu_deadline_after_ms(int32_t timeout_ms);
/* True when the host has synchronised with s up to (and including) task seq. */
bool emu_stream_host_synced(emu_stream *s, uint64_t seq);
/* Whether every task enqueued on s has completed (aclrtStreamQuery). */
bool emu_stream_idle(emu_stream *s);
/* Waits up to timeout_ms (>= 0) for the work enqueued so far; whether it is done. Reports nothing. */
bool emu_stream_wait_idle(emu_stream *s, int32_t timeout_ms);
/* The host has seen s's work up to task seq (completed) by other means (an event). */
void emu_stream_mark_host_synced(emu_stream *s, uint64_t seq);
/* Wait for a specific task (used to make racy reads deterministic in normal mode). */
void emu_stream_wait(emu_stream *s, uint64_t seq);
emu_stream *emu_stream_create(int32_t device, bool is_default);
void emu_stream_destroy(emu_stream *s);
int32_t emu_stream_device(const emu_stream *s);
/* aclrtCreateStreamWithConfig's priority and flags (0 and 0 for other streams), and the stream's id. */
void emu_stream_set_config(emu_stream *s, uint32_t priority, uint32_t flags);
void emu_stream_get_config(emu_stream *s, uint32_t *priority, uint32_t *flags, uint32_t *id);
/* aclrtSet/GetStreamOverflowSwitch: sets it to set (>= 0) and returns it. */
uint32_t emu_stream_overflow_switch(emu_stream *s, int set);
/* Called with every stream about to be freed (set once, by a higher module, at load time). */
void emu_stream_on_destroy(void (*hook)(emu_stream *s));

/* ---- devices (device.c) ----------------------------------------------- */

int emu_require_init(const char *api);
bool emu_initialized(void);
/* The calling thread's device, or an error status with a message. */
int emu_current_device(const char *api, int32_t *device);
/* Whether acl.json turned the exception dump on; its base folder (ASCEND_DUMP_PATH, ASCEND_WORK_PATH,
 * dump_path, else "./") in out. */
bool emu_exception_dump_base(char *out, size_t cap);
/* Called after every successful aclrtResetDevice (set once, by a higher module, at load time). */
void emu_device_on_reset(void (*hook)(void));
/* Resolves a user stream (NULL: the current device's default stream). */
int emu_stream_resolve(aclrtStream stream, const char *api, int invalid_status, emu_stream **out);
/* aclFinalize's part: marks the runtime uninitialised and detaches every
 * stream (user streams first) into a malloc'd array the caller destroys.
 * 0, or ACL_ERROR_REPEAT_FINALIZE when not initialised. */
int emu_devices_shutdown(const char *api, emu_stream ***streams, size_t *n_streams, size_t *n_user);

/* ---- device memory (memory.c) ---------------------------------------- */

typedef struct emu_block_info {
    uintptr_t base;
    size_t size;
    bool device;     /* aclrtMalloc or aclrtHostRegister (true), aclrtMallocHost (false) */
    bool registered; /* host memory registered with aclrtHostRegister */
} emu_block_info;

/* Finds the recorded block containing [p, p+len); false when there is none. */
bool emu_mem_find(const void *p, size_t len, emu_block_info *out);
/* aclrtHostRegister/aclrtHostUnregister without an error message: false when [ptr, +size) overlaps a
 * recorded block it does not lie in (or is not registered, for unregister). */
bool emu_mem_register_host(const void *ptr, size_t size);
bool emu_mem_unregister_host(const void *ptr);
/* aclrtIpcMemGetExportKey's part: the device block holding [p, p+len) now lives in the shared memory object fd
 * (its contents copied, the object mapped over it); p's offset in it and the bytes mapped. 0 or a status. */
int emu_mem_share(const char *api, const void *p, size_t len, int fd, size_t *offset, size_t *map_size);
/* Another process's exported block, mapped at base: device memory here until emu_mem_drop_imported. */
int emu_mem_add_imported(void *base, size_t map_size);
bool emu_mem_drop_imported(void *base, size_t *map_size);
/* Records that work enqueued on s (task seq) uses (reads, or writes) the block containing p. */
void emu_mem_note_use(const void *p, emu_stream *s, uint64_t seq, const char *op, bool writes);
/* Checks a host read of [p, p+len) against pending operator writes (see validation-mode). */
int emu_mem_check_read(const void *p, size_t len, const char *api);
size_t emu_mem_live_blocks(char *buf, size_t cap, size_t *used);
void emu_mem_release_all(void);
/* Whether [p, p+len) touches memory of a block the library freed (aclrtFree,
 * aclrtFreeHost) and still holds, idle or quarantined; *out describes it. */
bool emu_mem_freed(const void *p, size_t len, emu_block_info *out);
/* The status of a runtime call on freed memory (CANN's for an invalid device address). */
#define EMU_FREED_MEMORY_STATUS ACL_ERROR_RT_PARAM_INVALID
/* The extent of the host allocation that starts at p where the allocator can
 * tell it (glibc's malloc, a sanitizer's), as malloc_usable_size would give it. */
bool emu_host_alloc_size(const void *p, size_t *size);

/* ---- process-wide reports (process.c) --------------------------------- */

/* The leak report: one line per live user resource; returns how many, and a
 * one-line summary by kind ("1 aclTensor, 2 memory block(s)"). */
size_t emu_leak_report(char *report, size_t cap, char *summary, size_t sum_cap);

#endif /* ACLNN_EMU_RUNTIME_H_ */
