/*
 * Profiling switches (acl/acl_prof.h): accepted, argument-checked, and
 * otherwise no-ops. Configurations are registry handles so that a leaked
 * or stale one is reported like any other.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"
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
    aclprofConfig *c = emu_handle_alloc(sizeof *c, EMU_PROF_CONFIG, api);
    if (c)
        c->data_types = dataTypeConfig;
    return c;
}

static int check_config(const char *api, const aclprofConfig *c)
{
    return emu_check_handle_arg(c, EMU_PROF_CONFIG, ACL_ERROR_INVALID_PARAM, api, "profilerConfig");
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

/* A stamp carries the message its marks and ranges show on the trace (msproftx's 128-byte limit). */
#define STAMP_MSG_MAX 128

typedef struct prof_stamp {
    char msg[STAMP_MSG_MAX];
} prof_stamp;

/* This thread's aclprofPush ranges, for aclprofPop. */
static _Thread_local int push_depth;

ACL_FUNC_VISIBILITY void *aclprofCreateStamp(void)
{
    EMU_API_ENTRY();
    prof_stamp *s = calloc(1, sizeof *s);
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

/* What a stamp shows: its message, else a name for the call. */
static const char *stamp_text(const void *stamp, const char *otherwise)
{
    const prof_stamp *s = stamp;
    return s->msg[0] ? s->msg : otherwise;
}

ACL_FUNC_VISIBILITY aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen)
{
    EMU_API_ENTRY();
    int st = need(api, stamp, "stamp");
    if (!st)
        st = need(api, msg, "msg");
    if (!st && msgLen >= STAMP_MSG_MAX)
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "msgLen %u is %d or more", (unsigned)msgLen, STAMP_MSG_MAX);
    if (!st) {
        prof_stamp *s = stamp;
        size_t n = strnlen(msg, msgLen);
        memcpy(s->msg, msg, n);
        s->msg[n] = '\0';
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclprofMark(void *stamp)
{
    EMU_API_ENTRY();
    int st = need(api, stamp, "stamp");
    if (!st)
        emu_trace_event('i', stamp_text(stamp, "aclprofMark"), "msproftx", emu_trace_now_us(), 0, 0);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream)
{
    EMU_API_ENTRY();
    (void)stream;
    int st = need(api, msg, "msg");
    if (!st) {
        char text[STAMP_MSG_MAX];
        snprintf(text, sizeof text, "%.*s", (int)(msgLen < sizeof text ? msgLen : sizeof text - 1), msg);
        emu_trace_event('i', text, "msproftx", emu_trace_now_us(), 0, 0);
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclprofPush(void *stamp)
{
    EMU_API_ENTRY();
    int st = need(api, stamp, "stamp");
    if (!st) {
        push_depth++;
        emu_trace_event('B', stamp_text(stamp, "aclprofPush"), "msproftx", emu_trace_now_us(), 0, 0);
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclprofPop(void)
{
    EMU_API_ENTRY();
    (void)api;
    if (push_depth > 0) { /* CANN's pop of an empty stack does nothing */
        push_depth--;
        emu_trace_event('E', "", "msproftx", emu_trace_now_us(), 0, 0);
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofRangeStart(void *stamp, uint32_t *rangeId)
{
    EMU_API_ENTRY();
    int st = need(api, stamp, "stamp");
    if (!st)
        st = need(api, rangeId, "rangeId");
    if (!st) {
        uint64_t traced = emu_trace_range_begin(stamp_text(stamp, "aclprofRange"), "msproftx");
        *rangeId = traced ? (uint32_t)traced : atomic_fetch_add(&next_range, 1) + 1;
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclprofRangeStop(uint32_t rangeId)
{
    EMU_API_ENTRY();
    (void)api;
    emu_trace_range_end(rangeId);
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
    aclprofStepInfo *step = emu_handle_alloc(sizeof *step, EMU_PROF_STEP, api);
    if (step)
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
    int st = emu_check_handle_arg(stepInfo, EMU_PROF_STEP, ACL_ERROR_INVALID_PARAM, api, "stepInfo");
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
    char name[64];
    snprintf(name, sizeof name, "step %llu %s", (unsigned long long)stepInfo->index, start ? "start" : "end");
    emu_trace_event('i', name, "step", emu_trace_now_us(), 0, 0);
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

/* With the trace on, marks and ranges are recorded (as CANN records them with msproftx profiling on);
 * a message CANN's guard refuses is ignored. */
static void mstx_mark(const char *domain, const char *message)
{
    if (mstx_text_ok(message))
        emu_trace_event('i', message, domain, emu_trace_now_us(), 0, 0);
}

static mstxRangeId mstx_range(const char *domain, const char *message)
{
    return mstx_text_ok(message) ? emu_trace_range_begin(message, domain) : MSTX_INVALID_ID;
}

ACL_FUNC_VISIBILITY void mstxMarkA(const char *message, aclrtStream stream)
{
    (void)stream;
    mstx_mark("mstx", message);
}

ACL_FUNC_VISIBILITY mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream)
{
    (void)stream;
    return mstx_range("mstx", message);
}

ACL_FUNC_VISIBILITY void mstxRangeEnd(mstxRangeId id)
{
    emu_trace_range_end(id);
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

/* A live domain's name, or NULL (a destroyed or unknown handle does nothing, as in CANN). */
static bool domain_name(mstxDomainHandle_t handle, char *out, size_t cap)
{
    pthread_mutex_lock(&mstx_mu);
    mstxDomainRegistration_t *d = domains;
    while (d && d != handle)
        d = d->next;
    if (d)
        snprintf(out, cap, "%s", d->name);
    pthread_mutex_unlock(&mstx_mu);
    return d != NULL;
}

ACL_FUNC_VISIBILITY void mstxDomainMarkA(mstxDomainHandle_t handle, const char *message, aclrtStream stream)
{
    (void)stream;
    char name[64];
    if (emu_trace_on() && domain_name(handle, name, sizeof name))
        mstx_mark(name, message);
}

ACL_FUNC_VISIBILITY mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t handle, const char *message,
                                                      aclrtStream stream)
{
    (void)stream;
    char name[64];
    return emu_trace_on() && domain_name(handle, name, sizeof name) ? mstx_range(name, message) : MSTX_INVALID_ID;
}

ACL_FUNC_VISIBILITY void mstxDomainRangeEnd(mstxDomainHandle_t handle, mstxRangeId id)
{
    (void)handle;
    emu_trace_range_end(id);
}

/* ---- model subscriptions ------------------------------------------------------------------- */

struct aclprofSubscribeConfig {
    int8_t time_info;
    aclprofAicoreMetrics metrics;
    int *fd; /* the caller's int: the pipe's write end */
};

#define MAX_PROF_MODELS 1024

/* Models known to profiling (their device), and their subscriptions' fds; under sub_mu. */
typedef struct prof_model {
    uint32_t id;
    int *fd; /* non-NULL while subscribed */
} prof_model;

static pthread_mutex_t sub_mu = PTHREAD_MUTEX_INITIALIZER;
static prof_model prof_models[MAX_PROF_MODELS];
static size_t n_prof_models;
EMU_FORK_SAFE_MUTEX(sub_mu, EMU_ATFORK_SUBSCRIBE)

static prof_model *find_model_locked(uint32_t id)
{
    for (size_t i = 0; i < n_prof_models; i++)
        if (prof_models[i].id == id)
            return &prof_models[i];
    return NULL;
}

MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId)
{
    (void)deviceId;
    pthread_mutex_lock(&sub_mu);
    if (!find_model_locked(geModelIdx) && n_prof_models < MAX_PROF_MODELS)
        prof_models[n_prof_models++] = (prof_model){geModelIdx, NULL};
    pthread_mutex_unlock(&sub_mu);
    return 0;
}

MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId)
{
    (void)deviceId;
    pthread_mutex_lock(&sub_mu);
    prof_model *m = find_model_locked(geModelIdx);
    if (m && !m->fd)
        *m = prof_models[--n_prof_models];
    pthread_mutex_unlock(&sub_mu);
    return 0;
}

ACL_FUNC_VISIBILITY aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                                         aclprofAicoreMetrics aicoreMetrics,
                                                                         void *fd)
{
    EMU_API_ENTRY();
    if (!fd || (timeInfoSwitch != 0 && timeInfoSwitch != 1)) {
        emu_error(ACL_ERROR_INVALID_PARAM, api, "%s",
                  fd ? "timeInfoSwitch must be 0 or 1" : "fd is NULL (a pointer to the pipe's write end)");
        return NULL;
    }
    aclprofSubscribeConfig *c = emu_handle_alloc(sizeof *c, EMU_PROF_SUBSCRIBE_CONFIG, api);
    if (c)
        *c = (aclprofSubscribeConfig){timeInfoSwitch, aicoreMetrics, fd};
    return c;
}

static int check_subscribe_config(const char *api, const aclprofSubscribeConfig *c)
{
    return emu_check_handle_arg(c, EMU_PROF_SUBSCRIBE_CONFIG, ACL_ERROR_INVALID_PARAM, api, "profSubscribeConfig");
}

ACL_FUNC_VISIBILITY aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig)
{
    EMU_API_ENTRY();
    int st = check_subscribe_config(api, profSubscribeConfig);
    if (!st)
        emu_registry_release((void *)profSubscribeConfig, EMU_PROF_SUBSCRIBE_CONFIG, sizeof *profSubscribeConfig,
                             free);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig)
{
    EMU_API_ENTRY();
    pthread_mutex_lock(&sub_mu);
    bool known = find_model_locked(modelId) != NULL;
    pthread_mutex_unlock(&sub_mu);
    if (!known)
        return emu_error(ACL_ERROR_INVALID_MODEL_ID, api,
                         "model %u is not known to profiling (no model load, nor MsprofSetDeviceIdByGeModelIdx)",
                         modelId);
    int st = check_subscribe_config(api, profSubscribeConfig);
    if (st)
        return st;
    if (!profSubscribeConfig->time_info && profSubscribeConfig->metrics == ACL_AICORE_NONE)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "the config asks for nothing: time info off and no metrics");
    pthread_mutex_lock(&sub_mu);
    prof_model *m = find_model_locked(modelId);
    bool again = m && m->fd;
    if (m && !again)
        m->fd = profSubscribeConfig->fd;
    pthread_mutex_unlock(&sub_mu);
    if (again)
        return emu_error(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, api, "model %u is subscribed already", modelId);
    emu_log(EMU_LOG_INFO, "%s model=%u -> 0 (the emulator runs no offline model: no record is written)", api,
            modelId);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofModelUnSubscribe(uint32_t modelId)
{
    EMU_API_ENTRY();
    pthread_mutex_lock(&sub_mu);
    prof_model *m = find_model_locked(modelId);
    int *fd = m ? m->fd : NULL;
    bool shared = false;
    if (fd) {
        m->fd = NULL;
        for (size_t i = 0; i < n_prof_models; i++)
            shared |= prof_models[i].fd == fd;
    }
    pthread_mutex_unlock(&sub_mu);
    if (!fd)
        return emu_error(ACL_ERROR_INVALID_MODEL_ID, api, "model %u is not subscribed", modelId);
    if (!shared && *fd >= 0) { /* the reader sees the end of its pipe, as with CANN */
        close(*fd);
        *fd = -1;
    }
    return ACL_SUCCESS;
}

/* One record (CANN's ProfOpDesc, analyze/inc/data_struct.h). */
typedef struct prof_op_desc {
    uint32_t signature; /* CRC-32C of the bytes after it, without the final xor */
    uint32_t model_id, flag, thread_id;
    uint64_t op_index, duration, start, end, execution_time, cube_fops, vector_fops;
    uint32_t dev_id;
} prof_op_desc;

static uint32_t op_desc_signature(const unsigned char *p, size_t n)
{
    uint32_t s = ~0u;
    for (size_t i = 0; i < n; i++) {
        s ^= p[i];
        for (int k = 0; k < 8; k++)
            s = (s >> 1) ^ (0x82F63B78u & (0u - (s & 1u)));
    }
    return s;
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpDescSize(size_t *opDescSize)
{
    EMU_API_ENTRY();
    if (!opDescSize)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "opDescSize is NULL");
    *opDescSize = sizeof(prof_op_desc);
    return ACL_SUCCESS;
}

/* CANN's CheckData and index check: 0 with the record in *out, or a status. */
static int op_record(const char *api, const void *opInfo, size_t len, uint32_t index, prof_op_desc *out)
{
    if (!opInfo || len == 0 || len % sizeof(prof_op_desc))
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "opInfo is %s", opInfo ? "not whole 80-byte records" : "NULL");
    for (size_t at = 0; at < len; at += sizeof(prof_op_desc)) {
        const unsigned char *p = (const unsigned char *)opInfo + at;
        uint32_t sig;
        memcpy(&sig, p, sizeof sig);
        if (sig != op_desc_signature(p + sizeof sig, sizeof(prof_op_desc) - sizeof sig))
            return emu_error(ACL_ERROR_INVALID_PARAM, api, "the record at byte %zu has a wrong signature", at);
    }
    if (((size_t)index + 1) * sizeof(prof_op_desc) > len)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "index %u is past the %zu records", index,
                         len / sizeof(prof_op_desc));
    if (out)
        memcpy(out, (const unsigned char *)opInfo + (size_t)index * sizeof *out, sizeof *out);
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber)
{
    EMU_API_ENTRY();
    if (!opNumber)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "opNumber is NULL");
    int st = op_record(api, opInfo, opInfoLen, 0, NULL);
    if (!st)
        *opNumber = (uint32_t)(opInfoLen / sizeof(prof_op_desc));
    return st;
}

/* Names and types are kept by the process that wrote the records; the emulator writes none. */
static aclError op_text(const char *api, const void *opInfo, size_t len, uint32_t index, const void *out)
{
    int st = op_record(api, opInfo, len, index, NULL);
    if (st)
        return st;
    if (!out)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "the output is NULL");
    return emu_error(ACL_ERROR_INVALID_PARAM, api, "record %u's operator is not one this process ran", index);
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                 size_t *opTypeLen)
{
    EMU_API_ENTRY();
    return op_text(api, opInfo, opInfoLen, index, opTypeLen);
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                                              size_t opTypeLen)
{
    EMU_API_ENTRY();
    (void)opTypeLen;
    return op_text(api, opInfo, opInfoLen, index, opType);
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                 size_t *opNameLen)
{
    EMU_API_ENTRY();
    return op_text(api, opInfo, opInfoLen, index, opNameLen);
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                                              size_t opNameLen)
{
    EMU_API_ENTRY();
    (void)opNameLen;
    return op_text(api, opInfo, opInfoLen, index, opName);
}

ACL_FUNC_VISIBILITY uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    EMU_API_ENTRY();
    prof_op_desc d;
    return op_record(api, opInfo, opInfoLen, index, &d) ? 0 : d.start;
}

ACL_FUNC_VISIBILITY uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    EMU_API_ENTRY();
    prof_op_desc d;
    return op_record(api, opInfo, opInfoLen, index, &d) ? 0 : d.end;
}

ACL_FUNC_VISIBILITY uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    EMU_API_ENTRY();
    prof_op_desc d;
    return op_record(api, opInfo, opInfoLen, index, &d) ? 0 : d.duration;
}

ACL_FUNC_VISIBILITY size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    EMU_API_ENTRY();
    prof_op_desc d;
    return op_record(api, opInfo, opInfoLen, index, &d) ? 0 : d.model_id;
}
