/*
 * Concurrency and lifecycle: 8 host threads, each with its own stream, run
 * both operators interleaved; results must be bitwise equal to a
 * single-threaded run. Then a stream is destroyed with work pending, and
 * aclFinalize is called with work pending: both wait, then release.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_roi_align_v2_backward.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"

#define THREADS 8
#define ROUNDS 6
#define N 2
#define C 8
#define H 24
#define W 20
#define OH 37
#define OW 41
#define K 16
#define PH 5
#define PW 4

typedef struct job {
    float *up_result;  /* N*C*H*W */
    float *roi_result; /* N*C*H*W */
    int failures;
} job;

static float grad_up[N * C * OH * OW], grad_roi[K * C * PH * PW], boxes[K * 5];

static aclTensor *tensor(void *dev, const int64_t *shape, uint64_t nd, aclFormat fmt)
{
    return aclCreateTensor(shape, nd, ACL_FLOAT, NULL, 0, fmt, shape, nd, dev);
}

static void *device_copy(const void *host, size_t bytes)
{
    void *p = NULL;
    if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
        return NULL;
    if (host)
        aclrtMemcpy(p, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    return p;
}

/* The workspace of this host thread's operators: one buffer for both (on one
 * stream they run one after the other), grown only when nothing is pending. */
static _Thread_local void *tl_ws;
static _Thread_local uint64_t tl_ws_size;

static void *workspace(uint64_t need)
{
    if (need > tl_ws_size) {
        if (tl_ws) {
            aclrtSynchronizeDevice();
            aclrtFree(tl_ws);
        }
        tl_ws = NULL;
        tl_ws_size = aclrtMalloc(&tl_ws, need, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS ? need : 0;
    }
    return tl_ws;
}

/* Enqueues both operators on stream into up_dev / roi_dev. */
static int enqueue_both(aclrtStream stream, void *gup, void *groi, void *bx, void *up_dev, void *roi_dev)
{
    int64_t gshape[4] = {N, C, OH, OW}, ishape[4] = {N, C, H, W}, osize[2] = {OH, OW};
    int64_t rshape[4] = {K, C, PH, PW}, bshape[2] = {K, 5};
    aclTensor *tg = tensor(gup, gshape, 4, ACL_FORMAT_NCHW), *to = tensor(up_dev, ishape, 4, ACL_FORMAT_NCHW);
    aclTensor *tr = tensor(groi, rshape, 4, ACL_FORMAT_NCHW), *tb = tensor(bx, bshape, 2, ACL_FORMAT_ND);
    aclTensor *ti = tensor(roi_dev, ishape, 4, ACL_FORMAT_NCHW);
    aclIntArray *os = aclCreateIntArray(osize, 2), *is = aclCreateIntArray(ishape, 4);
    uint64_t ws_up = 0, ws_roi = 0;
    aclOpExecutor *ex_up = NULL, *ex_roi = NULL;
    int bad = 0;
    bad |= aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(tg, os, is, false, 0.0, 0.0, to, &ws_up, &ex_up) != 0;
    bad |= aclnnRoiAlignV2BackwardGetWorkspaceSize(tr, tb, is, PH, PW, 0.5f, 0, true, ti, &ws_roi, &ex_roi) != 0;
    void *ws = workspace(ws_up > ws_roi ? ws_up : ws_roi);
    bad |= !ws || aclnnUpsampleBilinear2dBackwardV2(ws, ws_up, ex_up, stream) != 0;
    bad |= !ws || aclnnRoiAlignV2Backward(ws, ws_roi, ex_roi, stream) != 0;
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyTensor(tr);
    aclDestroyTensor(tb);
    aclDestroyTensor(ti);
    aclDestroyIntArray(os);
    aclDestroyIntArray(is);
    return bad;
}

static const size_t OUT_BYTES = sizeof(float) * N * C * H * W;

static void *worker(void *arg)
{
    job *j = arg;
    aclrtStream stream;
    if (aclrtSetDevice(0) || aclrtCreateStream(&stream)) {
        j->failures++;
        return NULL;
    }
    void *gup = device_copy(grad_up, sizeof grad_up), *groi = device_copy(grad_roi, sizeof grad_roi);
    void *bx = device_copy(boxes, sizeof boxes), *up = device_copy(NULL, OUT_BYTES), *roi = device_copy(NULL, OUT_BYTES);
    float *host = malloc(OUT_BYTES);
    for (int r = 0; r < ROUNDS; r++) {
        j->failures += enqueue_both(stream, gup, groi, bx, up, roi);
        j->failures += aclrtSynchronizeStream(stream) != ACL_SUCCESS;
        aclrtMemcpy(host, OUT_BYTES, up, OUT_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        j->failures += memcmp(host, j->up_result, OUT_BYTES) != 0;
        aclrtMemcpy(host, OUT_BYTES, roi, OUT_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
        j->failures += memcmp(host, j->roi_result, OUT_BYTES) != 0;
    }
    free(host);
    aclrtFree(gup);
    aclrtFree(groi);
    aclrtFree(bx);
    aclrtFree(up);
    aclrtFree(roi);
    if (tl_ws)
        aclrtFree(tl_ws); /* everything that used it was synchronised above */
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    return NULL;
}

int main(void)
{
    srand(7);
    for (size_t i = 0; i < sizeof grad_up / sizeof *grad_up; i++)
        grad_up[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    for (size_t i = 0; i < sizeof grad_roi / sizeof *grad_roi; i++)
        grad_roi[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    for (int k = 0; k < K; k++) {
        float x1 = (float)(rand() % 30) - 5, y1 = (float)(rand() % 30) - 5;
        float b[5] = {(float)(k % N), x1, y1, x1 + 4 + rand() % 20, y1 + 4 + rand() % 20};
        memcpy(&boxes[k * 5], b, sizeof b);
    }
    if (aclInit(NULL) || aclrtSetDevice(0))
        return 1;

    /* Reference results: one thread, default stream. */
    float *up_ref = malloc(OUT_BYTES), *roi_ref = malloc(OUT_BYTES);
    void *gup = device_copy(grad_up, sizeof grad_up), *groi = device_copy(grad_roi, sizeof grad_roi);
    void *bx = device_copy(boxes, sizeof boxes), *up = device_copy(NULL, OUT_BYTES), *roi = device_copy(NULL, OUT_BYTES);
    int failures = enqueue_both(NULL, gup, groi, bx, up, roi);
    failures += aclrtSynchronizeStream(NULL) != ACL_SUCCESS;
    aclrtMemcpy(up_ref, OUT_BYTES, up, OUT_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(roi_ref, OUT_BYTES, roi, OUT_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);

    pthread_t th[THREADS];
    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (job){up_ref, roi_ref, 0};
        pthread_create(&th[i], NULL, worker, &jobs[i]);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        failures += jobs[i].failures;
    }
    printf("8 threads x %d rounds, bitwise equal to one thread: %s\n", ROUNDS, failures ? "FAILED" : "OK");

    /* Destroying a stream with pending work waits for it. */
    aclrtStream s;
    aclrtCreateStream(&s);
    memset(up_ref, 0, OUT_BYTES);
    aclrtMemcpy(up, OUT_BYTES, up_ref, OUT_BYTES, ACL_MEMCPY_HOST_TO_DEVICE);
    failures += enqueue_both(s, gup, groi, bx, up, roi);
    failures += aclrtDestroyStream(s) != ACL_SUCCESS;
    float *host = malloc(OUT_BYTES);
    aclrtMemcpy(host, OUT_BYTES, roi, OUT_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
    int destroy_ok = memcmp(host, roi_ref, OUT_BYTES) == 0;
    printf("destroy with pending work waits: %s\n", destroy_ok ? "OK" : "FAILED");
    failures += !destroy_ok;

    /* aclFinalize with work pending on the default stream: it waits, then releases
     * the device memory still allocated (and reports it as leaked). */
    for (int r = 0; r < 4; r++)
        failures += enqueue_both(NULL, gup, groi, bx, up, roi);
    failures += aclFinalize() != ACL_SUCCESS;
    free(host);
    free(up_ref);
    free(roi_ref);
    printf("%s\n", failures ? "FAILED" : "all OK");
    return failures ? 1 : 0;
}
