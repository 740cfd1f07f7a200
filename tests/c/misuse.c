/*
 * Commits one host-code mistake, chosen by argv[1], and prints
 * "status=<code> msg=<aclGetRecentErrMsg>" for the call that should catch it.
 * tests/test_validation_mode.py runs every scenario in normal and strict mode.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_roi_align_v2_backward.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"

static int report(const char *what, int status)
{
    printf("%s status=%d msg=%s\n", what, status, aclGetRecentErrMsg());
    return status;
}

static void *dev_alloc(size_t bytes)
{
    void *p = NULL;
    if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        exit(90);
    aclrtMemset(p, bytes, 0, bytes);
    return p;
}

/* The workspace phase one asked for, allocated once as CANN's samples do
 * (freed after the last synchronisation, before aclFinalize). */
static void *g_ws;
static uint64_t g_ws_size;

static void ensure_workspace(uint64_t size)
{
    if (size <= g_ws_size)
        return;
    if (g_ws)
        aclrtFree(g_ws);
    if (aclrtMalloc(&g_ws, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        exit(94);
    g_ws_size = size;
}

static void release_workspace(void)
{
    aclrtSynchronizeDevice();
    if (g_ws)
        aclrtFree(g_ws);
    g_ws = NULL;
    g_ws_size = 0;
}

/* Phase one of a 1x1x4x4 -> 1x1x2x2 upsample backward over the given memory. */
static aclOpExecutor *upsample_plan(void *grad, void *out)
{
    int64_t gs[4] = {1, 1, 4, 4}, os[4] = {1, 1, 2, 2}, osize[2] = {4, 4};
    aclTensor *g = aclCreateTensor(gs, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, gs, 4, grad);
    aclTensor *o = aclCreateTensor(os, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, os, 4, out);
    aclIntArray *a = aclCreateIntArray(osize, 2), *b = aclCreateIntArray(os, 4);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    if (aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g, a, b, false, 0, 0, o, &ws, &ex) != 0)
        exit(91);
    ensure_workspace(ws);
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyIntArray(a);
    aclDestroyIntArray(b);
    return ex;
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "";
    if (!strcmp(s, "before_init")) {
        void *p;
        report("aclrtMalloc", aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        return 0;
    }
    if (aclInit(NULL))
        return 92;
    if (!strcmp(s, "no_device")) {
        aclrtStream st;
        report("aclrtCreateStream", aclrtCreateStream(&st));
        return 0;
    }
    if (aclrtSetDevice(0))
        return 93;
    float host_grad[16] = {0}, host[64];
    int rc = 0;

    if (!strcmp(s, "after_finalize")) {
        aclrtResetDevice(0);
        aclFinalize();
        void *p;
        report("aclrtMalloc", aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        return 0;
    } else if (!strcmp(s, "host_memory_as_device")) {
        void *out = dev_alloc(64);
        rc = report("launch", aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size, upsample_plan(host_grad, out), NULL));
        aclrtSynchronizeStream(NULL);
        aclrtFree(out);
    } else if (!strcmp(s, "view_past_block")) {
        void *grad = dev_alloc(32); /* 8 floats, the view needs 16 */
        void *out = dev_alloc(64);
        report("launch", aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size, upsample_plan(grad, out), NULL));
        aclrtFree(grad);
        aclrtFree(out);
    } else if (!strcmp(s, "unaligned_address")) {
        char *grad = dev_alloc(128);
        void *out = dev_alloc(64);
        report("launch", aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size, upsample_plan(grad + 4, out), NULL));
        aclrtSynchronizeStream(NULL);
        aclrtFree(grad);
        aclrtFree(out);
    } else if (!strcmp(s, "memcpy_kind_mismatch")) {
        float other[64];
        report("aclrtMemcpy", aclrtMemcpy(other, sizeof other, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
    } else if (!strcmp(s, "memcpy_count_over_destmax")) {
        void *d = dev_alloc(256);
        report("aclrtMemcpy", aclrtMemcpy(d, 16, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
        aclrtFree(d);
    } else if (!strcmp(s, "missing_sync")) {
        void *grad = dev_alloc(64), *out = dev_alloc(64);
        aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size, upsample_plan(grad, out), NULL);
        report("aclrtMemcpy", aclrtMemcpy(host, 16, out, 16, ACL_MEMCPY_DEVICE_TO_HOST));
        aclrtSynchronizeStream(NULL);
        /* After synchronising the same copy is fine. */
        report("after sync", aclrtMemcpy(host, 16, out, 16, ACL_MEMCPY_DEVICE_TO_HOST));
        aclrtFree(grad);
        aclrtFree(out);
    } else if (!strcmp(s, "free_in_use")) {
        void *grad = dev_alloc(64), *out = dev_alloc(64);
        aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size, upsample_plan(grad, out), NULL);
        int st = report("aclrtFree", aclrtFree(grad));
        aclrtSynchronizeStream(NULL);
        if (st != 0)
            aclrtFree(grad); /* strict mode refused the first free */
        aclrtFree(out);
    } else if (!strcmp(s, "executor_reuse")) {
        void *grad = dev_alloc(64), *out = dev_alloc(64);
        aclOpExecutor *ex = upsample_plan(grad, out);
        aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size, ex, NULL);
        report("second launch", aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size, ex, NULL));
        aclrtSynchronizeStream(NULL);
        aclrtFree(grad);
        aclrtFree(out);
    } else if (!strcmp(s, "null_executor")) {
        report("launch", aclnnUpsampleBilinear2dBackwardV2(NULL, 0, NULL, NULL));
    } else if (!strcmp(s, "null_workspace")) {
        /* A port that never allocates the workspace phase one reported: CANN's 161001, executor released. */
        void *grad = dev_alloc(64), *out = dev_alloc(64);
        aclOpExecutor *ex = upsample_plan(grad, out);
        printf("workspace size > 0: %d\n", g_ws_size > 0);
        report("launch", aclnnUpsampleBilinear2dBackwardV2(NULL, g_ws_size, ex, NULL));
        report("reuse", aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size, ex, NULL));
        aclrtFree(grad);
        aclrtFree(out);
    } else if (!strcmp(s, "small_workspace")) {
        void *grad = dev_alloc(64), *out = dev_alloc(64);
        aclOpExecutor *ex = upsample_plan(grad, out);
        report("launch", aclnnUpsampleBilinear2dBackwardV2(g_ws, g_ws_size - 1, ex, NULL));
        aclrtFree(grad);
        aclrtFree(out);
    } else if (!strcmp(s, "stale_tensor")) {
        int64_t d[1] = {4};
        aclTensor *t = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, NULL);
        aclDestroyTensor(t);
        report("aclDestroyTensor", aclDestroyTensor(t));
    } else if (!strcmp(s, "bad_boxes")) {
        float boxes_h[10] = {0, 1, 1, 3, 3, 5, 1, 1, 3, 3}; /* box 1: image 5 of 1 */
        float grad_h[2] = {1, 1};
        void *g = dev_alloc(64), *b = dev_alloc(64), *gi = dev_alloc(64);
        aclrtMemcpy(g, 64, grad_h, sizeof grad_h, ACL_MEMCPY_HOST_TO_DEVICE);
        aclrtMemcpy(b, 64, boxes_h, sizeof boxes_h, ACL_MEMCPY_HOST_TO_DEVICE);
        int64_t gs[4] = {2, 1, 1, 1}, bs[2] = {2, 5}, is[4] = {1, 1, 4, 4};
        aclTensor *tg = aclCreateTensor(gs, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, gs, 4, g);
        aclTensor *tb = aclCreateTensor(bs, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, bs, 2, b);
        aclTensor *ti = aclCreateTensor(is, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, is, 4, gi);
        aclIntArray *shape = aclCreateIntArray(is, 4);
        uint64_t ws;
        aclOpExecutor *ex;
        aclnnRoiAlignV2BackwardGetWorkspaceSize(tg, tb, shape, 1, 1, 1.0f, 1, false, ti, &ws, &ex);
        ensure_workspace(ws);
        report("launch", aclnnRoiAlignV2Backward(g_ws, g_ws_size, ex, NULL));
        report("aclrtSynchronizeStream", aclrtSynchronizeStream(NULL));
        aclDestroyTensor(tg);
        aclDestroyTensor(tb);
        aclDestroyTensor(ti);
        aclDestroyIntArray(shape);
        aclrtFree(g);
        aclrtFree(b);
        aclrtFree(gi);
    } else if (!strcmp(s, "uninitialised_memory")) {
        float *p = NULL;
        aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
        float first;
        aclrtMemcpy(&first, sizeof first, p, sizeof first, ACL_MEMCPY_DEVICE_TO_HOST);
        printf("fresh memory is NaN: %d\n", isnan(first) ? 1 : 0);
        aclrtFree(p);
    } else if (!strcmp(s, "leak")) {
        int64_t d[1] = {4};
        void *p = dev_alloc(128);
        aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, p);
        aclCreateIntArray(d, 1);
        aclrtStream st;
        aclrtCreateStream(&st);
        aclrtResetDevice(0);
        report("aclFinalize", aclFinalize());
        return 0;
    } else {
        printf("unknown scenario %s\n", s);
        return 2;
    }
    (void)rc;
    release_workspace();
    aclrtResetDevice(0);
    report("aclFinalize", aclFinalize());
    return 0;
}
