/*
 * Calls that are out of the emulator's scope but that programs make:
 * dump switches are accepted and do nothing (CANN allows running without a
 * dump); IPC between processes returns ACL_ERROR_API_NOT_SUPPORT with a
 * message that says so, instead of failing to link.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <unistd.h>

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

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
    EMU_API_ENTRY();
    if (!pid)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "pid is NULL");
    *pid = (int32_t)getpid(); /* the emulated device runs in this process */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len,
                                                    uint64_t flags)
{
    EMU_API_ENTRY();
    (void)devPtr, (void)size, (void)key, (void)len, (void)flags;
    return not_supported(api, "sharing device memory between processes (IPC)");
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key)
{
    EMU_API_ENTRY();
    (void)key;
    return not_supported(api, "sharing device memory between processes (IPC)");
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
    EMU_API_ENTRY();
    (void)devPtr, (void)key, (void)flags;
    return not_supported(api, "sharing device memory between processes (IPC)");
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
    EMU_API_ENTRY();
    (void)key, (void)pid, (void)num;
    return not_supported(api, "sharing device memory between processes (IPC)");
}

ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
    EMU_API_ENTRY();
    (void)event, (void)handle;
    return not_supported(api, "sharing events between processes (IPC)");
}

ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
    EMU_API_ENTRY();
    (void)handle, (void)event;
    return not_supported(api, "sharing events between processes (IPC)");
}
