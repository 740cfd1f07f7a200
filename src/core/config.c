/*
 * Configuration (environment switches and their run-time settings, the
 * emulated SoC) and CANN-style log lines: the bottom of the core layer.
 * Nothing here reports an error through error.c (which logs through here);
 * options.c turns the refusals into messages.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static atomic_int cfg_strict;
static atomic_int cfg_reference; /* ACLNN_EMU_REFERENCE_KERNELS */
static atomic_int cfg_threads;      /* 0: all cores */
static atomic_int cfg_device_count = 1;
static atomic_int cfg_soc; /* index into SOCS */
static atomic_int cfg_log_level = EMU_LOG_ERROR;
static atomic_int cfg_log_stdout;
static _Atomic uint64_t cfg_cache_bytes = (uint64_t)1 << 30; /* ACLNN_EMU_CACHE_BYTES */
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static atomic_int forked_child; /* this process is a fork() child of one that used the library */
static atomic_bool device_count_locked; /* between aclInit and aclFinalize */
static atomic_uint_fast64_t cfg_generation; /* bumped by every change a plan made earlier may depend on */
#ifdef _OPENMP
static atomic_int procs; /* omp_get_num_procs() once: it costs a system call */
#endif

static void log_lock(void)
{
    pthread_mutex_lock(&log_mu);
}

static void log_unlock(void)
{
    pthread_mutex_unlock(&log_mu);
}

static void log_unlock_child(void)
{
    /* GNU OpenMP's thread pool does not survive fork(): kernels in the child
     * run on the calling thread (same results: they are thread-count invariant). */
    atomic_store(&forked_child, 1);
    emu_config_changed();
    pthread_mutex_unlock(&log_mu);
}

__attribute__((constructor(EMU_ATFORK_OPTIONS))) static void options_atfork(void)
{
    pthread_atfork(log_lock, log_unlock, log_unlock_child);
}

uint64_t emu_config_generation(void)
{
    return atomic_load(&cfg_generation);
}

void emu_config_changed(void)
{
    atomic_fetch_add(&cfg_generation, 1);
}

bool emu_forked_child(void)
{
    return atomic_load(&forked_child) != 0;
}

/* Parses a non-negative decimal; returns fallback for anything else. */
static int env_int(const char *name, int fallback, int lo, int hi)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return fallback;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "[WARNING] aclnn-emu: ignoring %s=%s (expected an integer in [%d, %d])\n", name, s, lo, hi);
        return fallback;
    }
    return (int)v;
}

/* Parses a byte count (a non-negative decimal); returns fallback for anything else. */
static uint64_t env_bytes(const char *name, uint64_t fallback)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return fallback;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || s[0] == '-') {
        fprintf(stderr, "[WARNING] aclnn-emu: ignoring %s=%s (expected a number of bytes)\n", name, s);
        return fallback;
    }
    return (uint64_t)v;
}

/* The SoCs the emulator models. Core counts are the products' published
 * figures; Ascend950's are an assumption (its op_api and kernels are what
 * matters here). */
static const emu_soc SOCS[] = {
    {"Ascend910B1", EMU_SOC_910B, 24, 48},    {"Ascend910B2", EMU_SOC_910B, 24, 48},
    {"Ascend910B2C", EMU_SOC_910B, 24, 48},   {"Ascend910B3", EMU_SOC_910B, 20, 40},
    {"Ascend910B4", EMU_SOC_910B, 20, 40},    {"Ascend910B4-1", EMU_SOC_910B, 20, 40},
    {"Ascend910_9391", EMU_SOC_910_93, 24, 48}, {"Ascend910_9392", EMU_SOC_910_93, 24, 48},
    {"Ascend950", EMU_SOC_950, 32, 64},
};
#define N_SOCS (sizeof SOCS / sizeof SOCS[0])

static int find_soc(const char *name)
{
    for (size_t i = 0; name && i < N_SOCS; i++)
        if (strcasecmp(SOCS[i].name, name) == 0)
            return (int)i;
    return -1;
}

const emu_soc *emu_soc_named(const char *name)
{
    const int i = find_soc(name);
    return i < 0 ? NULL : &SOCS[i];
}

const emu_soc *emu_soc_current(void)
{
    emu_config_load();
    return &SOCS[atomic_load(&cfg_soc)];
}

static void load_once(void)
{
    const char *soc = getenv("ACLNN_EMU_SOC");
    if (soc && *soc) {
        int i = find_soc(soc);
        if (i < 0)
            fprintf(stderr, "[WARNING] aclnn-emu: ignoring ACLNN_EMU_SOC=%s (not an emulated SoC; see aclnnEmuSetSoc)\n",
                    soc);
        atomic_store(&cfg_soc, i < 0 ? 0 : i);
    }
    atomic_store(&cfg_strict, env_int("ACLNN_EMU_STRICT", 0, 0, 1));
    atomic_store(&cfg_reference, env_int("ACLNN_EMU_REFERENCE_KERNELS", 0, 0, 1));
    atomic_store(&cfg_threads, env_int("ACLNN_EMU_THREADS", 0, 0, 4096));
    atomic_store(&cfg_device_count, env_int("ACLNN_EMU_DEVICE_COUNT", 1, 1, 64));
    atomic_store(&cfg_log_level, env_int("ASCEND_GLOBAL_LOG_LEVEL", EMU_LOG_ERROR, 0, 4));
    atomic_store(&cfg_log_stdout, env_int("ASCEND_SLOG_PRINT_TO_STDOUT", 0, 0, 1));
    atomic_store(&cfg_cache_bytes, env_bytes("ACLNN_EMU_CACHE_BYTES", atomic_load(&cfg_cache_bytes)));
}

void emu_config_load(void)
{
    pthread_once(&cfg_once, load_once);
}

int emu_strict(void)
{
    emu_config_load();
    return atomic_load(&cfg_strict);
}

bool emu_reference_kernels(void)
{
    emu_config_load();
    return atomic_load(&cfg_reference) != 0;
}

int emu_threads(void)
{
    emu_config_load();
    return atomic_load(&cfg_threads);
}

uint64_t emu_cache_bytes(void)
{
    emu_config_load();
    return atomic_load(&cfg_cache_bytes);
}

int emu_device_count(void)
{
    emu_config_load();
    return atomic_load(&cfg_device_count);
}

int emu_kernel_threads(void)
{
    if (emu_forked_child())
        return 1;
    int n = emu_threads();
#ifdef _OPENMP
    if (n <= 0 && (n = atomic_load(&procs)) <= 0) {
        n = omp_get_num_procs();
        atomic_store(&procs, n);
    }
#endif
    return n > 0 ? n : 1;
}

void emu_device_count_lock(bool locked)
{
    atomic_store(&device_count_locked, locked);
}

bool emu_log_enabled(int level)
{
    emu_config_load();
    return level >= atomic_load(&cfg_log_level);
}

double emu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void emu_log(int level, const char *fmt, ...)
{
    static const char *const names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    if (!emu_log_enabled(level) || level < 0 || level > EMU_LOG_ERROR)
        return;
    char line[2 * EMU_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    FILE *f = atomic_load(&cfg_log_stdout) ? stdout : stderr;
    /* One lock so that lines from stream workers never interleave. */
    pthread_mutex_lock(&log_mu);
    fprintf(f, "[%s] %s\n", names[level], line);
    fflush(f);
    pthread_mutex_unlock(&log_mu);
}


#define CACHE_OPTION "ACLNN_EMU_CACHE_BYTES"

typedef struct option_slot {
    const char *name;
    atomic_int *slot;
    int lo, hi;
} option_slot;

static const option_slot options[] = {
    {"ACLNN_EMU_STRICT", &cfg_strict, 0, 1},
    {"ACLNN_EMU_THREADS", &cfg_threads, 0, 4096},
    {"ACLNN_EMU_DEVICE_COUNT", &cfg_device_count, 1, 64},
    {"ASCEND_GLOBAL_LOG_LEVEL", &cfg_log_level, 0, 4},
    {"ASCEND_SLOG_PRINT_TO_STDOUT", &cfg_log_stdout, 0, 1},
};

static const option_slot *find_option(const char *name)
{
    for (size_t i = 0; name && i < sizeof options / sizeof options[0]; i++)
        if (strcmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

emu_config_result emu_config_set(const char *name, int64_t value, int *lo, int *hi)
{
    emu_config_load();
    if (name && strcmp(name, CACHE_OPTION) == 0) { /* a byte count: wider than the int switches */
        *lo = 0;
        *hi = INT32_MAX;
        if (value < 0)
            return EMU_CONFIG_RANGE;
        atomic_store(&cfg_cache_bytes, (uint64_t)value);
        emu_config_changed();
        return EMU_CONFIG_OK;
    }
    const option_slot *o = find_option(name);
    if (!o)
        return EMU_CONFIG_UNKNOWN;
    *lo = o->lo;
    *hi = o->hi;
    if (value < o->lo || value > o->hi)
        return EMU_CONFIG_RANGE;
    if (o->slot == &cfg_device_count && atomic_load(&device_count_locked))
        return EMU_CONFIG_LOCKED;
    atomic_store(o->slot, (int)value);
    emu_config_changed();
    return EMU_CONFIG_OK;
}

emu_config_result emu_config_get(const char *name, int64_t *value)
{
    emu_config_load();
    if (name && strcmp(name, CACHE_OPTION) == 0) {
        const uint64_t v = atomic_load(&cfg_cache_bytes);
        *value = v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
        return EMU_CONFIG_OK;
    }
    const option_slot *o = find_option(name);
    if (!o)
        return EMU_CONFIG_UNKNOWN;
    *value = atomic_load(o->slot);
    return EMU_CONFIG_OK;
}

emu_config_result emu_config_set_soc(const char *name)
{
    emu_config_load();
    const int i = find_soc(name);
    if (i < 0)
        return EMU_CONFIG_UNKNOWN;
    if (atomic_load(&device_count_locked))
        return EMU_CONFIG_LOCKED;
    atomic_store(&cfg_soc, i);
    emu_config_changed();
    return EMU_CONFIG_OK;
}

const char *emu_soc_name_at(size_t i)
{
    return i < N_SOCS ? SOCS[i].name : NULL;
}
