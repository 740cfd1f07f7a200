// Example: aclnnRoiAlign (ONNX-style: boxes and their image indices apart,
// "avg" or "max"), written the way CANN's published samples are. CANN runs
// it with roi_end_mode 0: boxes as given, at least one pixel wide. The
// program checks both modes against a double-precision loop over every
// sample and exits non-zero on a mismatch.
//
// Build against the emulator:  g++ $(aclnn-emu config --cflags --libs) roi_align.cpp
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_roi_align.h"

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

template <typename T>
static int Make(const std::vector<T>& host, const std::vector<int64_t>& shape, aclFormat format, DeviceTensor* t)
{
    t->size = 1;
    for (auto d : shape) t->size *= d;
    auto bytes = t->size * sizeof(T);
    auto ret = aclrtMalloc(&t->addr, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(t->addr, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = shape.size() - 2; i >= 0; i--) strides[i] = shape[i + 1] * strides[i + 1];
    t->tensor = aclCreateTensor(shape.data(), shape.size(), sizeof(T) == 4 && T(0.5) != 0 ? ACL_FLOAT : ACL_INT32,
                                strides.data(), 0, format, shape.data(), shape.size(), t->addr);
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

static int RunMode(aclrtStream stream, const char* mode)
{
    const int64_t B = 2, C = 3, H = 12, W = 10, K = 5, PH = 3, PW = 2, RATIO = 0;
    const float SCALE = 0.5f;
    std::vector<float> xHost(B * C * H * W), roiHost;
    std::vector<int32_t> idxHost;
    for (size_t i = 0; i < xHost.size(); i++) xHost[i] = float((i * 37) % 17) - 8.0f;
    for (int64_t k = 0; k < K; k++) {  // (x1, y1, x2, y2) in image coordinates, and the image
        float x1 = float((k * 5) % 9), y1 = float((k * 3) % 11);
        roiHost.insert(roiHost.end(), {x1, y1, x1 + 3.0f + 2 * k, y1 + 5.0f + 3 * k});
        idxHost.push_back(int32_t((k + 1) % B));
    }
    DeviceTensor x, rois, idx, y;
    CHECK_RET(Make(xHost, {B, C, H, W}, ACL_FORMAT_NCHW, &x) == 0, return 1);
    CHECK_RET(Make(roiHost, {K, 4}, ACL_FORMAT_ND, &rois) == 0, return 1);
    CHECK_RET(Make(idxHost, {K}, ACL_FORMAT_ND, &idx) == 0, return 1);
    CHECK_RET(Make(std::vector<float>(K * C * PH * PW), {K, C, PH, PW}, ACL_FORMAT_NCHW, &y) == 0, return 1);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    auto ret = aclnnRoiAlignGetWorkspaceSize(x.tensor, rois.tensor, idx.tensor, mode, PH, PW, RATIO, SCALE,
                                             y.tensor, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("GetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                                            aclGetRecentErrMsg()); return ret);
    CHECK_RET(Run(workspaceSize, executor, stream, aclnnRoiAlign, "aclnnRoiAlign") == 0, return 1);

    std::vector<float> yHost = Fetch(y);
    bool isMax = mode[0] == 'm';
    double maxErr = 0.0;
    for (int64_t k = 0; k < K; k++) {
        const float* b = &roiHost[k * 4];
        double x0 = b[0] * SCALE, y0 = b[1] * SCALE;  // roi_end_mode 0: no shift, sizes of at least 1
        double bw = std::max(b[2] * SCALE - x0, 1.0) / PW, bh = std::max(b[3] * SCALE - y0, 1.0) / PH;
        int64_t sw = int64_t(std::ceil(bw)), sh = int64_t(std::ceil(bh));  // adaptive sample counts
        for (int64_t c = 0; c < C; c++) {
            const float* plane = &xHost[(idxHost[k] * C + c) * H * W];
            for (int64_t i = 0; i < PH; i++) {
                for (int64_t j = 0; j < PW; j++) {
                    double ref = isMax ? -1e30 : 0.0;
                    for (int64_t iy = 0; iy < sh; iy++)
                        for (int64_t ix = 0; ix < sw; ix++) {
                            double v = Bilinear(plane, H, W, y0 + i * bh + (iy + 0.5) * bh / sh,
                                                x0 + j * bw + (ix + 0.5) * bw / sw);
                            ref = isMax ? std::max(ref, v) : ref + v / double(sh * sw);
                        }
                    maxErr = std::max(maxErr, std::fabs(yHost[((k * C + c) * PH + i) * PW + j] - ref));
                }
            }
        }
    }
    bool ok = maxErr <= 1e-4;
    LOG_PRINT("roi align (onnx) mode=%s B%lld C%lld %lldx%lld K=%lld output %lldx%lld adaptive: max|err|=%.3g %s\n",
              mode, (long long)B, (long long)C, (long long)H, (long long)W, (long long)K, (long long)PH,
              (long long)PW, maxErr, ok ? "OK" : "MISMATCH");
    Free(&x);
    Free(&rois);
    Free(&idx);
    Free(&y);
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
    int failures = RunMode(stream, "avg") + RunMode(stream, "max");
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return failures == 0 ? 0 : 1;
}
