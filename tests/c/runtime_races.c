/*
 * The runtime's new blocking primitives under concurrency (ThreadSanitizer
 * watches this in the "concurrency" suite): four senders and four receivers
 * racing on one tdt channel of capacity 2; value waits on two streams released
 * by writes from a third stream and from another host thread's stream;
 * captures on two streams from two threads, each replayed from the other.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "expect.h"

#define PER_THREAD 200
#define THREADS 4

static acltdtChannelHandle *channel;
static int received[THREADS * PER_THREAD];
static pthread_mutex_t received_mu = PTHREAD_MUTEX_INITIALIZER;

static void *sender(void *arg)
{
    int k = (int)(intptr_t)arg;
    aclrtSetDevice(0);
    for (int i = 0; i < PER_THREAD; i++) {
        int32_t value = k * PER_THREAD + i;
        int64_t dims[1] = {1};
        acltdtDataItem *item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, &value, 4);
        acltdtDataset *ds = acltdtCreateDataset();
        acltdtAddDataItem(ds, item);
        if (acltdtSendTensor(channel, ds, -1) != 0)
            ok(0, "send");
        acltdtDestroyDataItem(item);
        acltdtDestroyDataset(ds);
    }
    return NULL;
}

static void *receiver(void *arg)
{
    (void)arg;
    aclrtSetDevice(0);
    acltdtDataset *ds = acltdtCreateDataset();
    for (int i = 0; i < PER_THREAD; i++) {
        if (acltdtReceiveTensor(channel, ds, 30000) != 0) {
            ok(0, "receive");
            break;
        }
        int32_t value;
        memcpy(&value, acltdtGetDataAddrFromItem(acltdtGetDataItem(ds, 0)), 4);
        pthread_mutex_lock(&received_mu);
        if (value >= 0 && value < THREADS * PER_THREAD)
            received[value]++;
        pthread_mutex_unlock(&received_mu);
    }
    acltdtDestroyDataset(ds);
    return NULL;
}

static void channel_race(void)
{
    channel = acltdtCreateChannelWithCapacity(0, "race", 2);
    ok(channel != NULL, "channel");
    pthread_t t[2 * THREADS];
    for (int i = 0; i < THREADS; i++) {
        pthread_create(&t[i], NULL, sender, (void *)(intptr_t)i);
        pthread_create(&t[THREADS + i], NULL, receiver, NULL);
    }
    for (int i = 0; i < 2 * THREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS * PER_THREAD; i++)
        ok(received[i] == 1, "every dataset received once");
    expect(acltdtDestroyChannel(channel), 0, NULL, "destroy channel");
}

/* Another host thread releases a wait with a value write on a stream of its own. */
static void *host_writer(void *arg)
{
    struct timespec nap = {0, 2000000};
    nanosleep(&nap, NULL);
    aclrtSetDevice(0);
    aclrtStream s;
    aclrtCreateStream(&s);
    expect(aclrtValueWrite(arg, 1, 0, s), 0, NULL, "write from another thread");
    aclrtSynchronizeStream(s);
    aclrtDestroyStream(s);
    return NULL;
}

static void value_waits(void)
{
    aclrtStream a, b, c;
    aclrtCreateStream(&a), aclrtCreateStream(&b), aclrtCreateStream(&c);
    void *flags;
    expect(aclrtMalloc(&flags, 16, ACL_MEM_MALLOC_HUGE_FIRST), 0, NULL, "malloc");
    expect(aclrtMemset(flags, 16, 0, 16), 0, NULL, "clear"); /* before any wait exists */
    for (int round = 0; round < 50; round++) {
        uint64_t want = (uint64_t)round + 1;
        expect(aclrtValueWait(flags, want, ACL_STREAM_WAIT_VALUE_GEQ, a), 0, NULL, "wait a");
        expect(aclrtValueWait((char *)flags + 8, 1, ACL_STREAM_WAIT_VALUE_EQ, b), 0, NULL, "wait b");
        expect(aclrtValueWrite(flags, want, 0, c), 0, NULL, "write c");
        pthread_t t;
        pthread_create(&t, NULL, host_writer, (char *)flags + 8);
        expect(aclrtSynchronizeStream(a), 0, NULL, "sync a");
        expect(aclrtSynchronizeStream(b), 0, NULL, "sync b");
        pthread_join(t, NULL);
        expect(aclrtValueWrite((char *)flags + 8, 0, 0, c), 0, NULL, "re-arm");
        expect(aclrtSynchronizeStream(c), 0, NULL, "sync re-arm");
    }
    expect(aclrtSynchronizeStream(c), 0, NULL, "sync c");
    aclrtFree(flags);
    aclrtDestroyStream(a), aclrtDestroyStream(b), aclrtDestroyStream(c);
}

/* Each thread captures a reduce into its own model and replays the other thread's on its own stream (two
 * streams replaying one model would race on its sum, as two CUDA streams would). */
static aclmdlRI models[2];
static float *sums[2];
static pthread_barrier_t captured;

static void *capture_and_replay(void *arg)
{
    int k = (int)(intptr_t)arg;
    aclrtSetDevice(0);
    aclrtStream cap, run;
    aclrtCreateStream(&cap), aclrtCreateStream(&run);
    void *one;
    float ones[4] = {1, 1, 1, 1};
    aclrtMalloc(&one, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(one, 16, ones, 16, ACL_MEMCPY_HOST_TO_DEVICE);
    expect(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), 0, NULL, "capture");
    expect(aclrtReduceAsync(sums[k], one, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, cap, NULL), 0, NULL,
           "reduce");
    expect(aclmdlRICaptureEnd(cap, &models[k]), 0, NULL, "capture end");
    pthread_barrier_wait(&captured);
    for (int i = 0; i < 20; i++)
        aclmdlRIExecuteAsync(models[1 - k], run);
    expect(aclrtSynchronizeStream(run), 0, NULL, "replays");
    pthread_barrier_wait(&captured);
    aclrtFree(one);
    aclrtDestroyStream(cap), aclrtDestroyStream(run);
    return NULL;
}

static void capture_race(void)
{
    for (int k = 0; k < 2; k++) {
        aclrtMalloc((void **)&sums[k], 16, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemset(sums[k], 16, 0, 16);
    }
    pthread_barrier_init(&captured, NULL, 2);
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        pthread_create(&t[k], NULL, capture_and_replay, (void *)(intptr_t)k);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    pthread_barrier_destroy(&captured);
    for (int k = 0; k < 2; k++) {
        float host[4];
        aclrtMemcpy(host, 16, sums[k], 16, ACL_MEMCPY_DEVICE_TO_HOST);
        ok(host[0] == 20 && host[3] == 20, "each model ran 20 times from the other thread");
        expect(aclmdlRIDestroy(models[k]), 0, NULL, "destroy model");
        aclrtFree(sums[k]);
    }
}

int main(void)
{
    if (aclInit(NULL) != 0 || aclrtSetDevice(0) != 0)
        return 1;
    channel_race();
    value_waits();
    capture_race();
    aclrtResetDevice(0);
    aclFinalize();
    if (fails)
        printf("%d check(s) failed\n", fails);
    return fails != 0;
}
