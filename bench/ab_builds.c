/*
 * Two or more builds of libaclnn_emu in one process, their calls alternating:
 * an A/B of a kernel change that the VM's drift (its copy bandwidth moves by
 * half within minutes) cannot bias, as runs in separate processes can. Each
 * build is dlopen'ed with RTLD_LOCAL (its symbols stay out of the global scope,
 * so its own calls bind to itself; no RTLD_DEEPBIND, which sanitizers refuse), so
 * each has its own runtime, device memory and tensors; round r calls build 1,
 * then build 2, ..., on the same gradOut values.
 *
 *   cc -O2 -std=c11 bench/ab_builds.c $(aclnn-emu config --cflags) -ldl -o ab_builds
 *   ./ab_builds 2d N C H W OH OW ALIGN CALLS before.so after.so        (U1: 8 64 128 128 256 256 0)
 *   ./ab_builds 3d N C D H W OD OH OW ALIGN CALLS before.so after.so   (V1: 2 32 16 64 64 32 128 128 0)
 *   ./ab_builds 1d N C W OW ALIGN CALLS before.so after.so                (S1: 8 256 4096 8192 0)
 *   ./ab_builds resize N C H W OH OW 0 CALLS before.so after.so         (aclnnResize "bilinear", NCHW)
 *   ./ab_builds nearest N C H W OH OW 0 CALLS before.so after.so        (aclnnUpsampleNearest2dBackward)
 *   AB_GRAD_OFFSET=16 AB_OUT_OFFSET=16 ./ab_builds ...  (16 bytes past a cache line, as large numpy arrays are)
 *   AB_DTYPE=float16 ./ab_builds ...                      (both tensors FLOAT16, U5's; default FLOAT)
 *   AB_DTYPE=bfloat16 ./ab_builds ...                     (both tensors BF16; the 2d mode runs V2)
 *
 * The resize mode runs the forward from an N C H W input to N C OH OW; the
 * nearest mode the 2-D nearest backward (both ignore ALIGN). Prints per build
 * the minimum, first quartile and median of CALLS calls (phase one + phase two +
 * synchronize, tensors in emulated device memory). ACLNN_EMU_THREADS applies to
 * every build.
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward.h"
#include "aclnnop/aclnn_upsample_linear_1d_backward.h"
#include "aclnnop/aclnn_upsample_nearest_2d_backward.h"
#include "aclnnop/aclnn_resize.h"
#include "aclnnop/aclnn_upsample_trilinear_3d_backward.h"

#define MAX_BUILDS 8

typedef struct build {
    const char *path;
    __typeof__(&aclInit) init;
    __typeof__(&aclrtSetDevice) set_device;
    __typeof__(&aclrtMalloc) malloc_;
    __typeof__(&aclrtMemcpy) memcpy_;
    __typeof__(&aclrtSynchronizeStream) sync;
    __typeof__(&aclCreateTensor) tensor;
    __typeof__(&aclCreateIntArray) int_array;
    __typeof__(&aclCreateFloatArray) float_array;
    __typeof__(&aclnnUpsampleLinear1dBackwardGetWorkspaceSize) ws1;
    __typeof__(&aclnnUpsampleLinear1dBackward) run1;
    __typeof__(&aclnnUpsampleBilinear2dBackwardGetWorkspaceSize) ws2;
    __typeof__(&aclnnUpsampleBilinear2dBackward) run2;
    __typeof__(&aclnnUpsampleTrilinear3dBackwardGetWorkspaceSize) ws3;
    __typeof__(&aclnnUpsampleTrilinear3dBackward) run3;
    __typeof__(&aclnnResizeGetWorkspaceSize) ws_resize;
    __typeof__(&aclnnResize) run_resize;
    __typeof__(&aclnnUpsampleNearest2dBackwardGetWorkspaceSize) ws_nearest;
    __typeof__(&aclnnUpsampleNearest2dBackward) run_nearest;
    aclTensor *grad, *out; /* the resize's output and input */
    aclIntArray *out_size, *in_size;
    aclFloatArray *scales;
    void *workspace;
    uint64_t workspace_size;
    double *ms;
} build;

static void *need(void *lib, const char *path, const char *name)
{
    void *f = dlsym(lib, name);
    if (!f) {
        fprintf(stderr, "%s: no %s\n", path, name);
        exit(1);
    }
    return f;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* x as IEEE binary16 bits, truncated: enough for benchmark data (normal values and zero). */
static uint16_t half_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    const uint32_t sign = b >> 16 & 0x8000u, exp = b >> 23 & 0xffu;
    return (uint16_t)(exp < 113 ? sign : sign | (exp - 112) << 10 | (b >> 13 & 0x3ffu));
}

/* x as bfloat16 bits, truncated (the top half of its float32 bits). */
static uint16_t bf16_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return (uint16_t)(b >> 16);
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One call of build b: phase one, its workspace (kept from call to call, as a program keeps it), phase two. */
static int call(build *b, int axes, bool align, bool resize, bool nearest)
{
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int st = resize      ? b->ws_resize(b->out, b->scales, "bilinear", b->grad, &ws, &ex)
             : nearest   ? b->ws_nearest(b->grad, b->out_size, b->in_size, 0.0, 0.0, b->out, &ws, &ex)
             : axes == 1 ? b->ws1(b->grad, b->out_size, b->in_size, align, 0.0, b->out, &ws, &ex)
             : axes == 2 ? b->ws2(b->grad, b->out_size, b->in_size, align, 0.0, 0.0, b->out, &ws, &ex)
                         : b->ws3(b->grad, b->out_size, b->in_size, align, 0.0, 0.0, 0.0, b->out, &ws, &ex);
    if (!st && ws > b->workspace_size) {
        st = b->malloc_(&b->workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST);
        b->workspace_size = ws;
    }
    if (!st)
        st = resize      ? b->run_resize(b->workspace, ws, ex, NULL)
             : nearest   ? b->run_nearest(b->workspace, ws, ex, NULL)
             : axes == 1 ? b->run1(b->workspace, ws, ex, NULL)
             : axes == 2 ? b->run2(b->workspace, ws, ex, NULL)
                         : b->run3(b->workspace, ws, ex, NULL);
    return st ? st : b->sync(NULL);
}

int main(int argc, char **argv)
{
    const bool resize = argc > 1 && strcmp(argv[1], "resize") == 0;
    const bool nearest = argc > 1 && strcmp(argv[1], "nearest") == 0;
    const int axes = argc < 2                                     ? 0
                     : strcmp(argv[1], "1d") == 0                   ? 1
                     : resize || nearest || strcmp(argv[1], "2d") == 0 ? 2
                     : strcmp(argv[1], "3d") == 0                   ? 3
                                                                    : 0;
    /* AB_GRAD_OFFSET=k (bytes, < 64, a multiple of 4): gradOut starts k bytes past a cache line, as a large
     * numpy array does (16: malloc's header before its mmap'ed block), where device memory is aligned;
     * AB_OUT_OFFSET the same for out (the resize mode reads out and writes gradOut). */
    const char *g_env = getenv("AB_GRAD_OFFSET"), *o_env = getenv("AB_OUT_OFFSET");
    const size_t grad_offset = g_env ? strtoul(g_env, NULL, 10) % 64 / 4 * 4 : 0;
    const size_t out_offset = o_env ? strtoul(o_env, NULL, 10) % 64 / 4 * 4 : 0; /* the same for out */
    const char *dt_env = getenv("AB_DTYPE");
    const bool bf16 = dt_env && strcmp(dt_env, "bfloat16") == 0;
    const bool half = bf16 || (dt_env && strcmp(dt_env, "float16") == 0);
    const aclDataType dtype = bf16 ? ACL_BF16 : half ? ACL_FLOAT16 : ACL_FLOAT;
    const size_t item = half ? 2 : 4;
    const int dims = axes + 2, first_lib = 2 * axes + 6; /* mode, N C, input and output extents, ALIGN CALLS */
    if (!axes || argc < first_lib + 1 || argc - first_lib > MAX_BUILDS) {
        fprintf(stderr,
                "usage: %s 1d|2d|3d|resize|nearest N C [D] [H] W [OD] [OH] OW ALIGN CALLS lib.so... (at most %d "
                "builds)\n",
                argv[0], MAX_BUILDS);
        return 2;
    }
    int64_t v[10], in_shape[5], g_shape[5], out_size[3];
    for (int i = 0; i < 2 * axes + 2; i++)
        v[i] = atoll(argv[i + 2]);
    const bool align = atoi(argv[first_lib - 2]) != 0;
    const int calls = atoi(argv[first_lib - 1]) > 0 ? atoi(argv[first_lib - 1]) : 1;
    size_t g_count = 1, in_count = 1;
    for (int i = 0; i < dims; i++) {
        in_shape[i] = v[i];
        g_shape[i] = i < 2 ? v[i] : v[i + axes];
        if (i >= 2)
            out_size[i - 2] = g_shape[i];
        if (in_shape[i] <= 0 || g_shape[i] <= 0)
            return fprintf(stderr, "shapes must be positive\n"), 2;
        g_count *= (size_t)g_shape[i], in_count *= (size_t)in_shape[i];
    }
    const size_t host_count = g_count > in_count ? g_count : in_count;
    float *host = malloc(host_count * sizeof *host);
    uint16_t *host16 = malloc(host_count * sizeof *host16);
    build *builds = calloc((size_t)(argc - first_lib), sizeof *builds);
    if (!host || !host16 || !builds)
        return fprintf(stderr, "out of memory\n"), 1;
    for (size_t i = 0; i < host_count; i++)
        host[i] = (float)(i % 251) * 0.01f - 1.0f, host16[i] = bf16 ? bf16_bits(host[i]) : half_bits(host[i]);
    const void *src = half ? (const void *)host16 : (const void *)host;
    const aclFormat fmt = axes == 1 ? ACL_FORMAT_NCL : axes == 2 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
    const int nb = argc - first_lib;
    for (int k = 0; k < nb; k++) {
        build *b = &builds[k];
        b->path = argv[first_lib + k];
        void *lib = dlopen(b->path, RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            return fprintf(stderr, "%s\n", dlerror()), 1;
        b->init = (__typeof__(b->init))need(lib, b->path, "aclInit");
        b->set_device = (__typeof__(b->set_device))need(lib, b->path, "aclrtSetDevice");
        b->malloc_ = (__typeof__(b->malloc_))need(lib, b->path, "aclrtMalloc");
        b->memcpy_ = (__typeof__(b->memcpy_))need(lib, b->path, "aclrtMemcpy");
        b->sync = (__typeof__(b->sync))need(lib, b->path, "aclrtSynchronizeStream");
        b->tensor = (__typeof__(b->tensor))need(lib, b->path, "aclCreateTensor");
        b->int_array = (__typeof__(b->int_array))need(lib, b->path, "aclCreateIntArray");
        b->float_array = (__typeof__(b->float_array))need(lib, b->path, "aclCreateFloatArray");
        b->ws1 = (__typeof__(b->ws1))need(lib, b->path, "aclnnUpsampleLinear1dBackwardGetWorkspaceSize");
        b->run1 = (__typeof__(b->run1))need(lib, b->path, "aclnnUpsampleLinear1dBackward");
        /* bfloat16: V2, the 2-D backward that takes it (V1's signature) */
        b->ws2 = (__typeof__(b->ws2))need(lib, b->path, bf16 ? "aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize"
                                                             : "aclnnUpsampleBilinear2dBackwardGetWorkspaceSize");
        b->run2 = (__typeof__(b->run2))need(lib, b->path, bf16 ? "aclnnUpsampleBilinear2dBackwardV2"
                                                               : "aclnnUpsampleBilinear2dBackward");
        b->ws3 = (__typeof__(b->ws3))need(lib, b->path, "aclnnUpsampleTrilinear3dBackwardGetWorkspaceSize");
        b->run3 = (__typeof__(b->run3))need(lib, b->path, "aclnnUpsampleTrilinear3dBackward");
        b->ws_resize = (__typeof__(b->ws_resize))need(lib, b->path, "aclnnResizeGetWorkspaceSize");
        b->run_resize = (__typeof__(b->run_resize))need(lib, b->path, "aclnnResize");
        b->ws_nearest = (__typeof__(b->ws_nearest))need(lib, b->path, "aclnnUpsampleNearest2dBackwardGetWorkspaceSize");
        b->run_nearest = (__typeof__(b->run_nearest))need(lib, b->path, "aclnnUpsampleNearest2dBackward");
        void *g_block = NULL, *o_block = NULL; /* a line more than the data, for the offsets */
        if (b->init(NULL) || b->set_device(0) || b->malloc_(&g_block, g_count * item + 64, ACL_MEM_MALLOC_HUGE_FIRST) ||
            b->malloc_(&o_block, in_count * item + 64, ACL_MEM_MALLOC_HUGE_FIRST))
            return fprintf(stderr, "%s: runtime set-up failed\n", b->path), 1;
        void *g = (char *)g_block + grad_offset, *o = (char *)o_block + out_offset;
        if (b->memcpy_(g, g_count * item, src, g_count * item, ACL_MEMCPY_HOST_TO_DEVICE) ||
            b->memcpy_(o, in_count * item, src, in_count * item, ACL_MEMCPY_HOST_TO_DEVICE))
            return fprintf(stderr, "%s: runtime set-up failed\n", b->path), 1;
        b->grad = b->tensor(g_shape, (uint64_t)dims, dtype, NULL, 0, fmt, g_shape, (uint64_t)dims, g);
        b->out = b->tensor(in_shape, (uint64_t)dims, dtype, NULL, 0, fmt, in_shape, (uint64_t)dims, o);
        b->out_size = b->int_array(out_size, (uint64_t)axes);
        b->in_size = b->int_array(in_shape, (uint64_t)dims);
        if (resize) {
            const float scales[4] = {1.0f, 1.0f, (float)g_shape[2] / (float)in_shape[2],
                                     (float)g_shape[3] / (float)in_shape[3]};
            b->scales = b->float_array(scales, 4);
        }
        b->ms = malloc((size_t)calls * sizeof *b->ms);
        if (!b->grad || !b->out || !b->out_size || !b->in_size || (resize && !b->scales) || !b->ms)
            return fprintf(stderr, "%s: tensors not created\n", b->path), 1;
    }
    for (int r = -2; r < calls; r++) /* two warm-up rounds */
        for (int k = 0; k < nb; k++) {
            const double t0 = now_ms();
            const int st = call(&builds[k], axes, align, resize, nearest);
            if (st)
                return fprintf(stderr, "%s: status %d\n", builds[k].path, st), 1;
            if (r >= 0)
                builds[k].ms[r] = now_ms() - t0;
        }
    for (int k = 0; k < nb; k++) {
        qsort(builds[k].ms, (size_t)calls, sizeof(double), by_value);
        printf("%-32s min %7.2f  q1 %7.2f  median %7.2f ms\n", builds[k].path, builds[k].ms[0],
               builds[k].ms[calls / 4], builds[k].ms[calls / 2]);
    }
    return 0;
}
