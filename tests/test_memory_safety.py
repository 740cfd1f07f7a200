"""Misuse that must never corrupt memory or hand back stale data (issue 21).

The C side of the same cases (executor races, freed memory, host views past
their allocation, cache blocks) is tests/c/memory_safety.c, run by meson under
ASan+UBSan and ThreadSanitizer; here the Python layer's share and the cases
that need a fresh interpreter.
"""

import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import _memory, ffi, lib
from aclnn_emu import errors as E

from reference import upsample_bilinear2d_backward


def msg() -> str:
    return E.recent_error_message()


def run_python(code: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "ASCEND_GLOBAL_LOG_LEVEL": "3", **(env or {})}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=full_env, timeout=timeout
    )


# ---- 2. freed device memory -------------------------------------------------


def test_copies_to_freed_device_memory_are_refused():
    aclnn_emu.ensure_device()
    p = ffi.new("void **")
    assert lib.aclrtMalloc(p, 256, 0) == 0
    block = p[0]
    host = np.zeros(64, np.float32)
    assert lib.aclrtFree(block) == 0
    h2d = lib.ACL_MEMCPY_HOST_TO_DEVICE
    assert lib.aclrtMemcpy(block, 256, ffi.from_buffer(host), 256, h2d) == E.ACL_ERROR_RT_PARAM_INVALID
    assert "device memory that was freed" in msg()
    assert lib.aclrtMemset(block, 256, 0, 256) == E.ACL_ERROR_RT_PARAM_INVALID and "use after free" in msg()
    assert lib.aclrtFree(block) == E.ACL_ERROR_RT_PARAM_INVALID and "already freed" in msg()


def test_freed_memory_is_refused_without_the_block_cache():
    # ACLNN_EMU_CACHE_BYTES=0: the block is not kept idle but quarantined, still known as freed.
    r = run_python(
        """
        import numpy as np, aclnn_emu
        from aclnn_emu import ffi, lib
        aclnn_emu.ensure_device()
        p = ffi.new("void **")
        blocks = []
        for _ in range(100):
            assert lib.aclrtMalloc(p, 1 << 16, 0) == 0
            blocks.append(p[0])
        for b in blocks:
            assert lib.aclrtFree(b) == 0
        host = np.ones(1 << 14, np.float32)
        for b in blocks:
            assert lib.aclrtMemcpy(b, 1 << 16, ffi.from_buffer(host), 1 << 16, 1) == 107000
        assert lib.aclnnEmuCacheIdleBytes() == 0
        print("ok")
        """,
        env={"ACLNN_EMU_CACHE_BYTES": "0"},
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_operator_on_a_freed_device_buffer_is_refused():
    grad = aclnn_emu.DeviceBuffer(4 * 4 * 4)
    out_block = ffi.new("void **")
    assert lib.aclrtMalloc(out_block, 64, 0) == 0
    grad.copy_from_host(np.ones(16, np.float32))
    with (
        aclnn_emu.Tensor(grad, shape=(1, 1, 4, 4), dtype=np.float32, format="NCHW") as g,
        aclnn_emu.IntArray([4, 4]) as osize,
        aclnn_emu.IntArray([1, 1, 2, 2]) as isize,
    ):
        out = lib.aclCreateTensor([1, 1, 2, 2], 4, lib.ACL_FLOAT, [4, 2, 2, 1], 0, lib.ACL_FORMAT_NCHW, [4], 1,
                                  out_block[0])  # fmt: skip
        ws, ex = ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")
        st = lib.aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g.handle, osize.handle, isize.handle, False, 0.0,
                                                                   0.0, out, ws, ex)  # fmt: skip
        assert st == 0
        workspace = aclnn_emu.DeviceBuffer(ws[0]) if ws[0] else None
        assert lib.aclrtFree(out_block[0]) == 0
        st = lib.aclnnUpsampleBilinear2dBackwardV2(workspace.handle if workspace else ffi.NULL, ws[0], ex[0], ffi.NULL)
        assert st == E.ACLNN_ERR_PARAM_INVALID and "out data" in msg()
        lib.aclDestroyTensor(out)


# ---- 3. views larger than their memory ---------------------------------------


def _run_backward_into(array: np.ndarray) -> None:
    """A 1x1x8x8 -> 1x1x4x4 upsample backward whose out is a 16-element view starting at array[0]."""
    grad = np.ones((1, 1, 8, 8), np.float32)
    with (
        aclnn_emu.Tensor(grad, format="NCHW") as g,
        aclnn_emu.Tensor(array, shape=(1, 1, 4, 4), strides=(16, 16, 4, 1), format="NCHW") as o,
        aclnn_emu.IntArray([8, 8]) as osize,
        aclnn_emu.IntArray([1, 1, 4, 4]) as isize,
    ):
        ws, ex = aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(g, osize, isize, False, 0.0, 0.0, o)
        workspace = aclnn_emu.DeviceBuffer(ws) if ws else None
        ex.run(workspace)
        aclnn_emu.synchronize_device()


def test_handle_level_view_past_its_array_is_refused_and_nothing_is_written():
    backing = np.full(32, 7.0, np.float32)
    # The registration covers the whole backing array (the 8 floats past the
    # slice are still its own), so this view is inside: it runs.
    _run_backward_into(backing[:8])
    past = np.full(8, 7.0, np.float32)
    with pytest.raises(aclnn_emu.ParamInvalidError, match="out view reaches 32 bytes past the end of its"):
        _run_backward_into(past)
    assert np.all(past == 7.0)


def test_c_view_past_a_malloc_block_is_refused_in_every_mode(tmp_path):
    for strict in ("0", "1"):
        r = run_python(
            """
            import ctypes, numpy as np, aclnn_emu
            from aclnn_emu import ffi, lib
            aclnn_emu.ensure_device()
            libc = ctypes.CDLL(None)
            libc.malloc.restype = ctypes.c_void_p
            out = libc.malloc(24)  # the view needs 64 bytes
            grad = np.ones((1, 1, 8, 8), np.float32)
            with aclnn_emu.Tensor(grad, format="NCHW") as g, aclnn_emu.IntArray([8, 8]) as osize, \\
                    aclnn_emu.IntArray([1, 1, 4, 4]) as isize:
                o = lib.aclCreateTensor([1, 1, 4, 4], 4, lib.ACL_FLOAT, [16, 16, 4, 1], 0, lib.ACL_FORMAT_NCHW,
                                        [16], 1, ffi.cast("void *", out))
                ws, ex = ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")
                assert lib.aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(
                    g.handle, osize.handle, isize.handle, False, 0.0, 0.0, o, ws, ex) == 0
                w = aclnn_emu.DeviceBuffer(ws[0]) if ws[0] else None
                st = lib.aclnnUpsampleBilinear2dBackwardV2(w.handle if w else ffi.NULL, ws[0], ex[0], ffi.NULL)
                m = ffi.string(lib.aclGetRecentErrMsg()).decode()
                assert st == 161002 and "past the end of its 24-byte host allocation" in m, (st, m)
                lib.aclDestroyTensor(o)
            libc.free(ctypes.c_void_p(out))
            print("ok")
            """,
            env={"ACLNN_EMU_STRICT": strict},
        )
        assert r.returncode == 0 and r.stdout.strip() == "ok", (strict, r.stdout, r.stderr)


def test_memcpy_from_a_short_malloc_block_reads_only_the_block(tmp_path):
    # CANN's test_aclnn_upsample_nearest.cpp copies a 5-float vector into a 15-float tensor.
    for strict in ("0", "1"):
        r = run_python(
            """
            import ctypes, warnings, aclnn_emu
            from aclnn_emu import ffi, lib
            aclnn_emu.ensure_device()
            libc = ctypes.CDLL(None)
            libc.malloc.restype = ctypes.c_void_p
            src = libc.malloc(24)
            ctypes.memset(src, 0x41, 24)
            dev = aclnn_emu.DeviceBuffer(256)
            lib.aclrtMemset(dev.handle, 256, 0x7f, 256)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                st = lib.aclrtMemcpy(dev.handle, 256, ffi.cast("void *", src), 200, lib.ACL_MEMCPY_HOST_TO_DEVICE)
                aclnn_emu.synchronize_device()
            back = bytes(ffi.buffer(ffi.cast("char *", dev.handle), 256))
            m = ffi.string(lib.aclGetRecentErrMsg()).decode()
            usable = back.index(b"\\x00") if st == 0 else 0
            print(st, usable, back[200:].count(b"\\x7f") == 56, back[usable:200].count(b"\\x00") == 200 - usable,
                  "copied as zeros" in m or any("copied as zeros" in str(x.message) for x in w))
            libc.free(ctypes.c_void_p(src))
            """,
            env={"ACLNN_EMU_STRICT": strict},
        )
        assert r.returncode == 0, r.stderr
        st, usable, tail_kept, zeros, told = r.stdout.split()
        if strict == "1":
            assert st == "107000" and told == "True"
        else:
            assert st == "0" and 24 <= int(usable) <= 40 and tail_kept == zeros == told == "True", r.stdout


# ---- 4. the block cache -------------------------------------------------------


def test_cache_sizes_that_overflow_and_double_frees():
    assert lib.aclnnEmuCacheAlloc(2**64 - 1) == ffi.NULL
    assert lib.aclnnEmuCacheAlloc(2**64 - 64) == ffi.NULL
    a = lib.aclnnEmuCacheAlloc(100)
    assert a != ffi.NULL
    assert lib.aclnnEmuCacheFree(a) == 0
    assert lib.aclnnEmuCacheFree(a) == E.ACL_ERROR_INVALID_PARAM and "not a live block" in msg()
    b, c = lib.aclnnEmuCacheAlloc(100), lib.aclnnEmuCacheAlloc(100)
    assert b != c
    lib.aclnnEmuCacheFree(b)
    lib.aclnnEmuCacheFree(c)


# ---- 5. byte order and alignment ----------------------------------------------


def _misaligned(a: np.ndarray) -> np.ndarray:
    """A copy of a whose data starts one byte past an aligned address."""
    raw = np.zeros(a.nbytes + 1, np.uint8)
    view = np.frombuffer(raw.data, dtype=a.dtype, count=a.size, offset=1).reshape(a.shape)
    view[...] = a
    assert not view.flags.aligned
    return view


BOXES = np.array([[0, 1.0, 1.0, 6.0, 6.0], [0, 0.5, 2.0, 7.0, 5.0]], np.float32)


def _ops(x, boxes, grad_roi, grad_up):
    return {
        "roi_align_v2": lambda: aclnn_emu.roi_align_v2(x, boxes, 2, 2, 1.0, 2, False),
        "roi_align": lambda: aclnn_emu.roi_align(x, boxes[:, 1:], np.array([0, 0], np.int32), "avg", 2, 2, 2, 1.0),
        "roi_align_v2_backward": lambda: aclnn_emu.roi_align_v2_backward(grad_roi, boxes, (1, 3, 8, 8), 2, 2, 1.0, 2),
        "upsample_bilinear2d": lambda: aclnn_emu.upsample_bilinear2d(x, (16, 16)),
        "upsample_bilinear2d_backward": lambda: aclnn_emu.upsample_bilinear2d_backward(grad_up, (16, 16), (1, 3, 8, 8)),
        "upsample_bilinear2d_backward_v2": lambda: aclnn_emu.upsample_bilinear2d_backward_v2(
            grad_up, (16, 16), (1, 3, 8, 8)
        ),
    }


@pytest.mark.parametrize("variant", ["big-endian", "misaligned"])
def test_every_operator_converts_foreign_byte_order_and_misaligned_arrays(variant):
    rng = np.random.default_rng(21)
    x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
    grad_roi = rng.standard_normal((2, 3, 2, 2)).astype(np.float32)
    grad_up = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    expected = {name: fn() for name, fn in _ops(x, BOXES, grad_roi, grad_up).items()}

    def convert(a):
        return a.astype(a.dtype.newbyteorder(">")) if variant == "big-endian" else _misaligned(a)

    got = {name: fn() for name, fn in _ops(convert(x), convert(BOXES), convert(grad_roi), convert(grad_up)).items()}
    for name in expected:
        assert got[name].dtype.isnative and np.array_equal(got[name], expected[name]), name
    # The library saw aligned, native copies (under UBSan a misaligned load aborts the run).
    assert _memory.describable(convert(x)).flags.aligned and _memory.describable(convert(x)).dtype.isnative


def test_big_endian_gradient_is_read_as_values_not_bytes():
    g = np.ones((1, 1, 2, 2), ">f4")
    boxes = np.array([[0, 0, 0, 3, 3]], ">f4")
    gi = aclnn_emu.roi_align_v2_backward(g, boxes, (1, 1, 4, 4), 2, 2, 1.0, 1, False)
    assert abs(float(gi.sum()) - 4.0) < 1e-5


@pytest.mark.parametrize("variant", ["big-endian", "misaligned"])
def test_out_of_foreign_byte_order_or_misaligned_receives_the_values(variant):
    grad = np.random.default_rng(5).standard_normal((1, 2, 8, 8)).astype(np.float32)
    ref = upsample_bilinear2d_backward(grad, (4, 4), False, 0.0, 0.0)
    out = np.zeros((1, 2, 4, 4), ">f4") if variant == "big-endian" else _misaligned(np.zeros((1, 2, 4, 4), np.float32))
    got = aclnn_emu.upsample_bilinear2d_backward_v2(grad, (8, 8), (1, 2, 4, 4), out=out)
    assert got is out
    np.testing.assert_allclose(out.astype(np.float32), ref, rtol=1e-5, atol=1e-6)


def test_handle_level_tensor_refuses_arrays_it_cannot_use_in_place():
    with pytest.raises(aclnn_emu.ParamInvalidError, match="non-native byte order"):
        aclnn_emu.Tensor(np.ones(4, ">f4"))
    with pytest.raises(aclnn_emu.ParamInvalidError, match="not aligned to its 4-byte elements"):
        aclnn_emu.Tensor(_misaligned(np.ones(4, np.float32)))


# ---- 6. outputs the operator does not write -------------------------------------


def _dirty_cache(shape):
    """Leave a cache block of the result's size full of a recognisable value."""
    a = aclnn_emu.upsample_bilinear2d(np.full((1, 1, 2, 2), 5.0, np.float32), shape[2:])
    assert np.all(a == 5.0)
    del a


def test_empty_input_upsample_result_is_never_recycled_memory():
    shape = (1, 2, 128, 128)  # 128 KiB: a cache block
    _dirty_cache((1, 1, 128, 256))
    y = aclnn_emu.upsample_bilinear2d(np.zeros((1, 2, 0, 3), np.float32), (128, 128))
    assert y.shape == shape
    # CANN writes nothing: the Python layer's fresh result holds the strict-mode fill, not old data.
    assert np.all(y.view(np.uint32) == 0xFFFFFFFF)


def test_empty_input_with_out_leaves_out_as_cann_does():
    out = np.full((1, 2, 6, 6), 3.0, np.float32)
    aclnn_emu.upsample_bilinear2d(np.zeros((1, 2, 0, 3), np.float32), (6, 6), out=out)
    assert np.all(out == 3.0)


@pytest.mark.parametrize("shape", [(0, 3, 8, 8), (1, 3, 0, 8), (1, 3, 8, 0)])
def test_onnx_roi_align_on_an_empty_map_writes_zeros(shape):
    _dirty_cache((1, 1, 128, 256))
    rois = np.tile(np.array([[0, 0, 4, 4]], np.float32), (700, 1))  # 700*3*16 floats: a cache block
    out = aclnn_emu.roi_align(np.zeros(shape, np.float32), rois, np.zeros(700, np.int32), "avg", 4, 4, 2, 1.0)
    assert out.shape == (700, 3, 4, 4) and np.all(out == 0.0)


def test_ascend950_equal_shape_backward_result_is_filled():
    r = run_python(
        """
        import warnings, numpy as np, aclnn_emu
        aclnn_emu.set_soc("Ascend950")
        a = aclnn_emu.upsample_bilinear2d(np.full((1, 1, 2, 2), 5.0, np.float32), (256, 256))
        assert np.all(a == 5.0)
        del a  # its cache block now holds 5.0s
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            g = np.ones((1, 1, 256, 256), np.float32)
            y = aclnn_emu.upsample_bilinear2d_backward_v2(g, (256, 256), (1, 1, 256, 256))
        assert any("launches no kernel" in str(x.message) for x in w)
        assert np.all(y.view(np.uint32) == 0xFFFFFFFF), np.unique(y)
        print("ok")
        """
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


# ---- 7. unbounded work ------------------------------------------------------------


def test_backward_refuses_boxes_beyond_the_work_bound_at_once():
    boxes = np.tile(np.array([[0, 0, 0, 2047, 2047]], np.float32), (20000, 1))
    g = np.ones((20000, 1, 7, 7), np.float32)
    t0 = time.perf_counter()
    with pytest.raises(aclnn_emu.ParamInvalidError, match=r"pixel updates in all .* more than 17179869184"):
        aclnn_emu.roi_align_v2_backward(g, boxes, (1, 1, 2048, 2048), 7, 7, 1.0, 0, False)
    assert time.perf_counter() - t0 < 5.0


def test_float16_forward_counts_its_per_lane_work():
    x = np.ones((1, 16, 64, 64), np.float16)
    many = np.tile(np.array([[0, 0, 0, 63, 63]], np.float16), (64, 1))
    t0 = time.perf_counter()
    # 64 boxes of 146^2 * 49 samples: inside the float32 bound, beyond float16's.
    with pytest.raises(aclnn_emu.ParamInvalidError, match=r"samples in all \(times channel blocks of 16, 32 each"):
        aclnn_emu.roi_align_v2(x, many, 7, 7, 1.0, 146, False)
    assert time.perf_counter() - t0 < 5.0
    with pytest.raises(aclnn_emu.ParamInvalidError, match="ask for more than 1048576 samples each"):
        aclnn_emu.roi_align_v2(x, many, 7, 7, 1.0, 1024, False)


# ---- 8. workspace memory -------------------------------------------------------------


def _rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.parametrize("strict", ["0", "1"])
def test_array_api_workspace_costs_no_resident_memory(strict):
    r = run_python(
        """
        import numpy as np, aclnn_emu
        def rss():
            for line in open("/proc/self/status"):
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        x = np.ones((1, 1, 1024, 1024), np.float32)
        aclnn_emu.upsample_bilinear2d(x[:, :, :8, :8], (16, 16))  # warm up the library
        ws, _ = aclnn_emu.upsample_bilinear2d_get_workspace_size(
            aclnn_emu.Tensor(x, format="NCHW"), aclnn_emu.IntArray([2048, 2048]), False, 0.0, 0.0,
            aclnn_emu.Tensor(np.empty((1, 1, 2048, 2048), np.float32), format="NCHW"))
        assert ws > 64 << 20, ws
        before = rss()
        y = aclnn_emu.upsample_bilinear2d(x, (2048, 2048))
        grown = rss() - before
        assert grown < y.nbytes + (24 << 20), (grown, ws, y.nbytes)
        print("ok")
        """,
        env={"ACLNN_EMU_STRICT": strict},
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_reserved_device_buffer_is_address_space_only():
    before = _rss()
    buf = aclnn_emu.DeviceBuffer(1 << 30, reserved=True)
    assert lib.aclnnEmuIsDeviceMemory(buf.handle, 1 << 30)
    assert _rss() - before < (16 << 20)
    buf.close()


# ---- 9. Ctrl-C ---------------------------------------------------------------------------


def test_keyboard_interrupt_gets_through_a_long_call_and_the_work_finishes_safely():
    r = run_python(
        """
        import os, signal, threading, time, numpy as np, aclnn_emu
        boxes = np.tile(np.array([[0, 0, 0, 2047, 2047]], np.float32), (800, 1))  # about 3 s of work
        g = np.ones((800, 16, 7, 7), np.float32)
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
        t0 = time.perf_counter()
        try:
            aclnn_emu.roi_align_v2_backward(g, boxes, (1, 16, 2048, 2048), 7, 7, 1.0, 0, False)
            raise SystemExit("not interrupted")
        except KeyboardInterrupt:
            latency = time.perf_counter() - t0 - 0.3
        assert latency < 1.0, latency
        del g, boxes  # the interrupted work still holds what it uses
        # A later call queues behind the interrupted work and succeeds.
        y = aclnn_emu.upsample_bilinear2d(np.ones((1, 1, 4, 4), np.float32), (8, 8))
        assert np.all(y == 1.0)
        aclnn_emu.synchronize_device()
        print("ok", round(latency, 3))
        """,
        timeout=300,
    )
    assert r.returncode == 0 and r.stdout.startswith("ok"), (r.stdout, r.stderr)


def test_a_kept_scratch_block_carries_nothing_into_the_next_run():
    """A thread keeps its last scratch block (up to 16 MiB) for its next run, not zeroed. Here it first holds
    what a gradient with Inf and NaN left (CANN's cube path, planes of 512 x 512), then a finite gradient of
    the same shape and one of another shape run in it: both match the float64 model."""
    rng = np.random.default_rng(5)
    poisoned = rng.standard_normal((2, 4, 512, 512)).astype(np.float32)
    poisoned[:, :, ::7, ::5] = np.inf
    poisoned[:, :, 3::11, 1::3] = np.nan
    aclnn_emu.upsample_bilinear2d_backward(poisoned, (512, 512), (2, 4, 64, 64))
    for in_hw, g_hw in (((64, 64), (512, 512)), ((96, 80), (384, 400))):
        g = rng.standard_normal((2, 4, *g_hw)).astype(np.float32)
        got = aclnn_emu.upsample_bilinear2d_backward(g, g_hw, (2, 4, *in_hw))
        want = upsample_bilinear2d_backward(g, in_hw, False, 0.0, 0.0)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
