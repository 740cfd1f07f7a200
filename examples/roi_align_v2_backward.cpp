// Example: aclnnRoiAlignV2Backward written the way CANN's published samples
// are. It checks its own result against a direct double-precision loop over
// every sample (the formula of torchvision's roi_align backward) and exits
// non-zero on a mismatch.
//
// Build against the emulator:  g++ $(aclnn-emu config --cflags --libs) roi_align_v2_backward.cpp
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
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

int64_t GetShapeSize(const std::vector<int64_t>& shape)
{
    int64_t shapeSize = 1;
    for (auto i : shape) {
        shapeSize *= i;
    }
    return shapeSize;
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

// One bilinear scatter per axis, as torchvision's backward does it.
static void Scatter(std::vector<double>& plane, int64_t H, int64_t W, double y, double x, double g)
{
    if (y < -1.0 || y > H || x < -1.0 || x > W) return;
    y = std::min(std::max(y, 0.0), double(H - 1));
    x = std::min(std::max(x, 0.0), double(W - 1));
    int64_t yl = int64_t(std::floor(y)), xl = int64_t(std::floor(x));
    int64_t yh = std::min<int64_t>(yl + 1, H - 1), xh = std::min<int64_t>(xl + 1, W - 1);
    double ly = y - yl, lx = x - xl;
    plane[yl * W + xl] += g * (1 - ly) * (1 - lx);
    plane[yl * W + xh] += g * (1 - ly) * lx;
    plane[yh * W + xl] += g * ly * (1 - lx);
    plane[yh * W + xh] += g * ly * lx;
}

int RunCase(aclrtStream stream, int64_t B, int64_t C, int64_t H, int64_t W, const std::vector<float>& boxesHost,
            int64_t PH, int64_t PW, float scale, int64_t ratio, bool aligned)
{
    int64_t K = int64_t(boxesHost.size() / 5);
    std::vector<int64_t> gradShape = {K, C, PH, PW}, boxShape = {K, 5}, inShape = {B, C, H, W};
    std::vector<float> gradHost(GetShapeSize(gradShape));
    for (size_t i = 0; i < gradHost.size(); i++) {
        gradHost[i] = 0.25f * float((i * 13) % 9) - 1.0f;
    }
    std::vector<float> inHost(GetShapeSize(inShape), 0.0f);
    void *gradDev = nullptr, *boxDev = nullptr, *inDev = nullptr;
    aclTensor *grad = nullptr, *boxes = nullptr, *gradInput = nullptr;
    auto ret = CreateAclTensor(gradHost, gradShape, &gradDev, aclDataType::ACL_FLOAT, aclFormat::ACL_FORMAT_NCHW, &grad);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(boxesHost, boxShape, &boxDev, aclDataType::ACL_FLOAT, aclFormat::ACL_FORMAT_ND, &boxes);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(inHost, inShape, &inDev, aclDataType::ACL_FLOAT, aclFormat::ACL_FORMAT_NCHW, &gradInput);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    aclIntArray* inputShape = aclCreateIntArray(inShape.data(), inShape.size());

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    ret = aclnnRoiAlignV2BackwardGetWorkspaceSize(grad, boxes, inputShape, PH, PW, scale, ratio, aligned, gradInput,
                                                  &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("GetWorkspaceSize failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg()); return ret);
    void* workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    ret = aclnnRoiAlignV2Backward(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnRoiAlignV2Backward failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    std::vector<float> result(GetShapeSize(inShape));
    ret = aclrtMemcpy(result.data(), result.size() * sizeof(float), inDev, result.size() * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);

    std::vector<double> ref(result.size(), 0.0);
    double off = aligned ? 0.5 : 0.0;
    for (int64_t k = 0; k < K; k++) {
        const float* r = &boxesHost[k * 5];
        int64_t b = int64_t(std::floor(r[0]));
        if (b < 0 || b >= B) continue;
        double x1 = r[1] * double(scale) - off, y1 = r[2] * double(scale) - off;
        double w = r[3] * double(scale) - off - x1, h = r[4] * double(scale) - off - y1;
        if (!aligned) {
            w = std::max(w, 1.0);
            h = std::max(h, 1.0);
        }
        double bh = h / PH, bw = w / PW;
        int64_t sh = ratio > 0 ? ratio : int64_t(std::ceil(bh)), sw = ratio > 0 ? ratio : int64_t(std::ceil(bw));
        if (sh <= 0 || sw <= 0) continue;
        for (int64_t c = 0; c < C; c++) {
            std::vector<double> plane(H * W, 0.0);
            for (int64_t ph = 0; ph < PH; ph++)
                for (int64_t pw = 0; pw < PW; pw++) {
                    double g = gradHost[((k * C + c) * PH + ph) * PW + pw] / double(sh * sw);
                    for (int64_t iy = 0; iy < sh; iy++)
                        for (int64_t ix = 0; ix < sw; ix++)
                            Scatter(plane, H, W, y1 + ph * bh + (iy + 0.5) * bh / sh,
                                    x1 + pw * bw + (ix + 0.5) * bw / sw, g);
                }
            for (int64_t i = 0; i < H * W; i++) ref[(b * C + c) * H * W + i] += plane[i];
        }
    }
    double maxAbs = 0.0, maxErr = 0.0;
    for (size_t i = 0; i < ref.size(); i++) {
        maxAbs = std::max(maxAbs, std::fabs(ref[i]));
        maxErr = std::max(maxErr, std::fabs(ref[i] - result[i]));
    }
    bool ok = maxErr <= 1e-5 * std::max(maxAbs, 1e-30);
    LOG_PRINT("roi align bw B%lld C%lld %lldx%lld K=%lld pooled %lldx%lld ratio=%lld aligned=%d: max|err|=%.3g %s\n",
              (long long)B, (long long)C, (long long)H, (long long)W, (long long)K, (long long)PH, (long long)PW,
              (long long)ratio, int(aligned), maxErr, ok ? "OK" : "MISMATCH");

    aclDestroyTensor(grad);
    aclDestroyTensor(boxes);
    aclDestroyTensor(gradInput);
    aclDestroyIntArray(inputShape);
    aclrtFree(gradDev);
    aclrtFree(boxDev);
    aclrtFree(inDev);
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    return ok ? 0 : 1;
}

int main()
{
    int32_t deviceId = 0;
    aclrtStream stream;
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(&stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);

    // (image_id, x1, y1, x2, y2) in image coordinates
    std::vector<float> boxes = {0, 1.0f, 2.0f, 20.0f, 18.0f,   1, 8.0f, 4.0f, 30.0f, 31.0f,
                                0, -6.0f, -3.0f, 9.0f, 5.0f,  1, 25.0f, 25.0f, 40.0f, 44.0f,
                                1.7f, 3.0f, 3.0f, 3.5f, 3.2f, 0, 0.0f, 0.0f, 8.0f, 8.0f};
    int failures = 0;
    failures += RunCase(stream, 2, 3, 16, 16, boxes, 2, 2, 0.5f, 2, true) != 0;
    failures += RunCase(stream, 2, 3, 16, 16, boxes, 3, 3, 0.5f, 0, false) != 0;
    failures += RunCase(stream, 2, 2, 10, 12, boxes, 7, 7, 0.25f, 0, true) != 0;

    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return failures == 0 ? 0 : 1;
}
