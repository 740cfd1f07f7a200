/*
 * aclnn-emu: the AscendCL runtime slice that single-operator programs call.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 *
 * On the emulator a device is the host CPU, device memory is host memory
 * recorded in an allocation registry, and a stream is a FIFO of work run in
 * order by a worker thread, asynchronously to the thread that enqueued it.
 * Every failing call returns a non-zero status and records a message that
 * aclGetRecentErrMsg() returns.
 */
#ifndef ACL_ACL_RT_H_
#define ACL_ACL_RT_H_

#include "acl_base.h"
#include "error_codes/rt_error_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Direction of a copy. The emulator checks it against where pointers live (strict mode). */
typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE
} aclrtMemcpyKind;

/** Allocation policy of aclrtMalloc. Every policy allocates host memory here. */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
    ACL_MEM_MALLOC_HUGE1G_ONLY,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000
} aclrtMemMallocPolicy;

/** How aclrtHostRegister maps host memory. */
typedef enum aclrtHostRegisterType {
    ACL_HOST_REGISTER_MAPPED = 0
} aclrtHostRegisterType;

/**
 * Initialises the library; once per process.
 * @param configPath NULL, or the path of a JSON configuration file ("{}" is fine).
 * @returns ACL_SUCCESS; ACL_ERROR_REPEAT_INITIALIZE on a second call;
 *          ACL_ERROR_INVALID_PARAM if configPath cannot be read or is not a JSON object.
 */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);

/**
 * Waits for all pending work, releases every device and stream, reports live
 * resources (leak report, see the README) and de-initialises.
 * @returns ACL_SUCCESS; ACL_ERROR_REPEAT_FINALIZE without a matching aclInit.
 */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/**
 * Binds device deviceId to the calling thread (and opens it, creating its default stream).
 * @returns ACL_SUCCESS; ACL_ERROR_UNINITIALIZE before aclInit;
 *          ACL_ERROR_RT_INVALID_DEVICEID if deviceId is not in [0, count).
 */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);

/**
 * Releases one aclrtSetDevice reference on deviceId; the last one waits for
 * the device's streams and destroys its default stream.
 * @returns ACL_SUCCESS; ACL_ERROR_RT_INVALID_DEVICEID for an unknown or unopened device.
 */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);

/**
 * Device bound to the calling thread.
 * @param deviceId [out] receives the id.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_CONTEXT_NULL if no device is set.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);

/**
 * Number of emulated devices (1 unless ACLNN_EMU_DEVICE_COUNT says otherwise).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);

/**
 * Waits until every stream of the current device has finished its work.
 * @returns ACL_SUCCESS, or the status of the first failed task since the last synchronisation.
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);

/**
 * Creates a stream on the current device.
 * @param stream [out] the new stream.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_CONTEXT_NULL without a device;
 *          ACL_ERROR_RT_MEMORY_ALLOCATION if resources are exhausted.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);

/**
 * Waits for the stream's pending work, then destroys it.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL (the default stream cannot be destroyed);
 *          ACL_ERROR_RT_INVALID_HANDLE for a destroyed or foreign handle.
 */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);

/**
 * Waits until all work enqueued on stream before this call has finished.
 * @param stream a stream, or NULL for the current device's default stream.
 * @returns ACL_SUCCESS; ACL_ERROR_RT_INVALID_HANDLE for a destroyed or foreign handle;
 *          or the status of a task that failed (its message is then recorded).
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/**
 * Allocates device memory (host memory here), recorded with its size and policy.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL devPtr, size 0 or an unknown policy;
 *          ACL_ERROR_BAD_ALLOC if the size cannot be allocated.
 */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/**
 * Frees a block from aclrtMalloc.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or a pointer that is not the base of a live block.
 */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);

/** Allocates page-locked host memory (plain host memory here). Same errors as aclrtMalloc. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);

/** Frees memory from aclrtMallocHost. Same errors as aclrtFree. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);

/**
 * Registers host memory [ptr, ptr+size) so that operators may use it as device
 * memory without a copy; *devPtr receives the address to use (ptr itself here).
 * Registering a range inside an already registered one adds a reference.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL pointers, size 0, an unknown type,
 *          or a range that partly overlaps recorded memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr);

/** Drops one registration of ptr. @returns ACL_ERROR_INVALID_PARAM if ptr is not registered. */
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);

/**
 * Copies count bytes, synchronously with respect to the host.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL pointers, count > destMax or an unknown kind,
 *          and (strict mode) a kind that disagrees with where the pointers live or a read of memory
 *          that an operator enqueued on a stream writes before the host synchronised with it.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);

/** Enqueues a copy on stream (NULL: default stream). Errors as aclrtMemcpy plus invalid stream handles. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);

/**
 * Sets count bytes at devPtr to (unsigned char)value.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or count > maxCount.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);

/** Enqueues aclrtMemset on stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);

/**
 * Sets a system option for the current context. ACL_OPT_DETERMINISTIC is
 * accepted and reported back; results are deterministic whatever its value.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for an unknown option.
 */
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);
/** Reads an option set by aclrtCtxSetSysParamOpt (0 if never set). */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value);
/** Process-wide variant of aclrtCtxSetSysParamOpt. */
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);
/** Process-wide variant of aclrtCtxGetSysParamOpt. */
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value);

/**
 * The emulated AI processor, e.g. "Ascend910B1" (ACLNN_EMU_SOC chooses it).
 * @returns a string owned by the library, never NULL.
 */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_H_ */
