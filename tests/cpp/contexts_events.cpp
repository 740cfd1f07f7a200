// A CANN-style host program: contexts shared between threads, two streams
// ordered by an event, a timed copy, a pitched copy, host callbacks on a
// subscribed thread, forced stream destruction. Written the
// way CANN's runtime samples use the API; every call is checked. Prints
// "contexts_events: OK" and exits 0.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <pthread.h>
#include <thread>
#include <vector>

#include "acl/acl.h"

#define CHECK_RET(expr)                                                                                  \
    do {                                                                                                 \
        aclError _ret = (expr);                                                                          \
        if (_ret != ACL_SUCCESS) {                                                                       \
            std::printf("%s:%d: %s failed: %d (%s)\n", __FILE__, __LINE__, #expr, _ret, aclGetRecentErrMsg()); \
            return 1;                                                                                    \
        }                                                                                                \
    } while (0)

#define EXPECT(cond)                                                                                     \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            std::printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                               \
            return 1;                                                                                    \
        }                                                                                                \
    } while (0)

static int worker(aclrtContext context, void *dev, size_t size, int value)
{
    // A thread starts with no device; it adopts the main thread's context.
    aclrtContext current = nullptr;
    EXPECT(aclrtGetCurrentContext(&current) == ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_RET(aclrtSetCurrentContext(context));
    CHECK_RET(aclrtGetCurrentContext(&current));
    EXPECT(current == context);
    CHECK_RET(aclrtMemsetAsync(dev, size, value, size, nullptr));  // the context's stream
    CHECK_RET(aclrtSynchronizeStream(nullptr));
    return 0;
}

static std::atomic<bool> g_exit{false};
static std::atomic<int> g_callbacks{0};

static void *ProcessCallback(void *)
{
    while (!g_exit) {
        (void)aclrtProcessReport(100);  // ACL_ERROR_RT_REPORT_TIMEOUT when idle
    }
    return nullptr;
}

static void CallbackFunc(void *userData)
{
    g_callbacks += *static_cast<int *>(userData);
}

static std::atomic<bool> g_hostFuncExit{false};
static std::atomic<pthread_t> g_hostFuncRanOn{};

static void *ProcessHostFunc(void *)
{
    while (!g_hostFuncExit) {
        (void)aclrtProcessHostFunc(100);
    }
    return nullptr;
}

static void HostFunc(void *)
{
    g_hostFuncRanOn = pthread_self();
}

int main()
{
    const int32_t deviceId = 0;
    const size_t size = 4 << 20;
    CHECK_RET(aclInit(nullptr));
    aclrtContext context = nullptr;
    CHECK_RET(aclrtCreateContext(&context, deviceId));
    int32_t device = -1;
    CHECK_RET(aclrtGetDevice(&device));
    EXPECT(device == deviceId);

    aclrtStream producer = nullptr, consumer = nullptr;
    CHECK_RET(aclrtCreateStream(&producer));
    CHECK_RET(aclrtCreateStream(&consumer));
    aclrtEvent ready = nullptr, start = nullptr, end = nullptr;
    CHECK_RET(aclrtCreateEvent(&ready));
    CHECK_RET(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
    CHECK_RET(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));

    void *src = nullptr, *dst = nullptr;
    CHECK_RET(aclrtMalloc(&src, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dst, size, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<unsigned char> host(size);

    for (int round = 1; round <= 50; ++round) {
        CHECK_RET(aclrtRecordEvent(start, consumer));
        CHECK_RET(aclrtMemsetAsync(src, size, round, size, producer));
        CHECK_RET(aclrtRecordEvent(ready, producer));
        CHECK_RET(aclrtStreamWaitEvent(consumer, ready));
        CHECK_RET(aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer));
        CHECK_RET(aclrtRecordEvent(end, consumer));
        CHECK_RET(aclrtSynchronizeEvent(end));
        CHECK_RET(aclrtMemcpy(host.data(), size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST));
        EXPECT(host[0] == round && host[size - 1] == round);
        float ms = -1.0f;
        CHECK_RET(aclrtEventElapsedTime(&ms, start, end));
        EXPECT(ms >= 0.0f);
    }
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_RET(aclrtQueryEventStatus(end, &status));
    EXPECT(status == ACL_EVENT_RECORDED_STATUS_COMPLETE);

    // Other threads share the context.
    std::vector<std::thread> threads;
    std::vector<int> results(4, -1);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] { results[t] = worker(context, src, size, 7); });
    for (auto &th : threads)
        th.join();
    for (int r : results)
        EXPECT(r == 0);

    // Host callbacks, run by a subscribed thread in stream order.
    pthread_t tid;
    EXPECT(pthread_create(&tid, nullptr, ProcessCallback, nullptr) == 0);
    CHECK_RET(aclrtSubscribeReport(static_cast<uint64_t>(tid), producer));
    int one = 1;
    for (int i = 0; i < 10; ++i)
        CHECK_RET(aclrtLaunchCallback(CallbackFunc, &one, ACL_CALLBACK_BLOCK, producer));
    CHECK_RET(aclrtSynchronizeStream(producer));
    EXPECT(g_callbacks == 10);  // blocking callbacks have run when the stream is done
    CHECK_RET(aclrtUnSubscribeReport(static_cast<uint64_t>(tid), producer));
    g_exit = true;
    pthread_join(tid, nullptr);

    // Host functions on their own subscribed thread; the stream waits for them.
    pthread_t hostTid;
    EXPECT(pthread_create(&hostTid, nullptr, ProcessHostFunc, nullptr) == 0);
    CHECK_RET(aclrtSubscribeHostFunc(static_cast<uint64_t>(hostTid), consumer));
    CHECK_RET(aclrtLaunchHostFunc(consumer, HostFunc, nullptr));
    CHECK_RET(aclrtSynchronizeStream(consumer));
    EXPECT(pthread_equal(g_hostFuncRanOn.load(), hostTid));
    CHECK_RET(aclrtUnSubscribeHostFunc(static_cast<uint64_t>(hostTid), consumer));
    g_hostFuncExit = true;
    pthread_join(hostTid, nullptr);

    // A notify hands the producer's result to a high-priority consumer stream.
    aclrtStream urgent = nullptr;
    int32_t least = -1, greatest = -1;
    CHECK_RET(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    CHECK_RET(aclrtCreateStreamWithConfig(&urgent, static_cast<uint32_t>(greatest), ACL_STREAM_FAST_LAUNCH));
    uint32_t priority = 99, flags = 0;
    CHECK_RET(aclrtStreamGetPriority(urgent, &priority));
    CHECK_RET(aclrtStreamGetFlags(urgent, &flags));
    EXPECT(least == 7 && priority == 0 && flags == ACL_STREAM_FAST_LAUNCH);
    aclrtNotify notify = nullptr;
    CHECK_RET(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
    CHECK_RET(aclrtMemsetAsync(src, size, 42, size, producer));
    CHECK_RET(aclrtRecordNotify(notify, producer));
    CHECK_RET(aclrtWaitAndResetNotify(notify, urgent, 0));
    CHECK_RET(aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_DEVICE_TO_DEVICE, urgent));
    CHECK_RET(aclrtSynchronizeStream(urgent));
    CHECK_RET(aclrtMemcpy(host.data(), size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(host.front() == 42 && host.back() == 42);
    CHECK_RET(aclrtSynchronizeStream(producer));
    CHECK_RET(aclrtDestroyNotify(notify));
    CHECK_RET(aclrtDestroyStream(urgent));

    // A pitched copy: a 3x5 window of a 6x8 host image into a 4x16 device image.
    std::vector<unsigned char> image(6 * 8), back(4 * 16, 0);
    for (size_t i = 0; i < image.size(); ++i)
        image[i] = static_cast<unsigned char>(i);
    CHECK_RET(aclrtMemset(dst, size, 0, 4 * 16));
    CHECK_RET(aclrtMemcpy2d(static_cast<char *>(dst) + 16 + 2, 16, image.data() + 8 + 1, 8, 5, 3,
                            ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(back.data(), back.size(), dst, back.size(), ACL_MEMCPY_DEVICE_TO_HOST));
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 16; ++c) {
            bool inside = r >= 1 && r < 4 && c >= 2 && c < 7;
            unsigned char want = inside ? image[(r - 1 + 1) * 8 + (c - 2 + 1)] : 0;
            EXPECT(back[r * 16 + c] == want);
        }

    // A second context on the same device, then back to the first.
    aclrtContext other = nullptr;
    CHECK_RET(aclrtCreateContext(&other, deviceId));
    aclrtContext current = nullptr;
    CHECK_RET(aclrtGetCurrentContext(&current));
    EXPECT(current == other);
    CHECK_RET(aclrtSetCurrentContext(context));
    CHECK_RET(aclrtDestroyContext(other));
    EXPECT(aclrtSetCurrentContext(other) == ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT(std::strstr(aclGetRecentErrMsg(), "destroyed") != nullptr);

    CHECK_RET(aclrtSynchronizeStreamWithTimeout(producer, 10000));
    CHECK_RET(aclrtSynchronizeDeviceWithTimeout(-1));
    CHECK_RET(aclrtDestroyEvent(ready));
    CHECK_RET(aclrtDestroyEvent(start));
    CHECK_RET(aclrtDestroyEvent(end));
    CHECK_RET(aclrtFree(src));
    CHECK_RET(aclrtFree(dst));
    CHECK_RET(aclrtDestroyStreamForce(producer));
    CHECK_RET(aclrtDestroyStream(consumer));
    CHECK_RET(aclrtDestroyContext(context));
    EXPECT(aclrtGetCurrentContext(&current) == ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_RET(aclFinalize());
    std::printf("contexts_events: OK\n");
    return 0;
}
