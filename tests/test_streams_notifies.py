"""Stream configuration, notifies, host-function subscriptions, registered host
memory and the out-of-scope calls, driven the way a C program calls them."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import aclnn_emu as ae
from aclnn_emu import errors, ffi, lib

N = 4 << 20
MEMCPY_DEVICE_TO_DEVICE = 3
# acl_rt.h's hexadecimal flags (the cdef carries only decimal #defines)
STREAM_FAST_LAUNCH, STREAM_HUGE = 0x1, 0x8
NOTIFY_DEFAULT, NOTIFY_DEVICE_USE_ONLY = 0x0, 0x1
HOST_REG_MAPPED = 0x2


def _raises(status: int, call, *args) -> str:
    """Calls lib.<call>(*args), expects status; returns the recorded message."""
    assert getattr(lib, call)(*args) == status, call
    msg = errors.recent_error_message()
    assert call in msg
    return msg


def test_stream_with_config_reports_priority_flags_and_id():
    ae.ensure_device(0)
    out = ffi.new("aclrtStream *")
    assert lib.aclrtCreateStreamWithConfig(out, 3, STREAM_FAST_LAUNCH | STREAM_HUGE) == 0
    prio, flags, sid = ffi.new("uint32_t *"), ffi.new("uint32_t *"), ffi.new("int32_t *")
    assert lib.aclrtStreamGetPriority(out[0], prio) == 0 and prio[0] == 3
    assert lib.aclrtStreamGetFlags(out[0], flags) == 0
    assert flags[0] == STREAM_FAST_LAUNCH | STREAM_HUGE
    other = ffi.new("aclrtStream *")
    assert lib.aclrtCreateStream(other) == 0
    sid2 = ffi.new("int32_t *")
    assert lib.aclrtStreamGetId(out[0], sid) == 0 and lib.aclrtStreamGetId(other[0], sid2) == 0
    assert sid[0] != sid2[0]
    assert lib.aclrtStreamGetPriority(other[0], prio) == 0 and prio[0] == 0
    assert lib.aclrtStreamGetFlags(ffi.NULL, flags) == 0 and flags[0] == 0  # the default stream
    least, greatest = ffi.new("int32_t *"), ffi.new("int32_t *")
    assert lib.aclrtDeviceGetStreamPriorityRange(least, greatest) == 0
    assert (least[0], greatest[0]) == (7, 0)
    assert lib.aclrtDeviceGetStreamPriorityRange(ffi.NULL, ffi.NULL) == 0
    assert lib.aclrtDestroyStream(out[0]) == 0 and lib.aclrtDestroyStream(other[0]) == 0


@pytest.mark.parametrize(
    ("priority", "flag", "status", "words"),
    [
        (8, 0, lib.ACL_ERROR_RT_PARAM_INVALID, "priority 8 is out of range [0, 7]"),
        (0, 0x40, lib.ACL_ERROR_RT_PARAM_INVALID, "flag 0x40 has bits"),
    ],
)
def test_stream_with_config_rejects(priority, flag, status, words):
    ae.ensure_device(0)
    out = ffi.new("aclrtStream *")
    assert words in _raises(status, "aclrtCreateStreamWithConfig", out, priority, flag)
    assert "stream is NULL" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig", ffi.NULL, 0, 0)


def test_stream_queries_reject_null_and_stale_handles():
    ae.ensure_device(0)
    out = ffi.new("aclrtStream *")
    assert lib.aclrtCreateStream(out) == 0
    assert "priority is NULL" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtStreamGetPriority", out[0], ffi.NULL)
    assert "streamId is NULL" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId", out[0], ffi.NULL)
    assert lib.aclrtDestroyStream(out[0]) == 0
    flags = ffi.new("uint32_t *")
    assert "destroyed" in _raises(lib.ACL_ERROR_RT_INVALID_HANDLE, "aclrtStreamGetFlags", out[0], flags)


def _memset(buf: ae.DeviceBuffer, value: int, stream: ae.Stream) -> None:
    ae.check(lib.aclrtMemsetAsync(ffi.cast("void *", buf.address), N, value, N, stream.handle), "aclrtMemsetAsync")


def test_notify_orders_streams():
    """b's copy sees a's write when b waits for a notify a records after writing (each record frees one wait)."""
    with ae.Stream() as a, ae.Stream() as b:
        notify = ffi.new("aclrtNotify *")
        assert lib.aclrtCreateNotify(notify, NOTIFY_DEFAULT) == 0
        src, dst = ae.DeviceBuffer(N), ae.DeviceBuffer(N)
        for i in range(1, 60):
            _memset(src, i, a)
            assert lib.aclrtRecordNotify(notify[0], a.handle) == 0
            assert lib.aclrtWaitAndResetNotify(notify[0], b.handle, 0) == 0
            rc = lib.aclrtMemcpyAsync(ffi.cast("void *", dst.address), N, ffi.cast("void *", src.address), N,
                                      MEMCPY_DEVICE_TO_DEVICE, b.handle)  # fmt: skip
            assert rc == 0
            b.synchronize()
            view = dst.numpy()
            assert view[0] == i and view[-1] == i, i
        a.synchronize()
        assert lib.aclrtDestroyNotify(notify[0]) == 0
        src.close()
        dst.close()


def test_notify_wait_times_out_and_the_stream_reports_it():
    with ae.Stream() as s:
        notify = ffi.new("aclrtNotify *")
        assert lib.aclrtCreateNotify(notify, 0) == 0
        assert lib.aclrtWaitAndResetNotify(notify[0], s.handle, 30) == 0  # nobody records it
        with pytest.raises(ae.RtError) as info:
            s.synchronize()
        assert info.value.status == lib.ACL_ERROR_RT_WAIT_TIMEOUT
        assert "not recorded within 30 ms" in info.value.message
        # a record consumed by a wait lowers the flag: the next wait times out again
        assert lib.aclrtRecordNotify(notify[0], s.handle) == 0
        assert lib.aclrtWaitAndResetNotify(notify[0], s.handle, 30) == 0
        s.synchronize()
        assert lib.aclrtWaitAndResetNotify(notify[0], s.handle, 30) == 0
        with pytest.raises(ae.RtError):
            s.synchronize()
        assert lib.aclrtDestroyNotify(notify[0]) == 0


def test_notify_errors():
    ae.ensure_device(0)
    notify = ffi.new("aclrtNotify *")
    assert "flag 0x2" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify", notify, 2)
    assert "notify is NULL" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify", ffi.NULL, 0)
    assert "notify is NULL" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtRecordNotify", ffi.NULL, ffi.NULL)
    assert lib.aclrtCreateNotify(notify, NOTIFY_DEVICE_USE_ONLY) == 0
    assert lib.aclrtDestroyNotify(notify[0]) == 0
    msg = _raises(lib.ACL_ERROR_RT_INVALID_HANDLE, "aclrtWaitAndResetNotify", notify[0], ffi.NULL, 0)
    assert "destroyed" in msg
    assert "destroyed" in _raises(lib.ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyNotify", notify[0])


def test_host_functions_run_on_the_subscribed_thread_in_stream_order():
    order: list[tuple[str, int]] = []
    stop = threading.Event()

    @ffi.callback("void(void *)")
    def host_func(arg):
        order.append(("host", threading.get_ident()))

    def worker() -> None:
        while not stop.is_set():
            lib.aclrtProcessHostFunc(20)

    with ae.Stream() as s:
        t = threading.Thread(target=worker)
        t.start()
        try:
            assert lib.aclrtSubscribeHostFunc(t.ident, s.handle) == 0
            buf = ae.DeviceBuffer(N)
            for i in range(3):
                _memset(buf, i + 1, s)
                assert lib.aclrtLaunchHostFunc(s.handle, host_func, ffi.NULL) == 0
            s.synchronize()  # host functions block their stream: all have run
            assert order == [("host", t.ident)] * 3
            assert lib.aclrtUnSubscribeHostFunc(t.ident, s.handle) == 0
            # unsubscribed: the stream runs it (its worker, or the thread synchronising with it)
            assert lib.aclrtLaunchHostFunc(s.handle, host_func, ffi.NULL) == 0
            s.synchronize()
            assert len(order) == 4 and order[3][1] != t.ident
            buf.close()
        finally:
            stop.set()
            t.join()


def test_host_function_subscription_errors():
    with ae.Stream() as s:
        me = threading.get_ident()
        msg = _raises(lib.ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessHostFunc", 10)
        assert "aclrtSubscribeHostFunc" in msg
        assert "timeout 0" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtProcessHostFunc", 0)
        assert lib.aclrtSubscribeHostFunc(me, s.handle) == 0
        assert lib.aclrtSubscribeReport(me, s.handle) == 0  # a separate subscription
        assert "already subscribed" in _raises(lib.ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtSubscribeHostFunc", me,
                                               s.handle)  # fmt: skip
        assert "within 10 ms" in _raises(lib.ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessHostFunc", 10)
        assert "not subscribed" in _raises(lib.ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtUnSubscribeHostFunc", me + 1,
                                           s.handle)  # fmt: skip
        assert lib.aclrtUnSubscribeHostFunc(me, s.handle) == 0
        assert lib.aclrtUnSubscribeReport(me, s.handle) == 0


def test_host_register_v2_and_device_pointer():
    ae.ensure_device(0)
    host = np.arange(1024, dtype=np.float32)
    ptr = ffi.cast("void *", host.ctypes.data)
    dev = ffi.new("void **")
    assert "is not registered" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer", ptr, dev, 0)
    assert lib.aclrtHostRegisterV2(ptr, host.nbytes, HOST_REG_MAPPED) == 0
    assert lib.aclrtHostGetDevicePointer(ptr, dev, 0) == 0 and dev[0] == ptr
    assert "flag must be 0" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer", ptr, dev, 1)
    assert "flag 0x1 has bits" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtHostRegisterV2", ptr, 16, 1)
    assert "size 0" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtHostRegisterV2", ptr, 0, 0)
    assert lib.aclrtHostUnregister(ptr) == 0
    assert "is not registered" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister", ptr)


def test_register_pinned_host_memory():
    """aclrtMallocHost's memory may be registered (CANN's zero-copy sample does) and stays allocated after."""
    ae.ensure_device(0)
    host = ffi.new("void **")
    dev = ffi.new("void **")
    assert lib.aclrtMallocHost(host, 4096) == 0
    assert "is not registered" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer", host[0], dev, 0)
    assert lib.aclrtHostRegisterV2(host[0], 4096, HOST_REG_MAPPED) == 0
    assert lib.aclrtHostGetDevicePointer(host[0], dev, 0) == 0 and dev[0] == host[0]
    assert lib.aclrtHostUnregister(host[0]) == 0
    assert "is not registered" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister", host[0])
    assert lib.aclrtFreeHost(host[0]) == 0
    buf = ae.DeviceBuffer(4096)  # device memory cannot be registered as host memory
    msg = _raises(lib.ACL_ERROR_INVALID_PARAM, "aclrtHostRegisterV2", ffi.cast("void *", buf.address), 64, 0)
    assert "overlaps memory that is already recorded" in msg
    buf.close()


OUT_OF_SCOPE = [
    ("aclrtBinaryLoadFromFile", (b"kernel.o", ffi.NULL, ffi.new("aclrtBinHandle *")), "launching device kernels"),
    ("aclrtLaunchKernel", (ffi.NULL, 1, ffi.NULL, 0, ffi.NULL), "launching device kernels"),
    ("aclrtKernelArgsInit", (ffi.NULL, ffi.new("aclrtArgsHandle *")), "launching device kernels"),
    ("aclrtReserveMemAddress", (ffi.new("void **"), 1 << 20, 0, ffi.NULL, 0), "virtual and physical device memory"),
    ("aclrtMallocPhysical", (ffi.new("aclrtDrvMemHandle *"), 1 << 20, ffi.new("aclrtPhysicalMemProp *"), 0),
     "virtual and physical device memory"),
    ("aclrtMemAllocManaged", (ffi.new("void **"), 64, 1), "managed (unified) memory"),
    ("aclmdlLoadFromFile", (b"resnet.om", ffi.new("uint32_t *")), "offline models (.om"),
    ("aclmdlExecute", (0, ffi.NULL, ffi.NULL), "offline models (.om"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "args", "what"), OUT_OF_SCOPE, ids=[c for c, _, _ in OUT_OF_SCOPE])
def test_out_of_scope_calls_say_so(call, args, what):
    msg = _raises(lib.ACL_ERROR_API_NOT_SUPPORT, call, *args)
    assert what in msg and "not supported by the emulator" in msg


def test_offline_model_handles_are_refused():
    assert lib.aclmdlCreateDataset() == ffi.NULL
    assert "offline models (.om" in errors.recent_error_message()
    assert lib.aclmdlCreateDesc() == ffi.NULL


def test_dump_switches_are_accepted_and_dump_nothing(tmp_path):
    @ffi.callback("int32_t(const acldumpChunk *, int32_t)")
    def on_chunk(chunk, length):
        raise AssertionError("the emulator produces no dump data")

    assert lib.acldumpRegCallback(on_chunk, 0) == 0
    assert lib.acldumpGetPath(lib.DATA_DUMP) == ffi.NULL
    assert lib.aclopStartDumpArgs(1, str(tmp_path).encode()) == 0
    assert lib.aclopStopDumpArgs(1) == 0
    lib.acldumpUnregCallback()
    assert list(tmp_path.iterdir()) == []
    assert "messageCallback is NULL" in _raises(lib.ACL_ERROR_INVALID_PARAM, "acldumpRegCallback", ffi.NULL, 0)
    assert "dumpType 2" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclopStartDumpArgs", 2, b"/tmp")
    assert "path is NULL" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclopStartDumpArgs", 1, ffi.NULL)
    assert "dumpType 0" in _raises(lib.ACL_ERROR_INVALID_PARAM, "aclopStopDumpArgs", 0)
    # Exception dumps are off unless aclInit's acl.json asks for them (test_dump_subscribe.py turns them on).
    info = ffi.new("acldumpTensorInfo *")
    info.addrType, info.tensorAddr, info.tensorSize = 2, ffi.cast("int64_t *", 8), 4
    msg = _raises(lib.ACL_ERROR_FAILURE, "acldumpSaveExceptionInfo", b"f", b"tag", info, 1)
    assert "the exception dump is not enabled" in msg
    buf = ffi.new("char[256]")
    assert "not enabled" in _raises(lib.ACL_ERROR_FAILURE, "acldumpGetExceptionInfoPath", buf, 256)


class _BlockingLaunches:
    """aclnnEmuSetLaunchBlocking(1) for the calling thread, within the block."""

    def __enter__(self) -> None:
        assert lib.aclnnEmuSetLaunchBlocking(1) == 0

    def __exit__(self, *exc: object) -> None:
        assert lib.aclnnEmuSetLaunchBlocking(0) == 0


def test_blocking_launch_runs_work_on_an_idle_stream_before_returning():
    with ae.Stream() as s:
        buf = ae.DeviceBuffer(N)
        with _BlockingLaunches():
            for i in range(1, 20):
                _memset(buf, i, s)
                view = buf.numpy()  # read without synchronising: the work is done
                assert view[0] == i and view[-1] == i, i
        s.synchronize()
        buf.close()


def _wait_idle_by_query(stream: ae.Stream, what: str) -> None:
    """Polls aclrtStreamQuery (which only looks: it runs nothing) until the stream is idle, for up to 10 s."""
    status = ffi.new("aclrtStreamStatus *")
    deadline = time.monotonic() + 10
    while True:
        assert lib.aclrtStreamQuery(stream.handle, status) == 0
        if status[0] == lib.ACL_STREAM_STATUS_COMPLETE:
            return
        assert time.monotonic() < deadline, f"{what}: queued work did not run without a synchronisation"
        time.sleep(1e-4)


def test_work_a_host_leaves_queued_runs_without_a_synchronisation():
    """The stream's worker takes work no host synchronises for: on a stream idle long enough for its worker
    to sleep, and launches microseconds apart (tiny ones: the worker is between tasks, polling, when most
    arrive)."""
    with ae.Stream() as s:
        buf = ae.DeviceBuffer(N)
        for value, pause in enumerate([0.2, 0.0, 0.2], start=1):
            time.sleep(pause)
            _memset(buf, value, s)
            _wait_idle_by_query(s, f"launch {value}")
            view = buf.numpy()
            assert view[0] == value and view[-1] == value, value
        tiny = 64
        for value in range(1, 201):
            ae.check(lib.aclrtMemsetAsync(ffi.cast("void *", buf.address), N, value, tiny, s.handle), "memset")
            for _ in range(value % 4 * 10):  # a few microseconds more or less between launches
                pass
        _wait_idle_by_query(s, "the burst")
        view = buf.numpy()
        assert (view[:tiny] == 200).all() and view[tiny] == 3
        s.synchronize()
        buf.close()


def test_blocking_launch_queues_behind_pending_work():
    with ae.Stream() as a, ae.Stream() as b:
        notify = ffi.new("aclrtNotify *")
        assert lib.aclrtCreateNotify(notify, NOTIFY_DEFAULT) == 0
        buf = ae.DeviceBuffer(N)
        _memset(buf, 0, b)
        b.synchronize()
        assert lib.aclrtWaitAndResetNotify(notify[0], b.handle, 0) == 0  # b blocks until a records
        with _BlockingLaunches():
            _memset(buf, 5, b)  # behind the wait: queued, and the call returns
            assert buf.numpy()[0] == 0
        assert lib.aclrtRecordNotify(notify[0], a.handle) == 0
        b.synchronize()
        assert buf.numpy()[0] == 5 and buf.numpy()[-1] == 5
        a.synchronize()
        assert lib.aclrtDestroyNotify(notify[0]) == 0
        buf.close()


def _wait_runs_here(stream: ae.Stream) -> bool:
    """Whether a launch from this thread runs before it returns: a 30 ms notify wait that times out."""
    notify = ffi.new("aclrtNotify *")
    assert lib.aclrtCreateNotify(notify, 0) == 0
    t0 = time.perf_counter()
    assert lib.aclrtWaitAndResetNotify(notify[0], stream.handle, 30) == 0
    inline = time.perf_counter() - t0 >= 0.025
    with pytest.raises(ae.RtError):
        stream.synchronize()  # the timeout, reported here either way
    assert lib.aclrtDestroyNotify(notify[0]) == 0
    return inline


def test_array_calls_leave_the_threads_launch_switches_as_they_were():
    """Array-level calls set their switches with ACLNN_EMU_LAUNCH_ONCE: the thread's own are back after."""
    x = np.ones((1, 1, 2, 2), np.float32)
    with ae.Stream() as s:
        assert not _wait_runs_here(s)
        with _BlockingLaunches():
            ae.upsample_bilinear2d(x, (4, 4))  # blocking and filling for its own launch
            assert _wait_runs_here(s)  # still the thread's switch
        ae.upsample_bilinear2d(np.ones((1, 1, 256, 256), np.float32), (512, 512))  # a non-blocking call
        assert not _wait_runs_here(s)
        status = lib.aclnnEmuSetLaunchMode(8)
        assert status == lib.ACL_ERROR_INVALID_PARAM
        assert "unknown bits" in ffi.string(lib.aclGetRecentErrMsg()).decode()


def test_blocking_launch_failure_is_reported_by_the_next_synchronisation():
    with ae.Stream() as s:
        notify = ffi.new("aclrtNotify *")
        assert lib.aclrtCreateNotify(notify, 0) == 0
        with _BlockingLaunches():
            assert lib.aclrtWaitAndResetNotify(notify[0], s.handle, 30) == 0  # ran here, and timed out
        with pytest.raises(ae.RtError) as info:
            s.synchronize()
        assert info.value.status == lib.ACL_ERROR_RT_WAIT_TIMEOUT
        assert "not recorded within 30 ms" in info.value.message
        s.synchronize()  # reported once
        assert lib.aclrtDestroyNotify(notify[0]) == 0
