"""The AscendCL runtime and the meta API through the raw C functions: results and error paths."""

import threading

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib


def msg():
    return E.recent_error_message()


@pytest.fixture(autouse=True)
def device():
    aclnn_emu.ensure_device(0)


def test_repeat_init_and_message_is_per_thread_and_cleared():
    assert lib.aclInit(ffi.NULL) == E.ACL_ERROR_REPEAT_INITIALIZE
    seen = {}

    def other():
        seen["other"] = msg()

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen["other"] == ""  # another thread does not see this thread's message
    assert msg() == "aclInit: aclInit was already called in this process"
    assert msg() == ""  # reading clears it


def test_missing_config_file():
    assert lib.aclInit(b"/nonexistent/acl.json") == E.ACL_ERROR_INVALID_PARAM
    assert "cannot be opened" in msg()


def test_devices():
    count = ffi.new("uint32_t *")
    assert lib.aclrtGetDeviceCount(count) == 0 and count[0] == 1
    dev = ffi.new("int32_t *")
    assert lib.aclrtGetDevice(dev) == 0 and dev[0] == 0
    assert lib.aclrtSetDevice(1) == E.ACL_ERROR_RT_INVALID_DEVICEID
    assert "deviceId 1 is out of range [0, 1)" in msg()
    assert lib.aclrtSetDevice(-1) == E.ACL_ERROR_RT_INVALID_DEVICEID
    assert lib.aclrtResetDevice(5) == E.ACL_ERROR_RT_INVALID_DEVICEID
    assert lib.aclrtGetDevice(ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    assert lib.aclrtGetDeviceCount(ffi.NULL) == E.ACL_ERROR_INVALID_PARAM


def test_thread_without_device_gets_context_null():
    out = {}

    def worker():
        s = ffi.new("aclrtStream *")
        out["st"] = lib.aclrtCreateStream(s)
        out["msg"] = msg()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert out["st"] == E.ACL_ERROR_RT_CONTEXT_NULL
    assert "call aclrtSetDevice first" in out["msg"]


def test_sys_params():
    v = ffi.new("int64_t *")
    assert lib.aclrtCtxSetSysParamOpt(lib.ACL_OPT_DETERMINISTIC, 1) == 0
    assert lib.aclrtCtxGetSysParamOpt(lib.ACL_OPT_DETERMINISTIC, v) == 0 and v[0] == 1
    assert lib.aclrtSetSysParamOpt(lib.ACL_OPT_STRONG_CONSISTENCY, 7) == 0
    assert lib.aclrtGetSysParamOpt(lib.ACL_OPT_STRONG_CONSISTENCY, v) == 0 and v[0] == 7
    assert lib.aclrtCtxSetSysParamOpt(9, 1) == E.ACL_ERROR_INVALID_PARAM
    assert "opt 9 is not an aclSysParamOpt" in msg()
    assert lib.aclrtGetSysParamOpt(0, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    lib.aclrtCtxSetSysParamOpt(lib.ACL_OPT_DETERMINISTIC, 0)


def test_malloc_free_errors():
    p = ffi.new("void **")
    assert lib.aclrtMalloc(p, 0, 0) == E.ACL_ERROR_INVALID_PARAM and "size is 0" in msg()
    assert lib.aclrtMalloc(ffi.NULL, 16, 0) == E.ACL_ERROR_INVALID_PARAM and "devPtr is NULL" in msg()
    assert lib.aclrtMalloc(p, 2**64 - 1, 0) == E.ACL_ERROR_BAD_ALLOC and "cannot be allocated" in msg()
    assert lib.aclrtMalloc(p, 1 << 50, 0) == E.ACL_ERROR_BAD_ALLOC
    assert lib.aclrtMalloc(p, 16, 99) == E.ACL_ERROR_INVALID_PARAM and "policy 99" in msg()
    assert lib.aclrtMalloc(p, 100, lib.ACL_MEM_MALLOC_HUGE_ONLY | lib.ACL_MEM_TYPE_HIGH_BAND_WIDTH) == 0
    block = p[0]
    assert int(ffi.cast("uintptr_t", block)) % 32 == 0
    # CANN's driver: an address it did not allocate is an invalid value (ACL_ERROR_RT_PARAM_INVALID).
    assert lib.aclrtFree(block + 4) == E.ACL_ERROR_RT_PARAM_INVALID and "not the start of a live block" in msg()
    assert lib.aclrtFreeHost(block) == E.ACL_ERROR_RT_PARAM_INVALID  # device block freed as host memory
    assert lib.aclrtFree(block) == 0
    assert lib.aclrtFree(block) == E.ACL_ERROR_RT_PARAM_INVALID and "already freed (double free)" in msg()
    assert lib.aclrtFree(ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    assert lib.aclrtMallocHost(p, 64) == 0
    assert lib.aclrtFreeHost(p[0]) == 0


def test_memcpy_and_memset():
    with aclnn_emu.DeviceBuffer(64) as buf:
        src = np.arange(16, dtype=np.float32)
        buf.copy_from_host(src)
        np.testing.assert_array_equal(buf.copy_to_host(np.float32), src)
        dst = np.zeros(16, np.float32)
        d = ffi.from_buffer(dst)
        assert lib.aclrtMemcpy(d, 32, buf.handle, 64, 2) == E.ACL_ERROR_INVALID_PARAM
        assert msg() == "aclrtMemcpy: count 64 exceeds destMax 32"
        assert lib.aclrtMemcpy(ffi.NULL, 64, buf.handle, 64, 2) == E.ACL_ERROR_INVALID_PARAM
        assert "dst is NULL" in msg()
        assert lib.aclrtMemcpy(d, 64, ffi.NULL, 64, 2) == E.ACL_ERROR_INVALID_PARAM
        assert lib.aclrtMemcpy(d, 64, buf.handle, 64, 8) == E.ACL_ERROR_INVALID_PARAM
        assert "kind 8 is not an aclrtMemcpyKind" in msg()
        # Reading past the end of a device block is refused whatever the mode.
        assert lib.aclrtMemcpy(d, 64, buf.handle + 32, 64, 2) == E.ACL_ERROR_INVALID_PARAM
        assert "runs past the end of its 64-byte block" in msg()
        assert lib.aclrtMemset(buf.handle, 64, 0x3F, 64) == 0
        assert np.all(buf.copy_to_host(np.uint8) == 0x3F)
        assert lib.aclrtMemset(buf.handle, 16, 0, 64) == E.ACL_ERROR_INVALID_PARAM
        assert "count 64 exceeds maxCount 16" in msg()
        # Async variants on the default stream.
        assert lib.aclrtMemsetAsync(buf.handle, 64, 0, 64, ffi.NULL) == 0
        assert lib.aclrtMemcpyAsync(buf.handle, 64, ffi.from_buffer(src), 64, 1, ffi.NULL) == 0
        assert lib.aclrtSynchronizeStream(ffi.NULL) == 0
        np.testing.assert_array_equal(buf.copy_to_host(np.float32), src)


def test_stream_order_and_sync():
    with aclnn_emu.Stream() as s, aclnn_emu.DeviceBuffer(4 * 1024) as buf:
        host = [np.full(1024, i, np.float32) for i in range(50)]
        for h in host:  # each copy overwrites the previous one: order decides the result
            assert lib.aclrtMemcpyAsync(buf.handle, buf.nbytes, ffi.from_buffer(h), buf.nbytes, 1, s.handle) == 0
        s.synchronize()
        assert np.all(buf.copy_to_host(np.float32) == 49)


def test_streams_from_many_threads():
    errors = []

    def worker(i):
        try:
            aclnn_emu.ensure_device(0)
            with aclnn_emu.Stream() as s, aclnn_emu.DeviceBuffer(4096) as buf:
                for rep in range(20):
                    val = np.full(1024, i * 100 + rep, np.float32)
                    lib.aclrtMemcpyAsync(buf.handle, 4096, ffi.from_buffer(val), 4096, 1, s.handle)
                    s.synchronize()
                    assert np.all(buf.copy_to_host(np.float32) == i * 100 + rep)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_stream_handle_errors():
    s = ffi.new("aclrtStream *")
    assert lib.aclrtCreateStream(ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    assert lib.aclrtCreateStream(s) == 0
    stream = s[0]
    assert lib.aclrtDestroyStream(stream) == 0
    assert lib.aclrtSynchronizeStream(stream) == E.ACL_ERROR_RT_INVALID_HANDLE
    assert "was already destroyed (stale handle)" in msg()
    assert lib.aclrtDestroyStream(stream) == E.ACL_ERROR_RT_INVALID_HANDLE
    assert lib.aclrtDestroyStream(ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    bogus = ffi.cast("aclrtStream", 0x1234)
    assert lib.aclrtSynchronizeStream(bogus) == E.ACL_ERROR_RT_INVALID_HANDLE
    assert "not a live aclrtStream" in msg()


def test_tensor_creation_and_queries():
    dims, strides, storage = [2, 3, 4], [24, 4, 1], [48]
    data = ffi.new("float[48]")
    t = lib.aclCreateTensor(dims, 3, lib.ACL_FLOAT, strides, 2, lib.ACL_FORMAT_ND, storage, 1, data)
    assert t != ffi.NULL
    try:
        for fn, want in ((lib.aclGetViewShape, dims), (lib.aclGetViewStrides, strides),
                         (lib.aclGetStorageShape, storage)):  # fmt: skip
            arr, n = ffi.new("int64_t **"), ffi.new("uint64_t *")
            assert fn(t, arr, n) == 0
            assert [arr[0][i] for i in range(n[0])] == want
            lib.free(arr[0])
        off, fmt, dt, addr = ffi.new("int64_t *"), ffi.new("aclFormat *"), ffi.new("aclDataType *"), ffi.new("void **")
        assert lib.aclGetViewOffset(t, off) == 0 and off[0] == 2
        assert lib.aclGetFormat(t, fmt) == 0 and fmt[0] == lib.ACL_FORMAT_ND
        assert lib.aclGetDataType(t, dt) == 0 and dt[0] == lib.ACL_FLOAT
        assert lib.aclGetRawTensorAddr(t, addr) == 0 and addr[0] == data
        assert lib.aclSetRawTensorAddr(t, ffi.NULL) == 0
        assert lib.aclGetViewShape(t, ffi.NULL, ffi.new("uint64_t *")) == E.ACLNN_ERR_PARAM_NULLPTR
        assert "viewDims is NULL" in msg()
    finally:
        assert lib.aclDestroyTensor(t) == 0
    assert lib.aclDestroyTensor(t) == E.ACLNN_ERR_PARAM_INVALID  # stale handle: reported, not freed twice
    assert "was already destroyed (stale handle)" in msg()
    assert lib.aclGetFormat(t, ffi.new("aclFormat *")) == E.ACLNN_ERR_PARAM_INVALID


@pytest.mark.parametrize(
    "args, message",
    [
        (([2, -1], 2, 0, None, 0, 2, [2], 1), "viewDims[1] is negative (-1)"),
        (([2, 3], 2, 0, [3, -1], 0, 2, [6], 1), "stride[1] is negative (-1)"),
        (([2, 3], 2, 0, None, -4, 2, [6], 1), "offset is negative (-4)"),
        (([1] * 9, 9, 0, None, 0, 2, [1], 1), "viewDimsNum is 9, above the limit of 8 dims"),
        ((None, 2, 0, None, 0, 2, [6], 1), "viewDims is NULL but viewDimsNum is 2"),
        (([2, 3], 2, 99, None, 0, 2, [6], 1), "dataType 99 is not an aclDataType"),
        (([2, 3], 2, 0, None, 0, 77, [6], 1), "format 77 is not an aclFormat"),
        (([2**40, 2**40], 2, 0, None, 0, 2, [1], 1), "overflows int64"),
        (([2, 2], 2, 0, [2**62, 1], 0, 2, [1], 1), "overflows int64"),
        (([2, 3], 2, 0, None, 0, 2, [-6], 1), "storageDims[0] is negative"),
    ],
)
def test_tensor_creation_errors(args, message):
    dims, n, dt, strides, offset, fmt, storage, sn = args
    t = lib.aclCreateTensor(
        dims if dims is not None else ffi.NULL, n, dt, strides or ffi.NULL, offset, fmt, storage, sn, ffi.NULL
    )
    assert t == ffi.NULL
    assert message in msg()


def test_empty_and_scalar_tensors():
    t = lib.aclCreateTensor([0, 5], 2, lib.ACL_FLOAT, ffi.NULL, 0, lib.ACL_FORMAT_ND, [0], 1, ffi.NULL)
    assert t != ffi.NULL and lib.aclDestroyTensor(t) == 0
    t = lib.aclCreateTensor(ffi.NULL, 0, lib.ACL_FLOAT, ffi.NULL, 0, lib.ACL_FORMAT_ND, ffi.NULL, 0, ffi.NULL)
    assert t != ffi.NULL and lib.aclDestroyTensor(t) == 0


def test_arrays():
    a = lib.aclCreateIntArray([1, 2, 3], 3)
    size = ffi.new("uint64_t *")
    assert lib.aclGetIntArraySize(a, size) == 0 and size[0] == 3
    assert lib.aclDestroyIntArray(a) == 0
    assert lib.aclGetIntArraySize(a, size) == E.ACLNN_ERR_PARAM_INVALID
    assert lib.aclCreateIntArray(ffi.NULL, 2) == ffi.NULL and "value is NULL but size is 2" in msg()
    f = lib.aclCreateFloatArray([1.0, 2.0], 2)
    b = lib.aclCreateBoolArray([True], 1)
    assert f != ffi.NULL and b != ffi.NULL
    assert lib.aclDestroyIntArray(ffi.cast("aclIntArray *", f)) == E.ACLNN_ERR_PARAM_INVALID
    assert "is not an aclIntArray" in msg()
    assert lib.aclDestroyFloatArray(f) == 0 and lib.aclDestroyBoolArray(b) == 0


def _upsample_executor(g, out):
    """A live executor for a tiny upsample (tensors over device buffers)."""
    tg = aclnn_emu.Tensor(g, shape=(1, 1, 2, 2), dtype=np.float32, format="NCHW")
    to = aclnn_emu.Tensor(out, shape=(1, 1, 1, 1), dtype=np.float32, format="NCHW")
    with aclnn_emu.IntArray((2, 2)) as osz, aclnn_emu.IntArray((1, 1, 1, 1)) as isz:
        ws, ex = aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(tg, osz, isz, False, 0, 0, to)
    tg.close()  # the executor captured the tensors: destroying them now is fine
    to.close()
    return ex


_WORKSPACES: list = []  # kept to the end: the operators may still use them


def _ws(ex):
    """The workspace phase one asked for (a DeviceBuffer), as a C program allocates it."""
    buf = aclnn_emu.DeviceBuffer(ex.workspace_size) if ex.workspace_size else None
    _WORKSPACES.append(buf)
    return buf


def test_executor_single_use_and_errors():
    with aclnn_emu.DeviceBuffer(64) as g, aclnn_emu.DeviceBuffer(64) as out:
        g.copy_from_host(np.ones(4, np.float32))
        ex = _upsample_executor(g, out)
        raw = ex.handle
        ex.run(_ws(ex))
        aclnn_emu.synchronize_device()
        assert out.copy_to_host(np.float32, (1,))[0] == 4.0
        st = lib.aclnnUpsampleBilinear2dBackwardV2(ffi.NULL, 0, raw, ffi.NULL)
        assert st == E.ACLNN_ERR_PARAM_INVALID
        assert "already used up or destroyed" in msg()
        assert lib.aclnnUpsampleBilinear2dBackwardV2(ffi.NULL, 0, ffi.NULL, ffi.NULL) == E.ACLNN_ERR_PARAM_NULLPTR
        assert "executor is NULL" in msg()
        # An executor of one operator passed to another.
        ex2 = _upsample_executor(g, out)
        assert lib.aclnnRoiAlignV2Backward(ffi.NULL, 0, ex2.handle, ffi.NULL) == E.ACLNN_ERR_PARAM_INVALID
        assert "was created by aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize" in msg()
        # Invalid stream handle at phase two.
        bogus = ffi.cast("aclrtStream", 0x10)
        w = _ws(ex2)
        st = lib.aclnnUpsampleBilinear2dBackwardV2(w.handle, ex2.workspace_size, ex2.handle, bogus)
        assert st == E.ACLNN_ERR_RUNTIME_ERROR
        assert "stream" in msg()
        ex2.close()
        with pytest.raises(aclnn_emu.HandleClosedError):
            ex2.run()


def test_workspace_checks():
    with aclnn_emu.DeviceBuffer(64) as g, aclnn_emu.DeviceBuffer(64) as out:
        # CANN reports a workspace; NULL with that size is its 161001, and the executor is released.
        ex = _upsample_executor(g, out)
        assert ex.workspace_size > 32 << 20
        assert lib.aclnnUpsampleBilinear2dBackwardV2(ffi.NULL, ex.workspace_size, ex.handle, ffi.NULL) == (
            E.ACLNN_ERR_PARAM_NULLPTR
        )
        assert "workspace is NULL but phase one asked for" in msg()
        assert lib.aclDestroyAclOpExecutor(ex.handle) == E.ACLNN_ERR_PARAM_INVALID  # already released
        ex._cdata = None
        # Too small: refused (the NPU would write past it), also released.
        ex = _upsample_executor(g, out)
        w = _ws(ex)
        st = lib.aclnnUpsampleBilinear2dBackwardV2(w.handle, ex.workspace_size - 1, ex.handle, ffi.NULL)
        assert st == E.ACLNN_ERR_PARAM_INVALID and "is smaller than the" in msg()
        ex._cdata = None
        # A larger size is fine.
        ex = _upsample_executor(g, out)
        big = aclnn_emu.DeviceBuffer(ex.workspace_size + 4096)
        _WORKSPACES.append(big)
        assert lib.aclnnUpsampleBilinear2dBackwardV2(big.handle, big.nbytes, ex.handle, ffi.NULL) == 0
        ex._cdata = None
        aclnn_emu.synchronize_device()


def test_repeatable_executor_and_rebinding():
    with (
        aclnn_emu.DeviceBuffer(64) as g1,
        aclnn_emu.DeviceBuffer(64) as g2,
        aclnn_emu.DeviceBuffer(64) as out,
        aclnn_emu.DeviceBuffer(64) as out2,
    ):
        g1.copy_from_host(np.ones(4, np.float32))
        g2.copy_from_host(np.full(4, 2.0, np.float32))
        ex = _upsample_executor(g1, out)
        ex.set_repeatable()
        w = _ws(ex)
        ex.run(w)
        ex.run(w)  # repeatable: runs again
        ex.set_input_address(0, g2)
        ex.set_output_address(0, out2)
        ex.run(w)
        aclnn_emu.synchronize_device()
        assert out.copy_to_host(np.float32, (1,))[0] == 4.0
        assert out2.copy_to_host(np.float32, (1,))[0] == 8.0
        with pytest.raises(E.ParamInvalidError, match="index 1 is out of range: .* has 1 input tensor"):
            ex.set_input_address(1, g2)
        raw = ex.handle
        ex.close()
        assert lib.aclDestroyAclOpExecutor(raw) == E.ACLNN_ERR_PARAM_INVALID
        assert lib.aclSetAclOpExecutorRepeatable(ffi.NULL) == E.ACLNN_ERR_PARAM_NULLPTR


def test_view_past_block_end_is_refused_at_launch():
    with aclnn_emu.DeviceBuffer(16) as g, aclnn_emu.DeviceBuffer(4) as out:
        tg = aclnn_emu.Tensor(g, shape=(1, 1, 2, 2), dtype=np.float32, format="NCHW", offset=1)  # reaches byte 20
        to = aclnn_emu.Tensor(out, shape=(1, 1, 1, 1), dtype=np.float32, format="NCHW")
        with aclnn_emu.IntArray((2, 2)) as osz, aclnn_emu.IntArray((1, 1, 1, 1)) as isz:
            _, ex = aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(tg, osz, isz, False, 0, 0, to)
        with pytest.raises(E.ParamInvalidError, match="gradOut view reaches 4 bytes past the end of its 16-byte block"):
            ex.run(_ws(ex))
        ex.close()
        tg.close()
        to.close()


def test_tensor_without_data_is_refused_at_launch():
    t = aclnn_emu.Tensor
    with aclnn_emu.DeviceBuffer(64) as out:
        tg = t(out, shape=(1, 1, 2, 2), dtype=np.float32, format="NCHW")
        lib.aclSetRawTensorAddr(tg.handle, ffi.NULL)
        to = t(out, shape=(1, 1, 1, 1), dtype=np.float32, format="NCHW")
        with aclnn_emu.IntArray((2, 2)) as osz, aclnn_emu.IntArray((1, 1, 1, 1)) as isz:
            _, ex = aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(tg, osz, isz, False, 0, 0, to)
        with pytest.raises(E.ParamNullptrError, match="gradOut has no data"):
            ex.run(_ws(ex))
        ex.close()
        tg.close()
        to.close()


def test_aclnn_init_and_finalize(tmp_path):
    assert lib.aclnnInit(ffi.NULL) == 0
    cfg = tmp_path / "c.json"
    cfg.write_text("{}")
    assert lib.aclnnInit(str(cfg).encode()) == 0
    assert lib.aclnnInit(b"/nonexistent.json") == E.ACLNN_ERR_PARAM_INVALID and "cannot be opened" in msg()
    assert lib.aclnnFinalize() == 0


def test_synchronize_device_waits_for_every_stream():
    with aclnn_emu.Stream() as s, aclnn_emu.DeviceBuffer(1 << 20) as a, aclnn_emu.DeviceBuffer(1 << 20) as b:
        src = np.full(1 << 18, 5.0, np.float32)
        lib.aclrtMemcpyAsync(a.handle, a.nbytes, ffi.from_buffer(src), a.nbytes, 1, s.handle)
        lib.aclrtMemcpyAsync(b.handle, b.nbytes, ffi.from_buffer(src), b.nbytes, 1, ffi.NULL)
        assert lib.aclrtSynchronizeDevice() == 0
        assert np.all(a.numpy(np.float32) == 5.0) and np.all(b.numpy(np.float32) == 5.0)


def test_host_register_errors():
    arr = np.zeros(64, np.uint8)
    ptr, out = ffi.from_buffer(arr), ffi.new("void **")
    assert lib.aclrtHostRegister(ffi.NULL, 64, 0, out) == E.ACL_ERROR_INVALID_PARAM and "ptr is NULL" in msg()
    assert lib.aclrtHostRegister(ptr, 0, 0, out) == E.ACL_ERROR_INVALID_PARAM and "size 0 is invalid" in msg()
    assert lib.aclrtHostRegister(ptr, 64, 3, out) == E.ACL_ERROR_INVALID_PARAM and "type 3" in msg()
    assert lib.aclrtHostRegister(ptr, 64, 0, out) == 0 and out[0] == ptr
    assert lib.aclrtHostRegister(ptr + 8, 8, 0, out) == 0  # inside: one more reference
    assert lib.aclrtHostRegister(ptr + 32, 64, 0, out) == E.ACL_ERROR_INVALID_PARAM and "overlaps" in msg()
    assert lib.aclrtHostUnregister(ptr) == 0 and lib.aclrtHostUnregister(ptr) == 0
    assert lib.aclrtHostUnregister(ptr) == E.ACL_ERROR_INVALID_PARAM and "is not registered" in msg()


def test_memcpy_kind_checks_in_normal_mode_are_warnings_only():
    with aclnn_emu.DeviceBuffer(16) as buf:
        host = np.zeros(4, np.float32)
        # DEVICE_TO_HOST with the arguments swapped: CANN would misbehave; here a warning (strict: error).
        assert lib.aclrtMemcpy(buf.handle, 16, ffi.from_buffer(host), 16, 2) == 0
        assert lib.aclrtMemcpy(buf.handle, 16, ffi.from_buffer(host), 16, lib.ACL_MEMCPY_DEFAULT) == 0


def test_device_count_from_environment():
    import os
    import subprocess
    import sys

    code = (
        "import aclnn_emu; from aclnn_emu import ffi, lib\n"
        "lib.aclInit(ffi.NULL); n = ffi.new('uint32_t *'); lib.aclrtGetDeviceCount(n)\n"
        "print(n[0], lib.aclrtSetDevice(2), lib.aclrtSetDevice(3))\n"
    )
    env = dict(os.environ, ACLNN_EMU_DEVICE_COUNT="3")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True).stdout.split()
    assert out == ["3", "0", str(E.ACL_ERROR_RT_INVALID_DEVICEID)]


def test_device_count_is_fixed_after_init():
    with pytest.raises(E.AclError, match="can only be set before aclInit"):
        aclnn_emu.set_option("ACLNN_EMU_DEVICE_COUNT", 2)


def test_output_overlapping_an_input_is_refused():
    buf = np.zeros(64, np.float32)
    g = buf[:16].reshape(1, 1, 4, 4)
    out = buf[8:12].reshape(1, 1, 2, 2)  # inside gradOut's bytes
    with pytest.raises(E.ParamInvalidError, match="out memory overlaps gradOut's"):
        aclnn_emu.upsample_bilinear2d_backward_v2(g, (4, 4), (1, 1, 2, 2), out=out)
    ok = buf[16:20].reshape(1, 1, 2, 2)  # same buffer, disjoint bytes: fine
    aclnn_emu.upsample_bilinear2d_backward_v2(g, (4, 4), (1, 1, 2, 2), out=ok)
