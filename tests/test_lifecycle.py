"""Process lifecycle as users meet it: fresh interpreters exit 0, fork() children work, handles are never confused.

The interpreters are started without torch (whose OpenMP runtime, once loaded,
hides an unload at exit) and without ACLNN_EMU_THREADS, a few at a time so
that they compete for the cores as CI jobs do.
"""

import gc
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import lib

README = Path(__file__).resolve().parent.parent / "README.md"

ROI_ONCE = (
    "import numpy as np, aclnn_emu as ae\n"
    "ae.roi_align_v2_backward(np.ones((1, 2, 2, 2), np.float32), np.array([[0, 1, 1, 4, 4]], np.float32),"
    " (1, 2, 8, 8), 2, 2, 1.0, 0, True)\n"
)
UPSAMPLE_ONCE = (
    "import numpy as np, aclnn_emu as ae\n"
    "ae.upsample_bilinear2d_backward_v2(np.ones((2, 16, 128, 128), np.float32), (128, 128), (2, 16, 64, 64))\n"
)


def _clean_env():
    """The environment of a user who set no switch (a chosen library build is kept)."""
    drop = ("ACLNN_EMU_STRICT", "ACLNN_EMU_THREADS", "ACLNN_EMU_DEVICE_COUNT", "OMP_", "GOMP_")
    return {k: v for k, v in os.environ.items() if not k.startswith(drop)}


def _run_scripts(code, times, parallel=3, **extra_env):
    env = dict(_clean_env(), **extra_env)

    def one(_):
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        return r.returncode, r.stderr[-2000:]

    with ThreadPoolExecutor(parallel) as pool:
        return list(pool.map(one, range(times)))


@pytest.mark.parametrize("code", [ROI_ONCE, UPSAMPLE_ONCE], ids=["roi_align", "upsample"])
def test_fresh_interpreters_exit_zero(code):
    results = _run_scripts(code, 50)
    bad = [(rc, err) for rc, err in results if rc != 0]
    assert not bad, f"{len(bad)} of 50 runs failed; first: exit {bad[0][0]}\n{bad[0][1]}"


@pytest.mark.parametrize("code", [ROI_ONCE, UPSAMPLE_ONCE], ids=["roi_align", "upsample"])
def test_exit_with_spinning_openmp_threads(code):
    # Busy-waiting OpenMP workers (a common tuning) are awake at exit: unloading
    # the library under them crashed every run before it was made resident.
    results = _run_scripts(code, 10, OMP_WAIT_POLICY="active")
    bad = [(rc, err) for rc, err in results if rc != 0]
    assert not bad, f"{len(bad)} of 10 runs failed; first: exit {bad[0][0]}\n{bad[0][1]}"


def _readme_snippets():
    text = README.read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("index", range(2))
def test_readme_snippets_as_scripts(index):
    snippets = _readme_snippets()
    assert len(snippets) >= 2
    results = _run_scripts(snippets[index], 10)
    bad = [(rc, err) for rc, err in results if rc != 0]
    assert not bad, f"{len(bad)} of 10 runs failed; first: exit {bad[0][0]}\n{bad[0][1]}"


FORK_SCRIPT = r"""
import multiprocessing as mp, sys
import numpy as np, aclnn_emu as ae

def work(stream=None):
    rng = np.random.default_rng(7)
    g = rng.standard_normal((4, 8, 7, 7)).astype(np.float32)
    b = np.array([[0, 1, 1, 20, 20], [1, 2, 3, 30, 25], [0, 0, 0, 31, 31], [1, 5, 5, 9, 9]], np.float32)
    r = ae.roi_align_v2_backward(g, b, (2, 8, 32, 32), sampling_ratio=0, aligned=True, stream=stream)
    gu = rng.standard_normal((2, 16, 96, 96)).astype(np.float32)
    u = ae.upsample_bilinear2d_backward_v2(gu, (96, 96), (2, 16, 37, 41), stream=stream)
    return r.tobytes() + u.tobytes()

def child(q):
    mine = work()
    with ae.Stream() as s:
        on_stream = work(s)
    q.put((mine, on_stream))

if __name__ == "__main__":
    expected = work()
    with ae.Stream() as s:
        assert work(s) == expected
        ctx = mp.get_context("fork")
        q = ctx.Queue()
        procs = [ctx.Process(target=child, args=(q,)) for _ in range(3)]
        for p in procs:
            p.start()
        for _ in procs:
            mine, on_stream = q.get(timeout=60)
            assert mine == expected and on_stream == expected, "child results differ from the parent's"
        for p in procs:
            p.join(60)
            assert p.exitcode == 0, p.exitcode
        assert work(s) == expected  # the parent still works
    print("fork ok")
"""


def test_fork_children_run_both_operators(tmp_path):
    script = tmp_path / "fork_children.py"
    script.write_text(FORK_SCRIPT)
    r = subprocess.run([sys.executable, str(script)], env=_clean_env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "fork ok" in r.stdout, r.stdout + r.stderr


def test_fork_while_another_thread_runs_operators(tmp_path):
    script = tmp_path / "fork_busy.py"
    script.write_text(
        "import os, threading, numpy as np, aclnn_emu as ae\n"
        "g = np.ones((2, 16, 128, 128), np.float32)\n"
        "ref = ae.upsample_bilinear2d_backward_v2(g, (128, 128), (2, 16, 50, 50))\n"
        "stop = threading.Event()\n"
        "def busy():\n"
        "    while not stop.is_set():\n"
        "        ae.upsample_bilinear2d_backward_v2(g, (128, 128), (2, 16, 50, 50))\n"
        "t = threading.Thread(target=busy); t.start()\n"
        "for _ in range(5):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        out = ae.upsample_bilinear2d_backward_v2(g, (128, 128), (2, 16, 50, 50))\n"
        "        os._exit(0 if out.tobytes() == ref.tobytes() else 7)\n"
        "    _, status = os.waitpid(pid, 0)\n"
        "    assert os.waitstatus_to_exitcode(status) == 0, status\n"
        "stop.set(); t.join()\n"
        "print('ok')\n"
    )
    r = subprocess.run([sys.executable, str(script)], env=_clean_env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr


_WORKSPACE = {}  # one workspace buffer for the executors below, kept to the end


def _workspace(nbytes):
    if _WORKSPACE.get("buf") is None or _WORKSPACE["buf"].nbytes < nbytes:
        _WORKSPACE["buf"] = aclnn_emu.DeviceBuffer(nbytes)
    return _WORKSPACE["buf"]


def _upsample_executor(grad, out):
    grad_t = aclnn_emu.Tensor(grad, format="NCHW")
    out_t = aclnn_emu.Tensor(out, format="NCHW")
    with aclnn_emu.IntArray([4, 4]) as osize, aclnn_emu.IntArray([1, 1, 2, 2]) as isize:
        ws, ex = aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(
            grad_t, osize, isize, False, 0.0, 0.0, out_t
        )
    _workspace(ws)
    return ex, (grad_t, out_t)


def test_failed_phase_two_releases_the_python_executor_too():
    grad = np.ones((1, 1, 4, 4), np.float32)
    out = np.zeros((1, 1, 2, 2), np.float32)
    aclnn_emu.ensure_device()
    _upsample_executor(grad, out)  # the shared workspace exists before counting
    gc.collect()
    live = lib.aclnnEmuLiveHandles()
    for _ in range(200):
        ex, keep = _upsample_executor(grad, out)
        ex.set_output_address(0, grad.ctypes.data)  # out now overlaps gradOut: phase two refuses it
        with pytest.raises(aclnn_emu.ParamInvalidError, match="overlaps"):
            ex.run(_workspace(0))
        assert ex.closed  # the library released it; Python must not destroy it again
        del ex
        gc.collect()
        # A new executor (often at the freed address) is untouched by the old object's finaliser.
        good, keep2 = _upsample_executor(grad, out)
        good.run(_workspace(0))
        aclnn_emu.synchronize_device()
        for t in keep + keep2:
            t.close()
    assert lib.aclnnEmuLiveHandles() == live


def test_repeatable_executor_survives_a_failed_run():
    grad = np.ones((1, 1, 4, 4), np.float32)
    out = np.zeros((1, 1, 2, 2), np.float32)
    ex, keep = _upsample_executor(grad, out)
    ex.set_repeatable()
    ex.set_output_address(0, grad.ctypes.data)
    with pytest.raises(aclnn_emu.ParamInvalidError):
        ex.run(_workspace(0))
    assert not ex.closed
    ex.set_output_address(0, out.ctypes.data)
    ex.run(_workspace(0))
    aclnn_emu.synchronize_device()
    assert out.sum() == pytest.approx(16.0)
    ex.close()
    for t in keep:
        t.close()


def test_stale_handles_are_reported_after_many_new_handles():
    aclnn_emu.ensure_device()
    t = aclnn_emu.Tensor(np.zeros(4, np.float32))
    raw = t.handle
    addr = int(aclnn_emu.ffi.cast("uintptr_t", raw))
    t.close()
    fresh = [aclnn_emu.Tensor(np.zeros(4, np.float32)) for _ in range(500)]
    assert addr not in {int(aclnn_emu.ffi.cast("uintptr_t", f.handle)) for f in fresh}
    offset = aclnn_emu.ffi.new("int64_t *")
    assert lib.aclGetViewOffset(raw, offset) == aclnn_emu.errors.ACLNN_ERR_PARAM_INVALID
    assert "was already destroyed" in aclnn_emu.errors.recent_error_message()
    for f in fresh:
        f.close()
