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
#include "acl_rt_allocator.h"
#include "error_codes/rt_error_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/** AscendCL interface version reported by aclrtGetVersion (CANN's values). */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/** Flags of aclrtCreateEventWithFlag. */
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/** Modes of aclrtSetStreamFailureMode. */
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

/** Flags of aclrtRecordEventWithFlag. */
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U

/** Flags of aclrtStreamWaitEventWithFlag. */
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

/** Flags of aclrtCreateStreamWithConfig: recorded and reported by aclrtStreamGetFlags. */
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/** Flags of aclrtCreateNotify. */
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

/** A flag one stream records and another waits for (aclrtCreateNotify). */
typedef void *aclrtNotify;

/** Where the program runs: always ACL_HOST on the emulator. */
typedef enum aclrtRunMode {
    ACL_DEVICE,
    ACL_HOST
} aclrtRunMode;

/** Scope of aclrtGetLastError / aclrtPeekAtLastError. */
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0
} aclrtLastErrLevel;

/** What a failed stream task reports to exception-info callbacks (read it with the getters). */
typedef struct rtExceptionInfo aclrtExceptionInfo;
/** Called on the thread that ran a failed task. */
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);

/** aclrtStreamQuery's answer. */
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
    ACL_STREAM_STATUS_RESERVED = 0xFFFF
} aclrtStreamStatus;

/** Whether the stream waits for a host callback to run (aclrtLaunchCallback). */
typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK,
    ACL_CALLBACK_BLOCK
} aclrtCallbackBlockType;

/** A host callback (aclrtLaunchCallback). */
typedef void (*aclrtCallback)(void *userData);
/** A host function run in stream order (aclrtLaunchHostFunc). */
typedef void (*aclrtHostFunc)(void *args);

/** aclrtQueryEvent's answer. */
typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2
} aclrtEventStatus;

/** aclrtQueryEventStatus's answer. */
typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1
} aclrtEventRecordedStatus;

/** Kinds of device memory aclrtGetMemInfo reports on (all the host's RAM here). */
typedef enum aclrtMemAttr {
    ACL_DDR_MEM,
    ACL_HBM_MEM,
    ACL_DDR_MEM_HUGE,
    ACL_DDR_MEM_NORMAL,
    ACL_HBM_MEM_HUGE,
    ACL_HBM_MEM_NORMAL,
    ACL_DDR_MEM_P2P_HUGE,
    ACL_DDR_MEM_P2P_NORMAL,
    ACL_HBM_MEM_P2P_HUGE,
    ACL_HBM_MEM_P2P_NORMAL,
    ACL_HBM_MEM_HUGE1G,
    ACL_HBM_MEM_P2P_HUGE1G,
    ACL_MEM_NORMAL,
    ACL_MEM_HUGE,
    ACL_MEM_HUGE1G,
    ACL_MEM_P2P_NORMAL,
    ACL_MEM_P2P_HUGE,
    ACL_MEM_P2P_HUGE1G
} aclrtMemAttr;

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
 * Closes deviceId whatever the number of aclrtSetDevice calls on it: waits for
 * its streams, then destroys them (user streams with a leak warning).
 * @returns as aclrtResetDevice.
 */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);

/**
 * Creates a context on deviceId (opening the device as aclrtSetDevice does)
 * with a stream of its own, and makes it the calling thread's current context.
 * @param context [out] the new context.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_UNINITIALIZE before aclInit;
 *          ACL_ERROR_RT_INVALID_DEVICEID for an id out of range.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);

/**
 * Destroys a context from aclrtCreateContext: waits for its stream, releases
 * its device reference; a thread whose current context it was has none.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or a device's default context;
 *          ACL_ERROR_RT_INVALID_HANDLE for a destroyed or foreign handle.
 */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);

/**
 * Makes context the calling thread's current one: its device, and its stream
 * for NULL stream arguments.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_INVALID_HANDLE for a
 *          destroyed context or the default context of a device that was reset.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);

/**
 * The calling thread's current context (after aclrtSetDevice: the device's default context).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_CONTEXT_NULL without one.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);

/**
 * The calling thread's last failing status (0 if none), leaving it set.
 * @returns that status; ACL_ERROR_INVALID_PARAM for a level other than ACL_RT_THREAD_LEVEL.
 */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);

/** As aclrtPeekAtLastError, then resets it to ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

/**
 * Sets the one callback called when a stream task fails (NULL clears it).
 * @returns ACL_SUCCESS.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);

/**
 * Adds a callback called when a stream task fails (on the thread that ran it,
 * before the failure is visible to a synchronising host). Adding one twice adds it once.
 * @returns ACL_SUCCESS; ACL_ERROR_RT_PARAM_INVALID for NULL or more than 15 callbacks.
 */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);

/** Removes a registered callback (one never registered: nothing happens). ACL_ERROR_RT_PARAM_INVALID for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);

/** The failed task's number in its stream; 0xFFFFFFFF for NULL info (so do the other getters). */
ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info);
/** The failed task's stream id (numbered from 0 in creation order). */
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info);
/** The id of the thread that ran the failed task. */
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info);
/** The failed task's device. */
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info);
/** The failed task's status. */
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info);

/** The size of aclrtIpcEventHandle. */
#define ACL_IPC_EVENT_HANDLE_SIZE 64U

/** An event shared between processes (IPC: not supported by the emulator). */
typedef struct aclrtIpcEventHandle {
    char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

/** Dump switches: accepted, nothing is dumped. @returns ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);
/**
 * Dump configuration file (read-checked, otherwise ignored).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or an unreadable path.
 */
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath);
/** Ends aclmdlInitDump. @returns ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

/** The process id that owns the device: this process. @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid);

/* Device memory shared between processes (POSIX shared memory on the emulator). */
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL

/**
 * Shares the aclrtMalloc block holding [devPtr, devPtr + size) with other processes; key (len bytes) receives
 * the name they import it by. The block stays at its addresses here.
 * @param flags DEFAULT (importers must be on the whitelist, aclrtIpcMemSetImportPid) or DISABLE_PID_VALIDATION.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments, size 0, other flags or a key that does not
 *          fit in len; ACL_ERROR_RT_PARAM_INVALID for a range outside one device block or a block exported already.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags);
/**
 * In the exporting process: no more imports of key (those made keep their memory). In an importing one: unmaps
 * the import (a later use of it is refused, as after aclrtFree).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_PARAM_INVALID for a key this process
 *          neither exported nor imported.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);
/**
 * Maps the memory another process exported as key: *devPtr is device memory here, until aclrtIpcMemClose.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments or other flags; ACL_ERROR_RT_PARAM_INVALID for a
 *          key no live export has, or a process not on the export's whitelist.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags);
/**
 * Adds num processes to the whitelist of this process's export key (64 at most).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments or num 0; ACL_ERROR_RT_PARAM_INVALID for a key
 *          this process did not export, or a full whitelist.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num);
/**
 * The handle another process opens an ACL_EVENT_IPC event by (its records are shared through POSIX shared memory).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_PARAM_INVALID for an event that is not IPC.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle);
/**
 * Opens the IPC event of handle: records, waits, synchronisations and aclrtQueryEventStatus act on the shared event.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_PARAM_INVALID for a handle of no live event.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event);

/* ---- Out of scope ---------------------------------------------------------
 * Kernel binaries and launches, virtual and physical device memory, and
 * managed and host-registered memory need a real NPU. They are declared with CANN's signatures so that programs
 * compile unchanged; each returns ACL_ERROR_API_NOT_SUPPORT with a message
 * naming the feature, and writes no output. */

typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;
typedef void *aclrtDrvMemHandle;

typedef enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;
    uint32_t magic;
    int32_t cpuKernelMode;
    uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption *options;
    size_t numOpt;
} aclrtBinaryLoadOptions;

typedef enum {
    ACL_RT_ENGINE_TYPE_AIC = 0,
    ACL_RT_ENGINE_TYPE_AIV
} aclrtEngineType;

typedef enum aclrtLaunchKernelAttrId {
    ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
    ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
    ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9
} aclrtLaunchKernelAttrId;

typedef struct {
    uint32_t timeoutLow;
    uint32_t timeoutHigh;
} aclrtTimeoutUs;

typedef union aclrtLaunchKernelAttrValue {
    uint8_t schemMode;
    uint32_t localMemorySize;
    uint32_t dynUBufSize;
    aclrtEngineType engineType;
    uint32_t blockDimOffset;
    uint8_t isBlockTaskPrefetch;
    uint8_t isDataDump;
    uint16_t timeout;
    aclrtTimeoutUs timeoutUs;
    uint8_t enableProfiling;
    uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
    aclrtLaunchKernelAttrId id;
    aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr *attrs;
    size_t numAttrs;
} aclrtLaunchKernelCfg;

typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_LOCATION_TYPE_UNREGISTERED,
    ACL_MEM_LOCATION_TYPE_MANAGED,
    ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4
} aclrtMemLocationType;

typedef struct aclrtMemLocation {
    uint32_t id;
    aclrtMemLocationType type;
} aclrtMemLocation;

typedef enum aclrtMemAllocationType {
    ACL_MEM_ALLOCATION_TYPE_PINNED = 0
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
    ACL_MEM_HANDLE_TYPE_NONE = 0,
    ACL_MEM_HANDLE_TYPE_POSIX = 2
} aclrtMemHandleType;

typedef struct aclrtPhysicalMemProp {
    aclrtMemHandleType handleType;
    aclrtMemAllocationType allocationType;
    aclrtMemAttr memAttr;
    aclrtMemLocation location;
    uint64_t reserve;
} aclrtPhysicalMemProp;

typedef enum aclrtMemGranularityOptions {
    ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
    ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
    ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF
} aclrtMemGranularityOptions;

typedef enum {
    ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
    ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
    ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3
} aclrtMemAccessFlags;

typedef struct {
    aclrtMemAccessFlags flags;
    aclrtMemLocation location;
    uint8_t rsv[12];
} aclrtMemAccessDesc;


/** Kernel binaries and launches: not supported. @returns ACL_ERROR_API_NOT_SUPPORT. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle);
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle);
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                               size_t argsSize, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve);
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream);

/** Virtual and physical device memory: not supported. @returns ACL_ERROR_API_NOT_SUPPORT. */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                                    uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                                                 const aclrtPhysicalMemProp *prop, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
                                                              aclrtMemGranularityOptions option, size_t *granularity);
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count);
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                             uint64_t flags, uint64_t *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle *handle);

/** Managed (unified) memory: not supported. @returns ACL_ERROR_API_NOT_SUPPORT. */
ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag);



/**
 * Where the program runs.
 * @param runMode [out] ACL_HOST (a host program driving the emulated device).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);

#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/**
 * A CANN package's version string ("9.1.0"), read as CANN reads it: the Version= line of
 * $ASCEND_HOME_PATH/share/info/<pkgName>/version.info (a '-' or '_' in the name may stand for the
 * other). The toolkit tree ships share/info/runtime/version.info with the hicann/runtime version whose
 * API it emulates. versionStr must hold ACL_PKG_VERSION_MAX_SIZE bytes.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL pointer; ACL_ERROR_INVALID_FILE when
 *          ASCEND_HOME_PATH is unset or the file or its Version= line is missing; ACL_ERROR_INTERNAL_ERROR
 *          for a version of ACL_PKG_VERSION_MAX_SIZE bytes or more.
 */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr);

/**
 * The same version as a number: major * 10^7 + minor * 10^5 + patch * 10^3, less 300, 200 or 100 for an
 * alpha, beta or rc suffix plus its number ("9.1.0" is 90100000, "8.5.0-rc2" 80499902).
 * @returns as aclsysGetVersionStr; ACL_ERROR_INTERNAL_ERROR for a version that is not of that form.
 */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);

typedef enum {
    ACL_RT_NO_ERROR = 0,
    ACL_RT_ERROR_MEMORY = 1,
    ACL_RT_ERROR_L2 = 2,
    ACL_RT_ERROR_AICORE = 3,
    ACL_RT_ERROR_LINK = 4,
    ACL_RT_ERROR_L3_PORT = 5,
    ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
    ACL_RT_AICORE_ERROR_UNKNOWN,
    ACL_RT_AICORE_ERROR_SW,
    ACL_RT_AICORE_ERROR_HW_LOCAL,
} aclrtAicoreErrorType;

#define UCE_INFO_RESERVED_SIZE 14
typedef struct aclrtMemUceInfo {
    void *addr;
    size_t len;
    size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20
typedef struct {
    size_t arraySize;
    aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
    aclrtMemUceInfoArray uceInfo;
    aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

typedef struct aclrtErrorInfo {
    uint8_t tryRepair;
    uint8_t hasDetail;
    uint8_t reserved[2];
    aclrtErrorType errorType;
    aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

/**
 * The device's last hardware fault. The emulator's devices have none: ACL_RT_NO_ERROR, nothing to
 * repair, no detail.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL errorInfo; ACL_ERROR_RT_INVALID_DEVICEID for
 *          an id out of range.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo);

/**
 * Whether kernels built for socVersion run on the emulated SoC: *canCompatible 1 for a SoC name of the
 * same family (Ascend910B1-4, Ascend910_9391/9392, Ascend950), else 0.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL pointer.
 */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);

typedef enum {
    ACL_RT_DEV_RES_CUBE_CORE = 0,
    ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;

/**
 * The cores (cube: AIC, vector: AIV) the calling thread's kernels may use. The emulator sets no limits:
 * the emulated SoC's counts (Ascend910B1: 24 and 48).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL value or an unknown type.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);

typedef enum {
    ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
    ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

/**
 * A device feature: *value 1 when present. The emulator has neither: no AI Core tasks to update, no
 * system memory-queue events across devices (0).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL value or an unknown feature;
 *          ACL_ERROR_RT_INVALID_DEVICEID for an id out of range.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t *value);

/**
 * The AscendCL interface version (ACL_MAJOR_VERSION.ACL_MINOR_VERSION.ACL_PATCH_VERSION).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM if any pointer is NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

/**
 * Whether deviceId can access peerDeviceId's memory: always 1 here (all
 * emulated devices share the host's memory).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or equal ids;
 *          ACL_ERROR_RT_INVALID_DEVICEID for an id out of range; ACL_ERROR_UNINITIALIZE before aclInit.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId);

/**
 * Enables access from the current device to peerDeviceId's memory.
 * @param flags reserved, must be 0 (else ACL_ERROR_FEATURE_UNSUPPORTED).
 * @returns ACL_SUCCESS; errors as aclrtDeviceCanAccessPeer; ACL_ERROR_RT_CONTEXT_NULL without a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);

/** Disables what aclrtDeviceEnablePeerAccess enabled. Errors as aclrtDeviceEnablePeerAccess. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

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
 * aclrtSynchronizeDevice that gives up after timeout milliseconds (-1: never).
 * @returns as aclrtSynchronizeDevice; ACL_ERROR_RT_PARAM_INVALID for timeout < -1;
 *          ACL_ERROR_RT_STREAM_SYNC_TIMEOUT when the time runs out (the work carries on).
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/**
 * Creates a stream on the current device.
 * @param stream [out] the new stream.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_CONTEXT_NULL without a device;
 *          ACL_ERROR_RT_MEMORY_ALLOCATION if resources are exhausted.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);

/**
 * aclrtCreateStream with a priority and flags. Both are recorded and reported
 * back (aclrtStreamGetPriority/Flags); every stream runs the same way here.
 * @param priority 0 (greatest) .. 7 (least), see aclrtDeviceGetStreamPriorityRange.
 * @param flag ACL_STREAM_* flags or 0.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL stream; ACL_ERROR_RT_PARAM_INVALID for a
 *          priority out of range or an unknown flag bit; as aclrtCreateStream otherwise.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);

/**
 * The range of stream priorities: least 7, greatest 0 (CANN's values). Either pointer may be NULL.
 * @returns ACL_SUCCESS.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority);

/**
 * A stream's priority (0 unless created with aclrtCreateStreamWithConfig).
 * @param stream a stream, or NULL for the default stream.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL priority; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority);

/** A stream's ACL_STREAM_* flags. @returns as aclrtStreamGetPriority. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags);

/** A stream's id (the one exception-info callbacks report). @returns as aclrtStreamGetPriority. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);

/**
 * Creates a notify on the current device.
 * @param flag ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or another flag; ACL_ERROR_RT_CONTEXT_NULL
 *          with no current device.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);

/**
 * Destroys a notify; tasks already enqueued on it still run.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);

/**
 * Enqueues a task that raises the notify when the stream reaches it.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL notify; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);

/**
 * Enqueues a task that holds the stream until the notify is raised, then
 * lowers it (each record releases one wait).
 * @param timeout milliseconds, 0 for ever; when it runs out the task fails with
 *        ACL_ERROR_RT_WAIT_TIMEOUT, reported by the stream's next synchronisation.
 * @returns as aclrtRecordNotify.
 */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);

/**
 * Waits for the stream's pending work, then destroys it.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL (the default stream cannot be destroyed);
 *          ACL_ERROR_RT_INVALID_HANDLE for a destroyed or foreign handle.
 */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);

/**
 * Destroys a stream without running its queued work (a task already running finishes first).
 * Events recorded by the dropped work complete, so nothing waits on them forever.
 * @returns as aclrtDestroyStream.
 */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);

/**
 * Waits until all work enqueued on stream before this call has finished.
 * @param stream a stream, or NULL for the current device's default stream.
 * @returns ACL_SUCCESS; ACL_ERROR_RT_INVALID_HANDLE for a destroyed or foreign handle;
 *          or the status of a task that failed (its message is then recorded).
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/**
 * aclrtSynchronizeStream that gives up after timeout milliseconds (-1: never).
 * @returns as aclrtSynchronizeStream; ACL_ERROR_RT_PARAM_INVALID for timeout < -1;
 *          ACL_ERROR_RT_STREAM_SYNC_TIMEOUT when the time runs out (the work carries on).
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

/**
 * Whether all work enqueued on stream (NULL: the current context's stream) has finished.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL status; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);

/**
 * The stream that NULL stream arguments mean for the calling thread (its context's).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_CONTEXT_NULL without a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);

/**
 * What a stream does after a task fails: ACL_CONTINUE_ON_FAILURE (default) runs
 * the later tasks; ACL_STOP_ON_FAILURE skips them until the failure has been
 * reported by a synchronisation (which then names how many were skipped).
 * @param stream a stream, or NULL for the default stream.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for another mode; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);

/**
 * Creates an event on the current device (as aclrtCreateEventWithFlag with ACL_EVENT_SYNC).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_CONTEXT_NULL without a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);

/**
 * Creates an event with ACL_EVENT_* flags. Every event can be waited on and timed here.
 * @returns as aclrtCreateEvent; ACL_ERROR_INVALID_PARAM for undefined flag bits;
 *          ACL_ERROR_FEATURE_UNSUPPORTED for ACL_EVENT_IPC.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);

/** Same as aclrtCreateEventWithFlag on the emulator. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);

/**
 * Destroys an event. Records and waits already enqueued still work.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_INVALID_HANDLE for a stale handle.
 */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

/**
 * Enqueues a record of event on stream (NULL: default stream): the event
 * completes, and is time-stamped with the host's monotonic clock, when the
 * stream reaches it.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);

/** aclrtRecordEvent with ACL_EVENT_RECORD_DEFAULT or _EXTERNAL (same here); ACL_ERROR_INVALID_PARAM otherwise. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);

/**
 * Enqueues a reset: when stream reaches it, the event reads as not recorded again.
 * @returns as aclrtRecordEvent.
 */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);

/**
 * Makes later work on stream wait until the event's latest record (at the time
 * of this call) has completed; an event never recorded does not block.
 * @returns as aclrtRecordEvent.
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
/**
 * aclrtStreamWaitEvent, or (ACL_EVENT_WAIT_EXTERNAL, timeout 0) a capture's wait on an event recorded outside it,
 * bound to the event's latest record when the model is launched.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL event, another flag or EXTERNAL with a timeout;
 *          ACL_ERROR_RT_STREAM_NOT_CAPTURED for EXTERNAL on a stream not being captured.
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag);

/**
 * Whether the latest record has completed (an event never recorded is complete).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status);

/**
 * Whether the event has been recorded and its latest record has completed
 * (never recorded, or reset: ACL_EVENT_RECORDED_STATUS_NOT_READY).
 * @returns as aclrtQueryEvent.
 */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);

/**
 * Blocks the host until the event's latest record (at the time of the call) has completed.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);

/**
 * aclrtSynchronizeEvent that gives up after timeout milliseconds (-1: never).
 * @returns as aclrtSynchronizeEvent; ACL_ERROR_RT_PARAM_INVALID for timeout < -1;
 *          ACL_ERROR_RT_EVENT_SYNC_TIMEOUT when the time runs out.
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);

/**
 * Makes host thread threadId (a pthread_t converted to uint64_t) the one that
 * runs stream's callbacks, in aclrtProcessReport. One thread per stream.
 * @param stream a stream, or NULL for the default stream.
 * @returns ACL_SUCCESS; ACL_ERROR_RT_STREAM_SUBSCRIBE if the stream is already subscribed;
 *          ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);

/**
 * Enqueues a host callback: when the stream reaches it, fn(userData) is handed
 * to the subscribed thread; with ACL_CALLBACK_BLOCK later work on the stream
 * waits until it has run.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL fn or another blockType;
 *          ACL_ERROR_RT_STREAM_SUBSCRIBE if no thread is subscribed to the stream.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream);

/**
 * Runs the oldest callback handed to the calling (subscribed) thread, waiting
 * up to timeout ms (-1: for ever) for one.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for timeout 0 or < -1;
 *          ACL_ERROR_RT_THREAD_SUBSCRIBE if the thread is subscribed to no stream;
 *          ACL_ERROR_RT_REPORT_TIMEOUT when none arrives in time.
 */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);

/**
 * Ends aclrtSubscribeReport; callbacks of the stream not yet processed are dropped.
 * @returns ACL_SUCCESS; ACL_ERROR_RT_STREAM_SUBSCRIBE if threadId does not hold the stream.
 */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

/**
 * Enqueues fn(args) in stream order. When a thread subscribed to the stream
 * with aclrtSubscribeHostFunc, fn runs on that thread in aclrtProcessHostFunc
 * and the stream waits for it; otherwise it runs on the stream's worker.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL fn; ACL_ERROR_RT_INVALID_HANDLE.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);

/**
 * Makes host thread hostFuncThreadId (a pthread_t as uint64_t) the one that
 * runs exeStream's host functions, in aclrtProcessHostFunc. One thread per
 * stream; independent of aclrtSubscribeReport.
 * @returns as aclrtSubscribeReport.
 */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/**
 * Runs the oldest host function handed to the calling (subscribed) thread,
 * waiting up to timeout ms (-1: for ever) for one.
 * @returns as aclrtProcessReport.
 */
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);

/**
 * Ends aclrtSubscribeHostFunc; host functions of the stream not yet run are dropped.
 * @returns as aclrtUnSubscribeReport.
 */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/**
 * When the event's latest record completed: microseconds of the host's monotonic clock.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_INVALID_HANDLE;
 *          ACL_ERROR_RT_EVENT_NOT_COMPLETE without a completed record.
 */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);

/**
 * Milliseconds between the completions of two recorded events (host monotonic clock).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_INVALID_HANDLE;
 *          ACL_ERROR_RT_EVENT_NOT_COMPLETE if either event has no completed record.
 */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

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

/** Flags of aclrtHostRegisterV2 (all accepted; host memory is the device's memory here). */
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL

/**
 * aclrtHostRegister with ACL_HOST_REG_* flags and no device pointer out
 * (get it with aclrtHostGetDevicePointer).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL ptr, size 0, an unknown flag bit
 *          or a range that partly overlaps recorded memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);

/**
 * The device address of registered host memory (pHost itself on the emulator).
 * @param flag reserved, must be 0.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL pointers, flag != 0 or unregistered memory.
 */
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag);

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
 * Copies height rows of width bytes from src (rows spitch bytes apart) to dst
 * (rows dpitch bytes apart), synchronously. Width or height 0 copies nothing.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL pointers, width > spitch or dpitch,
 *          a kind other than HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE or DEFAULT,
 *          rows that run past their block, and the strict-mode checks of aclrtMemcpy.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind);

/** Enqueues aclrtMemcpy2d on stream (NULL: default stream). Errors as aclrtMemcpy2d plus invalid streams. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                                size_t width, size_t height, aclrtMemcpyKind kind, aclrtStream stream);

/**
 * Free and total device memory: the host's RAM, less what aclrtMalloc holds
 * (free never exceeds what the system has available).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL pointers or an unknown attr;
 *          ACL_ERROR_UNINITIALIZE before aclInit.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

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


/* ---- built-in stream tasks: value write/wait, reduce, random numbers ---- */

/* aclrtValueWait's conditions: the 64-bit word at devAddr compared with value. */
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U /* word >= value */
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U  /* word == value */
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U /* (word & value) != 0 */
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U /* ~(word | value) != 0 */

/**
 * Enqueues a write of the 64-bit value to devAddr (8 bytes of device memory) on stream.
 * @param flag reserved, must be 0.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL devAddr; ACL_ERROR_RT_PARAM_INVALID for a
 *          flag other than 0 or devAddr not in (or running past) device memory; invalid stream handles.
 */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/**
 * Enqueues a wait on stream until the 64-bit word at devAddr meets flag's condition
 * (ACL_STREAM_WAIT_VALUE_*) against value; later work on stream runs after it. A write by
 * aclrtValueWrite wakes it at once; another write (a copy, an operator, the host) is seen at its next
 * look, within a millisecond, and is not synchronised with it: use aclrtValueWrite for a flag.
 * @returns as aclrtValueWrite, with ACL_ERROR_RT_PARAM_INVALID for a flag that is no condition.
 */
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

typedef enum {
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/**
 * Enqueues dst[i] = dst[i] + src[i] over count bytes of elements of type on stream (the SDMA
 * engine's reduce copy). CANN's runtime takes only ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM.
 * Floating types add in float and round to nearest even; integers wrap.
 * @param type ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8/16/32, ACL_UINT8/16/32 or ACL_INT4.
 * @param reserve must be NULL.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL dst or src, reserve != NULL or an unsupported
 *          type; ACL_ERROR_RT_PARAM_INVALID for count 0, count over 4 GiB, another kind, a count that is not
 *          whole elements, or dst/src not count bytes of device memory; invalid stream handles.
 */
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                                              aclDataType type, aclrtStream stream, void *reserve);

/* One parameter of a random-number task: a value of up to 8 bytes, or (isAddr 1) the device address of it. */
typedef struct {
    uint8_t isAddr;
    uint8_t valueOrAddr[8];
    uint8_t size;
    uint8_t rsv[6];
} aclrtRandomParaInfo;

typedef struct {
    aclrtRandomParaInfo dropoutRation; /* the probability that a bit is 0 (dropped) */
} aclrtDropoutBitmaskInfo;

typedef struct {
    aclrtRandomParaInfo min;
    aclrtRandomParaInfo max;
} aclrtUniformDisInfo;

typedef struct {
    aclrtRandomParaInfo mean;
    aclrtRandomParaInfo stddev;
} aclrtNormalDisInfo;

typedef enum {
    ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK = 0,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS,
} aclrtRandomNumFuncType;

typedef struct {
    aclrtRandomNumFuncType funcType;
    union {
        aclrtDropoutBitmaskInfo dropoutBitmaskInfo;
        aclrtUniformDisInfo uniformDisInfo;
        aclrtNormalDisInfo normalDisInfo;
    } paramInfo;
} aclrtRandomNumFuncParaInfo;

typedef struct {
    aclDataType dataType;
    aclrtRandomNumFuncParaInfo randomNumFuncParaInfo;
    void *randomParaAddr;    /* device scratch for the parameters (NULL: the runtime's own) */
    void *randomResultAddr;  /* randomNum elements of dataType (a bitmask: randomNum bits) */
    void *randomCounterAddr; /* 16 bytes: the generator's 128-bit counter, advanced by each task */
    aclrtRandomParaInfo randomSeed;
    aclrtRandomParaInfo randomNum;
    uint8_t rsv[8];
} aclrtRandomNumTaskInfo;

/**
 * Enqueues a random-number task on stream. The emulator's generator is Philox4x32-10 keyed by the seed
 * with the 128-bit counter at randomCounterAddr (advanced by the blocks a task draws): the same seed and
 * counter give the same numbers on every machine, not those of an NPU's DSA engine.
 * Uniform: [min, max) (integers: min + draw mod (max - min)); normal: Box-Muller; truncated normal: draws
 * beyond two standard deviations are drawn again; dropout bitmask: bit i (LSB first) is 1 with
 * probability 1 - dropoutRation.
 * @param reserve must be NULL.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL taskInfo or a dataType CANN does not map;
 *          ACL_ERROR_RT_PARAM_INVALID for reserve != NULL, a dataType the function type does not take, NULL
 *          counter or result addresses, a parameter whose isAddr is not 0 or 1 or whose size is 0 or larger
 *          than its type, addresses that are not device memory of the needed size; invalid stream handles.
 */
ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream,
                                                 void *reserve);


/* ---- floating-point overflow detection ---- */

typedef enum aclrtFloatOverflowMode {
    ACL_RT_OVERFLOW_MODE_SATURATION = 0,
    ACL_RT_OVERFLOW_MODE_INFNAN,
    ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

/**
 * Turns a stream's overflow check on (1) or off (0); NULL: the default stream.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for another flag; invalid stream handles.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);
/** A stream's overflow check (0 until set). @returns ACL_ERROR_INVALID_PARAM for NULL flag. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag);
/**
 * The process's floating-point overflow mode: INFNAN from aclInit on the emulated SoCs (CANN's A2/A3 and
 * Ascend950). The emulator's kernels compute IEEE inf/NaN whatever the mode: it is recorded and reported.
 * @returns ACL_SUCCESS; ACL_ERROR_RT_FEATURE_NOT_SUPPORT for SATURATION on Ascend950 (INFNAN only);
 *          ACL_ERROR_RT_PARAM_INVALID for a mode that is neither.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
/** The mode aclrtSetDeviceSatMode set. @returns ACL_ERROR_INVALID_PARAM for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode);
/**
 * Enqueues the copy of the 64-byte overflow status to outputAddr (device memory) on stream. The emulator
 * detects no overflow (its kernels raise no status flags), so the status reads all zeros.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL outputAddr; ACL_ERROR_RT_PARAM_INVALID for an
 *          outputSize other than 64 or an outputAddr that is not 64 bytes of device memory; invalid streams.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream);
/** Enqueues the reset of the overflow status on stream. @returns ACL_SUCCESS; invalid stream handles. */
ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream);


/* ---- stream configuration handles ---- */

typedef enum {
    ACL_RT_STREAM_WORK_ADDR_PTR = 0, /* a model's work memory (void *) */
    ACL_RT_STREAM_WORK_SIZE,         /* its size (size_t) */
    ACL_RT_STREAM_FLAG,              /* reserved, default 0 */
    ACL_RT_STREAM_PRIORITY,          /* 0 (greatest) .. 7 (least), default 0 */
} aclrtStreamConfigAttr;

typedef struct aclrtStreamConfigHandle {
    void *workptr;
    size_t workSize;
    size_t flag;
    uint32_t priority;
} aclrtStreamConfigHandle;

/** A zeroed configuration (NULL when out of memory). */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void);
/** @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or a handle already destroyed. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);
/**
 * Sets one attribute from attrValue (valueSize bytes): WORK_ADDR_PTR and WORK_SIZE take 8 bytes, PRIORITY a
 * uint32_t of at most 7, FLAG a size_t (CANN's compact runtime) or, as CANN's sample passes it, a uint32_t.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments, an unknown attr, another size, a priority
 *          over 7, or a handle already destroyed.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize);
/**
 * A stream of handle's priority (NULL handle: all defaults) in the current context. The work memory and
 * the reserved flag are recorded by CANN's compact runtime only and not kept.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL stream; ACL_ERROR_RT_CONTEXT_NULL without a device.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);


/* ---- model runtime instances (aclmdlRI): captured or built streams of work, replayed ----
 * A capture records the work enqueued on a stream (nothing of it runs) into a
 * model; aclmdlRIExecuteAsync replays all of it, in the executing stream's
 * order, with the arguments fixed at capture (the same addresses). Synchronous
 * calls run at once and are not recorded; under a GLOBAL or THREAD_LOCAL
 * capture CANN refuses them unless the thread's exchange mode is RELAXED. A
 * built model (aclmdlRIBuildBegin) stores the work of persistent streams
 * bound to it, with labels and index switches. Event records and waits in a
 * model are bound at every launch. */

typedef void *aclmdlRI;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclrtTaskGrp;

typedef enum {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED
} aclmdlRICaptureMode;

typedef enum {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
} aclmdlRICaptureStatus;

#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

/**
 * Starts capturing stream's work into a new model.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL stream; ACL_ERROR_RT_PARAM_INVALID for another mode;
 *          ACL_ERROR_RT_STREAM_MODEL for a stream bound to a model; ACL_ERROR_RT_FEATURE_NOT_SUPPORT for a
 *          default stream; ACL_ERROR_RT_STREAM_CAPTURED for a stream being captured.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
/** Whether stream is being captured (and into which model, else NULL). */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI);
/**
 * Ends the capture: *modelRI is the model, ready to run.
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL arguments; ACL_ERROR_RT_STREAM_NOT_CAPTURED;
 *          ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD (a non-RELAXED capture ended on another thread);
 *          ACL_ERROR_STREAM_TASK_GROUP_STATUS for a task group left open; ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
 *          when captured work failed (the model is gone).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);
/** Sets this thread's exchange mode to *mode and returns the old one in *mode (GLOBAL at first). */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);
/** Starts a task group: the kernels captured until aclmdlRICaptureTaskGrpEnd, replaceable later. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
/** Ends the task group; *handle names it (the model owns it). */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle);
/**
 * Starts replacing handle's kernels: each kernel launched on stream until aclmdlRICaptureTaskUpdateEnd does not
 * run but takes the place of the group's next kernel in every later run of the model.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
/** Ends the update. @returns ACL_ERROR_RT_INTERNAL_ERROR when fewer kernels came than the group holds. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);
/** Starts building a model (flag 0) from the work of streams bound to it. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag);
/**
 * Binds a persistent stream (ACL_STREAM_PERSISTENT): its work goes into the model from now on.
 * @param flag ACL_MODEL_STREAM_FLAG_HEAD (0) or _DEFAULT (0x7FFFFFFF).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);
/** Ends stream's part of the model. */
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);
/** Ends the build (reserve NULL): the model is ready to run. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve);
/** Unbinds stream: its work runs on it again. */
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);
/**
 * Enqueues one run of the model on stream (NULL: the default stream).
 * @returns ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL; ACL_ERROR_RT_STREAM_CAPTURED for a stream being
 *          captured; ACL_ERROR_RT_PARAM_INVALID for a stream bound to a model; ACL_ERROR_RT_MODEL_EXECUTE for a
 *          model not ready (a build without aclmdlRIEndTask/BuildEnd).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
/** Runs the model on the default stream and waits up to timeout ms (-1: forever). */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);
/** Destroys the model (runs under way finish first). */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);
/** Writes the model's tasks to path as a Chrome/Perfetto trace JSON array. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags);

/** A label: a position in a built model that aclrtSwitchLabelByIndex jumps to. */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label);
/** Marks label at this point of stream's work (a stream bound to a model; once per label). */
ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label);
/** A list of num labels (1 to 65535) for aclrtSwitchLabelByIndex; a label joins one list. */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList);
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList);
/**
 * Adds a switch to stream's model: when the model runs, it reads a uint32_t index from device memory at ptr
 * and goes on at labelList's label of that index (the last label for a larger index).
 */
ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream);


/** The task id of the calling thread's last enqueued work (the id exception information reports). */
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId);
/**
 * The kernel function of a failed task: the emulator's failed tasks are operators, not kernels launched from a
 * binary, so *func is NULL and the answer is ACL_ERROR_RT_PARAM_INVALID (CANN's for an exception without one).
 * @returns 0xFFFFFFFF (ACL_ERROR_INVALID_EXCEPTION_INFO) for a NULL info; ACL_ERROR_INVALID_PARAM for a NULL func.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info, aclrtFuncHandle *func);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_H_ */
