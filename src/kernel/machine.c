/*
 * The caches of the machine the library runs on, as it reports them, for the
 * kernels' blocking rules: Linux's sysfs (what lscpu prints), else sysconf,
 * else sizes of a small core; and the instruction sets kernels may pick. Read
 * once (pthread_once), then constant.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kernel.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(ACLNN_EMU_NO_CLONES)
#include <cpuid.h>
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static emu_caches caches; /* written once, under `once` */

/* "48K", "2048K", "32M" -> bytes; 0 when unreadable. */
static size_t read_size(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long long v = 0;
    char unit = 0;
    const int got = fscanf(f, "%llu%c", &v, &unit);
    fclose(f);
    if (got < 1)
        return 0;
    return (size_t)v * (unit == 'K' ? 1024u : unit == 'M' ? 1024u * 1024u : unit == 'G' ? 1024u * 1024u * 1024u : 1u);
}

static int read_int(const char *path)
{
    FILE *f = fopen(path, "r");
    int v = 0;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

static void read_caches(void)
{
    emu_caches c = {0};
    for (int i = 0; i < 8; i++) {
        char path[128], type[32] = "";
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        const int got = fscanf(f, "%31s", type);
        fclose(f);
        if (got != 1 || strcmp(type, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        const int level = read_int(path);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        const size_t size = read_size(path);
        if (level == 1)
            c.l1d = size;
        else if (level == 2)
            c.l2 = size;
        else if (level >= 3 && size > c.llc)
            c.llc = size;
    }
#ifdef _SC_LEVEL2_CACHE_SIZE
    if (!c.l1d && sysconf(_SC_LEVEL1_DCACHE_SIZE) > 0)
        c.l1d = (size_t)sysconf(_SC_LEVEL1_DCACHE_SIZE);
    if (!c.l2 && sysconf(_SC_LEVEL2_CACHE_SIZE) > 0)
        c.l2 = (size_t)sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (!c.llc && sysconf(_SC_LEVEL3_CACHE_SIZE) > 0)
        c.llc = (size_t)sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    c.l1d = c.l1d ? c.l1d : (size_t)32 << 10;
    c.l2 = c.l2 ? c.l2 : (size_t)512 << 10;
    c.llc = c.llc > c.l2 ? c.llc : c.l2;
    caches = c;
}

const emu_caches *emu_machine_caches(void)
{
    pthread_once(&once, read_caches);
    return &caches;
}

int64_t emu_stream_bytes(void)
{
    /* Half the last level is what one output can keep there beside its inputs; a VM may report its host's
     * whole L3 (480 MiB was seen), shared with other guests: never more than 32 MiB. */
    const size_t half = emu_machine_caches()->llc / 2, cap = (size_t)32 << 20;
    return (int64_t)(half < cap ? half : cap);
}

static pthread_once_t isa_once = PTHREAD_ONCE_INIT;
static emu_isa isa; /* written once, under isa_once */

static void read_isa(void)
{
    emu_isa best = EMU_ISA_BASELINE;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(ACLNN_EMU_NO_CLONES)
    /* __builtin_cpu_supports also asks the OS whether it saves the registers (XCR0). The AVX2 set includes F16C
     * and FMA (every AVX2 CPU has both; the float16 paths and the x2 pass's fused taps take them), the AVX-512
     * set BW (every AVX-512 CPU but Xeon Phi has it; the x2 pass widens bfloat16 with a word permute). */
    unsigned a, b, c, d;
    const bool f16c = __get_cpuid(1, &a, &b, &c, &d) && ((c >> 29) & 1);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c)
        best = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? EMU_ISA_AVX512
                                                                                         : EMU_ISA_AVX2;
#endif
    /* Case as the user likes; "avx512" (or anything else) caps nothing: a cap can only lower the set. */
    const char *cap = getenv("ACLNN_EMU_MAX_CPU_ISA");
    if (cap && strcasecmp(cap, "baseline") == 0)
        best = EMU_ISA_BASELINE;
    else if (cap && strcasecmp(cap, "avx2") == 0 && best > EMU_ISA_AVX2)
        best = EMU_ISA_AVX2;
    isa = best;
}

emu_isa emu_cpu_isa(void)
{
    pthread_once(&isa_once, read_isa);
    return isa;
}
