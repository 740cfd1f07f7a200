"""Events, stream timeouts and the new runtime queries through the Python layer.

The C side (tests/c/events.c, a meson test) covers failure mode, forced
destruction and fork() with a blocked wait using test-only tasks; here the
same API is driven the way a Python user replays a C program.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import aclnn_emu as ae
from aclnn_emu import errors, ffi, lib

N = 8 << 20
MEMCPY_DEVICE_TO_DEVICE = 3


def _memset(buf: ae.DeviceBuffer, value: int, stream: ae.Stream) -> None:
    ae.check(lib.aclrtMemsetAsync(ffi.cast("void *", buf.address), N, value, N, stream.handle), "aclrtMemsetAsync")


def _copy(dst: ae.DeviceBuffer, src: ae.DeviceBuffer, stream: ae.Stream) -> None:
    ae.check(
        lib.aclrtMemcpyAsync(ffi.cast("void *", dst.address), N, ffi.cast("void *", src.address), N,
                             MEMCPY_DEVICE_TO_DEVICE, stream.handle),
        "aclrtMemcpyAsync",
    )  # fmt: skip


def test_wait_event_orders_streams():
    """Stream b's copy sees stream a's write when b waits for an event a recorded after it."""
    with ae.Stream() as a, ae.Stream() as b, ae.Event() as e:
        src, dst = ae.DeviceBuffer(N), ae.DeviceBuffer(N)
        for i in range(1, 120):
            _memset(src, i, a)
            e.record(a)
            b.wait_event(e)
            _copy(dst, src, b)
            b.synchronize()
            view = dst.numpy()
            assert view[0] == i and view[-1] == i, i
        a.synchronize()
        src.close()
        dst.close()


def test_event_status_and_elapsed_time():
    with ae.Stream() as s, ae.Event() as start, ae.Event() as end, ae.Event() as never:
        buf = ae.DeviceBuffer(N)
        assert never.query()  # nothing recorded: nothing pending
        start.record(s)
        for _ in range(4):
            _memset(buf, 1, s)
        end.record(s)
        end.synchronize(timeout_ms=60_000)
        assert end.query()
        assert 0.0 <= start.elapsed_time(end) < 60_000.0
        with pytest.raises(ae.RtError) as info:
            start.elapsed_time(never)
        assert info.value.status == errors.ACL_ERROR_RT_EVENT_NOT_COMPLETE
        assert "aclrtEventElapsedTime" in info.value.message
        buf.close()


def test_timeouts_validate_their_argument():
    with ae.Stream() as s, ae.Event() as e:
        with pytest.raises(ae.RtError) as info:
            s.synchronize(timeout_ms=-2)
        assert info.value.status == errors.ACL_ERROR_RT_PARAM_INVALID
        assert "timeout -2 ms is out of range [-1, INT_MAX]" in info.value.message
        with pytest.raises(ae.RtError) as info:
            e.synchronize(timeout_ms=-7)
        assert info.value.status == errors.ACL_ERROR_RT_PARAM_INVALID
        s.synchronize(timeout_ms=1000)
        e.synchronize(timeout_ms=0)


def test_stream_timeout_expires():
    with ae.Stream() as s:
        big = 1 << 30
        buf = ae.DeviceBuffer(big)
        for _ in range(4):
            ae.check(lib.aclrtMemsetAsync(ffi.cast("void *", buf.address), big, 1, big, s.handle), "memset")
        with pytest.raises(ae.RtError) as info:
            s.synchronize(timeout_ms=0)
        assert info.value.status == errors.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
        assert "did not finish within 0 ms" in info.value.message
        s.synchronize()
        buf.close()


def test_event_errors_carry_status_and_message():
    e = ae.Event()
    e.close()
    with pytest.raises(ae.HandleClosedError):
        e.record()
    with pytest.raises(ae.AclError) as info:
        ae.Event(flags=0x80)
    assert info.value.status == errors.ACL_ERROR_INVALID_PARAM
    assert "aclrtCreateEventWithFlag: flag 0x80" in info.value.message
    with pytest.raises(errors.RtError) as info:
        ae.Event(flags=0x41)  # IPC stands alone (test_ipc_events.py has the IPC events themselves)
    assert info.value.status == errors.ACL_ERROR_RT_PARAM_INVALID
    assert "ACL_EVENT_IPC stands alone" in info.value.message
    status = ffi.new("aclrtEventStatus *")
    assert lib.aclrtQueryEvent(ffi.NULL, status) == errors.ACL_ERROR_INVALID_PARAM
    assert "aclrtQueryEvent: event is NULL" in ae.errors.recent_error_message()


def test_run_mode_version_and_peer_queries():
    ae.ensure_device()
    mode = ffi.new("aclrtRunMode *")
    assert lib.aclrtGetRunMode(mode) == 0 and mode[0] == lib.ACL_HOST
    v = [ffi.new("int32_t *") for _ in range(3)]
    assert lib.aclrtGetVersion(*v) == 0
    assert (v[0][0], v[1][0], v[2][0]) == (lib.ACL_MAJOR_VERSION, lib.ACL_MINOR_VERSION, lib.ACL_PATCH_VERSION)
    can = ffi.new("int32_t *")
    assert lib.aclrtDeviceCanAccessPeer(can, 0, 0) == errors.ACL_ERROR_INVALID_PARAM
    assert "deviceId 0 cannot be equal to peerDeviceId 0" in ae.errors.recent_error_message()


SCRIPT = r"""
import os, sys, numpy as np, aclnn_emu as ae
from aclnn_emu import ffi, lib
a, b, e = ae.Stream(), ae.Stream(), ae.Event()
n = 64 << 20
src, dst = ae.DeviceBuffer(n), ae.DeviceBuffer(n)
for _ in range(3):
    ae.check(lib.aclrtMemsetAsync(ffi.cast("void *", src.address), n, 7, n, a.handle), "memset")
e.record(a)
b.wait_event(e)
ae.check(lib.aclrtMemcpyAsync(ffi.cast("void *", dst.address), n, ffi.cast("void *", src.address), n, 3,
                              b.handle), "copy")
pid = os.fork()  # b may be blocked in its wait right now
if pid == 0:
    b.synchronize()
    os._exit(0 if dst.numpy()[-1] == 7 else 3)
b.synchronize()
assert dst.numpy()[-1] == 7
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_fork_while_a_stream_waits_for_an_event():
    """A fresh interpreter forks while a stream is blocked on an event: both processes finish, exit 0."""
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_events_mix_with_array_level_calls():
    # Events do not disturb the array-level API (it synchronises its own stream).
    with ae.Event() as e:
        e.record()
        g = np.ones((1, 1, 2, 2), np.float32)
        out = ae.upsample_bilinear2d_backward_v2(g, output_size=(2, 2), input_size=(1, 1, 2, 2), align_corners=False)
        e.synchronize()
        np.testing.assert_array_equal(out, g)


def test_context_binds_the_thread_and_runs_work():
    g = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    expected = ae.upsample_bilinear2d_backward_v2(g, output_size=(4, 4), input_size=(1, 1, 4, 4), align_corners=False)
    with ae.Context(0) as ctx:
        current = ffi.new("aclrtContext *")
        ae.check(lib.aclrtGetCurrentContext(current), "aclrtGetCurrentContext")
        assert current[0] == ctx.handle
        out = ae.upsample_bilinear2d_backward_v2(g, output_size=(4, 4), input_size=(1, 1, 4, 4), align_corners=False)
        np.testing.assert_array_equal(out, expected)
        raw = ctx.handle
    with pytest.raises(ae.HandleClosedError):
        ctx.make_current()
    assert lib.aclrtSetCurrentContext(raw) == errors.ACL_ERROR_RT_INVALID_HANDLE
    assert "was already destroyed" in ae.errors.recent_error_message()
    # The next call binds the device again.
    out = ae.upsample_bilinear2d_backward_v2(g, output_size=(4, 4), input_size=(1, 1, 4, 4), align_corners=False)
    np.testing.assert_array_equal(out, expected)


def test_context_errors():
    with pytest.raises(ae.RtError) as info:
        ae.Context(9)
    assert info.value.status == errors.ACL_ERROR_RT_INVALID_DEVICEID
    assert "aclrtCreateContext: deviceId 9 is out of range" in info.value.message
    assert lib.aclrtDestroyContext(ffi.NULL) == errors.ACL_ERROR_INVALID_PARAM
    assert "aclrtDestroyContext: context is NULL" in ae.errors.recent_error_message()


def _ptr(buf: ae.DeviceBuffer, offset: int = 0):
    return ffi.cast("void *", buf.address + offset)


@pytest.mark.parametrize("asynchronous", [False, True])
def test_memcpy2d_copies_a_pitched_window(asynchronous):
    """A 5x7-byte window between two pitched 2-D images, against numpy slicing."""
    rng = np.random.default_rng(0)
    src_img = rng.integers(0, 256, size=(9, 16), dtype=np.uint8)  # spitch 16
    dst_img = np.zeros((8, 12), np.uint8)  # dpitch 12
    src, dst = ae.DeviceBuffer(src_img.nbytes), ae.DeviceBuffer(dst_img.nbytes)
    src.copy_from_host(src_img)
    dst.copy_from_host(dst_img)
    # rows 2..6, bytes 3..9 of src -> rows 1..5, bytes 4..10 of dst
    d, s = _ptr(dst, 1 * 12 + 4), _ptr(src, 2 * 16 + 3)
    if asynchronous:
        with ae.Stream() as stream:
            ae.check(lib.aclrtMemcpy2dAsync(d, 12, s, 16, 7, 5, MEMCPY_DEVICE_TO_DEVICE, stream.handle), "2d async")
            stream.synchronize()
    else:
        ae.check(lib.aclrtMemcpy2d(d, 12, s, 16, 7, 5, MEMCPY_DEVICE_TO_DEVICE), "aclrtMemcpy2d")
    expected = dst_img.copy()
    expected[1:6, 4:11] = src_img[2:7, 3:10]
    np.testing.assert_array_equal(dst.copy_to_host(shape=(8, 12)), expected)
    src.close()
    dst.close()


def test_memcpy2d_checks():
    ae.ensure_device()
    a, b = ae.DeviceBuffer(64), ae.DeviceBuffer(64)
    cases = [
        ((_ptr(a), 8, _ptr(b), 8, 9, 2, MEMCPY_DEVICE_TO_DEVICE), "width 9 must not exceed spitch 8 and dpitch 8"),
        ((_ptr(a), 8, _ptr(b), 8, 4, 2, 0), "kind 0 is not ACL_MEMCPY_HOST_TO_DEVICE"),
        ((ffi.NULL, 8, _ptr(b), 8, 4, 2, MEMCPY_DEVICE_TO_DEVICE), "dst is NULL"),
        ((_ptr(a), 8, ffi.NULL, 8, 4, 2, MEMCPY_DEVICE_TO_DEVICE), "src is NULL"),
        ((_ptr(a), 16, _ptr(b), 8, 8, 5, MEMCPY_DEVICE_TO_DEVICE), "runs past the end of its 64-byte block"),
        ((_ptr(a), 2**62, _ptr(b), 8, 8, 5, MEMCPY_DEVICE_TO_DEVICE), "overflow size_t"),
    ]
    for args, fragment in cases:
        assert lib.aclrtMemcpy2d(*args) == errors.ACL_ERROR_INVALID_PARAM, fragment
        assert fragment in ae.errors.recent_error_message()
    # Nothing to copy: success whatever the pointers.
    assert lib.aclrtMemcpy2d(ffi.NULL, 0, ffi.NULL, 0, 0, 3, 99) == 0
    a.close()
    b.close()


def test_mem_info():
    ae.ensure_device()
    free, total = ffi.new("size_t *"), ffi.new("size_t *")
    assert lib.aclrtGetMemInfo(lib.ACL_HBM_MEM, free, total) == 0
    assert 0 < free[0] <= total[0]
    ram = total[0]
    big = ae.DeviceBuffer(1 << 30)
    assert lib.aclrtGetMemInfo(lib.ACL_DDR_MEM, free, total) == 0
    assert total[0] == ram and free[0] <= ram - (1 << 30)  # what aclrtMalloc holds is not free
    big.close()
    assert lib.aclrtGetMemInfo(99, free, total) == errors.ACL_ERROR_INVALID_PARAM
    assert "attr 99 is not an aclrtMemAttr" in ae.errors.recent_error_message()
    assert lib.aclrtGetMemInfo(lib.ACL_HBM_MEM, ffi.NULL, total) == errors.ACL_ERROR_INVALID_PARAM
    assert "free is NULL" in ae.errors.recent_error_message()


def test_last_error_is_the_threads_last_failing_status():
    lib.aclrtGetLastError(lib.ACL_RT_THREAD_LEVEL)
    assert lib.aclrtStreamQuery(ffi.NULL, ffi.NULL) == errors.ACL_ERROR_INVALID_PARAM
    assert lib.aclrtPeekAtLastError(lib.ACL_RT_THREAD_LEVEL) == errors.ACL_ERROR_INVALID_PARAM
    assert lib.aclrtGetLastError(lib.ACL_RT_THREAD_LEVEL) == errors.ACL_ERROR_INVALID_PARAM
    assert lib.aclrtGetLastError(lib.ACL_RT_THREAD_LEVEL) == 0
    assert lib.aclrtGetErrorCodeFromExceptionInfo(ffi.NULL) == 0xFFFFFFFF


def test_profiling_switches_are_accepted_and_checked():
    ae.ensure_device()
    path = b"./prof"
    assert lib.aclprofInit(path, len(path)) == 0
    assert lib.aclprofInit(ffi.NULL, 0) == errors.ACL_ERROR_INVALID_PARAM
    assert "aclprofInit: profilerResultPath is NULL" in ae.errors.recent_error_message()
    devices = ffi.new("uint32_t[1]", [0])
    cfg = lib.aclprofCreateConfig(devices, 1, lib.ACL_AICORE_NONE, ffi.NULL, 0x2)
    assert cfg != ffi.NULL
    assert lib.aclprofStart(cfg) == 0 and lib.aclprofStop(cfg) == 0
    stamp = lib.aclprofCreateStamp()
    rid = ffi.new("uint32_t *")
    assert lib.aclprofMark(stamp) == 0 and lib.aclprofRangeStart(stamp, rid) == 0 and rid[0] > 0
    assert lib.aclprofRangeStop(rid[0]) == 0 and lib.aclprofPush(stamp) == 0 and lib.aclprofPop() == 0
    lib.aclprofDestroyStamp(stamp)
    assert lib.aclprofDestroyConfig(cfg) == 0
    assert lib.aclprofStart(cfg) == errors.ACL_ERROR_INVALID_PARAM
    msg = ae.errors.recent_error_message()
    assert "profilerConfig" in msg and "destroyed" in msg
    assert lib.aclprofCreateConfig(ffi.NULL, 1, 0, ffi.NULL, 0) == ffi.NULL
    assert "deviceIdList is NULL" in ae.errors.recent_error_message()
    assert lib.aclprofSetConfig(lib.ACL_PROF_STORAGE_LIMIT, b"200MB", 5) == 0
    assert lib.aclprofSetConfig(lib.ACL_PROF_ARGS_MAX, b"x", 1) == errors.ACL_ERROR_INVALID_PARAM
    assert "configType 17 is not in" in ae.errors.recent_error_message()
    assert lib.aclprofFinalize() == 0


def test_process_queries_and_dump_switches(tmp_path):
    ae.ensure_device()
    key = ffi.new("char[64]")  # IPC memory works (test_ipc_events.py): here its NULL check
    assert lib.aclrtIpcMemGetExportKey(ffi.NULL, 16, key, 64, 0) == errors.ACL_ERROR_INVALID_PARAM
    assert "aclrtIpcMemGetExportKey: devPtr is NULL" in ae.errors.recent_error_message()
    pid = ffi.new("int32_t *")
    assert lib.aclrtDeviceGetBareTgid(pid) == 0 and pid[0] == os.getpid()
    cfg = tmp_path / "dump.json"
    cfg.write_text("{}")
    assert lib.aclmdlInitDump() == 0
    assert lib.aclmdlSetDump(str(cfg).encode()) == 0
    assert lib.aclmdlSetDump(b"/nonexistent/dump.json") == errors.ACL_ERROR_INVALID_PARAM
    assert "cannot be read" in ae.errors.recent_error_message()
    assert lib.aclmdlFinalizeDump() == 0


def test_thread_last_task_id_and_func_handle_of_an_exception():
    ae.ensure_device()
    with ae.Stream() as s, ae.DeviceBuffer(16) as buf:
        task = ffi.new("uint32_t *")
        host = np.zeros(4, np.float32)
        for want in (1, 2):  # a stream numbers its work from 1, as exception information reports it
            assert lib.aclrtMemcpyAsync(buf.handle, 16, ffi.from_buffer(host), 16, 1, s.handle) == 0
            assert lib.aclrtGetThreadLastTaskId(task) == 0 and task[0] == want
        s.synchronize()
    assert lib.aclrtGetThreadLastTaskId(ffi.NULL) == errors.ACL_ERROR_INVALID_PARAM
    func = ffi.new("aclrtFuncHandle *")
    assert lib.aclrtGetFuncHandleFromExceptionInfo(ffi.NULL, func) == -1  # ACL_ERROR_INVALID_EXCEPTION_INFO
