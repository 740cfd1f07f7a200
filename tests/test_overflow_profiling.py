"""Overflow detection (acl_rt.h), step timestamps (acl_prof.h) and mstx domains (mstx/ms_tools_ext.h).

CANN's rules: the saturation mode is process-wide and INFNAN from init (Ascend950 refuses SATURATION), the
status is 64 bytes copied in stream order, a step's start and end are marked once each, an mstx domain name
makes one handle and "default" is taken.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib


def msg() -> str:
    return E.recent_error_message()


@pytest.fixture(autouse=True)
def device():
    aclnn_emu.ensure_device(0)


def test_saturation_mode_is_process_wide_and_checked():
    mode = ffi.new("aclrtFloatOverflowMode *")
    assert lib.aclrtGetDeviceSatMode(mode) == 0 and mode[0] == 1  # INFNAN from init
    assert lib.aclrtSetDeviceSatMode(0) == 0
    assert lib.aclrtGetDeviceSatMode(mode) == 0 and mode[0] == 0
    assert lib.aclrtSetDeviceSatMode(2) == E.ACL_ERROR_RT_PARAM_INVALID
    assert "mode 2 is not SATURATION (0) or INFNAN (1)" in msg()
    assert lib.aclrtSetDeviceSatMode(1) == 0
    assert lib.aclrtGetDeviceSatMode(ffi.NULL) == E.ACL_ERROR_INVALID_PARAM


def test_ascend950_supports_infnan_only():
    code = (
        "import aclnn_emu; from aclnn_emu import lib\n"
        "aclnn_emu.ensure_device(0)\n"
        "assert lib.aclrtSetDeviceSatMode(0) == 207000, 'saturation accepted'\n"
        "assert 'supports only ACL_RT_OVERFLOW_MODE_INFNAN' in aclnn_emu.errors.recent_error_message()\n"
        "assert lib.aclrtSetDeviceSatMode(1) == 0\n"
    )
    r = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, ACLNN_EMU_SOC="Ascend950"),
                       capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr


def test_stream_switch_and_status():
    with aclnn_emu.Stream() as s, aclnn_emu.DeviceBuffer(64) as buf:
        flag = ffi.new("uint32_t *")
        assert lib.aclrtGetStreamOverflowSwitch(s.handle, flag) == 0 and flag[0] == 0
        assert lib.aclrtSetStreamOverflowSwitch(s.handle, 1) == 0
        assert lib.aclrtGetStreamOverflowSwitch(s.handle, flag) == 0 and flag[0] == 1
        assert lib.aclrtSetStreamOverflowSwitch(s.handle, 2) == E.ACL_ERROR_INVALID_PARAM
        assert "flag 2 is not 0 (off) or 1 (on)" in msg()
        buf.copy_from_host(np.full(64, 0xFF, np.uint8))
        assert lib.aclrtGetOverflowStatus(buf.handle, 64, s.handle) == 0
        s.synchronize()
        assert not buf.copy_to_host(np.uint8).any()  # no overflow detected: every status byte written 0
        assert lib.aclrtResetOverflowStatus(s.handle) == 0
        assert lib.aclrtGetOverflowStatus(buf.handle, 32, s.handle) == E.ACL_ERROR_RT_PARAM_INVALID
        assert "outputSize is 32: the status is 64 bytes" in msg()
        assert lib.aclrtGetOverflowStatus(ffi.NULL, 64, s.handle) == E.ACL_ERROR_INVALID_PARAM
        host = np.zeros(64, np.uint8)
        assert lib.aclrtGetOverflowStatus(ffi.from_buffer(host), 64, s.handle) == E.ACL_ERROR_RT_PARAM_INVALID
        assert "is not device memory" in msg()
        s.synchronize()


def test_step_info():
    step = lib.aclprofCreateStepInfo()
    assert step != ffi.NULL
    assert lib.aclprofGetStepTimestamp(step, 0, ffi.NULL) == 0
    assert lib.aclprofGetStepTimestamp(step, 0, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    assert "start was already marked" in msg()
    assert lib.aclprofGetStepTimestamp(step, 1, ffi.NULL) == 0
    assert lib.aclprofGetStepTimestamp(step, 7, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM  # any other tag is END
    assert "end was already marked" in msg()
    lib.aclprofDestroyStepInfo(step)
    assert lib.aclprofGetStepTimestamp(step, 0, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    assert "destroyed" in msg()
    assert lib.aclprofGetStepTimestamp(ffi.NULL, 0, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    lib.aclprofDestroyStepInfo(ffi.NULL)


def test_mstx_domains():
    a = lib.mstxDomainCreateA(b"inner")
    assert a != ffi.NULL and lib.mstxDomainCreateA(b"inner") == a  # one domain a name
    b = lib.mstxDomainCreateA(b"other")
    assert b not in (ffi.NULL, a)
    for bad in (ffi.NULL, b"", b"default", b"=x", b"+x", b"-x", b"@x", b"n" * 1024):
        assert lib.mstxDomainCreateA(bad) == ffi.NULL
    assert lib.mstxRangeStartA(b"range", ffi.NULL) == 0  # msproftx is off: MSTX_INVALID_ID
    assert lib.mstxDomainRangeStartA(a, b"range", ffi.NULL) == 0
    lib.mstxDomainMarkA(a, b"mark", ffi.NULL)
    lib.mstxDomainRangeEnd(a, 0)
    lib.mstxDomainDestroy(a)
    lib.mstxDomainDestroy(a)  # unknown now: nothing
    lib.mstxDomainDestroy(b)
