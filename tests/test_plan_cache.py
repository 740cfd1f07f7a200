"""Executors kept per argument signature for small array-level calls (issue 27's T2), and aclnnEmuRunArrays.

A kept executor must never change what a call returns: new data in the same shapes gives new results,
a change of settings (SoC, options, fork) plans again, a call that warns at phase one warns each time,
each thread runs its own executors, and the cache is bounded.
"""

import gc
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib, ops


def nearest2x(x: np.ndarray) -> np.ndarray:
    """Nearest upsampling by 2 (CANN's nearest at an integer scale picks floor(dst / 2))."""
    return x.repeat(2, axis=2).repeat(2, axis=3)


def plans_of(api: str) -> list:
    return [p for k, p in ops._plans().items() if k[0].name == api]


def test_a_repeated_call_runs_the_kept_executor_on_new_data():
    rng = np.random.default_rng(0)
    ops._plans().clear()
    for _ in range(5):
        x = rng.standard_normal((2, 3, 5, 7)).astype(np.float32)
        np.testing.assert_array_equal(aclnn_emu.upsample_nearest2d(x, (10, 14)), nearest2x(x))
    assert len(plans_of("aclnnUpsampleNearest2d")) == 1  # one signature, one executor


def test_views_of_one_buffer_share_their_registration():
    # Contiguous views of one buffer (x[0], x[1]) and overlapping ones (b[0:6], b[2:8]) as two inputs.
    x = np.arange(2 * 4 * 6, dtype=np.float32).reshape(2, 4, 6)
    b = np.arange(8, dtype=np.float32)
    for _ in range(3):
        np.testing.assert_array_equal(aclnn_emu.add(x[0], x[1]), x[0] + x[1])
        np.testing.assert_array_equal(aclnn_emu.add(b[0:6], b[2:8]), b[0:6] + b[2:8])


def test_out_and_strided_arguments_still_give_the_right_bits():
    x = np.arange(1 * 2 * 4 * 4, dtype=np.float32).reshape(1, 2, 4, 4)
    out = np.full((1, 2, 8, 8), -1.0, np.float32)
    for _ in range(3):
        r = aclnn_emu.upsample_nearest2d(x, (8, 8), out=out)
        assert r is out
        np.testing.assert_array_equal(out, nearest2x(x))
        t = x.transpose(0, 1, 3, 2)  # strided: planned each time
        np.testing.assert_array_equal(aclnn_emu.upsample_nearest2d(t, (8, 8)), nearest2x(np.ascontiguousarray(t)))


def test_signatures_differ_in_every_attribute_and_in_the_sign_of_zero():
    x = np.ones((1, 1, 2, 2), np.float32)
    keys = set()
    for size, align, scale_h, scale_w in [((4, 4), False, 0.0, 0.0), ((4, 4), False, -0.0, 0.0),
                                          ((4, 4), True, 0.0, 0.0), ((4, 5), False, 0.0, 0.0)]:  # fmt: skip
        sig = ops._Signature()
        keys.add((sig.tensor(x, "NCHW"), sig.int_array(list(size)), align, sig.double(scale_h), sig.double(scale_w)))
    assert len(keys) == 4
    sig = ops._Signature()
    sig.double(float("nan"))
    assert not sig.cacheable


def test_a_change_of_soc_plans_again():
    # On Ascend950 CANN launches no kernel for an equal-shape bilinear backward (the fresh result is
    # filled, with a warning); on Ascend910B it is the identity. A kept 910B executor would copy.
    code = """
        import warnings, numpy as np, aclnn_emu
        from aclnn_emu import ffi, lib
        g = np.arange(64, dtype=np.float32).reshape(1, 1, 8, 8)
        for _ in range(3):
            np.testing.assert_array_equal(aclnn_emu.upsample_bilinear2d_backward_v2(g, (8, 8), (1, 1, 8, 8)), g)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # aclFinalize reports the kept executor and workspace
            assert lib.aclFinalize() == 0
        aclnn_emu.set_soc("Ascend950")  # only between aclFinalize and aclInit
        assert lib.aclInit(ffi.NULL) == 0 and lib.aclrtSetDevice(0) == 0
        for _ in range(3):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                y = aclnn_emu.upsample_bilinear2d_backward_v2(g, (8, 8), (1, 1, 8, 8))
            assert any("launches no kernel" in str(x.message) for x in w), [str(x.message) for x in w]
            assert np.all(y.view(np.uint32) == 0xFFFFFFFF), y
        print("ok")
    """
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_a_change_of_option_plans_again():
    x = np.ones((1, 1, 4, 4), np.float32)
    ops._plans().clear()
    aclnn_emu.upsample_nearest2d(x, (8, 8))
    (plan,) = plans_of("aclnnUpsampleNearest2d")
    old = aclnn_emu.get_option("ACLNN_EMU_THREADS")
    aclnn_emu.set_option("ACLNN_EMU_THREADS", 1)
    try:
        pointers = [ffi.from_buffer(x), ffi.from_buffer(np.empty((1, 1, 8, 8), np.float32))]
        status = lib.aclnnEmuRunArrays(plan.executor, pointers, 2, plan.workspace, plan.workspace_size, ffi.NULL, 1,
                                       ffi.NULL)  # fmt: skip
        assert status == lib.ACLNN_EMU_PLAN_STALE
        assert "planned under other settings" in E.recent_error_message()
        np.testing.assert_array_equal(aclnn_emu.upsample_nearest2d(x, (8, 8)), nearest2x(x))  # planned again
    finally:
        aclnn_emu.set_option("ACLNN_EMU_THREADS", old)


def test_a_forked_child_plans_again():
    # The child's kernels run serially (libgomp's pool does not survive fork): a parent's executor, planned for
    # its threads, must not run there.
    code = """
        import os, numpy as np, aclnn_emu
        from aclnn_emu import ops
        # 32768 output elements: two threads in the parent (the kernels' threshold), still a kept plan.
        x = np.arange(2 * 4 * 32 * 32, dtype=np.float32).reshape(2, 4, 32, 32)
        aclnn_emu.upsample_nearest2d(x, (64, 64))
        pid = os.fork()
        if pid == 0:
            ok = all(np.array_equal(aclnn_emu.upsample_nearest2d(x * k, (64, 64)),
                                    (x * k).repeat(2, axis=2).repeat(2, axis=3)) for k in (1, 2, 3))
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0, status
        print("ok")
    """
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_a_call_that_warns_at_phase_one_warns_every_time():
    # An infinite spatialScale is accepted by CANN and warned about at phase one: such a call is not kept.
    x = np.ones((1, 2, 4, 4), np.float32)
    rois = np.array([[0, 0, 2, 2]], np.float32)
    for _ in range(3):
        with pytest.warns(E.AclnnWarning, match="spatialScale is infinite"):
            aclnn_emu.roi_align(x, rois, np.zeros(1, np.int32), "avg", 2, 2, 2, float("inf"))
    assert not plans_of("aclnnRoiAlign")


def test_threads_each_run_their_own_executors():
    errors: list[str] = []

    def work(k: int) -> None:
        rng = np.random.default_rng(k)
        for _ in range(200):
            x = rng.standard_normal((1, 2, 3, 3)).astype(np.float32)
            if not np.array_equal(aclnn_emu.upsample_nearest2d(x, (6, 6)), nearest2x(x)):
                errors.append(f"thread {k}")
                return

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_the_cache_is_bounded_and_releases_its_executors():
    ops._plans().clear()
    gc.collect()
    before = lib.aclnnEmuLiveHandles()
    for n in range(1, ops._PLANS_MAX + 40):
        aclnn_emu.upsample_nearest2d(np.ones((1, 1, 1, n), np.float32), (1, 2 * n))
    assert len(ops._plans()) == ops._PLANS_MAX
    assert lib.aclnnEmuLiveHandles() - before == ops._PLANS_MAX  # the evicted ones were destroyed
    ops._plans().clear()
    gc.collect()
    assert lib.aclnnEmuLiveHandles() == before


def repeatable_executor() -> tuple:
    x = np.ones((1, 1, 2, 2), np.float32)
    out = np.empty((1, 1, 4, 4), np.float32)
    tx, to = aclnn_emu.Tensor(x, format="NCHW"), aclnn_emu.Tensor(out, format="NCHW")
    size = aclnn_emu.IntArray([4, 4])
    ws = ffi.new("uint64_t *")
    ex = ffi.new("aclOpExecutor **")
    assert lib.aclnnUpsampleNearest2dGetWorkspaceSize(tx.handle, size.handle, to.handle, ws, ex) == 0
    return ex[0], [ffi.from_buffer(x), ffi.from_buffer(out)], out, (tx, to, size)


def test_run_arrays_reports_bad_arguments():
    ex, pointers, out, keep = repeatable_executor()
    bad = [
        (ffi.NULL, pointers, 2, 0, lib.ACLNN_ERR_PARAM_NULLPTR, "executor is NULL"),
        (ex, ffi.NULL, 2, 0, lib.ACLNN_ERR_PARAM_NULLPTR, "addrs is NULL"),
        (ex, pointers, 2, 8, lib.ACLNN_ERR_PARAM_INVALID, "flags 0x8"),
        (ex, pointers, 2, 0, lib.ACLNN_ERR_PARAM_INVALID, "is not repeatable"),
    ]
    for executor, addrs, n, flags, status, message in bad:
        assert lib.aclnnEmuRunArrays(executor, addrs, n, ffi.NULL, 0, ffi.NULL, flags, ffi.NULL) == status
        assert message in E.recent_error_message()
    assert lib.aclSetAclOpExecutorRepeatable(ex) == 0
    assert lib.aclnnEmuRunArrays(ex, pointers, 3, ffi.NULL, 0, ffi.NULL, 0, ffi.NULL) == lib.ACLNN_ERR_PARAM_INVALID
    assert "n is 3 but aclnnUpsampleNearest2d has 2 tensors" in E.recent_error_message()
    warned = ffi.new("uint64_t *", 99)
    assert lib.aclnnEmuRunArrays(ex, pointers, 2, ffi.NULL, 0, ffi.NULL, 1, warned) == 0
    assert warned[0] == 0
    np.testing.assert_array_equal(out, 1.0)
    assert lib.aclDestroyAclOpExecutor(ex) == 0
    assert lib.aclnnEmuRunArrays(ex, pointers, 2, ffi.NULL, 0, ffi.NULL, 0, ffi.NULL) == lib.ACLNN_EMU_PLAN_STALE
    assert "is gone" in E.recent_error_message()
    del keep


def test_run_arrays_leaves_no_registration_behind():
    ex, _, _, keep = repeatable_executor()
    assert lib.aclSetAclOpExecutorRepeatable(ex) == 0
    x, out = np.full((1, 1, 2, 2), 3.0, np.float32), np.zeros((1, 1, 4, 4), np.float32)  # registered by nobody
    pointers = [ffi.from_buffer(x), ffi.from_buffer(out)]
    for _ in range(3):
        assert lib.aclnnEmuRunArrays(ex, pointers, 2, ffi.NULL, 0, ffi.NULL, 1, ffi.NULL) == 0
        for p in pointers:  # not registered any more: unregistering fails
            assert lib.aclrtHostUnregister(p) == lib.ACL_ERROR_INVALID_PARAM
            assert "is not registered host memory" in E.recent_error_message()
    np.testing.assert_array_equal(out, 3.0)
    assert lib.aclDestroyAclOpExecutor(ex) == 0
    del keep
