/*
 * A C host program written like CANN's published samples, running both
 * operators through the two-phase API on hand-computed cases.
 * Exit status 0 when every result matches.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_roi_align_v2_backward.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"

#define CHECK_RET(cond, ...)                   \
    do {                                       \
        if (!(cond)) {                         \
            printf(__VA_ARGS__);               \
            printf(" (%s)\n", aclGetRecentErrMsg()); \
            return 1;                          \
        }                                      \
    } while (0)

static int create_tensor(const float *host, const int64_t *shape, uint64_t nd, aclFormat fmt, void **dev,
                         aclTensor **t)
{
    int64_t n = 1, strides[8];
    for (uint64_t i = nd; i-- > 0;) {
        strides[i] = n;
        n *= shape[i];
    }
    size_t bytes = (size_t)n * sizeof(float);
    CHECK_RET(aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc failed");
    CHECK_RET(aclrtMemcpy(*dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy failed");
    *t = aclCreateTensor(shape, nd, ACL_FLOAT, strides, 0, fmt, shape, nd, *dev);
    CHECK_RET(*t != NULL, "aclCreateTensor failed");
    return 0;
}

/* Phase two as CANN's samples write it: the workspace phase one asked for, if any. */
static void *workspace_for(uint64_t size)
{
    void *ws = NULL;
    if (size > 0 && aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        return NULL;
    return ws;
}

static int upsample_seed(aclrtStream stream)
{
    float grad[36], result[9];
    for (int i = 0; i < 36; i++)
        grad[i] = 1.0f;
    int64_t gshape[4] = {1, 1, 6, 6}, oshape[4] = {1, 1, 3, 3}, osize[2] = {6, 6};
    void *gdev, *odev;
    aclTensor *g, *o;
    if (create_tensor(grad, gshape, 4, ACL_FORMAT_NCHW, &gdev, &g) || create_tensor(result, oshape, 4, ACL_FORMAT_NCHW, &odev, &o))
        return 1;
    aclIntArray *outputSize = aclCreateIntArray(osize, 2), *inputSize = aclCreateIntArray(oshape, 4);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    CHECK_RET(aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g, outputSize, inputSize, true, 2.0, 2.0, o, &ws,
                                                                &ex) == ACLNN_SUCCESS, "phase one failed");
    void *wsp = workspace_for(ws);
    CHECK_RET(aclnnUpsampleBilinear2dBackwardV2(wsp, ws, ex, stream) == ACLNN_SUCCESS, "phase two failed");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "synchronize failed");
    if (wsp)
        aclrtFree(wsp);
    CHECK_RET(aclrtMemcpy(result, sizeof result, odev, sizeof result, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "copy back failed");
    /* Hand-computed: per axis 6 -> 3 with alignCorners gives weights (1.8, 2.4, 1.8). */
    const double axis[3] = {1.8, 2.4, 1.8};
    int bad = 0;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++)
            bad |= fabs(result[y * 3 + x] - axis[y] * axis[x]) > 1e-5;
    printf("upsample seed example: %s\n", bad ? "MISMATCH" : "OK");
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyIntArray(outputSize);
    aclDestroyIntArray(inputSize);
    aclrtFree(gdev);
    aclrtFree(odev);
    return bad;
}

static int roi_center(aclrtStream stream)
{
    float grad[1] = {1.0f}, boxes[5] = {0, 0, 0, 4, 4}, result[16];
    int64_t gshape[4] = {1, 1, 1, 1}, bshape[2] = {1, 5}, ishape[4] = {1, 1, 4, 4};
    void *gdev, *bdev, *idev;
    aclTensor *g, *b, *gi;
    if (create_tensor(grad, gshape, 4, ACL_FORMAT_NCHW, &gdev, &g) || create_tensor(boxes, bshape, 2, ACL_FORMAT_ND, &bdev, &b) ||
        create_tensor(result, ishape, 4, ACL_FORMAT_NCHW, &idev, &gi))
        return 1;
    aclIntArray *inputShape = aclCreateIntArray(ishape, 4);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    CHECK_RET(aclnnRoiAlignV2BackwardGetWorkspaceSize(g, b, inputShape, 1, 1, 1.0f, 1, true, gi, &ws, &ex) ==
                  ACLNN_SUCCESS, "phase one failed");
    void *wsp = workspace_for(ws);
    CHECK_RET(aclnnRoiAlignV2Backward(wsp, ws, ex, stream) == ACLNN_SUCCESS, "phase two failed");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "synchronize failed");
    if (wsp)
        aclrtFree(wsp);
    CHECK_RET(aclrtMemcpy(result, sizeof result, idev, sizeof result, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "copy back failed");
    /* One sample at (1.5, 1.5): a quarter to each of the four centre pixels. */
    int bad = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            bad |= result[y * 4 + x] != ((y == 1 || y == 2) && (x == 1 || x == 2) ? 0.25f : 0.0f);
    printf("roi align centre sample: %s\n", bad ? "MISMATCH" : "OK");
    aclDestroyTensor(g);
    aclDestroyTensor(b);
    aclDestroyTensor(gi);
    aclDestroyIntArray(inputShape);
    aclrtFree(gdev);
    aclrtFree(bdev);
    aclrtFree(idev);
    return bad;
}

int main(void)
{
    aclrtStream stream = NULL;
    CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit failed");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice failed");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream failed");
    int bad = upsample_seed(stream) + roi_center(stream);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    CHECK_RET(aclFinalize() == ACL_SUCCESS, "aclFinalize reported leaks");
    return bad ? 1 : 0;
}
