// Example: one training step of RoIAlign, written the way CANN's published
// samples are: the forward aclnnRoiAlignV2, then the backward
// aclnnRoiAlignV2Backward of the same boxes on the same stream. It checks
// the forward against a double-precision loop over every sample
// (torchvision's formula, with a fixed sample count where CANN agrees with
// it) and the backward against the forward (<F(x), g> == <x, B(g)>), and
// exits non-zero on a mismatch.
//
// Build against the emulator:  g++ $(aclnn-emu config --cflags --libs) roi_align_v2.cpp
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_roi_align_v2.h"
#include "aclnnop/aclnn_roi_align_v2_backward.h"

#define CHECK_RET(cond, return_expr) \
    do {                             \
        if (!(cond)) {               \
            return_expr;             \
        }                            \
    } while (0)

#define LOG_PRINT(message, ...)         \
    do {                                \
        printf(message, ##__VA_ARGS__); \
    } while (0)

struct DeviceTensor {
    void* addr = nullptr;
    aclTensor* tensor = nullptr;
    int64_t size = 0;
};

static int Make(const std::vector<float>& host, const std::vector<int64_t>& shape, aclFormat format, DeviceTensor* t)
{
    t->size = 1;
    for (auto d : shape) t->size *= d;
    auto bytes = t->size * sizeof(float);
    auto ret = aclrtMalloc(&t->addr, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(t->addr, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = shape.size() - 2; i >= 0; i--) strides[i] = shape[i + 1] * strides[i + 1];
    t->tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, format, shape.data(),
                                shape.size(), t->addr);
    return 0;
}

static std::vector<float> Fetch(const DeviceTensor& t)
{
    std::vector<float> host(t.size);
    aclrtMemcpy(host.data(), t.size * sizeof(float), t.addr, t.size * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    return host;
}

static void Free(DeviceTensor* t)
{
    aclDestroyTensor(t->tensor);
    aclrtFree(t->addr);
}

template <typename Launch>
static int Run(uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream, Launch launch, const char* name)
{
    void* workspace = nullptr;
    if (workspaceSize > 0) {
        auto ret = aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    auto ret = launch(workspace, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("%s failed. ERROR: %d\n", name, ret); return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d (%s)\n", ret,
                                            aclGetRecentErrMsg()); return ret);
    if (workspace != nullptr) aclrtFree(workspace);
    return 0;
}

// torchvision's bilinear sample of one plane, in double.
static double Bilinear(const float* plane, int64_t H, int64_t W, double y, double x)
{
    if (y < -1.0 || y > H || x < -1.0 || x > W) return 0.0;
    y = std::min(std::max(y, 0.0), double(H - 1));
    x = std::min(std::max(x, 0.0), double(W - 1));
    int64_t yl = int64_t(std::floor(y)), xl = int64_t(std::floor(x));
    int64_t yh = std::min(yl + 1, H - 1), xh = std::min(xl + 1, W - 1);
    double ly = y - yl, lx = x - xl;
    return (1 - ly) * ((1 - lx) * plane[yl * W + xl] + lx * plane[yl * W + xh]) +
           ly * ((1 - lx) * plane[yh * W + xl] + lx * plane[yh * W + xh]);
}

int main()
{
    const int64_t B = 2, C = 3, H = 16, W = 16, K = 6, PH = 2, PW = 2, RATIO = 2;
    const float SCALE = 0.5f;
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(&stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);

    std::vector<float> xHost(B * C * H * W), gHost(K * C * PH * PW), boxHost;
    for (size_t i = 0; i < xHost.size(); i++) xHost[i] = float((i * 37) % 17) - 8.0f;
    for (size_t i = 0; i < gHost.size(); i++) gHost[i] = float((i * 13) % 7) - 3.0f;
    for (int64_t k = 0; k < K; k++) {  // (image, x1, y1, x2, y2) in image coordinates
        float x1 = float((k * 5) % 13), y1 = float((k * 3) % 11);
        boxHost.insert(boxHost.end(), {float(k % B), x1, y1, x1 + 6.0f + k, y1 + 4.0f + 2 * k});
    }
    DeviceTensor x, boxes, y, g, gx;
    CHECK_RET(Make(xHost, {B, C, H, W}, ACL_FORMAT_NCHW, &x) == 0, return 1);
    CHECK_RET(Make(boxHost, {K, 5}, ACL_FORMAT_ND, &boxes) == 0, return 1);
    CHECK_RET(Make(std::vector<float>(K * C * PH * PW), {K, C, PH, PW}, ACL_FORMAT_NCHW, &y) == 0, return 1);
    CHECK_RET(Make(gHost, {K, C, PH, PW}, ACL_FORMAT_NCHW, &g) == 0, return 1);
    CHECK_RET(Make(std::vector<float>(B * C * H * W), {B, C, H, W}, ACL_FORMAT_NCHW, &gx) == 0, return 1);
    int64_t inputShapeData[] = {B, C, H, W};
    aclIntArray* inputShape = aclCreateIntArray(inputShapeData, 4);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ret = aclnnRoiAlignV2GetWorkspaceSize(x.tensor, boxes.tensor, PH, PW, SCALE, RATIO, true, y.tensor,
                                          &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("forward GetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                                            aclGetRecentErrMsg()); return ret);
    CHECK_RET(Run(workspaceSize, executor, stream, aclnnRoiAlignV2, "aclnnRoiAlignV2") == 0, return 1);
    ret = aclnnRoiAlignV2BackwardGetWorkspaceSize(g.tensor, boxes.tensor, inputShape, PH, PW, SCALE, RATIO, true,
                                                  gx.tensor, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("backward GetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                                            aclGetRecentErrMsg()); return ret);
    CHECK_RET(Run(workspaceSize, executor, stream, aclnnRoiAlignV2Backward, "aclnnRoiAlignV2Backward") == 0,
              return 1);

    std::vector<float> yHost = Fetch(y), gxHost = Fetch(gx);
    double maxErr = 0.0, fwdDotG = 0.0, xDotBwd = 0.0;
    for (int64_t k = 0; k < K; k++) {
        const float* b = &boxHost[k * 5];
        double x0 = b[1] * SCALE - 0.5, y0 = b[2] * SCALE - 0.5;  // aligned: half-pixel shift
        double bw = (b[3] * SCALE - 0.5 - x0) / PW, bh = (b[4] * SCALE - 0.5 - y0) / PH;
        for (int64_t c = 0; c < C; c++) {
            const float* plane = &xHost[(int64_t(b[0]) * C + c) * H * W];
            for (int64_t i = 0; i < PH; i++) {
                for (int64_t j = 0; j < PW; j++) {
                    double ref = 0.0;
                    for (int64_t iy = 0; iy < RATIO; iy++)
                        for (int64_t ix = 0; ix < RATIO; ix++)
                            ref += Bilinear(plane, H, W, y0 + i * bh + (iy + 0.5) * bh / RATIO,
                                            x0 + j * bw + (ix + 0.5) * bw / RATIO);
                    ref /= RATIO * RATIO;
                    int64_t o = ((k * C + c) * PH + i) * PW + j;
                    maxErr = std::max(maxErr, std::fabs(yHost[o] - ref));
                    fwdDotG += double(yHost[o]) * gHost[o];
                }
            }
        }
    }
    for (size_t i = 0; i < xHost.size(); i++) xDotBwd += double(xHost[i]) * gxHost[i];
    double adjointErr = std::fabs(fwdDotG - xDotBwd) / std::max(1.0, std::fabs(fwdDotG));
    bool ok = maxErr <= 1e-4 && adjointErr <= 1e-5;
    LOG_PRINT("roi align B%lld C%lld %lldx%lld K=%lld pooled %lldx%lld ratio=%lld aligned=1: forward max|err|=%.3g, "
              "<F(x),g>=%.4f <x,B(g)>=%.4f %s\n",
              (long long)B, (long long)C, (long long)H, (long long)W, (long long)K, (long long)PH, (long long)PW,
              (long long)RATIO, maxErr, fwdDotG, xDotBwd, ok ? "OK" : "MISMATCH");

    Free(&x);
    Free(&boxes);
    Free(&y);
    Free(&g);
    Free(&gx);
    aclDestroyIntArray(inputShape);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return ok ? 0 : 1;
}
