/*
 * Profiling switches (acl/acl_prof.h): accepted, argument-checked, and
 * otherwise no-ops. Configurations are registry handles so that a leaked
 * or stale one is reported like any other.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <stdlib.h>

#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
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

/* ---- step timestamps ---------------------------------------------------------------------- */

struct aclprofStepInfo {
    bool started, ended;
    uint64_t index; /* CANN numbers steps from 1 */
};

static atomic_uint_fast64_t next_step = 1;

ACL_FUNC_VISIBILITY aclprofStepInfo *aclprofCreateStepInfo(void)
{
    EMU_API_ENTRY();
    aclprofStepInfo *step = calloc(1, sizeof *step);
    if (!step || emu_registry_add(step, EMU_PROF_STEP, api) != 0) {
        free(step);
        emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
        return NULL;
    }
    step->index = atomic_fetch_add(&next_step, 1);
    return step;
}

ACL_FUNC_VISIBILITY void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo)
{
    EMU_API_ENTRY();
    if (stepinfo && emu_check_handle(stepinfo, EMU_PROF_STEP, ACL_ERROR_INVALID_PARAM, api, "stepinfo") == 0)
        emu_registry_release(stepinfo, EMU_PROF_STEP, sizeof *stepinfo, free);
}

ACL_FUNC_VISIBILITY aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag,
                                                     aclrtStream stream)
{
    EMU_API_ENTRY();
    if (!stepInfo)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stepInfo is NULL");
    int st = emu_check_handle(stepInfo, EMU_PROF_STEP, ACL_ERROR_INVALID_PARAM, api, "stepInfo");
    if (st)
        return st;
    bool start = tag == ACL_STEP_START;
    if (start ? stepInfo->started : stepInfo->ended)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "step %llu's %s was already marked",
                         (unsigned long long)stepInfo->index, start ? "start" : "end");
    emu_stream *s;
    if ((st = emu_require_init(api)) || (st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s)))
        return st;
    if (start)
        stepInfo->started = true;
    else
        stepInfo->ended = true;
    emu_log(EMU_LOG_INFO, "%s step %llu %s -> 0", api, (unsigned long long)stepInfo->index, start ? "start" : "end");
    return ACL_SUCCESS;
}

/* ---- mstx: marks and ranges (off, as in CANN without msproftx profiling) and named domains ---- */

#define MSTX_NAME_MAX 1024

struct mstxDomainRegistration_st {
    struct mstxDomainRegistration_st *next;
    char name[];
};

/* Live domains; a handle is valid while it is on this list. */
static pthread_mutex_t mstx_mu = PTHREAD_MUTEX_INITIALIZER;
static mstxDomainRegistration_t *domains;
EMU_FORK_SAFE_MUTEX(mstx_mu, EMU_ATFORK_MSTX)

/* CANN's message rule (a CSV-injection guard): NULL, empty or starting with '=', '+', '-', '@' is refused. */
static bool mstx_text_ok(const char *text)
{
    return text && text[0] && !strchr("=+-@", text[0]);
}

ACL_FUNC_VISIBILITY void mstxMarkA(const char *message, aclrtStream stream)
{
    (void)message, (void)stream;
}

ACL_FUNC_VISIBILITY mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream)
{
    (void)message, (void)stream;
    return MSTX_INVALID_ID;
}

ACL_FUNC_VISIBILITY void mstxRangeEnd(mstxRangeId id)
{
    (void)id;
}

ACL_FUNC_VISIBILITY mstxDomainHandle_t mstxDomainCreateA(const char *name)
{
    EMU_API_ENTRY();
    if (!mstx_text_ok(name) || strnlen(name, MSTX_NAME_MAX) >= MSTX_NAME_MAX || strcmp(name, "default") == 0) {
        emu_log(EMU_LOG_WARNING, "%s: the name is NULL, empty, starts with = + - @, is %d bytes or longer, or is "
                "\"default\" -> NULL", api, MSTX_NAME_MAX);
        return NULL;
    }
    size_t len = strlen(name);
    pthread_mutex_lock(&mstx_mu);
    mstxDomainRegistration_t *d = domains;
    while (d && strcmp(d->name, name) != 0)
        d = d->next;
    if (!d && (d = malloc(sizeof *d + len + 1)) != NULL) {
        memcpy(d->name, name, len + 1);
        d->next = domains;
        domains = d;
    }
    pthread_mutex_unlock(&mstx_mu);
    if (!d)
        emu_error(ACL_ERROR_BAD_ALLOC, api, "out of memory");
    return d;
}

ACL_FUNC_VISIBILITY void mstxDomainDestroy(mstxDomainHandle_t handle)
{
    pthread_mutex_lock(&mstx_mu);
    for (mstxDomainRegistration_t **p = &domains; handle && *p; p = &(*p)->next)
        if (*p == handle) {
            *p = handle->next;
            free(handle);
            break;
        }
    pthread_mutex_unlock(&mstx_mu);
}

ACL_FUNC_VISIBILITY void mstxDomainMarkA(mstxDomainHandle_t handle, const char *message, aclrtStream stream)
{
    (void)handle, (void)message, (void)stream;
}

ACL_FUNC_VISIBILITY mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t handle, const char *message,
                                                      aclrtStream stream)
{
    (void)handle, (void)message, (void)stream;
    return MSTX_INVALID_ID;
}

ACL_FUNC_VISIBILITY void mstxDomainRangeEnd(mstxDomainHandle_t handle, mstxRangeId id)
{
    (void)handle, (void)id;
}
