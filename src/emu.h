/*
 * aclnn-emu internals shared by the runtime, the meta API and the operators.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_INTERNAL_H_
#define ACLNN_EMU_INTERNAL_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "aclnn_emu/aclnn_emu.h"

#define EMU_MAX_DIMS ACLNN_EMU_MAX_DIMS
#define EMU_MSG_MAX 1024
#define EMU_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* fork(): each module that owns locks registers pthread_atfork handlers from
 * a constructor of this priority. Lower layers register first, so prepare
 * handlers (run last-registered first) take locks from the top layer down and
 * the child handlers release them bottom-up: one global lock order. */
enum {
    EMU_ATFORK_CONFIG = 201,
    EMU_ATFORK_DIAG,
    EMU_ATFORK_REGISTRY,
    EMU_ATFORK_MEMORY,
    EMU_ATFORK_STREAM,
    EMU_ATFORK_RUNTIME,
};

/* Holds a module's mutex across fork() (taken before, released after, in
 * both processes), registered in the module's layer order. */
#define EMU_FORK_SAFE_MUTEX(mutex, priority)                                                                 \
    static void fork_lock_##priority(void) { pthread_mutex_lock(&(mutex)); }                               \
    static void fork_unlock_##priority(void) { pthread_mutex_unlock(&(mutex)); }                           \
    __attribute__((constructor(priority))) static void fork_register_##priority(void)                      \
    {                                                                                                        \
        pthread_atfork(fork_lock_##priority, fork_unlock_##priority, fork_unlock_##priority);              \
    }

/* ---- errors (error.c) ------------------------------------------------- */

/* Records "api: <message>" as this thread's recent error, logs it, returns status. */
int emu_error(int status, const char *api, const char *fmt, ...) EMU_PRINTF(3, 4);
/* Records an already formatted message (e.g. one carried back from a stream task). */
void emu_error_set_raw(const char *msg);

/* ---- configuration and logging (config.c) ----------------------------- */

enum { EMU_LOG_DEBUG = 0, EMU_LOG_INFO = 1, EMU_LOG_WARNING = 2, EMU_LOG_ERROR = 3 };

/* Reads the environment switches once (idempotent, thread-safe). */
void emu_config_load(void);
int emu_strict(void);
int emu_threads(void);
int emu_device_count(void);
bool emu_log_enabled(int level);
void emu_log(int level, const char *fmt, ...) EMU_PRINTF(2, 3);
/* A misuse: an error (returns status) in strict mode, a warning (returns 0) otherwise. */
int emu_misuse(int status, const char *api, const char *fmt, ...) EMU_PRINTF(3, 4);
double emu_now(void);
/* True in a fork() child of a process that used the library: kernels run serially there. */
bool emu_forked_child(void);

/* Warnings for the caller (validation-mode.md, normal mode): counted, logged
 * and queued for aclnnEmuTakeWarning. */
#define EMU_WARNINGS_KEPT 8
typedef struct emu_warnings {
    char msg[EMU_WARNINGS_KEPT][EMU_MSG_MAX];
    unsigned head, count;
    uint64_t dropped;
} emu_warnings;
void emu_warning(const char *api, const char *fmt, ...) EMU_PRINTF(2, 3);
/* Routes this thread's warnings to sink (NULL: back to the thread); returns the previous sink. */
emu_warnings *emu_warnings_capture(emu_warnings *sink);
/* Moves from's warnings to the end of to (emptying from). */
void emu_warnings_merge(emu_warnings *to, emu_warnings *from);
/* Moves from's warnings to the calling thread's queue. */
void emu_warnings_deliver(emu_warnings *from);

/* ---- diagnostics counters (diag.c) ------------------------------------ */

void emu_diag_api(const char *api);
void emu_diag_op(const char *op, double seconds);
void emu_diag_warning(void);
void emu_diag_error(void);
/* Keeps the leak report of aclFinalize for the diagnostics report. */
void emu_diag_leaks(const char *text);

/* ---- handle registry (registry.c) ------------------------------------- */

typedef enum emu_kind {
    EMU_TENSOR = 1,
    EMU_INT_ARRAY,
    EMU_FLOAT_ARRAY,
    EMU_BOOL_ARRAY,
    EMU_EXECUTOR,
    EMU_STREAM,
    EMU_KIND_COUNT
} emu_kind;

typedef enum emu_found { EMU_LIVE, EMU_ABSENT, EMU_OTHER_KIND, EMU_RETIRED } emu_found;

const char *emu_kind_name(emu_kind kind);
/* 0, or -1 when out of memory. creator is the API that made the handle (a literal). */
int emu_registry_add(const void *p, emu_kind kind, const char *creator);
emu_found emu_registry_find(const void *p, emu_kind kind);
/* Destroys a live handle of size bytes: its memory is quarantined (released
 * later, with release) so that a later use of p is reported as destroyed.
 * Returns what p was; nothing happens unless it was EMU_LIVE of kind. */
emu_found emu_registry_release(void *p, emu_kind kind, size_t size, void (*release)(void *));
/* Marks a live handle as the library's own: not counted, not reported as a leak. */
void emu_registry_mark_internal(const void *p);
size_t emu_registry_count(emu_kind kind);
/* Appends one line per live handle of kind to the log; returns how many. */
size_t emu_registry_report(emu_kind kind, char *buf, size_t cap, size_t *used);
/* Validates a handle argument: 0, or the status with a message naming the parameter. */
int emu_check_handle(const void *p, emu_kind kind, int status_invalid, const char *api, const char *param);

/* ---- runtime, devices and streams (runtime.c, stream.c) --------------- */

typedef struct emu_stream emu_stream;

int emu_require_init(const char *api);
bool emu_initialized(void);
/* The calling thread's device, or an error status with a message. */
int emu_current_device(const char *api, int32_t *device);
/* Resolves a user stream (NULL: the current device's default stream). */
int emu_stream_resolve(aclrtStream stream, const char *api, int invalid_status, emu_stream **out);

/* A unit of stream work: returns 0 or a status, writing a message into msg on failure. */
typedef int (*emu_task_fn)(void *ctx, char *msg, size_t msg_cap);
typedef void (*emu_release_fn)(void *ctx);
/* Enqueues work; on failure releases ctx and returns a status. *seq receives its sequence number. */
int emu_stream_enqueue(emu_stream *s, emu_task_fn fn, emu_release_fn release, void *ctx, uint64_t *seq);
int emu_stream_sync(emu_stream *s, const char *api);
/* True when the host has synchronised with s up to (and including) task seq. */
bool emu_stream_host_synced(emu_stream *s, uint64_t seq);
/* Wait for a specific task (used to make racy reads deterministic in normal mode). */
void emu_stream_wait(emu_stream *s, uint64_t seq);
emu_stream *emu_stream_create(int32_t device, bool is_default);
void emu_stream_destroy(emu_stream *s);
int32_t emu_stream_device(const emu_stream *s);

/* ---- device memory (memory.c) ---------------------------------------- */

typedef struct emu_block_info {
    uintptr_t base;
    size_t size;
    bool device;     /* aclrtMalloc or aclrtHostRegister (true), aclrtMallocHost (false) */
    bool registered; /* host memory registered with aclrtHostRegister */
} emu_block_info;

/* Finds the recorded block containing [p, p+len); false when there is none. */
bool emu_mem_find(const void *p, size_t len, emu_block_info *out);
/* Records that work enqueued on s (task seq) uses (reads, or writes) the block containing p. */
void emu_mem_note_use(const void *p, emu_stream *s, uint64_t seq, const char *op, bool writes);
/* Checks a host read of [p, p+len) against pending operator writes (see validation-mode). */
int emu_mem_check_read(const void *p, size_t len, const char *api);
void emu_mem_forget_stream(emu_stream *s);
size_t emu_mem_live_blocks(char *buf, size_t cap, size_t *used);
void emu_mem_release_all(void);

/* ---- tensors (tensor.c) ------------------------------------------------ */

struct aclTensor {
    int64_t dims[EMU_MAX_DIMS];
    int64_t strides[EMU_MAX_DIMS];
    int64_t storage[EMU_MAX_DIMS];
    uint64_t ndim;
    uint64_t storage_ndim;
    int64_t offset;
    aclDataType dtype;
    aclFormat format;
    void *data;
};

struct aclIntArray {
    uint64_t size;
    int64_t values[];
};

size_t emu_dtype_size(aclDataType dt); /* 0 for types without a whole-byte size */
const char *emu_dtype_name(aclDataType dt);
const char *emu_format_name(aclFormat f);
int64_t emu_tensor_numel(const aclTensor *t);
/* "f32(512,256,7,7)" (plus " NCHW" when with_format) */
void emu_tensor_describe(const aclTensor *t, bool with_format, char *buf, size_t cap);
void emu_dims_describe(const int64_t *dims, uint64_t n, char *buf, size_t cap);
/* Element offset one past the furthest element of the view (0 for an empty tensor). */
int64_t emu_tensor_extent(const aclTensor *t);
/* True if two distinct indices of the view address the same element. */
bool emu_tensor_self_overlaps(const aclTensor *t);

/* ---- executors (executor.c) ------------------------------------------- */

#define EMU_MAX_IO 4

struct emu_launch;

/* What an operator file provides to the executor framework. */
typedef struct emu_op_def {
    const char *name;                     /* "aclnnRoiAlignV2Backward" */
    const char *const *tensor_names;      /* inputs then outputs, signature order */
    size_t n_inputs, n_outputs;
    /* Runs on the stream's worker thread. 0 or a status plus a message in msg. */
    int (*run)(const struct emu_launch *l, char *msg, size_t msg_cap);
} emu_op_def;

/* Everything one execution needs: a snapshot of the executor taken at launch. */
typedef struct emu_launch {
    const emu_op_def *op;
    aclTensor tensors[EMU_MAX_IO]; /* inputs then outputs */
    void *workspace;
    uint64_t workspace_size; /* what phase one asked for (the caller may have passed more) */
    size_t params_size;
    _Alignas(16) unsigned char params[];
} emu_launch;

/* Phase one epilogue: captures tensors and attributes, logs, returns the executor. */
int emu_executor_create(const emu_op_def *op, const aclTensor *const *tensors, const void *params,
                        size_t params_size, uint64_t workspace_size, const char *attrs, uint64_t *workspace_size_out,
                        aclOpExecutor **executor_out);
/* Phase two: validates and enqueues a run of executor on stream. */
int emu_executor_launch(const emu_op_def *op, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                        aclrtStream stream);

/* ---- checks shared by the operator files ------------------------------ */

/* Each returns 0 or the status with a message "api: <param> ...". */
int emu_check_not_null(const void *p, const char *api, const char *param);
int emu_check_tensor_live(const aclTensor *t, const char *api, const char *param);
int emu_check_array_live(const aclIntArray *a, const char *api, const char *param);
int emu_check_output_writable(const aclTensor *t, const char *api, const char *param);

/* Threads the kernels use. */
int emu_kernel_threads(void);

#endif /* ACLNN_EMU_INTERNAL_H_ */
