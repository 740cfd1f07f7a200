/*
 * One aclnnUpsampleBilinear2dBackward call on a workload of
 * spec/performance.md, on one thread, for cache simulation: valgrind's
 * cachegrind replays it with another machine's cache geometry
 * (bench/cachegrind.sh), which shows what a blocking change does to the
 * misses on a machine one cannot run.
 *
 *   cc -O2 bench/upsample_once.c $(aclnn-emu config --cflags --libs) -o upsample_once
 *   ./upsample_once N C H W OH OW [ALIGN]        (U1: 8 64 128 128 256 256)
 *   AB_DTYPE=float16 ./upsample_once ...            (both tensors FLOAT16, U5's; default FLOAT)
 *
 * Copyright 2026 The aclnn-emu authors. SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward.h"

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: %s N C H W OH OW [ALIGN]\n", argv[0]);
        return 2;
    }
    int64_t v[6];
    for (int i = 0; i < 6; i++)
        v[i] = atoll(argv[i + 1]);
    const bool align = argc > 7 && atoi(argv[7]) != 0;
    int64_t gshape[4] = {v[0], v[1], v[4], v[5]}, oshape[4] = {v[0], v[1], v[2], v[3]}, osize[2] = {v[4], v[5]};
    const char *dtype = getenv("AB_DTYPE");
    const bool f16 = dtype && strcmp(dtype, "float16") == 0;
    const aclDataType dt = f16 ? ACL_FLOAT16 : ACL_FLOAT;
    const size_t item = f16 ? 2 : sizeof(float);
    const size_t gbytes = (size_t)(v[0] * v[1] * v[4] * v[5]) * item;
    const size_t obytes = (size_t)(v[0] * v[1] * v[2] * v[3]) * item;
    if (aclInit(NULL) || aclrtSetDevice(0))
        return 1;
    aclrtStream stream;
    void *g, *o;
    if (aclrtCreateStream(&stream) || aclrtMalloc(&g, gbytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc(&o, obytes, ACL_MEM_MALLOC_HUGE_FIRST))
        return 1;
    void *host = malloc(gbytes);
    if (!host)
        return 1;
    for (size_t i = 0; i < gbytes / item; i++) {
        if (f16)
            ((uint16_t *)host)[i] = (uint16_t)(0x2000 + i % 251); /* small normal float16 values */
        else
            ((float *)host)[i] = (float)(i % 251) * 0.01f;
    }
    aclrtMemcpy(g, gbytes, host, gbytes, ACL_MEMCPY_HOST_TO_DEVICE);
    free(host);
    aclTensor *tg = aclCreateTensor(gshape, 4, dt, NULL, 0, ACL_FORMAT_NCHW, gshape, 4, g);
    aclTensor *to = aclCreateTensor(oshape, 4, dt, NULL, 0, ACL_FORMAT_NCHW, oshape, 4, o);
    aclIntArray *out_size = aclCreateIntArray(osize, 2), *in_size = aclCreateIntArray(oshape, 4);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int st = aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(tg, out_size, in_size, align, 0.0, 0.0, to, &ws, &ex);
    void *wsp = NULL;
    if (!st && ws)
        st = aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!st)
        st = aclnnUpsampleBilinear2dBackward(wsp, ws, ex, stream);
    if (!st)
        st = aclrtSynchronizeStream(stream);
    if (st)
        fprintf(stderr, "failed: %d %s\n", st, aclGetRecentErrMsg());
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyIntArray(out_size);
    aclDestroyIntArray(in_size);
    aclrtFree(wsp);
    aclrtFree(g);
    aclrtFree(o);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return st != 0;
}
