/*
 * aclnn-emu: emulator-only extensions (not part of CANN).
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 *
 * CANN programs never need this header. Tools (the Python package, the
 * `aclnn-emu` command) use it to set the validation switches at run time and
 * to read the diagnostics report.
 */
#ifndef ACLNN_EMU_ACLNN_EMU_H_
#define ACLNN_EMU_ACLNN_EMU_H_

#include "../acl/acl_base.h"
#include "../aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Version string of the library, e.g. "0.1.0". */
ACL_FUNC_VISIBILITY const char *aclnnEmuVersion(void);

/**
 * Sets a switch by the name of its environment variable: "ACLNN_EMU_STRICT",
 * "ACLNN_EMU_THREADS", "ACLNN_EMU_DEVICE_COUNT" (before aclInit only),
 * "ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_SLOG_PRINT_TO_STDOUT".
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for an unknown name or a value out of range.
 */
ACL_FUNC_VISIBILITY aclError aclnnEmuSetOption(const char *name, int64_t value);

/** Reads a switch (see aclnnEmuSetOption). */
ACL_FUNC_VISIBILITY aclError aclnnEmuGetOption(const char *name, int64_t *value);

/**
 * Chooses the emulated SoC by name (as ACLNN_EMU_SOC does): "Ascend910B1"
 * (the default) to "Ascend910B4", "Ascend910_9391", "Ascend910_9392",
 * "Ascend950"; case-insensitive. Checks, dtype lists, kernels and workspace
 * sizes follow that SoC's branch of CANN's source; aclrtGetSocName reports it.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for an unknown name, or after aclInit.
 */
ACL_FUNC_VISIBILITY aclError aclnnEmuSetSoc(const char *name);

/**
 * Writes the diagnostics report (APIs called, operators run with times,
 * warnings, live resources) into buf as NUL-terminated text.
 * @returns the length the full report needs, excluding the NUL (like snprintf).
 */
ACL_FUNC_VISIBILITY size_t aclnnEmuReport(char *buf, size_t cap);

/**
 * True when [ptr, ptr + size) lies inside one live block from aclrtMalloc
 * (so a cached workspace can be told from memory aclFinalize released).
 */
ACL_FUNC_VISIBILITY bool aclnnEmuIsDeviceMemory(const void *ptr, size_t size);

/**
 * Host memory for results the caller hands out (the Python layer's result
 * arrays): 64-byte aligned, on 2 MiB pages where the kernel allows for large
 * sizes. Idle blocks of a size class are kept for the next request, up to
 * ACLNN_EMU_CACHE_BYTES (read at first use; default 1 GiB; 0 keeps none; beyond it the least
 * recently freed blocks are released first), so that a loop of calls reuses
 * warm pages instead of faulting in fresh ones. The memory is
 * not device memory: register it (aclrtHostRegister) to use it as such.
 * Blocks aclrtFree releases are kept in the same cache, within the same
 * bound, for later aclrtMalloc requests of their size class and page kind
 * (so reused device memory holds old data, as on a device; strict mode
 * fills every allocation with 0xff bytes, reused or not).
 * @returns the block, or NULL when size is 0 or memory is exhausted.
 */
ACL_FUNC_VISIBILITY void *aclnnEmuCacheAlloc(size_t size);

/**
 * Gives a block of aclnnEmuCacheAlloc back (kept idle within the bound, else freed). NULL is ignored.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (nothing is freed) for a pointer that is not a live
 *          block of aclnnEmuCacheAlloc, e.g. one freed already.
 */
ACL_FUNC_VISIBILITY aclError aclnnEmuCacheFree(void *ptr);

/** Frees every idle block, result and device blocks alike (aclFinalize and aclrtResetDevice do too).
 * @returns the bytes released. */
ACL_FUNC_VISIBILITY uint64_t aclnnEmuCacheTrim(void);

/** Bytes the cache holds idle. */
ACL_FUNC_VISIBILITY uint64_t aclnnEmuCacheIdleBytes(void);

/**
 * Waits up to timeoutMs milliseconds for the work enqueued on stream so far,
 * without reporting anything (no log line, no recent error), for callers that
 * wait in slices to stay responsive (the Python layer lets Ctrl-C through
 * between them); aclrtSynchronizeStream afterwards reports the work's status.
 * @param done receives 1 when the stream is idle, else 0.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL done; ACL_ERROR_RT_PARAM_INVALID for
 *          timeoutMs < 0; the stream errors of aclrtSynchronizeStream for a bad stream.
 */
ACL_FUNC_VISIBILITY aclError aclnnEmuStreamWait(aclrtStream stream, int32_t timeoutMs, int32_t *done);

/**
 * Device memory for a workspace the caller passes to operators that do not
 * touch it (the Python array API: CANN's estimated workspaces run to hundreds
 * of MiB): recorded like aclrtMalloc's, but address space only, its pages
 * committed only where written, never filled in strict mode and never kept in
 * the block cache. Release it with aclrtFree.
 * @returns as aclrtMalloc (huge-page policy aside).
 */
ACL_FUNC_VISIBILITY aclError aclnnEmuMallocReserved(void **devPtr, size_t size);

/** Flags of aclnnEmuSetLaunchMode: as aclnnEmuSetLaunchBlocking(1), as aclnnEmuSetFillUnwritten(1);
 * ACLNN_EMU_LAUNCH_ONCE: the switches hold for the calling thread's next operator launch only (whether it
 * succeeds or not), then the ones set before are back. */
#define ACLNN_EMU_LAUNCH_BLOCKING 1
#define ACLNN_EMU_LAUNCH_FILL_UNWRITTEN 2
#define ACLNN_EMU_LAUNCH_ONCE 4

/**
 * Sets the calling thread's launch switches at once (one call instead of
 * two on a hot path): ACLNN_EMU_LAUNCH_* flags; the ones not given are off.
 * With ACLNN_EMU_LAUNCH_ONCE they apply to the next launch alone, so a
 * caller that sets switches for one call needs no second call to undo them.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for an unknown flag (nothing changes).
 */
ACL_FUNC_VISIBILITY aclError aclnnEmuSetLaunchMode(uint32_t flags);

/** What aclnnEmuRunArrays returns, having run nothing, for an executor to plan again. */
#define ACLNN_EMU_PLAN_STALE 569999

/**
 * Runs a repeatable executor (aclSetAclOpExecutorRepeatable) once on host
 * arrays and waits for it: for language bindings that keep the executor of
 * each argument signature they saw (the Python array API), so that a call
 * with the same shapes, dtypes, formats and attributes skips phase one,
 * whose checks would give the same answer. In one call: the n tensor
 * addresses (the operator's inputs then outputs, as aclSetInputTensorAddr
 * and aclSetOutputTensorAddr number them) apply to this run alone; each
 * tensor's bytes are registered as host memory for the run (as
 * aclrtHostRegister; memory recorded already is used as it is); the
 * executor is launched on stream with the ACLNN_EMU_LAUNCH_* flags for this
 * launch (as aclnnEmuSetLaunchMode with ACLNN_EMU_LAUNCH_ONCE); the stream is
 * synchronised (aclrtSynchronizeStream: its warnings and errors are this
 * thread's); the registrations are undone. Every check of phase two runs.
 * pendingWarnings (may be NULL) receives aclnnEmuPendingWarnings() after it.
 * @returns ACLNN_SUCCESS or the launch's or the synchronisation's status;
 * ACLNN_EMU_PLAN_STALE, with nothing run, when the executor is gone, was
 * planned before a change of settings (aclnnEmuSetOption, aclnnEmuSetSoc,
 * aclInit/aclFinalize, fork()) or its workspace is no longer device memory;
 * ACLNN_ERR_PARAM_NULLPTR for NULL addrs; ACLNN_ERR_PARAM_INVALID for an
 * executor that is not repeatable, n other than its tensor count or an
 * unknown flag.
 */
ACL_FUNC_VISIBILITY aclnnStatus aclnnEmuRunArrays(aclOpExecutor *executor, void *const *addrs, size_t n,
                                                  void *workspace, uint64_t workspaceSize, aclrtStream stream,
                                                  uint32_t flags, uint64_t *pendingWarnings);

/**
 * Outputs that CANN's kernels leave unwritten (an empty input with a
 * non-empty output, Ascend950's equal-shape upsample backward, which launches
 * no kernel) are filled with 0xff bytes, NaN in every float type, by the
 * calling thread's launches while on (1), as strict mode does always; off (0,
 * the default) leaves them as CANN does. For callers that hand out fresh
 * result memory (the Python array API): a result never shows what the memory
 * held before.
 * @returns ACL_SUCCESS.
 */
ACL_FUNC_VISIBILITY aclError aclnnEmuSetFillUnwritten(int32_t fill);

/**
 * Blocking launches for the calling thread (1) or asynchronous ones (0, the
 * default), as CUDA_LAUNCH_BLOCKING: while on, work this thread puts on a
 * stream with nothing pending (an operator's phase two, a copy, an event
 * record) runs on this thread before the call returns, instead of waking the
 * stream's worker; work behind pending tasks is queued as usual. Results,
 * statuses and ordering are unchanged (a failed task is still reported by the
 * next synchronisation). For callers that synchronise right after launching
 * (the Python array API): it saves a thread wake-up per call.
 * @returns ACL_SUCCESS.
 */
ACL_FUNC_VISIBILITY aclError aclnnEmuSetLaunchBlocking(int32_t blocking);

/** Number of live handles (tensors, arrays, executors, streams, device blocks). */
ACL_FUNC_VISIBILITY uint64_t aclnnEmuLiveHandles(void);

/**
 * Number of warnings (validation mode, normal mode) not yet taken by the
 * calling thread. A warning raised by work on a stream belongs to the thread
 * that synchronises with that stream (aclrtSynchronizeStream/Device), as a
 * task's error does; any other warning to the thread whose call raised it.
 * A thread keeps the last 8; older ones are counted as one summary warning.
 */
ACL_FUNC_VISIBILITY uint64_t aclnnEmuPendingWarnings(void);

/**
 * Takes the calling thread's oldest pending warning ("api: message") and
 * writes it into buf (NUL-terminated, truncated to cap).
 * @returns the message's length excluding the NUL; 0 when none is pending.
 */
ACL_FUNC_VISIBILITY size_t aclnnEmuTakeWarning(char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_EMU_ACLNN_EMU_H_ */
