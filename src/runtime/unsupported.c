/*
 * Calls that are out of the emulator's scope but that programs make:
 * dump switches are accepted and do nothing (CANN allows running without a
 * dump); IPC between processes returns ACL_ERROR_API_NOT_SUPPORT with a
 * message that says so, instead of failing to link.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <unistd.h>

#include "acl/acl_dump.h"
#include "acl/acl_mdl.h"
#include "runtime.h"

static aclError not_supported(const char *api, const char *what)
{
    return emu_error(ACL_ERROR_API_NOT_SUPPORT, api, "%s is not supported by the emulator", what);
}

ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void)
{
    EMU_API_ENTRY();
    emu_log(EMU_LOG_INFO, "%s: dumps are accepted and not written on the emulator -> 0", api);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath)
{
    EMU_API_ENTRY();
    if (!dumpCfgPath)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dumpCfgPath is NULL");
    if (access(dumpCfgPath, R_OK) != 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dumpCfgPath \"%s\" cannot be read", dumpCfgPath);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void)
{
    EMU_API_ENTRY();
    (void)api;
    return ACL_SUCCESS;
}

ACL_DUMP_API aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *, int32_t), int32_t flag)
{
    EMU_API_ENTRY();
    if (!messageCallback)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "messageCallback is NULL");
    emu_log(EMU_LOG_INFO, "%s flag=%d: accepted, the emulator produces no dump data -> 0", api, (int)flag);
    return ACL_SUCCESS;
}

ACL_DUMP_API void acldumpUnregCallback(void)
{
    EMU_API_ENTRY();
    emu_log(EMU_LOG_INFO, "%s", api);
}

static aclError check_dump_args_type(const char *api, uint32_t dumpType)
{
    if (dumpType != ACL_OP_DUMP_OP_AICORE_ARGS)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "dumpType %u is not ACL_OP_DUMP_OP_AICORE_ARGS (1)",
                         (unsigned)dumpType);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char *path)
{
    EMU_API_ENTRY();
    int st = check_dump_args_type(api, dumpType);
    if (!st && !path)
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "path is NULL");
    if (!st)
        emu_log(EMU_LOG_INFO, "%s path=%s: accepted, nothing is dumped on the emulator -> 0", api, path);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType)
{
    EMU_API_ENTRY();
    return check_dump_args_type(api, dumpType);
}

ACL_FUNC_VISIBILITY const char *acldumpGetPath(acldumpType dumpType)
{
    EMU_API_ENTRY();
    emu_log(EMU_LOG_INFO, "%s dumpType=%d -> NULL (no dump is configured on the emulator)", api, (int)dumpType);
    return NULL;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
    EMU_API_ENTRY();
    if (!pid)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "pid is NULL");
    *pid = (int32_t)getpid(); /* the emulated device runs in this process */
    return ACL_SUCCESS;
}

/* ---- declared so that programs compile; every parameter goes unused ---- */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define NOT_SUPPORTED(what)                   \
    {                                         \
        EMU_API_ENTRY();                      \
        return not_supported(api, what);      \
    }

#define KERNELS "launching device kernels (kernel binaries, kernel arguments, aclrtLaunchKernel*)"
#define VIRTUAL_MEMORY "virtual and physical device memory (aclrtReserveMemAddress, aclrtMallocPhysical, ...)"
#define MANAGED_MEMORY "managed (unified) memory"
#define OFFLINE_MODELS "offline models (.om: aclmdlLoad*, aclmdlExecute, their datasets; they need the graph engine and the AI Core)"

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle,
                                                 aclrtArgsHandle *argsHandle) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                               size_t argsSize, aclrtStream stream) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle,
                                                         void *reserve) NOT_SUPPORTED(KERNELS)
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg *cfg,
                                                 aclrtStream stream) NOT_SUPPORTED(KERNELS)

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                                    uint64_t flags) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                                                 const aclrtPhysicalMemProp *prop,
                                                 uint64_t flags) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
                                                              aclrtMemGranularityOptions option,
                                                              size_t *granularity) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc,
                                               size_t count) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                             uint64_t flags,
                                                             uint64_t *shareableHandle) NOT_SUPPORTED(VIRTUAL_MEMORY)
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle *handle) NOT_SUPPORTED(VIRTUAL_MEMORY)

ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag) NOT_SUPPORTED(MANAGED_MEMORY)

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize,
                                               uint32_t *modelId) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr,
                                                       size_t workSize, void *weightPtr,
                                                       size_t weightSize) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId,
                                                      void *workPtr, size_t workSize, void *weightPtr,
                                                      size_t weightSize) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName, size_t *workSize,
                                             size_t *weightSize) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize, size_t *workSize,
                                                    size_t *weightSize) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input,
                                           aclmdlDataset *output) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                                aclrtStream stream) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset,
                                                    aclDataBuffer *dataBuffer) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc) NOT_SUPPORTED(OFFLINE_MODELS)
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId) NOT_SUPPORTED(OFFLINE_MODELS)

ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void)
{
    EMU_API_ENTRY();
    not_supported(api, OFFLINE_MODELS);
    return NULL;
}

ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void)
{
    EMU_API_ENTRY();
    not_supported(api, OFFLINE_MODELS);
    return NULL;
}
