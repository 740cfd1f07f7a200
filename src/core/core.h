/*
 * Core layer: status and error messages, log, options, warnings,
 * diagnostics counters, fork ordering. Depends on nothing but the public
 * headers; every other layer builds on it (see src/README.md).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACLNN_EMU_CORE_H_
#define ACLNN_EMU_CORE_H_

#include <pthread.h>
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

/* The prologue of every public API function: counts the call for the
 * diagnostics report and names it `api` for messages. */
#define EMU_API_ENTRY()                                                                                      \
    const char *const api = __func__;                                                                        \
    emu_diag_api(api)

/* ---- fork() ----------------------------------------------------------- */

/* Each module that owns locks registers pthread_atfork handlers from a
 * constructor of this priority. Prepare handlers run last-registered first,
 * so they take the locks in the order code nests them (devices, then
 * streams, then the leaf locks) and the child handlers release them in
 * reverse: one global lock order. */
enum {
    EMU_ATFORK_TRACE = 201, /* a leaf: nothing is locked under it */
    EMU_ATFORK_TDT,       /* a leaf too */
    EMU_ATFORK_MSTX,      /* a leaf too */
    EMU_ATFORK_SUBSCRIBE, /* a leaf too */
    EMU_ATFORK_IPC,       /* a leaf too */
    EMU_ATFORK_OPTIONS,
    EMU_ATFORK_DIAG,
    EMU_ATFORK_REGISTRY,
    EMU_ATFORK_MEMORY,
    EMU_ATFORK_EVENT, /* locked after the streams are quiet: their event waits need it */
    EMU_ATFORK_TASKS, /* likewise for the value waits (tasks.c) */
    EMU_ATFORK_STREAM,
    EMU_ATFORK_CAPTURE, /* taken before a stream's own lock (emu_stream_set_sink) */
    EMU_ATFORK_DEVICE,
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

/* EMU_FORK_SAFE_MUTEX for a mutex with a condition variable: the child also
 * re-initialises the condition, whose waiters were threads that do not exist
 * there. */
#define EMU_FORK_SAFE_MUTEX_COND(mutex, cond, priority)                                                      \
    static void fork_lock_##priority(void) { pthread_mutex_lock(&(mutex)); }                               \
    static void fork_unlock_##priority(void) { pthread_mutex_unlock(&(mutex)); }                           \
    static void fork_child_##priority(void)                                                                  \
    {                                                                                                        \
        pthread_cond_init(&(cond), NULL);                                                                    \
        pthread_mutex_unlock(&(mutex));                                                                      \
    }                                                                                                        \
    __attribute__((constructor(priority))) static void fork_register_##priority(void)                      \
    {                                                                                                        \
        pthread_atfork(fork_lock_##priority, fork_unlock_##priority, fork_child_##priority);               \
    }

/* True in a fork() child of a process that used the library: kernels run serially there. */
bool emu_forked_child(void);
/* A count bumped by every change that phase one may depend on (options, SoC, aclInit/aclFinalize, fork):
 * an executor made under another generation is not reused by aclnnEmuRunArrays. */
uint64_t emu_config_generation(void);
void emu_config_changed(void);

/* ---- errors (error.c) ------------------------------------------------- */

/* Records "api: <message>" as this thread's recent error, logs it, returns status. */
int emu_error(int status, const char *api, const char *fmt, ...) EMU_PRINTF(3, 4);
int emu_errorv(int status, const char *api, const char *fmt, va_list ap) EMU_PRINTF(3, 0);
/* This thread's last failing status (aclrtGetLastError); clear resets it to 0. */
int emu_last_status(bool clear);
void emu_set_last_status(int status);
/* Records an already formatted message (e.g. one carried back from a stream task). */
void emu_error_set_raw(const char *msg);

/* ---- options and log (options.c) -------------------------------------- */

enum { EMU_LOG_DEBUG = 0, EMU_LOG_INFO = 1, EMU_LOG_WARNING = 2, EMU_LOG_ERROR = 3 };

/* Reads the environment switches once (idempotent, thread-safe). */
void emu_config_load(void);
/* Run-time settings (config.c), refused without a message: options.c reports. */
typedef enum emu_config_result { EMU_CONFIG_OK, EMU_CONFIG_UNKNOWN, EMU_CONFIG_RANGE, EMU_CONFIG_LOCKED } emu_config_result;
/* Sets switch name (range [*lo, *hi] reported); the cache size in bytes is one too. */
emu_config_result emu_config_set(const char *name, int64_t value, int *lo, int *hi);
emu_config_result emu_config_get(const char *name, int64_t *value);
emu_config_result emu_config_set_soc(const char *name);
/* The name of emulated SoC i, NULL past the last. */
const char *emu_soc_name_at(size_t i);

int emu_strict(void);
/* ACLNN_EMU_REFERENCE_KERNELS=1: operators run their family's reference kernel instead of a fast path. */
bool emu_reference_kernels(void);
int emu_threads(void);
int emu_device_count(void);
/* Bound of the block cache's idle bytes (ACLNN_EMU_CACHE_BYTES, default 1 GiB; 0 keeps none). */
uint64_t emu_cache_bytes(void);
/* While locked (between aclInit and aclFinalize) the device count cannot change. */
void emu_device_count_lock(bool locked);
/* OpenMP threads for a kernel (1 in a fork() child). */
int emu_kernel_threads(void);
bool emu_log_enabled(int level);
void emu_log(int level, const char *fmt, ...) EMU_PRINTF(2, 3);
double emu_now(void);

/* ---- the trace (trace.c): ACLNN_EMU_TRACE_FILE, Chrome trace event JSON written at exit ---- */

bool emu_trace_on(void);
double emu_trace_now_us(void);
/* An event on the calling thread's track: ph 'X' (complete: ts, dur), 'i' (instant), 'B'/'E' (this thread's
 * nested ranges), 'b'/'e' (async ranges by id). Nothing when tracing is off. */
void emu_trace_event(char ph, const char *name, const char *cat, double ts_us, double dur_us, uint64_t id);
/* Names the calling thread's track. */
void emu_trace_thread_name(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Until emu_trace_track_leave, the calling thread's events go on track key (named by fmt when first used):
 * a stream's tasks show on the stream's track whichever thread runs them. */
#define EMU_TRACE_STREAM_TRACKS 10000
void emu_trace_track_enter(int key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emu_trace_track_leave(void);
/* An async range: its id (0 when tracing is off), and its end (false for an id no open range has). */
uint64_t emu_trace_range_begin(const char *name, const char *cat);
bool emu_trace_range_end(uint64_t id);
/* Writes the trace now (at exit, and when a fatal signal ends the program). */
void emu_trace_write(void);

/* ---- the emulated SoC (options.c) ------------------------------------- */

/* CANN's SocVersion families whose op_api and kernels differ. */
typedef enum emu_soc_family { EMU_SOC_910B, EMU_SOC_910_93, EMU_SOC_950 } emu_soc_family;

typedef struct emu_soc {
    const char *name;      /* what aclrtGetSocName reports */
    emu_soc_family family;
    int cube_cores;        /* AI cores (AIC) */
    int vector_cores;      /* AIV: sets blockDim of vector kernels */
} emu_soc;

/* The SoC chosen by ACLNN_EMU_SOC (default Ascend910B1); fixed between aclInit and aclFinalize. */
const emu_soc *emu_soc_current(void);
/* An emulated SoC by name (case-insensitive), NULL for another. */
const emu_soc *emu_soc_named(const char *name);

/* ---- warnings (options.c) --------------------------------------------- */

/* Warnings for the caller (normal mode: CANN would go on silently): counted, logged
 * and queued for aclnnEmuTakeWarning. */
#define EMU_WARNINGS_KEPT 8
typedef struct emu_warnings {
    char msg[EMU_WARNINGS_KEPT][EMU_MSG_MAX];
    unsigned head, count;
    uint64_t dropped;
} emu_warnings;

void emu_warning(const char *api, const char *fmt, ...) EMU_PRINTF(2, 3);
/* A misuse: an error (returns status) in strict mode, a warning (returns 0) otherwise. */
int emu_misuse(int status, const char *api, const char *fmt, ...) EMU_PRINTF(3, 4);
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
/* Appends the counters' part of the report to buf (snprintf rules: *used may pass cap). */
void emu_diag_format(char *buf, size_t cap, size_t *used);
/* snprintf appending at buf + *used (buf may be NULL to measure). */
void emu_append(char *buf, size_t cap, size_t *used, const char *fmt, ...) EMU_PRINTF(4, 5);

#endif /* ACLNN_EMU_CORE_H_ */
