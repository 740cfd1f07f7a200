/*
 * Profiling switches (acl/acl_prof.h): accepted, argument-checked, and
 * otherwise no-ops. Configurations are registry handles so that a leaked
 * or stale one is reported like any other.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "acl/acl_prof.h"
#include "runtime.h"

struct aclprofConfig {
    uint64_t data_types;
};

static atomic_uint next_range;

ACL_FUNC_VISIBILITY aclError aclprofInit(const char *profilerResultPath, size_t length)
{
    EMU_API_ENTRY();
    if (!profilerResultPath || length == 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "profilerResultPath is %s", profilerResultPath ? "empty" : "NULL");
    emu_log(EMU_LOG_INFO, "%s: profiling is accepted and records nothing on the emulator -> 0", api);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofFinalize(void)
{
    EMU_API_ENTRY();
    (void)api;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                       aclprofAicoreMetrics aicoreMetrics,
                                                       const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig)
{
    EMU_API_ENTRY();
    (void)aicoreMetrics, (void)aicoreEvents;
    if (!deviceIdList || deviceNums == 0) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "%s", !deviceIdList ? "deviceIdList is NULL" : "deviceNums is 0");
        return NULL;
    }
    aclprofConfig *c = malloc(sizeof *c);
    if (!c || emu_registry_add(c, EMU_PROF_CONFIG, api) != 0) {
        free(c);
        emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
        return NULL;
    }
    c->data_types = dataTypeConfig;
    return c;
}

static int check_config(const char *api, const aclprofConfig *c)
{
    if (!c)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "profilerConfig is NULL");
    return emu_check_handle(c, EMU_PROF_CONFIG, ACL_ERROR_INVALID_PARAM, api, "profilerConfig");
}

ACL_FUNC_VISIBILITY aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig)
{
    EMU_API_ENTRY();
    int st = check_config(api, profilerConfig);
    if (!st)
        emu_registry_release((void *)(uintptr_t)profilerConfig, EMU_PROF_CONFIG, sizeof(aclprofConfig), free);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclprofStart(const aclprofConfig *profilerConfig)
{
    EMU_API_ENTRY();
    return check_config(api, profilerConfig);
}

ACL_FUNC_VISIBILITY aclError aclprofStop(const aclprofConfig *profilerConfig)
{
    EMU_API_ENTRY();
    return check_config(api, profilerConfig);
}

ACL_FUNC_VISIBILITY aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength)
{
    EMU_API_ENTRY();
    if ((int)configType <= ACL_PROF_ARGS_MIN || (int)configType >= ACL_PROF_ARGS_MAX)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "configType %d is not in (ACL_PROF_ARGS_MIN, ACL_PROF_ARGS_MAX)",
                         (int)configType);
    if (!config || configLength == 0)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "config is %s", config ? "empty" : "NULL");
    return ACL_SUCCESS;
}

/* A stamp is a byte of our own: the pointer is all a program uses. */
ACL_FUNC_VISIBILITY void *aclprofCreateStamp(void)
{
    EMU_API_ENTRY();
    void *s = malloc(1);
    if (!s)
        emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    return s;
}

ACL_FUNC_VISIBILITY void aclprofDestroyStamp(void *stamp)
{
    EMU_API_ENTRY();
    (void)api;
    free(stamp);
}

static aclError need(const char *api, const void *p, const char *param)
{
    return p ? ACL_SUCCESS : emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", param);
}

ACL_FUNC_VISIBILITY aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen)
{
    EMU_API_ENTRY();
    (void)msgLen;
    int st = need(api, stamp, "stamp");
    return st ? st : need(api, msg, "msg");
}

ACL_FUNC_VISIBILITY aclError aclprofMark(void *stamp)
{
    EMU_API_ENTRY();
    return need(api, stamp, "stamp");
}

ACL_FUNC_VISIBILITY aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream)
{
    EMU_API_ENTRY();
    (void)msgLen, (void)stream;
    return need(api, msg, "msg");
}

ACL_FUNC_VISIBILITY aclError aclprofPush(void *stamp)
{
    EMU_API_ENTRY();
    return need(api, stamp, "stamp");
}

ACL_FUNC_VISIBILITY aclError aclprofPop(void)
{
    EMU_API_ENTRY();
    (void)api;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofRangeStart(void *stamp, uint32_t *rangeId)
{
    EMU_API_ENTRY();
    int st = need(api, stamp, "stamp");
    if (!st)
        st = need(api, rangeId, "rangeId");
    if (!st)
        *rangeId = atomic_fetch_add(&next_range, 1) + 1;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclprofRangeStop(uint32_t rangeId)
{
    EMU_API_ENTRY();
    (void)api, (void)rangeId;
    return ACL_SUCCESS;
}
