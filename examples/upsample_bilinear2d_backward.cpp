// Example: aclnnUpsampleBilinear2dBackward (V1) written the way CANN's
// published samples are. On Atlas A2 V1 always takes the sizes' ratio (its
// op_api runs ResizeBilinearV2Grad), so it must equal V2 called without
// scales, whatever scales V1 is given; the program checks that, and that
// the gradient sums to the sum of gradOut (every weight row sums to 1), and
// exits non-zero on a mismatch.
//
// Build against the emulator:  g++ $(aclnn-emu config --cflags --libs) upsample_bilinear2d_backward.cpp
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward.h"
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

static aclTensor* NewTensor(std::vector<int64_t> shape, void* addr)
{
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = shape.size() - 2; i >= 0; i--) strides[i] = shape[i + 1] * strides[i + 1];
    return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_NCHW, shape.data(),
                           shape.size(), addr);
}

// Runs V1 (v2 == false) or V2 on gradHost; returns the gradient of the input on the host.
static int Backward(aclrtStream stream, bool v2, const std::vector<float>& gradHost, int64_t N, int64_t C, int64_t H,
                    int64_t W, int64_t outH, int64_t outW, bool alignCorners, double scales, std::vector<float>* result)
{
    size_t gradBytes = gradHost.size() * sizeof(float), outBytes = N * C * H * W * sizeof(float);
    void* gradDev = nullptr;
    void* outDev = nullptr;
    CHECK_RET(aclrtMalloc(&gradDev, gradBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, return 1);
    CHECK_RET(aclrtMalloc(&outDev, outBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, return 1);
    aclrtMemcpy(gradDev, gradBytes, gradHost.data(), gradBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclTensor* grad = NewTensor({N, C, outH, outW}, gradDev);
    aclTensor* out = NewTensor({N, C, H, W}, outDev);
    int64_t outputSizeData[] = {outH, outW}, inputSizeData[] = {N, C, H, W};
    aclIntArray* outputSize = aclCreateIntArray(outputSizeData, 2);
    aclIntArray* inputSize = aclCreateIntArray(inputSizeData, 4);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    auto ret = v2 ? aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(grad, outputSize, inputSize, alignCorners, 0.0,
                                                                      0.0, out, &workspaceSize, &executor)
                  : aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(grad, outputSize, inputSize, alignCorners, scales,
                                                                    scales, out, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("GetWorkspaceSize failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg()); return ret);
    void* workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    ret = v2 ? aclnnUpsampleBilinear2dBackwardV2(workspaceAddr, workspaceSize, executor, stream)
             : aclnnUpsampleBilinear2dBackward(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("phase two failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);
    result->assign(N * C * H * W, 0.0f);
    aclrtMemcpy(result->data(), outBytes, outDev, outBytes, ACL_MEMCPY_DEVICE_TO_HOST);

    aclDestroyTensor(grad);
    aclDestroyTensor(out);
    aclDestroyIntArray(outputSize);
    aclDestroyIntArray(inputSize);
    aclrtFree(gradDev);
    aclrtFree(outDev);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    return 0;
}

static int RunCase(aclrtStream stream, int64_t N, int64_t C, int64_t H, int64_t W, int64_t outH, int64_t outW,
                   bool alignCorners, double scales)
{
    std::vector<float> gradHost(N * C * outH * outW);
    double gradSum = 0.0;
    for (size_t i = 0; i < gradHost.size(); i++) {
        gradHost[i] = float((i * 37) % 11) - 5.0f;
        gradSum += gradHost[i];
    }
    std::vector<float> v1, v2;
    CHECK_RET(Backward(stream, false, gradHost, N, C, H, W, outH, outW, alignCorners, scales, &v1) == 0, return 1);
    CHECK_RET(Backward(stream, true, gradHost, N, C, H, W, outH, outW, alignCorners, 0.0, &v2) == 0, return 1);
    double maxDiff = 0.0, sum = 0.0;
    for (size_t i = 0; i < v1.size(); i++) {
        maxDiff = std::fmax(maxDiff, std::fabs(double(v1[i]) - v2[i]));
        sum += v1[i];
    }
    // Without corner alignment a downscale may leave edge sources out: the sum is then only bounded.
    bool ok = maxDiff == 0.0 && (!alignCorners || std::fabs(sum - gradSum) <= 1e-4 * std::fmax(1.0, std::fabs(gradSum)));
    LOG_PRINT("upsample bw V1 N%lld C%lld %lldx%lld -> %lldx%lld alignCorners=%d scales=%g: sum=%.4f (gradOut %.4f) "
              "V1-V2 max|diff|=%.3g %s\n",
              (long long)N, (long long)C, (long long)outH, (long long)outW, (long long)H, (long long)W,
              int(alignCorners), scales, sum, gradSum, maxDiff, ok ? "OK" : "MISMATCH");
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
    failures += RunCase(stream, 1, 1, 3, 3, 6, 6, true, 2.0);      // scales given, not used on Atlas A2
    failures += RunCase(stream, 2, 3, 5, 7, 10, 14, false, 2.0);
    failures += RunCase(stream, 1, 2, 8, 6, 3, 4, true, 0.0);      // downscale

    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return failures == 0 ? 0 : 1;
}
