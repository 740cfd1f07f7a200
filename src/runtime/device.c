/*
 * AscendCL runtime on a CPU: initialisation, devices and their per-thread
 * binding, streams, system options. aclFinalize is in process.c.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

#define MAX_DEVICES 64
#define N_SYS_OPTS 4

typedef struct device {
    int refcount;
    emu_stream *default_stream;
} device;

static pthread_mutex_t rt_mu = PTHREAD_MUTEX_INITIALIZER;
static bool initialized;
static uint64_t generation; /* bumped at every aclInit: stale thread bindings are ignored */
static device devices[MAX_DEVICES];
static emu_stream **user_streams;
static size_t n_user_streams, cap_user_streams;
static int64_t sys_opts[N_SYS_OPTS], ctx_opts[MAX_DEVICES][N_SYS_OPTS];

static _Thread_local int32_t tl_device = -1;
static _Thread_local uint64_t tl_generation;

bool emu_initialized(void)
{
    pthread_mutex_lock(&rt_mu);
    bool ok = initialized;
    pthread_mutex_unlock(&rt_mu);
    return ok;
}

int emu_require_init(const char *api)
{
    pthread_mutex_lock(&rt_mu);
    bool ok = initialized;
    pthread_mutex_unlock(&rt_mu);
    return ok ? 0 : emu_error(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called (or aclFinalize was)");
}

/* Caller holds rt_mu. */
static int current_device_locked(const char *api, int32_t *out)
{
    if (!initialized)
        return emu_error(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called (or aclFinalize was)");
    if (tl_device < 0 || tl_generation != generation)
        return emu_error(ACL_ERROR_RT_CONTEXT_NULL, api,
                         "no device is set on this thread; call aclrtSetDevice first (CANN binds devices per thread)");
    if (devices[tl_device].refcount <= 0)
        return emu_error(ACL_ERROR_RT_CONTEXT_NULL, api, "device %d was reset; call aclrtSetDevice again",
                         (int)tl_device);
    *out = tl_device;
    return 0;
}

int emu_current_device(const char *api, int32_t *out)
{
    pthread_mutex_lock(&rt_mu);
    int st = current_device_locked(api, out);
    pthread_mutex_unlock(&rt_mu);
    return st;
}

int emu_stream_resolve(aclrtStream stream, const char *api, int invalid_status, emu_stream **out)
{
    pthread_mutex_lock(&rt_mu);
    int32_t dev = -1;
    int st = current_device_locked(api, &dev);
    if (st == 0) {
        if (!stream) {
            *out = devices[dev].default_stream;
        } else if ((st = emu_check_handle(stream, EMU_STREAM, invalid_status, api, "stream")) == 0) {
            *out = (emu_stream *)stream;
        }
    }
    pthread_mutex_unlock(&rt_mu);
    return st;
}

/* Reads configPath: CANN accepts a JSON object (possibly "{}"). */
static int read_config(const char *api, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "configPath \"%s\" cannot be opened", path);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    bool more = !feof(f);
    fclose(f);
    buf[n] = '\0';
    size_t a = 0;
    while (a < n && isspace((unsigned char)buf[a]))
        a++;
    size_t b = n;
    while (b > a && isspace((unsigned char)buf[b - 1]))
        b--;
    if (!more && (a == b || buf[a] != '{' || buf[b - 1] != '}'))
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "configPath \"%s\" does not hold a JSON object", path);
    return 0;
}

EMU_FORK_SAFE_MUTEX(rt_mu, EMU_ATFORK_DEVICE)

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath)
{
    EMU_API_ENTRY();
    emu_config_load();
    if (configPath) {
        int st = read_config(api, configPath);
        if (st)
            return st;
    }
    pthread_mutex_lock(&rt_mu);
    if (initialized) {
        pthread_mutex_unlock(&rt_mu);
        return emu_error(ACL_ERROR_REPEAT_INITIALIZE, api, "aclInit was already called in this process");
    }
    initialized = true;
    generation++;
    emu_device_count_lock(true);
    pthread_mutex_unlock(&rt_mu);
    emu_log(EMU_LOG_INFO, "aclInit configPath=%s devices=%d threads=%d strict=%d -> 0",
            configPath ? configPath : "(null)", emu_device_count(), emu_kernel_threads(), emu_strict());
    return ACL_SUCCESS;
}

/* Detaches every stream of device dev (all devices when dev < 0); caller holds rt_mu. */
static size_t take_streams_locked(int32_t dev, emu_stream **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < n_user_streams;) {
        if ((dev < 0 || emu_stream_device(user_streams[i]) == dev) && n < cap) {
            out[n++] = user_streams[i];
            user_streams[i] = user_streams[--n_user_streams];
        } else {
            i++;
        }
    }
    return n;
}

static void destroy_streams(emu_stream **list, size_t n, const char *api)
{
    for (size_t i = 0; i < n; i++) {
        emu_diag_warning();
        emu_log(EMU_LOG_WARNING, "%s: stream %p was never destroyed; waiting for its work and destroying it", api,
                (void *)list[i]);
        emu_stream_destroy(list[i]);
    }
}

int emu_devices_shutdown(const char *api, emu_stream ***streams, size_t *n_streams, size_t *n_user)
{
    pthread_mutex_lock(&rt_mu);
    if (!initialized) {
        pthread_mutex_unlock(&rt_mu);
        return emu_error(ACL_ERROR_REPEAT_FINALIZE, api, "aclFinalize without a matching aclInit");
    }
    emu_stream **list = malloc((n_user_streams + MAX_DEVICES) * sizeof *list);
    size_t n = list ? take_streams_locked(-1, list, n_user_streams) : 0;
    *n_user = n;
    for (int d = 0; d < MAX_DEVICES; d++) {
        if (list && devices[d].default_stream)
            list[n++] = devices[d].default_stream;
        devices[d] = (device){0};
    }
    initialized = false;
    emu_device_count_lock(false);
    pthread_mutex_unlock(&rt_mu);
    *streams = list;
    *n_streams = n;
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId)
{
    EMU_API_ENTRY();
    int count = emu_device_count();
    pthread_mutex_lock(&rt_mu);
    int st = 0;
    if (!initialized) {
        st = emu_error(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called (or aclFinalize was)");
    } else if (deviceId < 0 || deviceId >= count || deviceId >= MAX_DEVICES) {
        st = emu_error(ACL_ERROR_RT_INVALID_DEVICEID, api, "deviceId %d is out of range [0, %d)", (int)deviceId,
                       count);
    } else {
        device *d = &devices[deviceId];
        if (!d->default_stream && !(d->default_stream = emu_stream_create(deviceId, true)))
            st = emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "cannot create the default stream of device %d",
                           (int)deviceId);
        if (st == 0) {
            d->refcount++;
            tl_device = deviceId;
            tl_generation = generation;
        }
    }
    pthread_mutex_unlock(&rt_mu);
    if (st == 0)
        emu_log(EMU_LOG_INFO, "aclrtSetDevice deviceId=%d -> 0", (int)deviceId);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId)
{
    EMU_API_ENTRY();
    pthread_mutex_lock(&rt_mu);
    int st = 0;
    emu_stream *dead_default = NULL;
    emu_stream *dead[256];
    size_t n_dead = 0;
    if (!initialized) {
        st = emu_error(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called (or aclFinalize was)");
    } else if (deviceId < 0 || deviceId >= emu_device_count() || deviceId >= MAX_DEVICES) {
        st = emu_error(ACL_ERROR_RT_INVALID_DEVICEID, api, "deviceId %d is out of range [0, %d)", (int)deviceId,
                       emu_device_count());
    } else if (devices[deviceId].refcount <= 0) {
        st = emu_error(ACL_ERROR_RT_INVALID_DEVICEID, api, "device %d is not open (no matching aclrtSetDevice)",
                       (int)deviceId);
    } else if (--devices[deviceId].refcount == 0) {
        dead_default = devices[deviceId].default_stream;
        devices[deviceId].default_stream = NULL;
        n_dead = take_streams_locked(deviceId, dead, sizeof dead / sizeof dead[0]);
    }
    pthread_mutex_unlock(&rt_mu);
    destroy_streams(dead, n_dead, api);
    emu_stream_destroy(dead_default);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId)
{
    EMU_API_ENTRY();
    if (!deviceId)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "deviceId is NULL");
    return emu_current_device(api, deviceId);
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count)
{
    EMU_API_ENTRY();
    if (!count)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "count is NULL");
    *count = (uint32_t)emu_device_count();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream)
{
    EMU_API_ENTRY();
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL");
    int32_t dev = 0;
    int st = emu_current_device(api, &dev);
    if (st)
        return st;
    pthread_mutex_lock(&rt_mu);
    if (n_user_streams == cap_user_streams) {
        size_t cap = cap_user_streams ? 2 * cap_user_streams : 16;
        emu_stream **grown = realloc(user_streams, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&rt_mu);
            return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
        }
        user_streams = grown;
        cap_user_streams = cap;
    }
    emu_stream *s = emu_stream_create(dev, false);
    if (s)
        user_streams[n_user_streams++] = s;
    pthread_mutex_unlock(&rt_mu);
    if (!s)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "cannot create a stream worker thread");
    *stream = s;
    emu_log(EMU_LOG_INFO, "aclrtCreateStream -> 0 (stream %p)", (void *)s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream)
{
    EMU_API_ENTRY();
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL (the default stream cannot be destroyed)");
    pthread_mutex_lock(&rt_mu);
    size_t i = 0;
    while (i < n_user_streams && user_streams[i] != stream)
        i++;
    bool found = i < n_user_streams;
    if (found)
        user_streams[i] = user_streams[--n_user_streams];
    pthread_mutex_unlock(&rt_mu);
    if (!found) {
        int st = emu_check_handle(stream, EMU_STREAM, ACL_ERROR_RT_INVALID_HANDLE, api, "stream");
        return st ? st
                  : emu_error(ACL_ERROR_INVALID_PARAM, api, "stream %p is a default stream; it cannot be destroyed",
                              stream);
    }
    emu_stream_destroy((emu_stream *)stream);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream)
{
    EMU_API_ENTRY();
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (!st && (st = emu_stream_sync(s, api)) == 0)
        emu_log(EMU_LOG_INFO, "%s stream=%p -> 0", api, stream);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void)
{
    EMU_API_ENTRY();
    pthread_mutex_lock(&rt_mu);
    int32_t dev = 0;
    int st = current_device_locked(api, &dev);
    emu_stream **list = NULL;
    size_t n = 0;
    if (st == 0) {
        list = malloc((n_user_streams + 1) * sizeof *list);
        if (!list) {
            st = emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
        } else {
            list[n++] = devices[dev].default_stream;
            for (size_t i = 0; i < n_user_streams; i++)
                if (emu_stream_device(user_streams[i]) == dev)
                    list[n++] = user_streams[i];
        }
    }
    /* Streams cannot be destroyed while we wait: destroying takes rt_mu first. */
    for (size_t i = 0; i < n; i++) {
        int s = emu_stream_sync(list[i], api);
        if (s && !st)
            st = s;
    }
    pthread_mutex_unlock(&rt_mu);
    free(list);
    return st;
}

static int check_opt(const char *api, aclSysParamOpt opt)
{
    if ((int)opt < 0 || (int)opt >= N_SYS_OPTS)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "opt %d is not an aclSysParamOpt (0..%d)", (int)opt,
                         N_SYS_OPTS - 1);
    return 0;
}

/* Sets (value read) or gets (value written) a process-wide or, with ctx, a
 * per-device system option. */
static aclError sys_opt(const char *api, bool ctx, bool set, aclSysParamOpt opt, int64_t *value)
{
    emu_diag_api(api);
    int st = check_opt(api, opt);
    if (!st && !value)
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "value is NULL");
    int32_t dev = 0;
    if (!st && ctx)
        st = emu_current_device(api, &dev);
    if (st)
        return st;
    pthread_mutex_lock(&rt_mu);
    int64_t *slot = &(ctx ? ctx_opts[dev] : sys_opts)[opt];
    if (set)
        *slot = *value;
    else
        *value = *slot;
    pthread_mutex_unlock(&rt_mu);
    if (set)
        emu_log(EMU_LOG_INFO, "%s opt=%d value=%lld -> 0", api, (int)opt, (long long)*value);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    return sys_opt(__func__, true, true, opt, &value);
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    return sys_opt(__func__, true, false, opt, value);
}

ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    return sys_opt(__func__, false, true, opt, &value);
}

ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    return sys_opt(__func__, false, false, opt, value);
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath)
{
    EMU_API_ENTRY();
    emu_config_load();
    if (configPath) {
        FILE *f = fopen(configPath, "rb");
        if (!f)
            return emu_error(ACLNN_ERR_PARAM_INVALID, api, "configPath \"%s\" cannot be opened", configPath);
        fclose(f);
    }
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void)
{
    EMU_API_ENTRY();
    (void)api;
    return ACLNN_SUCCESS;
}
