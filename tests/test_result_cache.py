"""The block cache behind array-level results (aclnnEmuCacheAlloc): reuse, ownership, bounds, trimming, fork."""

import os
import subprocess
import sys

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ffi, lib

SHAPE_IN = (2, 4, 64, 64)  # results of (2, 4, 128, 128) float32: 512 KiB, above the cache's 64 KiB threshold


def upsample(value: float = 1.0) -> np.ndarray:
    return aclnn_emu.upsample_bilinear2d(np.full(SHAPE_IN, value, np.float32), (128, 128))


def test_a_freed_result_block_is_reused_warm():
    a = upsample(1.0)
    address = a.ctypes.data
    del a
    assert lib.aclnnEmuCacheIdleBytes() > 0
    b = upsample(2.0)
    assert b.ctypes.data == address  # the same block, its pages already mapped
    assert b.flags.writeable and b.flags.c_contiguous
    np.testing.assert_array_equal(b, 2.0)


def test_a_view_keeps_its_block_alive():
    a = upsample(3.0)
    view = a[1, 2]
    address = a.ctypes.data
    del a
    b = upsample(4.0)
    assert b.ctypes.data != address  # still owned by the view
    np.testing.assert_array_equal(view, 3.0)
    np.testing.assert_array_equal(b, 4.0)


def test_small_results_are_plain_numpy_arrays():
    r = aclnn_emu.upsample_bilinear2d(np.ones((1, 1, 4, 4), np.float32), (8, 8))
    assert r.flags.owndata


def test_c_api_edges():
    assert lib.aclnnEmuCacheAlloc(0) == ffi.NULL
    assert lib.aclnnEmuCacheAlloc(2**63) == ffi.NULL  # beyond any size class
    lib.aclnnEmuCacheFree(ffi.NULL)
    p = lib.aclnnEmuCacheAlloc(100)
    assert int(ffi.cast("uintptr_t", p)) % 64 == 0
    ffi.buffer(p, 100)[:] = b"x" * 100
    before = lib.aclnnEmuCacheIdleBytes()
    lib.aclnnEmuCacheFree(p)
    assert lib.aclnnEmuCacheIdleBytes() == before + 4096  # 100 + a 64-byte header: the 4 KiB class
    assert lib.aclnnEmuCacheTrim() >= 4096
    assert lib.aclnnEmuCacheIdleBytes() == 0


def run_script(body: str, **env: str) -> str:
    r = subprocess.run([sys.executable, "-c", body], capture_output=True, text=True, timeout=120,
                       env={**os.environ, **env})  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


PRELUDE = (
    "import numpy as np, aclnn_emu as ae\n"
    "from aclnn_emu import lib\n"
    f"up = lambda v: ae.upsample_bilinear2d(np.full({SHAPE_IN}, v, np.float32), (128, 128))\n"
)


def test_zero_bytes_keeps_nothing():
    out = run_script(PRELUDE + "a = up(1.0); del a; b = up(2.0); print(lib.aclnnEmuCacheIdleBytes(), float(b.sum()))",
                     ACLNN_EMU_CACHE_BYTES="0")  # fmt: skip
    assert out.split() == ["0", str(float(2 * 4 * 128 * 128 * 2))]


def test_the_bound_is_honoured():
    out = run_script(PRELUDE + "xs = [up(1.0) for _ in range(4)]; del xs; print(lib.aclnnEmuCacheIdleBytes())",
                     ACLNN_EMU_CACHE_BYTES=str(1 << 20))  # fmt: skip
    assert int(out) <= 1 << 20


@pytest.mark.parametrize("call", ["lib.aclFinalize()", "lib.aclrtResetDevice(0)"])
def test_finalize_and_reset_trim_and_live_results_survive(call):
    out = run_script(
        PRELUDE + "a = up(1.0); keep = up(5.0); del a\n"
        "assert lib.aclnnEmuCacheIdleBytes() > 0\n"
        f"assert {call} == 0\n"
        "print(lib.aclnnEmuCacheIdleBytes(), float(keep.sum()))\n"
    )
    assert out.split() == ["0", str(float(2 * 4 * 128 * 128 * 5))]


def test_fork_child_uses_and_returns_blocks():
    out = run_script(
        PRELUDE + "import os\na = up(1.0); del a\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    b = up(7.0); ok = float(b.sum()) == 2 * 4 * 128 * 128 * 7; del b\n"
        "    os._exit(0 if ok and lib.aclnnEmuCacheIdleBytes() > 0 else 1)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(os.waitstatus_to_exitcode(status), float(up(2.0).sum()))\n"
    )
    assert out.split() == ["0", str(float(2 * 4 * 128 * 128 * 2))]


def test_a_freed_device_block_is_kept_and_reused():
    # aclrtFree keeps device blocks in the same cache: a DeviceBuffer of the same size class
    # gets the block back with its pages mapped (a loop of allocations faults nothing in).
    aclnn_emu.ensure_device(0)
    lib.aclnnEmuCacheTrim()
    a = aclnn_emu.DeviceBuffer(3 << 20)  # 3 MiB: the 4 MiB class of 2 MiB pages
    address = a.address
    a.close()
    assert lib.aclnnEmuCacheIdleBytes() == 4 << 20
    b = aclnn_emu.DeviceBuffer(4 << 20)
    assert b.address == address and lib.aclnnEmuCacheIdleBytes() == 0
    assert lib.aclnnEmuIsDeviceMemory(ffi.cast("void *", b.address), 4 << 20)
    b.close()
    # a NORMAL_ONLY block is of another page kind: it never takes a huge-page block
    p = ffi.new("void **")
    assert lib.aclrtMalloc(p, 4 << 20, lib.ACL_MEM_MALLOC_NORMAL_ONLY) == 0
    assert int(ffi.cast("uintptr_t", p[0])) != address and lib.aclnnEmuCacheIdleBytes() == 4 << 20
    assert lib.aclrtFree(p[0]) == 0
    assert lib.aclnnEmuCacheIdleBytes() == 8 << 20
    assert lib.aclnnEmuCacheTrim() == 8 << 20


def test_freed_device_blocks_respect_zero_bytes_and_reset():
    body = (
        "import aclnn_emu as ae\nfrom aclnn_emu import lib\nae.ensure_device(0)\n"
        "ae.DeviceBuffer(1 << 20).close()\nidle = lib.aclnnEmuCacheIdleBytes()\n"
        "assert lib.aclrtResetDevice(0) == 0\nprint(idle, lib.aclnnEmuCacheIdleBytes())\n"
    )
    assert run_script(body).split() == [str(1 << 20), "0"]
    assert run_script(body, ACLNN_EMU_CACHE_BYTES="0").split() == ["0", "0"]


def test_strict_mode_fills_a_reused_device_block_with_nan():
    # Reuse must not hand out the last user's data as if it were initialised (strict mode's NaN fill).
    body = (
        "import numpy as np, aclnn_emu as ae\nfrom aclnn_emu import lib\nae.ensure_device(0)\n"
        "a = ae.DeviceBuffer(1 << 20); a.copy_from_host(np.zeros(1 << 20, np.uint8)); a.close()\n"
        "b = ae.DeviceBuffer(1 << 20); v = b.numpy()\n"
        "print(lib.aclnnEmuCacheIdleBytes(), int(v.min()), int(v.max()))\n"
    )
    assert run_script(body, ACLNN_EMU_STRICT="1").split() == ["0", "255", "255"]


def test_the_least_recently_freed_blocks_make_room():
    # Bound 3 MiB: a 2 MiB-class and a 1 MiB-class block fill it; a 4 MiB-class block alone exceeds
    # it (freed at once); a 128 KiB-class block then evicts the oldest (the 2 MiB one), not itself.
    body = (
        "from aclnn_emu import lib\n"
        "def cycle(n):\n"
        "    p = lib.aclnnEmuCacheAlloc(n); lib.aclnnEmuCacheFree(p); return lib.aclnnEmuCacheIdleBytes()\n"
        "print(cycle(1 << 20), cycle(512 << 10), cycle(3 << 20), cycle(100 << 10))\n"
    )
    out = run_script(body, ACLNN_EMU_CACHE_BYTES=str(3 << 20)).split()
    assert out == [str(2 << 20), str(3 << 20), str(3 << 20), str((1 << 20) + (128 << 10))]


def test_a_malformed_bound_is_reported_and_the_default_kept():
    body = (
        "from aclnn_emu import lib\n"
        "p = lib.aclnnEmuCacheAlloc(100); lib.aclnnEmuCacheFree(p)\n"
        "print(lib.aclnnEmuCacheIdleBytes())\n"
    )
    r = subprocess.run([sys.executable, "-c", body], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "ACLNN_EMU_CACHE_BYTES": "1GiB"})  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["4096"]  # kept: the default bound (1 GiB) applies
    assert "ignoring ACLNN_EMU_CACHE_BYTES=1GiB (expected a number of bytes)" in r.stderr
