"""Library warnings reach Python: AclnnWarning in normal mode, an exception in strict mode.

One scenario per kind of warning the library gives, committed through
the raw C API (as a ported program would) or the array API.
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import AclnnError, AclnnWarning, ffi, lib
from aclnn_emu.errors import check

H2D, D2H = lib.ACL_MEMCPY_HOST_TO_DEVICE, lib.ACL_MEMCPY_DEVICE_TO_HOST


@pytest.fixture
def mode(request):
    """Runs a test in normal (False) or strict (True) mode."""
    old = aclnn_emu.get_option("ACLNN_EMU_STRICT")
    aclnn_emu.set_option("ACLNN_EMU_STRICT", int(request.param))
    yield request.param
    aclnn_emu.set_option("ACLNN_EMU_STRICT", old)
    aclnn_emu.synchronize_device()


def _malloc(nbytes):
    out = ffi.new("void **")
    check(lib.aclrtMalloc(out, nbytes, 0), "aclrtMalloc")
    check(lib.aclrtMemset(out[0], nbytes, 0, nbytes), "aclrtMemset")
    return out[0]


_WORKSPACE = {"ptr": ffi.NULL, "size": 0}


def _malloc_raw(nbytes):
    out = ffi.new("void **")
    check(lib.aclrtMalloc(out, nbytes, 0), "aclrtMalloc")
    return out[0]


def _tensor(shape, data):
    t = lib.aclCreateTensor(shape, len(shape), lib.ACL_FLOAT, ffi.NULL, 0, lib.ACL_FORMAT_NCHW, shape, len(shape), data)
    assert t != ffi.NULL
    return t


def _upsample_launch(grad, out):
    """Phases one and two of a 1x1x4x4 -> 1x1x2x2 upsample backward; returns phase two's status."""
    g, o = _tensor([1, 1, 4, 4], grad), _tensor([1, 1, 2, 2], out)
    a, b = lib.aclCreateIntArray([4, 4], 2), lib.aclCreateIntArray([1, 1, 2, 2], 4)
    ws, ex = ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")
    check(lib.aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g, a, b, False, 0, 0, o, ws, ex), "phase one")
    if _WORKSPACE["size"] < ws[0]:  # allocated once, as a program keeps its workspace
        _WORKSPACE["ptr"], _WORKSPACE["size"] = _malloc_raw(ws[0]), ws[0]
    status = lib.aclnnUpsampleBilinear2dBackwardV2(_WORKSPACE["ptr"], ws[0], ex[0], ffi.NULL)
    for t in (g, o):
        lib.aclDestroyTensor(t)
    lib.aclDestroyIntArray(a)
    lib.aclDestroyIntArray(b)
    return status


def _host_memory_as_device():
    host = ffi.new("float[16]")
    out = _malloc(64)
    try:
        check(_upsample_launch(host, out), "aclnnUpsampleBilinear2dBackwardV2")
        check(lib.aclrtSynchronizeStream(ffi.NULL), "aclrtSynchronizeStream")
    finally:
        lib.aclrtFree(out)


def _unaligned_address():
    block, out = _malloc(128), _malloc(64)
    try:
        check(_upsample_launch(ffi.cast("char *", block) + 4, out), "aclnnUpsampleBilinear2dBackwardV2")
        check(lib.aclrtSynchronizeStream(ffi.NULL), "aclrtSynchronizeStream")
    finally:
        lib.aclrtFree(block)
        lib.aclrtFree(out)


def _memcpy_kind_mismatch():
    a, b = ffi.new("char[16]"), ffi.new("char[16]")
    check(lib.aclrtMemcpy(a, 16, b, 16, H2D), "aclrtMemcpy")


def _missing_sync():
    grad, out = _malloc(64), _malloc(64)
    host = ffi.new("char[16]")
    try:
        check(_upsample_launch(grad, out), "aclnnUpsampleBilinear2dBackwardV2")
        check(lib.aclrtMemcpy(host, 16, out, 16, D2H), "aclrtMemcpy")
    finally:
        lib.aclrtSynchronizeStream(ffi.NULL)
        lib.aclrtFree(grad)
        lib.aclrtFree(out)


def _free_in_use():
    grad, out = _malloc(64), _malloc(64)
    check(_upsample_launch(grad, out), "aclnnUpsampleBilinear2dBackwardV2")
    try:
        check(lib.aclrtFree(grad), "aclrtFree")
    except AclnnError:
        lib.aclrtSynchronizeStream(ffi.NULL)
        lib.aclrtFree(grad)  # strict mode refused the first free
        raise
    finally:
        lib.aclrtSynchronizeStream(ffi.NULL)
        lib.aclrtFree(out)


def _bad_boxes():
    g = np.ones((2, 1, 1, 1), np.float32)
    boxes = np.array([[0, 1, 1, 3, 3], [5, 1, 1, 3, 3]], np.float32)  # box 1: image 5 of 1
    aclnn_emu.roi_align_v2_backward(g, boxes, (1, 1, 4, 4), sampling_ratio=1)


def _nan_box():
    g = np.ones((1, 1, 1, 1), np.float32)
    aclnn_emu.roi_align_v2_backward(g, np.array([[0, np.nan, 1, 3, 3]], np.float32), (1, 1, 4, 4))


SCENARIOS = {
    # name: (commit the misuse, message fragment, strict status)
    "host_memory_as_device": (_host_memory_as_device, "is not inside memory from aclrtMalloc", 161002),
    "unaligned_address": (_unaligned_address, "is not 32-byte aligned", 161002),
    "memcpy_kind_mismatch": (_memcpy_kind_mismatch, "disagrees", 100000),
    "missing_sync": (_missing_sync, "missing aclrtSynchronizeStream", 100000),
    "free_in_use": (_free_in_use, "still uses", 100000),
    "bad_image_id": (_bad_boxes, "image id outside [0, 1)", 161002),
    "nan_box": (_nan_box, "non-finite coordinates", 161002),
}


@pytest.mark.parametrize("mode", [False], indirect=True)
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_warning_in_normal_mode(mode, name):
    aclnn_emu.ensure_device()
    commit, fragment, _ = SCENARIOS[name]
    with pytest.warns(AclnnWarning, match=fragment.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        commit()
    assert lib.aclnnEmuPendingWarnings() == 0  # delivered, not left behind


@pytest.mark.parametrize("mode", [True], indirect=True)
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_error_in_strict_mode(mode, name):
    aclnn_emu.ensure_device()
    commit, fragment, status = SCENARIOS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error", AclnnWarning)  # no warning as well as the error
        with pytest.raises(AclnnError) as info:
            commit()
    assert info.value.status == status
    assert fragment in info.value.message and "(strict mode)" in info.value.message


def test_warnings_are_not_delivered_twice():
    aclnn_emu.ensure_device()
    with pytest.warns(AclnnWarning) as record:
        _memcpy_kind_mismatch()
        aclnn_emu.synchronize_device()
    assert len([w for w in record if issubclass(w.category, AclnnWarning)]) == 1


def test_many_warnings_are_summarised():
    aclnn_emu.ensure_device()
    a, b = ffi.new("char[16]"), ffi.new("char[16]")
    for _ in range(20):
        lib.aclrtMemcpy(a, 16, b, 16, H2D)  # raw calls: nothing drains in between
    with pytest.warns(AclnnWarning) as record:
        aclnn_emu.synchronize_device()
    messages = [str(w.message) for w in record]
    assert len(messages) == 9 and "12 more warning(s) were not kept" in messages[-1]


LEAK = """
import warnings, aclnn_emu
from aclnn_emu import lib
aclnn_emu.ensure_device()
t = lib.aclCreateIntArray([1, 2], 2)  # never destroyed
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    aclnn_emu.check(lib.aclFinalize(), "aclFinalize")
print([str(x.message) for x in w if issubclass(x.category, aclnn_emu.AclnnWarning)])
"""


def test_leak_at_finalize_is_a_warning():
    r = subprocess.run([sys.executable, "-c", LEAK], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "1 resource(s) still alive at aclFinalize (1 aclIntArray)" in r.stdout
    assert "aclrtStream" not in r.stdout  # the implicit default stream is the library's own, not a leak
