// Example: aclnnUpsampleBilinear2dBackwardV2 written the way CANN's published
// samples are (init, device, stream, malloc, memcpy, tensors, two phases,
// synchronize, copy back, check, free). It checks its own result against a
// direct double-precision evaluation of the formula and exits non-zero on a
// mismatch.
//
// Build against the emulator:  g++ $(aclnn-emu config --cflags --libs) upsample_bilinear2d_backward_v2.cpp
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
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

int64_t GetShapeSize(const std::vector<int64_t>& shape)
{
    int64_t shapeSize = 1;
    for (auto i : shape) {
        shapeSize *= i;
    }
    return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream)
{
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
    return 0;
}

template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclFormat format, aclTensor** tensor)
{
    auto size = GetShapeSize(shape) * sizeof(T);
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = shape.size() - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, format, shape.data(),
                              shape.size(), *deviceAddr);
    return 0;
}

// Direct evaluation of the spec's formula (float64), one output element at a time.
static double SourceWeight(int64_t i, int64_t x, int64_t in, int64_t out, bool alignCorners, double scale)
{
    double r;
    if (alignCorners) {
        r = out > 1 ? double(in - 1) / double(out - 1) : 0.0;
    } else {
        r = scale > 0 ? 1.0 / scale : double(in) / double(out);
    }
    double s = alignCorners ? i * r : std::fmax(0.0, (i + 0.5) * r - 0.5);
    int64_t lo = std::min<int64_t>(int64_t(std::floor(s)), in - 1);
    int64_t hi = std::min<int64_t>(lo + 1, in - 1);
    double f = s - lo;
    double w = 0.0;
    if (lo == x) w += 1.0 - f;
    if (hi == x) w += f;
    return w;
}

int RunCase(aclrtStream stream, int64_t N, int64_t C, int64_t H, int64_t W, int64_t outH, int64_t outW,
            bool alignCorners, double scalesH, double scalesW, bool ones = false)
{
    std::vector<int64_t> gradShape = {N, C, outH, outW};
    std::vector<int64_t> outShape = {N, C, H, W};
    std::vector<float> gradHost(GetShapeSize(gradShape));
    for (size_t i = 0; i < gradHost.size(); i++) {
        gradHost[i] = ones ? 1.0f : float((i * 37) % 11) - 5.0f;
    }
    std::vector<float> outHost(GetShapeSize(outShape), 0.0f);
    void* gradDev = nullptr;
    void* outDev = nullptr;
    aclTensor* grad = nullptr;
    aclTensor* out = nullptr;
    auto ret = CreateAclTensor(gradHost, gradShape, &gradDev, aclDataType::ACL_FLOAT, aclFormat::ACL_FORMAT_NCHW, &grad);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(outHost, outShape, &outDev, aclDataType::ACL_FLOAT, aclFormat::ACL_FORMAT_NCHW, &out);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    std::vector<int64_t> outputSizeData = {outH, outW};
    std::vector<int64_t> inputSizeData = {N, C, H, W};
    aclIntArray* outputSize = aclCreateIntArray(outputSizeData.data(), outputSizeData.size());
    aclIntArray* inputSize = aclCreateIntArray(inputSizeData.data(), inputSizeData.size());

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    ret = aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(grad, outputSize, inputSize, alignCorners, scalesH,
                                                            scalesW, out, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("GetWorkspaceSize failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg()); return ret);
    void* workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    ret = aclnnUpsampleBilinear2dBackwardV2(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnUpsampleBilinear2dBackwardV2 failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    auto size = GetShapeSize(outShape);
    std::vector<float> resultData(size, 0);
    ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(float), outDev, size * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);

    // The scales are used only when they reproduce the output size (CANN's rule).
    bool usable = (std::fabs(scalesH) > 1e-9 || std::fabs(scalesW) > 1e-9) &&
                  outH == int64_t(std::floor(H * scalesH)) && outW == int64_t(std::floor(W * scalesW));
    double sh = usable ? scalesH : 0.0, sw = usable ? scalesW : 0.0;
    double maxAbs = 0.0, maxErr = 0.0, total = 0.0;
    for (int64_t p = 0; p < N * C; p++) {
        for (int64_t y = 0; y < H; y++) {
            for (int64_t x = 0; x < W; x++) {
                double ref = 0.0;
                for (int64_t i = 0; i < outH; i++) {
                    double wy = SourceWeight(i, y, H, outH, alignCorners, sh);
                    if (wy == 0.0) continue;
                    for (int64_t j = 0; j < outW; j++) {
                        ref += gradHost[(p * outH + i) * outW + j] * wy * SourceWeight(j, x, W, outW, alignCorners, sw);
                    }
                }
                double got = resultData[(p * H + y) * W + x];
                maxAbs = std::fmax(maxAbs, std::fabs(ref));
                maxErr = std::fmax(maxErr, std::fabs(got - ref));
                total += got;
            }
        }
    }
    bool ok = maxErr <= 1e-5 * std::fmax(maxAbs, 1e-30);
    LOG_PRINT("upsample bw N%lld C%lld %lldx%lld -> %lldx%lld alignCorners=%d: sum=%.4f max|err|=%.3g %s\n",
              (long long)N, (long long)C, (long long)outH, (long long)outW, (long long)H, (long long)W,
              int(alignCorners), total, maxErr, ok ? "OK" : "MISMATCH");

    aclDestroyTensor(grad);
    aclDestroyTensor(out);
    aclDestroyIntArray(outputSize);
    aclDestroyIntArray(inputSize);
    aclrtFree(gradDev);
    aclrtFree(outDev);
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    return ok ? 0 : 1;
}

int main()
{
    int32_t deviceId = 0;
    aclrtStream stream;
    auto ret = Init(deviceId, &stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

    int failures = 0;
    failures += RunCase(stream, 1, 1, 3, 3, 6, 6, true, 2.0, 2.0, true) != 0;  // the seed example: sum is 36
    failures += RunCase(stream, 2, 3, 5, 7, 10, 14, false, 2.0, 2.0) != 0;  // scales used
    failures += RunCase(stream, 1, 2, 8, 6, 3, 4, false, 0.0, 0.0) != 0;    // downscale, size ratio
    failures += RunCase(stream, 1, 1, 4, 4, 9, 7, false, 1.5, 3.0) != 0;    // scales rejected

    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return failures == 0 ? 0 : 1;
}
