// Example: one training step of 2-D bilinear upsampling, written the way
// CANN's published samples are: the forward aclnnUpsampleBilinear2d, then
// the backward aclnnUpsampleBilinear2dBackwardV2 on the same stream. It
// checks the forward against a double-precision evaluation of the formula
// and the backward against the forward (<F(x), g> == <x, B(g)>), and exits
// non-zero on a mismatch.
//
// Build against the emulator:  g++ $(aclnn-emu config --cflags --libs) upsample_bilinear2d.cpp
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"

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

static int Make(const std::vector<float>& host, const std::vector<int64_t>& shape, DeviceTensor* t)
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
    t->tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_NCHW,
                                shape.data(), shape.size(), t->addr);
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

// Runs phase one's result: allocates the workspace, launches, synchronises.
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
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);
    if (workspace != nullptr) aclrtFree(workspace);
    return 0;
}

// Source index and weights of output index i (half-pixel centres, or corners), in double.
static void Source(int64_t i, int64_t in, int64_t out, bool alignCorners, int64_t* lo, int64_t* hi, double* f)
{
    double r = alignCorners ? (out > 1 ? double(in - 1) / double(out - 1) : 0.0) : double(in) / double(out);
    double s = alignCorners ? i * r : std::max(0.0, (i + 0.5) * r - 0.5);
    *lo = std::min<int64_t>(int64_t(std::floor(s)), in - 1);
    *hi = std::min<int64_t>(*lo + 1, in - 1);
    *f = *lo == *hi ? 0.0 : s - double(*lo);
}

static int Step(aclrtStream stream, int64_t N, int64_t C, int64_t H, int64_t W, int64_t outH, int64_t outW,
                bool alignCorners)
{
    std::vector<float> xHost(N * C * H * W), gHost(N * C * outH * outW);
    for (size_t i = 0; i < xHost.size(); i++) xHost[i] = float((i * 37) % 11) - 5.0f;
    for (size_t i = 0; i < gHost.size(); i++) gHost[i] = float((i * 13) % 7) - 3.0f;
    DeviceTensor x, y, g, gx;
    CHECK_RET(Make(xHost, {N, C, H, W}, &x) == 0, return 1);
    CHECK_RET(Make(std::vector<float>(N * C * outH * outW), {N, C, outH, outW}, &y) == 0, return 1);
    CHECK_RET(Make(gHost, {N, C, outH, outW}, &g) == 0, return 1);
    CHECK_RET(Make(std::vector<float>(N * C * H * W), {N, C, H, W}, &gx) == 0, return 1);
    int64_t outputSizeData[] = {outH, outW}, inputSizeData[] = {N, C, H, W};
    aclIntArray* outputSize = aclCreateIntArray(outputSizeData, 2);
    aclIntArray* inputSize = aclCreateIntArray(inputSizeData, 4);

    // Forward.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    auto ret = aclnnUpsampleBilinear2dGetWorkspaceSize(x.tensor, outputSize, alignCorners, 0.0, 0.0, y.tensor,
                                                       &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("forward GetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                                            aclGetRecentErrMsg()); return ret);
    CHECK_RET(Run(workspaceSize, executor, stream, aclnnUpsampleBilinear2d, "aclnnUpsampleBilinear2d") == 0, return 1);
    // Backward of the same resize.
    ret = aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g.tensor, outputSize, inputSize, alignCorners, 0.0, 0.0,
                                                            gx.tensor, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("backward GetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                                            aclGetRecentErrMsg()); return ret);
    CHECK_RET(Run(workspaceSize, executor, stream, aclnnUpsampleBilinear2dBackwardV2,
                  "aclnnUpsampleBilinear2dBackwardV2") == 0, return 1);

    std::vector<float> yHost = Fetch(y), gxHost = Fetch(gx);
    double maxErr = 0.0, fwdDotG = 0.0, xDotBwd = 0.0;
    for (int64_t p = 0; p < N * C; p++) {
        for (int64_t i = 0; i < outH; i++) {
            int64_t y0, y1, x0, x1;
            double fy, fx;
            Source(i, H, outH, alignCorners, &y0, &y1, &fy);
            for (int64_t j = 0; j < outW; j++) {
                Source(j, W, outW, alignCorners, &x0, &x1, &fx);
                const float* plane = &xHost[p * H * W];
                double ref = (1 - fy) * ((1 - fx) * plane[y0 * W + x0] + fx * plane[y0 * W + x1]) +
                             fy * ((1 - fx) * plane[y1 * W + x0] + fx * plane[y1 * W + x1]);
                double got = yHost[(p * outH + i) * outW + j];
                maxErr = std::max(maxErr, std::fabs(got - ref));
                fwdDotG += got * gHost[(p * outH + i) * outW + j];
            }
        }
    }
    for (size_t i = 0; i < xHost.size(); i++) xDotBwd += double(xHost[i]) * gxHost[i];
    double adjointErr = std::fabs(fwdDotG - xDotBwd) / std::max(1.0, std::fabs(fwdDotG));
    bool ok = maxErr <= 1e-5 && adjointErr <= 1e-5;
    LOG_PRINT("upsample N%lld C%lld %lldx%lld -> %lldx%lld alignCorners=%d: forward max|err|=%.3g, "
              "<F(x),g>=%.4f <x,B(g)>=%.4f %s\n",
              (long long)N, (long long)C, (long long)H, (long long)W, (long long)outH, (long long)outW,
              int(alignCorners), maxErr, fwdDotG, xDotBwd, ok ? "OK" : "MISMATCH");

    Free(&x);
    Free(&y);
    Free(&g);
    Free(&gx);
    aclDestroyIntArray(outputSize);
    aclDestroyIntArray(inputSize);
    return ok ? 0 : 1;
}

int main()
{
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(&stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);

    int failures = 0;
    failures += Step(stream, 2, 3, 5, 7, 10, 14, false);  // 2x up
    failures += Step(stream, 1, 2, 8, 6, 3, 4, false);    // down
    failures += Step(stream, 1, 1, 4, 5, 9, 7, true);     // corners aligned

    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return failures == 0 ? 0 : 1;
}
