/*
 * T1 of spec/performance.md: one full C call cycle on a 1x1x2x2 upsample
 * (create tensors and arrays, phase one, phase two, synchronize, destroy).
 * Prints the median over batches, in microseconds per cycle.
 *
 *   cc -O2 bench/overhead.c $(aclnn-emu config --cflags --libs) -o overhead && ./overhead
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    if (aclInit(NULL) || aclrtSetDevice(0))
        return 1;
    aclrtStream stream;
    aclrtCreateStream(&stream);
    void *g, *o;
    aclrtMalloc(&g, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&o, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(g, 64, 0, 64);
    int64_t gs[4] = {1, 1, 2, 2}, os[4] = {1, 1, 1, 1}, osize[2] = {2, 2};
    enum { BATCHES = 9, CYCLES = 2000 };
    double per[BATCHES];
    void *wsp = NULL;
    uint64_t ws_size = 0;
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now();
        for (int i = 0; i < CYCLES; i++) {
            aclTensor *tg = aclCreateTensor(gs, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, gs, 4, g);
            aclTensor *to = aclCreateTensor(os, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, os, 4, o);
            aclIntArray *a = aclCreateIntArray(osize, 2), *in = aclCreateIntArray(os, 4);
            uint64_t ws;
            aclOpExecutor *ex;
            if (aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(tg, a, in, false, 0, 0, to, &ws, &ex))
                return 2;
            if (ws > ws_size) { /* allocated once, as a real program keeps its workspace */
                if (wsp)
                    aclrtFree(wsp);
                if (aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST))
                    return 3;
                ws_size = ws;
            }
            if (aclnnUpsampleBilinear2dBackwardV2(wsp, ws, ex, stream) || aclrtSynchronizeStream(stream))
                return 2;
            aclDestroyTensor(tg);
            aclDestroyTensor(to);
            aclDestroyIntArray(a);
            aclDestroyIntArray(in);
        }
        per[b] = (now() - t0) / CYCLES;
    }
    qsort(per, BATCHES, sizeof *per, cmp);
    printf("T1 full C call cycle (1x1x2x2 upsample): %.2f us median of %d batches of %d\n", 1e6 * per[BATCHES / 2],
           BATCHES, CYCLES);
    aclrtFree(g);
    aclrtFree(o);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    return aclFinalize();
}
