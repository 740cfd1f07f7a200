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
#include <strings.h>
#include <time.h>

#include "runtime.h"

#define MAX_DEVICES 64
#define N_SYS_OPTS 4

typedef struct device {
    int refcount;
    emu_stream *default_stream;
    uint64_t peers; /* devices this one enabled peer access to */
} device;

static pthread_mutex_t rt_mu = PTHREAD_MUTEX_INITIALIZER;
static bool initialized;
static uint64_t generation; /* bumped at every aclInit: stale thread bindings are ignored */
static device devices[MAX_DEVICES];
static emu_stream **user_streams;
static size_t n_user_streams, cap_user_streams;
static int64_t sys_opts[N_SYS_OPTS], ctx_opts[MAX_DEVICES][N_SYS_OPTS];

/* A context binds a device and a stream (NULL in API calls) to the threads
 * that make it current. Each open device has a default context (these
 * static ones, whose stream is the device's default stream); user contexts
 * from aclrtCreateContext have a stream of their own. */
typedef struct emu_context {
    int32_t device;
    emu_stream *stream; /* user contexts only */
} emu_context;

static emu_context default_ctx[MAX_DEVICES];
static emu_context **user_ctxs;
static size_t n_user_ctxs, cap_user_ctxs;

static _Thread_local emu_context *tl_ctx;
static _Thread_local uint64_t tl_generation;

static bool is_default_ctx(const emu_context *c)
{
    return c >= default_ctx && c < default_ctx + MAX_DEVICES;
}

/* Room for one more element of size elem in arr (holding n, capacity *cap):
 * arr itself, or a larger copy; NULL when out of memory (arr is unchanged). */

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

/* The calling thread's context; caller holds rt_mu. */
static int current_ctx_locked(const char *api, emu_context **out)
{
    if (!initialized)
        return emu_error(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called (or aclFinalize was)");
    emu_context *c = tl_generation == generation ? tl_ctx : NULL;
    if (!c)
        return emu_error(ACL_ERROR_RT_CONTEXT_NULL, api,
                         "no device is set on this thread; call aclrtSetDevice first (CANN binds devices per thread)");
    if (is_default_ctx(c) && devices[c->device].refcount <= 0)
        return emu_error(ACL_ERROR_RT_CONTEXT_NULL, api, "device %d was reset; call aclrtSetDevice again",
                         (int)c->device);
    if (!is_default_ctx(c) && emu_registry_find(c, EMU_CONTEXT) != EMU_LIVE)
        return emu_error(ACL_ERROR_RT_CONTEXT_NULL, api,
                         "the current context %p was destroyed; call aclrtSetCurrentContext or aclrtSetDevice",
                         (void *)c);
    *out = c;
    return 0;
}

static int current_device_locked(const char *api, int32_t *out)
{
    emu_context *c = NULL;
    int st = current_ctx_locked(api, &c);
    if (st == 0)
        *out = c->device;
    return st;
}

static void bind_locked(emu_context *c)
{
    tl_ctx = c;
    tl_generation = generation;
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
    emu_context *c = NULL;
    int st = current_ctx_locked(api, &c);
    if (st == 0) {
        if (!stream) {
            *out = is_default_ctx(c) ? devices[c->device].default_stream : c->stream;
        } else if ((st = emu_check_handle(stream, EMU_STREAM, invalid_status, api, "stream")) == 0) {
            *out = (emu_stream *)stream;
        }
    }
    pthread_mutex_unlock(&rt_mu);
    return st;
}

/* The exception dump acl.json's "dump" object asks for (adump's dump_scene and dump_path), under rt_mu. */
static bool exception_dump;
static char dump_path[4096];

/* The string value of "key" in text (the first one), or false. Enough for acl.json's flat keys. */
static bool json_string(const char *text, const char *key, char *out, size_t cap)
{
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *p = strstr(text, quoted);
    if (!p)
        return false;
    p += strlen(quoted);
    while (isspace((unsigned char)*p))
        p++;
    if (*p++ != ':')
        return false;
    while (isspace((unsigned char)*p))
        p++;
    if (*p++ != '"')
        return false;
    const char *end = strchr(p, '"');
    if (!end || (size_t)(end - p) >= cap)
        return false;
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = '\0';
    return true;
}

/* adump's scenes that turn the exception dump on (dump_config_converter.cpp). */
static void read_dump_config(const char *text)
{
    char scene[64] = "", path[sizeof dump_path] = "";
    json_string(text, "dump_scene", scene, sizeof scene);
    json_string(text, "dump_path", path, sizeof path);
    pthread_mutex_lock(&rt_mu);
    exception_dump = strcmp(scene, "aic_err_brief_dump") == 0 || strcmp(scene, "lite_exception") == 0 ||
                     strcmp(scene, "aic_err_norm_dump") == 0 || strcmp(scene, "aic_err_detail_dump") == 0;
    snprintf(dump_path, sizeof dump_path, "%s", path);
    pthread_mutex_unlock(&rt_mu);
}

bool emu_exception_dump_base(char *out, size_t cap)
{
    pthread_mutex_lock(&rt_mu);
    bool on = exception_dump;
    const char *env = getenv("ASCEND_DUMP_PATH");
    if (!env || !*env)
        env = getenv("ASCEND_WORK_PATH");
    snprintf(out, cap, "%s", env && *env ? env : dump_path[0] ? dump_path : "./");
    pthread_mutex_unlock(&rt_mu);
    return on;
}

/* Reads configPath into buf: CANN accepts a JSON object (possibly "{}"). */
static int read_config(const char *api, const char *path, char buf[static 4096])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "configPath \"%s\" cannot be opened", path);
    size_t n = fread(buf, 1, 4096 - 1, f);
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
    char config[4096] = "";
    if (configPath) {
        int st = read_config(api, configPath, config);
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
    emu_config_changed();
    emu_device_count_lock(true);
    pthread_mutex_unlock(&rt_mu);
    read_dump_config(config);
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
    emu_stream **list = malloc((n_user_streams + n_user_ctxs + MAX_DEVICES) * sizeof *list);
    size_t n = list ? take_streams_locked(-1, list, n_user_streams) : 0;
    *n_user = n;
    /* Contexts still alive are leaks (the report names them); their streams stop here. */
    for (size_t i = 0; list && i < n_user_ctxs; i++)
        list[n++] = user_ctxs[i]->stream;
    n_user_ctxs = 0;
    for (int d = 0; d < MAX_DEVICES; d++) {
        if (list && devices[d].default_stream)
            list[n++] = devices[d].default_stream;
        devices[d] = (device){0};
    }
    initialized = false;
    emu_config_changed();
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
            default_ctx[deviceId].device = deviceId;
            bind_locked(&default_ctx[deviceId]);
        }
    }
    pthread_mutex_unlock(&rt_mu);
    if (st == 0)
        emu_log(EMU_LOG_INFO, "aclrtSetDevice deviceId=%d -> 0", (int)deviceId);
    return st;
}

static void (*_Atomic reset_hook)(void); /* memory's cache trim (memory sits above devices) */

void emu_device_on_reset(void (*hook)(void))
{
    reset_hook = hook;
}

/* Drops one aclrtSetDevice reference (all of them when force); the last one
 * waits for the device's streams and destroys them. */
static aclError reset_device(const char *api, int32_t deviceId, bool force)
{
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
    } else if (force || --devices[deviceId].refcount == 0) {
        devices[deviceId].refcount = 0;
        dead_default = devices[deviceId].default_stream;
        devices[deviceId].default_stream = NULL;
        n_dead = take_streams_locked(deviceId, dead, sizeof dead / sizeof dead[0]);
    }
    pthread_mutex_unlock(&rt_mu);
    destroy_streams(dead, n_dead, api);
    emu_stream_destroy(dead_default);
    void (*hook)(void) = reset_hook;
    if (st == 0 && hook)
        hook();
    if (st == 0)
        emu_log(EMU_LOG_INFO, "%s deviceId=%d -> 0", api, (int)deviceId);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId)
{
    EMU_API_ENTRY();
    return reset_device(api, deviceId, false);
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId)
{
    EMU_API_ENTRY();
    return reset_device(api, deviceId, true);
}

/* ---- contexts ---------------------------------------------------------- */

/* Opens deviceId for a new context (as aclrtSetDevice does); caller holds rt_mu. */
static int open_device_locked(const char *api, int32_t deviceId)
{
    int count = emu_device_count();
    if (deviceId < 0 || deviceId >= count || deviceId >= MAX_DEVICES)
        return emu_error(ACL_ERROR_RT_INVALID_DEVICEID, api, "deviceId %d is out of range [0, %d)", (int)deviceId,
                         count);
    device *d = &devices[deviceId];
    if (!d->default_stream && !(d->default_stream = emu_stream_create(deviceId, true)))
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "cannot create the default stream of device %d",
                         (int)deviceId);
    default_ctx[deviceId].device = deviceId;
    d->refcount++;
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
    EMU_API_ENTRY();
    if (!context)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "context is NULL");
    int st = emu_require_init(api);
    if (st)
        return st;
    emu_context *c = calloc(1, sizeof *c);
    if (!c)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    c->device = deviceId;
    pthread_mutex_lock(&rt_mu);
    st = open_device_locked(api, deviceId);
    bool opened = st == 0;
    if (st == 0 && !(c->stream = emu_stream_create(deviceId, true)))
        st = emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "cannot create the context's stream");
    emu_context **grown = st == 0 && emu_grow((void **)&user_ctxs, &cap_user_ctxs, n_user_ctxs, sizeof *user_ctxs)
                              ? user_ctxs
                              : NULL;
    if (grown)
        user_ctxs = grown;
    if (st == 0 && (!grown || emu_registry_add(c, EMU_CONTEXT, api) != 0))
        st = emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    if (st == 0)
        user_ctxs[n_user_ctxs++] = c;
    if (st == 0)
        bind_locked(c); /* CANN: a new context becomes the thread's current one */
    pthread_mutex_unlock(&rt_mu);
    if (st) {
        emu_stream_destroy(c->stream);
        if (opened)
            reset_device(api, deviceId, false);
        free(c);
        return st;
    }
    *context = c;
    emu_log(EMU_LOG_INFO, "%s deviceId=%d -> 0 (context %p)", api, (int)deviceId, (void *)c);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context)
{
    EMU_API_ENTRY();
    if (!context)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "context is NULL");
    emu_context *c = context;
    if (is_default_ctx(c))
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "context %p is the default context of device %d; aclrtResetDevice releases it", context,
                         (int)c->device);
    pthread_mutex_lock(&rt_mu);
    int st = emu_check_handle(context, EMU_CONTEXT, ACL_ERROR_RT_INVALID_HANDLE, api, "context");
    int32_t dev = 0;
    emu_stream *s = NULL;
    if (st == 0) {
        size_t i = 0;
        while (i < n_user_ctxs && user_ctxs[i] != c)
            i++;
        if (i < n_user_ctxs)
            user_ctxs[i] = user_ctxs[--n_user_ctxs];
        dev = c->device;
        s = c->stream;
        if (tl_ctx == c)
            tl_ctx = NULL;
        /* The handle dies now (later uses say "destroyed"); the stream is finished below. */
        emu_registry_release(c, EMU_CONTEXT, sizeof *c, free);
    }
    pthread_mutex_unlock(&rt_mu);
    if (st)
        return st;
    emu_stream_destroy(s);
    reset_device(api, dev, false);
    emu_log(EMU_LOG_INFO, "%s context=%p -> 0", api, context);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context)
{
    EMU_API_ENTRY();
    if (!context)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "context is NULL");
    emu_context *c = context;
    pthread_mutex_lock(&rt_mu);
    int st = initialized ? 0 : emu_error(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called (or aclFinalize was)");
    if (st == 0 && is_default_ctx(c) && devices[c->device].refcount <= 0)
        st = emu_error(ACL_ERROR_RT_INVALID_HANDLE, api,
                       "context %p is the default context of device %d, which is not open", context, (int)c->device);
    if (st == 0 && !is_default_ctx(c))
        st = emu_check_handle(context, EMU_CONTEXT, ACL_ERROR_RT_INVALID_HANDLE, api, "context");
    if (st == 0)
        bind_locked(c);
    pthread_mutex_unlock(&rt_mu);
    if (st == 0)
        emu_log(EMU_LOG_INFO, "%s context=%p -> 0", api, context);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context)
{
    EMU_API_ENTRY();
    if (!context)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "context is NULL");
    pthread_mutex_lock(&rt_mu);
    emu_context *c = NULL;
    int st = current_ctx_locked(api, &c);
    pthread_mutex_unlock(&rt_mu);
    if (st == 0)
        *context = c;
    return st;
}

static int check_level(const char *api, aclrtLastErrLevel level)
{
    return level == ACL_RT_THREAD_LEVEL
               ? 0
               : emu_error(ACL_ERROR_INVALID_PARAM, api, "level %d is not ACL_RT_THREAD_LEVEL (0)", (int)level);
}

ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
    EMU_API_ENTRY();
    int st = check_level(api, level);
    return st ? st : emu_last_status(false);
}

ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level)
{
    EMU_API_ENTRY();
    int st = check_level(api, level);
    return st ? st : emu_last_status(true);
}

ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
    EMU_API_ENTRY();
    if (!runMode)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "runMode is NULL");
    *runMode = ACL_HOST; /* the program runs on the host and drives the (emulated) device */
    emu_log(EMU_LOG_INFO, "%s -> 0 (ACL_HOST)", api);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
    EMU_API_ENTRY();
    if (!majorVersion || !minorVersion || !patchVersion)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL",
                         !majorVersion ? "majorVersion" : !minorVersion ? "minorVersion" : "patchVersion");
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    emu_log(EMU_LOG_INFO, "%s -> 0 (%d.%d.%d)", api, ACL_MAJOR_VERSION, ACL_MINOR_VERSION, ACL_PATCH_VERSION);
    return ACL_SUCCESS;
}

/* Peer access: every emulated device shares the host's memory, so any two
 * distinct devices can reach each other; enabling is recorded for symmetry. */
static int check_peer(const char *api, int32_t deviceId, int32_t peerDeviceId)
{
    int count = emu_device_count();
    if (deviceId < 0 || deviceId >= count)
        return emu_error(ACL_ERROR_RT_INVALID_DEVICEID, api, "deviceId %d is out of range [0, %d)", (int)deviceId,
                         count);
    if (peerDeviceId < 0 || peerDeviceId >= count)
        return emu_error(ACL_ERROR_RT_INVALID_DEVICEID, api, "peerDeviceId %d is out of range [0, %d)",
                         (int)peerDeviceId, count);
    if (deviceId == peerDeviceId)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "deviceId %d cannot be equal to peerDeviceId %d",
                         (int)deviceId, (int)peerDeviceId);
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId)
{
    EMU_API_ENTRY();
    int st = emu_require_init(api);
    if (!st && !canAccessPeer)
        st = emu_error(ACL_ERROR_INVALID_PARAM, api, "canAccessPeer is NULL");
    if (!st)
        st = check_peer(api, deviceId, peerDeviceId);
    if (st)
        return st;
    *canAccessPeer = 1;
    emu_log(EMU_LOG_INFO, "%s deviceId=%d peerDeviceId=%d -> 0 (1)", api, (int)deviceId, (int)peerDeviceId);
    return ACL_SUCCESS;
}

static aclError peer_access(const char *api, int32_t peerDeviceId, uint32_t flags, bool enable)
{
    if (flags != 0)
        return emu_error(ACL_ERROR_FEATURE_UNSUPPORTED, api, "flags must be 0 (reserved), not %u", (unsigned)flags);
    int32_t dev = 0;
    int st = emu_current_device(api, &dev);
    if (!st)
        st = check_peer(api, dev, peerDeviceId);
    if (st)
        return st;
    pthread_mutex_lock(&rt_mu);
    if (enable)
        devices[dev].peers |= UINT64_C(1) << peerDeviceId;
    else
        devices[dev].peers &= ~(UINT64_C(1) << peerDeviceId);
    pthread_mutex_unlock(&rt_mu);
    emu_log(EMU_LOG_INFO, "%s deviceId=%d peerDeviceId=%d -> 0", api, (int)dev, (int)peerDeviceId);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
    EMU_API_ENTRY();
    return peer_access(api, peerDeviceId, flags, true);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
    EMU_API_ENTRY();
    return peer_access(api, peerDeviceId, 0, false);
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

/* CANN's stream priorities: 0 is the greatest, 7 the least (runtime base_info.hpp). */
#define STREAM_GREATEST_PRIORITY 0
#define STREAM_LEAST_PRIORITY 7
/* Flags of aclrtCreateStreamWithConfig: recorded; every stream runs the same way on the emulator. */
#define STREAM_KNOWN_FLAGS \
    (ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE | \
     ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)

static aclError create_stream(const char *api, aclrtStream *stream, uint32_t priority, uint32_t flags)
{
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL");
    if (priority > STREAM_LEAST_PRIORITY)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "priority %u is out of range [%d, %d]", (unsigned)priority,
                         STREAM_GREATEST_PRIORITY, STREAM_LEAST_PRIORITY);
    if (flags & ~(uint32_t)STREAM_KNOWN_FLAGS)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "flag 0x%x has bits no ACL_STREAM_* flag defines (0x%x)",
                         (unsigned)flags, (unsigned)(flags & ~(uint32_t)STREAM_KNOWN_FLAGS));
    int32_t dev = 0;
    int st = emu_current_device(api, &dev);
    if (st)
        return st;
    pthread_mutex_lock(&rt_mu);
    emu_stream *s = emu_stream_create(dev, false);
    emu_stream **grown = s && emu_grow((void **)&user_streams, &cap_user_streams, n_user_streams, sizeof *user_streams)
                             ? user_streams
                             : NULL;
    bool listed = grown != NULL;
    if (grown) {
        user_streams = grown;
        user_streams[n_user_streams++] = s;
    }
    pthread_mutex_unlock(&rt_mu);
    if (s && !listed) {
        emu_stream_destroy(s);
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
    }
    if (!s)
        return emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "cannot create a stream worker thread");
    emu_stream_set_config(s, priority, flags);
    *stream = s;
    emu_log(EMU_LOG_INFO, "%s priority=%u flag=0x%x -> 0 (stream %p)", api, (unsigned)priority, (unsigned)flags,
            (void *)s);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream)
{
    EMU_API_ENTRY();
    return create_stream(api, stream, 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    EMU_API_ENTRY();
    return create_stream(api, stream, priority, flag);
}

/* ---- stream configuration handles (CANN's compact runtime, aclrt_c/runtime/stream.c) ---- */

ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
    EMU_API_ENTRY();
    return emu_handle_alloc(sizeof(aclrtStreamConfigHandle), EMU_STREAM_CONFIG, api);
}

/* The handle is a public struct a program may also make itself: only a destroyed one is refused. */
static int check_stream_config(const char *api, const aclrtStreamConfigHandle *h)
{
    emu_found found = emu_registry_find(h, EMU_STREAM_CONFIG);
    return found == EMU_RETIRED ? emu_handle_error(found, h, EMU_STREAM_CONFIG, ACL_ERROR_INVALID_PARAM, api, "handle")
                                : 0;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
    EMU_API_ENTRY();
    if (!handle)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "handle is NULL");
    int st = emu_check_handle(handle, EMU_STREAM_CONFIG, ACL_ERROR_INVALID_PARAM, api, "handle");
    if (!st)
        emu_registry_release(handle, EMU_STREAM_CONFIG, sizeof *handle, free);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize)
{
    EMU_API_ENTRY();
    if (!handle || !attrValue)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", handle ? "attrValue" : "handle");
    int st = check_stream_config(api, handle);
    if (st)
        return st;
    size_t want = attr == ACL_RT_STREAM_PRIORITY ? sizeof(uint32_t) : sizeof(size_t);
    /* CANN's compact runtime wants a size_t FLAG; its own sample passes a uint32_t, which is taken too. */
    bool size_ok = valueSize == want || (attr == ACL_RT_STREAM_FLAG && valueSize == sizeof(uint32_t));
    if ((unsigned)attr > ACL_RT_STREAM_PRIORITY)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "attr %d is not an aclrtStreamConfigAttr", (int)attr);
    if (!size_ok)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "valueSize %zu: attr %d takes %zu bytes", valueSize, (int)attr,
                         want);
    switch (attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
        memcpy(&handle->workptr, attrValue, sizeof handle->workptr);
        break;
    case ACL_RT_STREAM_WORK_SIZE:
        memcpy(&handle->workSize, attrValue, sizeof handle->workSize);
        break;
    case ACL_RT_STREAM_FLAG: {
        uint32_t narrow;
        if (valueSize == sizeof narrow)
            memcpy(&narrow, attrValue, sizeof narrow), handle->flag = narrow;
        else
            memcpy(&handle->flag, attrValue, sizeof handle->flag);
        break;
    }
    default: {
        uint32_t priority;
        memcpy(&priority, attrValue, sizeof priority);
        if (priority > STREAM_LEAST_PRIORITY)
            return emu_error(ACL_ERROR_INVALID_PARAM, api, "priority %u is out of range [%d, %d]", (unsigned)priority,
                             STREAM_GREATEST_PRIORITY, STREAM_LEAST_PRIORITY);
        handle->priority = priority;
        break;
    }
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
    EMU_API_ENTRY();
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL");
    int st = handle ? check_stream_config(api, handle) : 0;
    return st ? st : create_stream(api, stream, handle ? handle->priority : 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority)
{
    EMU_API_ENTRY();
    if (leastPriority) /* either may be NULL, as in CANN */
        *leastPriority = STREAM_LEAST_PRIORITY;
    if (greatestPriority)
        *greatestPriority = STREAM_GREATEST_PRIORITY;
    emu_log(EMU_LOG_INFO, "%s -> 0 (least %d, greatest %d)", api, STREAM_LEAST_PRIORITY, STREAM_GREATEST_PRIORITY);
    return ACL_SUCCESS;
}

/* aclrtStreamGetPriority/Flags/Id: what, of stream (NULL: the default stream). */
static aclError stream_query(const char *api, aclrtStream stream, const void *out, const char *out_name,
                             uint32_t *priority, uint32_t *flags, uint32_t *id)
{
    if (!out)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", out_name);
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st)
        return st;
    emu_stream_get_config(s, priority, flags, id);
    emu_log(EMU_LOG_INFO, "%s stream=%p -> 0 (priority %u, flags 0x%x, id %u)", api, stream, (unsigned)*priority,
            (unsigned)*flags, (unsigned)*id);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
    EMU_API_ENTRY();
    uint32_t p, f, id;
    int st = stream_query(api, stream, priority, "priority", &p, &f, &id);
    if (!st)
        *priority = p;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
    EMU_API_ENTRY();
    uint32_t p, f, id;
    int st = stream_query(api, stream, flags, "flags", &p, &f, &id);
    if (!st)
        *flags = f;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
    EMU_API_ENTRY();
    uint32_t p, f, id;
    int st = stream_query(api, stream, streamId, "streamId", &p, &f, &id);
    if (!st)
        *streamId = (int32_t)id;
    return st;
}

/* Detaches a user stream from the device table, then destroys it (force: dropping its queued work). */
static aclError destroy_stream(const char *api, aclrtStream stream, bool force)
{
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL (the default stream cannot be destroyed)");
    int capture = -1;
    if (emu_registry_find(stream, EMU_STREAM) == EMU_LIVE)
        emu_stream_sink((emu_stream *)stream, &capture, NULL);
    if (capture >= 0)
        return emu_error(ACL_ERROR_RT_STREAM_CAPTURED, api,
                         "stream %p is being captured: end the capture first (aclmdlRICaptureEnd)", stream);
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
    size_t dropped = force ? emu_stream_discard((emu_stream *)stream) : 0;
    emu_stream_destroy((emu_stream *)stream);
    emu_log(EMU_LOG_INFO, "%s stream=%p -> 0 (%zu queued task(s) dropped)", api, stream, dropped);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream)
{
    EMU_API_ENTRY();
    return destroy_stream(api, stream, false);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream)
{
    EMU_API_ENTRY();
    return destroy_stream(api, stream, true);
}

static aclError sync_stream(const char *api, aclrtStream stream, int32_t timeout)
{
    if (emu_check_timeout(api, timeout))
        return ACL_ERROR_RT_PARAM_INVALID;
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (!st && (st = emu_stream_sync(s, api, timeout)) == 0)
        emu_log(EMU_LOG_INFO, "%s stream=%p -> 0", api, stream);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream)
{
    EMU_API_ENTRY();
    return sync_stream(api, stream, -1);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
    EMU_API_ENTRY();
    return sync_stream(api, stream, timeout);
}

ACL_FUNC_VISIBILITY aclError aclnnEmuStreamWait(aclrtStream stream, int32_t timeoutMs, int32_t *done)
{
    const char *api = "aclnnEmuStreamWait";
    if (!done)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "done is NULL");
    if (timeoutMs < 0)
        return emu_error(ACL_ERROR_RT_PARAM_INVALID, api, "timeoutMs must be >= 0, got %d", (int)timeoutMs);
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st)
        return st;
    *done = emu_stream_wait_idle(s, timeoutMs);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
    EMU_API_ENTRY();
    if (!status)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "status is NULL");
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st)
        return st;
    *status = emu_stream_idle(s) ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
    EMU_API_ENTRY();
    if (!stream)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "stream is NULL");
    emu_stream *s;
    int st = emu_stream_resolve(NULL, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st == 0)
        *stream = s;
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
    EMU_API_ENTRY();
    if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
        return emu_error(ACL_ERROR_INVALID_PARAM, api,
                         "mode %llu is not ACL_CONTINUE_ON_FAILURE (0) or ACL_STOP_ON_FAILURE (1)",
                         (unsigned long long)mode);
    emu_stream *s;
    int st = emu_stream_resolve(stream, api, ACL_ERROR_RT_INVALID_HANDLE, &s);
    if (st)
        return st;
    emu_stream_set_stop_on_failure(s, mode == ACL_STOP_ON_FAILURE);
    emu_log(EMU_LOG_INFO, "%s stream=%p mode=%llu -> 0", api, stream, (unsigned long long)mode);
    return ACL_SUCCESS;
}

/* Waits for every stream of the calling thread's device. */
static aclError sync_device(const char *api, int32_t timeout)
{
    if (emu_check_timeout(api, timeout))
        return ACL_ERROR_RT_PARAM_INVALID;
    pthread_mutex_lock(&rt_mu);
    int32_t dev = 0;
    int st = current_device_locked(api, &dev);
    emu_stream **list = NULL;
    size_t n = 0;
    if (st == 0) {
        list = malloc((n_user_streams + n_user_ctxs + 1) * sizeof *list);
        if (!list) {
            st = emu_error(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "out of memory");
        } else {
            list[n++] = devices[dev].default_stream;
            for (size_t i = 0; i < n_user_streams; i++)
                if (emu_stream_device(user_streams[i]) == dev)
                    list[n++] = user_streams[i];
            for (size_t i = 0; i < n_user_ctxs; i++)
                if (user_ctxs[i]->device == dev)
                    list[n++] = user_ctxs[i]->stream;
        }
    }
    /* Streams cannot be destroyed while we wait: destroying takes rt_mu first.
     * One deadline for the whole device. */
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (size_t i = 0; i < n; i++) {
        int32_t left = timeout;
        if (timeout >= 0) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            int64_t spent = (int64_t)(now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
            left = spent >= timeout ? 0 : (int32_t)(timeout - spent);
        }
        int s = emu_stream_sync(list[i], api, left);
        if (s && !st)
            st = s;
        if (s == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
            break;
    }
    pthread_mutex_unlock(&rt_mu);
    free(list);
    if (st == 0)
        emu_log(EMU_LOG_INFO, "%s -> 0", api);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void)
{
    EMU_API_ENTRY();
    return sync_device(api, -1);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
    EMU_API_ENTRY();
    return sync_device(api, timeout);
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

/* ---- package versions, CANN attributes, fault and capability queries (hicann/runtime's acl.cpp,
 * cann_info_utils.cpp, device.cpp, event.cpp) ---- */

/* The Version= value of $ASCEND_HOME_PATH/share/info/<pkg>/version.info, trimmed, into out (cap bytes).
 * 0, or ACL_ERROR_INVALID_FILE (-1 when found but too long for cap). */
static int read_version(const char *pkg, char *out, size_t cap)
{
    const char *home = getenv("ASCEND_HOME_PATH");
    if (!home || !*home)
        return ACL_ERROR_INVALID_FILE;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/share/info/%s/version.info", home, pkg) >= sizeof path)
        return ACL_ERROR_INVALID_FILE;
    FILE *f = fopen(path, "r");
    if (!f)
        return ACL_ERROR_INVALID_FILE;
    char line[1024];
    int st = ACL_ERROR_INVALID_FILE;
    while (st == ACL_ERROR_INVALID_FILE && fgets(line, sizeof line, f)) {
        const char *v = strstr(line, "Version=");
        if (!v)
            continue;
        v += strlen("Version=");
        while (*v == ' ' || *v == '\t')
            v++;
        size_t n = strcspn(v, "\r\n");
        while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
            n--;
        if (n == 0)
            break;
        st = n < cap ? 0 : -1;
        if (!st) {
            memcpy(out, v, n);
            out[n] = '\0';
        }
    }
    fclose(f);
    return st;
}

/* GetPkgVersionContent: the name as given, then with '-' and '_' swapped. */
static int package_version(const char *api, const char *pkg, char *out, size_t cap)
{
    int st = read_version(pkg, out, cap);
    char alt[256];
    if (st == ACL_ERROR_INVALID_FILE && strlen(pkg) < sizeof alt && strpbrk(pkg, "-_")) {
        const char from = strchr(pkg, '-') ? '-' : '_', to = from == '-' ? '_' : '-';
        strcpy(alt, pkg);
        for (char *c = alt; *c; c++)
            *c = *c == from ? to : *c;
        st = read_version(alt, out, cap);
    }
    if (st == -1)
        return emu_error(ACL_ERROR_INTERNAL_ERROR, api, "the version of package [%s] does not fit %d bytes", pkg,
                         ACL_PKG_VERSION_MAX_SIZE);
    if (st)
        return emu_error(ACL_ERROR_INVALID_FILE, api, "no Version= in $ASCEND_HOME_PATH/share/info/%s/version.info "
                         "(is ASCEND_HOME_PATH set, by set_env.sh, and the package name right?)", pkg);
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
    EMU_API_ENTRY();
    if (!versionStr || !pkgName)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", !versionStr ? "versionStr" : "pkgName");
    return package_version(api, pkgName, versionStr, ACL_PKG_VERSION_MAX_SIZE);
}

/* CalculateVersionNum: "M.m.p" then an optional alpha/beta/rc suffix (at most one separator before it). */
static bool version_number(const char *v, int32_t *num)
{
    char *end;
    long part[3];
    const char *p = v;
    for (int i = 0; i < 3; i++) {
        if (!isdigit((unsigned char)*p))
            return false;
        part[i] = strtol(p, &end, 10);
        if (part[i] > 99 || (i < 2 && *end != '.'))
            return false;
        p = i < 2 ? end + 1 : end;
    }
    long value = part[0] * 10000000L + part[1] * 100000L + part[2] * 1000L;
    if (*p) {
        const char *q = p + (*p == '.' || *p == '-');
        static const struct { const char *word; long weight; } pre[] = {{"alpha", 300}, {"beta", 200}, {"rc", 100}};
        size_t k = 0;
        while (k < 3 && strncasecmp(q, pre[k].word, strlen(pre[k].word)) != 0)
            k++;
        if (k == 3)
            return false;
        q += strlen(pre[k].word);
        q += *q == '.' || *q == '-';
        long n = 0;
        if (*q) {
            if (!isdigit((unsigned char)*q))
                return false;
            n = strtol(q, &end, 10);
            if (*end || n > 99)
                return false;
        }
        value += n - pre[k].weight;
    }
    *num = (int32_t)value;
    return true;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
    EMU_API_ENTRY();
    if (!versionNum || !pkgName)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", !versionNum ? "versionNum" : "pkgName");
    char v[ACL_PKG_VERSION_MAX_SIZE];
    int st = package_version(api, pkgName, v, sizeof v);
    if (st)
        return st;
    if (!version_number(v, versionNum))
        return emu_error(ACL_ERROR_INTERNAL_ERROR, api, "version [%s] of package [%s] is not major.minor.patch "
                         "with an optional alpha, beta or rc suffix", v, pkgName);
    return ACL_SUCCESS;
}

static const aclCannAttr CANN_ATTRS[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};

ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
    EMU_API_ENTRY();
    if (!cannAttrList || !num)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", !cannAttrList ? "cannAttrList" : "num");
    *cannAttrList = CANN_ATTRS;
    *num = sizeof CANN_ATTRS / sizeof CANN_ATTRS[0];
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
    EMU_API_ENTRY();
    if (!value)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "value is NULL");
    switch (cannAttr) {
    case ACL_CANN_ATTR_INF_NAN:
    case ACL_CANN_ATTR_BF16: *value = 1; return ACL_SUCCESS; /* every emulated SoC computes with them */
    case ACL_CANN_ATTR_JIT_COMPILE: *value = 0; return ACL_SUCCESS; /* no operator is compiled */
    default: return emu_error(ACL_ERROR_INVALID_PARAM, api, "cannAttr %d is not a CANN attribute", (int)cannAttr);
    }
}

static int check_device_id(const char *api, int32_t deviceId)
{
    const int count = emu_device_count();
    if (deviceId < 0 || deviceId >= count)
        return emu_error(ACL_ERROR_RT_INVALID_DEVICEID, api, "deviceId %d is out of range [0, %d)", (int)deviceId,
                         count);
    return 0;
}

ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
    EMU_API_ENTRY();
    if (!errorInfo)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "errorInfo is NULL");
    int st = check_device_id(api, deviceId);
    if (st)
        return st;
    memset(errorInfo, 0, sizeof *errorInfo); /* ACL_RT_NO_ERROR: the emulated devices have no hardware faults */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible)
{
    EMU_API_ENTRY();
    if (!socVersion || !canCompatible)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "%s is NULL", !socVersion ? "socVersion" : "canCompatible");
    const emu_soc *s = emu_soc_named(socVersion);
    *canCompatible = s && s->family == emu_soc_current()->family;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t *value)
{
    EMU_API_ENTRY();
    if (!value)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "value is NULL");
    int st = check_device_id(api, deviceId);
    if (st)
        return st;
    if (devFeatureType != ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV &&
        devFeatureType != ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "devFeatureType %d is not a device feature",
                         (int)devFeatureType);
    *value = 0; /* no AI Core tasks to update; no memory-queue events across devices */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
    EMU_API_ENTRY();
    if (!value)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "value is NULL");
    if (type != ACL_RT_DEV_RES_CUBE_CORE && type != ACL_RT_DEV_RES_VECTOR_CORE)
        return emu_error(ACL_ERROR_INVALID_PARAM, api, "type %d is not a device resource", (int)type);
    const emu_soc *soc = emu_soc_current(); /* no limits set: the whole device */
    *value = (uint32_t)(type == ACL_RT_DEV_RES_CUBE_CORE ? soc->cube_cores : soc->vector_cores);
    return ACL_SUCCESS;
}
