"""The Python layer: exceptions, handle lifetimes, array inputs, README examples, no leaks."""

import gc
import importlib.util
import re
import resource
from pathlib import Path

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 2
    for block in blocks:
        if "import torch" in block and importlib.util.find_spec("torchvision") is None:
            continue  # the PyTorch section's example needs torch and torchvision
        exec(compile(block, str(README), "exec"), {})


def test_exception_classes_from_real_calls():
    g = np.ones((1, 1, 6, 6), np.float32)
    with pytest.raises(aclnn_emu.ParamInvalidError) as e:
        aclnn_emu.upsample_bilinear2d_backward_v2(g, (6, 6), (1, 1, 3))
    assert e.value.status == 161002 and e.value.api.endswith("GetWorkspaceSize")
    assert "inputSize must have 4 values, got 3" in e.value.message and str(e.value).startswith(e.value.api)
    assert isinstance(e.value, ValueError)  # also a ValueError for numpy-style callers

    with pytest.raises(aclnn_emu.ParamNullptrError) as e:
        E.check(lib.aclGetViewOffset(ffi.NULL, ffi.new("int64_t *")), "aclGetViewOffset")
    assert e.value.status == 161001 and e.value.message == "aclGetViewOffset: tensor is NULL"

    with pytest.raises(aclnn_emu.AclError) as e:
        aclnn_emu.DeviceBuffer(0)
    assert e.value.status == E.ACL_ERROR_INVALID_PARAM and "size is 0" in e.value.message

    with pytest.raises(aclnn_emu.RtError) as e:
        aclnn_emu.Device(7)
    assert e.value.status == E.ACL_ERROR_RT_INVALID_DEVICEID and "deviceId 7" in e.value.message

    # Phase two from a thread with no device bound: the runtime is unreachable (361001).
    import threading

    with (
        aclnn_emu.Tensor(g, format="NCHW") as tg,
        aclnn_emu.Tensor(np.zeros((1, 1, 3, 3), np.float32), format="NCHW") as to,
        aclnn_emu.IntArray((6, 6)) as osz,
        aclnn_emu.IntArray((1, 1, 3, 3)) as isz,
    ):
        ws, ex = aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(tg, osz, isz, True, 0, 0, to)
        workspace = aclnn_emu.DeviceBuffer(ws)
        caught = []

        def other_thread():
            try:
                ex.run(workspace)
            except aclnn_emu.AclnnError as err:
                caught.append(err)

        t = threading.Thread(target=other_thread)
        t.start()
        t.join()
        ex.close()
    assert isinstance(caught[0], aclnn_emu.AclnnRuntimeError) and caught[0].status == 361001
    assert "no device is set on this thread" in caught[0].message

    with pytest.raises(aclnn_emu.AclError) as e:
        E.check(lib.aclInit(ffi.NULL), "aclInit")
    assert e.value.status == E.ACL_ERROR_REPEAT_INITIALIZE


def test_unknown_status_is_base_class():
    with pytest.raises(aclnn_emu.AclnnError) as e:
        E.check(424242, "f")
    assert type(e.value) is aclnn_emu.AclnnError and e.value.status == 424242


def test_handles_raise_after_close():
    t = aclnn_emu.Tensor(np.zeros((2, 2), np.float32))
    a = aclnn_emu.IntArray([1, 2])
    s = aclnn_emu.Stream()
    b = aclnn_emu.DeviceBuffer(16)
    for h in (t, a, s, b):
        h.close()
        h.close()  # idempotent
        assert h.closed and "closed" in repr(h)
    with pytest.raises(aclnn_emu.HandleClosedError):
        _ = t.shape
    with pytest.raises(aclnn_emu.HandleClosedError):
        len(a)
    with pytest.raises(aclnn_emu.HandleClosedError):
        s.synchronize()
    with pytest.raises(aclnn_emu.HandleClosedError):
        b.numpy()
    d = aclnn_emu.Device(0)
    d.close()
    with pytest.raises(aclnn_emu.HandleClosedError):
        d.synchronize()


def test_buffer_memory_outlives_close_while_viewed():
    gc.collect()  # buffers other tests dropped go now, not in the middle of the count
    b = aclnn_emu.DeviceBuffer(64)
    view = b.numpy(np.float32)
    view[:] = 3.0
    live = lib.aclnnEmuLiveHandles()
    b.close()
    assert lib.aclnnEmuLiveHandles() == live  # the view keeps the block
    assert np.all(view == 3.0)
    del view
    gc.collect()
    assert lib.aclnnEmuLiveHandles() == live - 1


def test_tensor_properties():
    a = np.zeros((2, 3, 4, 5), np.float32)[:, 1:, ::2]
    with aclnn_emu.Tensor(a, format="NCHW") as t:
        assert t.shape == (2, 2, 2, 5) and t.strides == (60, 20, 10, 1) and t.offset == 0
        assert t.format == "NCHW" and t.acl_dtype == aclnn_emu.acl_dtype(np.float32)
    with pytest.raises(TypeError, match="has no aclDataType"):
        aclnn_emu.Tensor(np.zeros(2, np.float128 if hasattr(np, "float128") else np.str_))


def test_array_like_inputs():
    g = np.random.default_rng(0).standard_normal((1, 2, 8, 8)).astype(np.float32)
    want = aclnn_emu.upsample_bilinear2d_backward_v2(g, (8, 8), (1, 2, 4, 4))

    class ArrayLike:
        def __array__(self, dtype=None, copy=None):
            return g

    np.testing.assert_array_equal(aclnn_emu.upsample_bilinear2d_backward_v2(ArrayLike(), (8, 8), (1, 2, 4, 4)), want)
    torch = pytest.importorskip("torch")
    got = aclnn_emu.upsample_bilinear2d_backward_v2(torch.from_numpy(g)[:, :, :, :], (8, 8), (1, 2, 4, 4))
    np.testing.assert_array_equal(got, want)
    # A strided __dlpack__ view (its memory is not owned by a numpy base): used in place.
    wide = torch.from_numpy(np.repeat(g, 2, axis=3))[:, :, :, ::2]
    assert not wide.is_contiguous()
    got = aclnn_emu.upsample_bilinear2d_backward_v2(wide, (8, 8), (1, 2, 4, 4))
    np.testing.assert_array_equal(got, want)


def test_pooled_sizes_default_to_grad_output():
    g = np.ones((1, 1, 3, 2), np.float32)
    boxes = np.array([[0, 0, 0, 6, 4]], np.float32)
    a = aclnn_emu.roi_align_v2_backward(g, boxes, (1, 1, 8, 8), sampling_ratio=2)
    b = aclnn_emu.roi_align_v2_backward(g, boxes, (1, 1, 8, 8), 3, 2, sampling_ratio=2)
    np.testing.assert_array_equal(a, b)


def test_memory_bound_calls_run_on_the_calling_thread_up_to_a_larger_size(monkeypatch):
    """Array-level calls above 256 KiB run on the stream's worker while Python waits in slices (Ctrl-C gets
    through); a memory-bound operator's (its description says so) up to 256 MiB run blocking, as small ones
    do, without the two thread hand-offs. Seen in the launch mode each call asks for."""
    from aclnn_emu import ops

    modes = []

    class Recorder:
        def __getattr__(self, name):
            f = getattr(lib, name)
            if name != "aclnnEmuSetLaunchMode":
                return f
            return lambda mode: modes.append(mode) or f(mode)

    monkeypatch.setattr(ops, "lib", Recorder())
    blocking = lib.ACLNN_EMU_LAUNCH_BLOCKING

    def launched_blocking(call):
        modes.clear()
        call()
        return bool(modes) and all(m & blocking for m in modes)

    assert ops._Operator("aclnnUpsampleBilinear2dBackwardV2").memory_bound is False  # the default
    g = np.ones((2, 8, 64, 64), np.float32)  # 256 KiB, and 1 MiB out: past the small calls' limit
    assert launched_blocking(lambda: aclnn_emu.upsample_bilinear2d(g, (128, 128)))
    assert launched_blocking(lambda: aclnn_emu.add(g, g))
    boxes = np.array([[0, 0, 0, 60, 60]] * 64, np.float32)
    grad = np.ones((64, 8, 7, 7), np.float32)
    assert not launched_blocking(lambda: aclnn_emu.roi_align_v2_backward(grad, boxes, (2, 8, 64, 64), 7, 7, 1.0, 2))


def test_runs_on_a_given_stream_and_from_threads():
    import threading

    g = np.ones((2, 3, 16, 16), np.float32)
    want = aclnn_emu.upsample_bilinear2d_backward_v2(g, (16, 16), (2, 3, 5, 7))
    results = []

    def worker():
        with aclnn_emu.Stream() as s:
            results.append(aclnn_emu.upsample_bilinear2d_backward_v2(g, (16, 16), (2, 3, 5, 7), stream=s))

    ts = [threading.Thread(target=worker) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(results) == 4 and all(np.array_equal(r, want) for r in results)


def test_many_calls_do_not_grow_handles_or_memory():
    g = np.ones((1, 1, 2, 2), np.float32)
    boxes = np.array([[0, 0, 0, 1, 1]], np.float32)
    for _ in range(200):  # warm up allocator pools (and keep each signature's executor: one per thread)
        aclnn_emu.upsample_bilinear2d_backward_v2(g, (2, 2), (1, 1, 1, 1))
        aclnn_emu.roi_align_v2_backward(g, boxes, (1, 1, 2, 2))
    gc.collect()
    handles = lib.aclnnEmuLiveHandles()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(5000):
        aclnn_emu.upsample_bilinear2d_backward_v2(g, (2, 2), (1, 1, 1, 1))
        aclnn_emu.roi_align_v2_backward(g, boxes, (1, 1, 2, 2))
    gc.collect()
    assert lib.aclnnEmuLiveHandles() == handles
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss < 20_000  # KiB


def test_options_and_report():
    with pytest.raises(aclnn_emu.AclError, match="unknown option"):
        aclnn_emu.set_option("NOPE", 1)
    with pytest.raises(aclnn_emu.AclError, match=r"must be in \[0, 1\], got 5"):
        aclnn_emu.set_option("ACLNN_EMU_STRICT", 5)
    text = aclnn_emu.report()
    assert "APIs called:" in text and "aclnnUpsampleBilinear2dBackwardV2" in text
