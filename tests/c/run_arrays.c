/*
 * aclnnEmuRunArrays from several host threads on one repeatable executor
 * (ThreadSanitizer watches this in the "concurrency" suite): each thread
 * runs it on its own host arrays, on the default stream and on a stream of
 * its own, and checks every result against nearest upsampling by 2; its
 * registrations never outlive a run; a destroyed executor answers
 * ACLNN_EMU_PLAN_STALE.
 */
#include <pthread.h>
#include <stdint.h>

#include "acl/acl.h"
#include "aclnn_emu/aclnn_emu.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "expect.h"

#define THREADS 4
#define RUNS 300

static aclOpExecutor *executor;
static pthread_mutex_t fails_mu = PTHREAD_MUTEX_INITIALIZER;

static void *runner(void *arg)
{
    const int k = (int)(intptr_t)arg;
    aclrtSetDevice(0);
    aclrtStream own = NULL;
    aclrtCreateStream(&own);
    float in[16], out[64];
    int bad = 0;
    for (int r = 0; r < RUNS && !bad; r++) {
        for (int i = 0; i < 16; i++)
            in[i] = (float)(k * 100000 + r * 16 + i);
        void *addrs[2] = {in, out};
        uint64_t warned = 1;
        int st = aclnnEmuRunArrays(executor, addrs, 2, NULL, 0, r % 2 ? own : NULL, ACLNN_EMU_LAUNCH_BLOCKING, &warned);
        bad = st != 0 || warned != 0;
        for (int y = 0; y < 8 && !bad; y++)
            for (int x = 0; x < 8; x++)
                bad |= out[y * 8 + x] != in[(y / 2) * 4 + x / 2];
        bad |= aclrtHostUnregister(in) == 0; /* not registered after the run */
        aclGetRecentErrMsg();
    }
    aclrtDestroyStream(own);
    if (bad) {
        pthread_mutex_lock(&fails_mu);
        ok(0, "a thread's run");
        pthread_mutex_unlock(&fails_mu);
    }
    return NULL;
}

int main(void)
{
    aclnnEmuSetOption("ASCEND_GLOBAL_LOG_LEVEL", 4); /* the unregister probes fail on purpose: no log */
    if (aclInit(NULL) || aclrtSetDevice(0))
        return 1;
    float in[16] = {0}, out[64];
    int64_t in_dims[4] = {1, 1, 4, 4}, out_dims[4] = {1, 1, 8, 8}, size[2] = {8, 8};
    aclTensor *ti = aclCreateTensor(in_dims, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, in_dims, 4, in);
    aclTensor *to = aclCreateTensor(out_dims, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, out_dims, 4, out);
    aclIntArray *sizes = aclCreateIntArray(size, 2);
    uint64_t ws = 0;
    expect(aclnnUpsampleNearest2dGetWorkspaceSize(ti, sizes, to, &ws, &executor), 0, NULL, "phase one");
    expect(aclSetAclOpExecutorRepeatable(executor), 0, NULL, "repeatable");
    pthread_t t[THREADS];
    for (int k = 0; k < THREADS; k++)
        pthread_create(&t[k], NULL, runner, (void *)(intptr_t)k);
    for (int k = 0; k < THREADS; k++)
        pthread_join(t[k], NULL);
    void *addrs[2] = {in, out};
    expect(aclDestroyAclOpExecutor(executor), 0, NULL, "destroy");
    expect(aclnnEmuRunArrays(executor, addrs, 2, NULL, 0, NULL, 0, NULL), ACLNN_EMU_PLAN_STALE, "is gone",
           "a destroyed executor");
    aclDestroyTensor(ti);
    aclDestroyTensor(to);
    aclDestroyIntArray(sizes);
    aclrtResetDevice(0);
    aclFinalize();
    return fails != 0;
}
