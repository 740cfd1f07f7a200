"""Package versions, CANN attributes, fault and capability queries, data buffers: CANN's semantics and errors."""

from __future__ import annotations

import pytest

import aclnn_emu
from aclnn_emu import ffi, lib

INVALID_PARAM, INVALID_FILE, INTERNAL, INVALID_DEVICE = 100000, 100003, 500000, 107001


def _version(pkg: str) -> tuple[int, str, int, int]:
    s = ffi.new("char[128]")
    n = ffi.new("int32_t *")
    st = lib.aclsysGetVersionStr(ffi.new("char[]", pkg.encode()), s)
    st_num = lib.aclsysGetVersionNum(ffi.new("char[]", pkg.encode()), n)
    return st, ffi.string(s).decode(), st_num, n[0]


def test_the_toolkit_reports_its_runtime_version(monkeypatch):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(aclnn_emu.TOOLKIT_HOME))
    assert _version("runtime") == (0, "9.1.0", 0, 90100000)


@pytest.mark.parametrize(
    "text, num",
    [("9.1.0", 90100000), ("8.5.0-rc2", 80499902), ("8.5.0.beta.1", 80499801), ("10.0.3alpha", 100002700),
     ("8.1.0rc1", 80099901), ("  7.0.0  ", 70000000)],
)  # fmt: skip
def test_version_numbers(tmp_path, monkeypatch, text, num):
    (tmp_path / "share/info/my_pkg").mkdir(parents=True)
    (tmp_path / "share/info/my_pkg/version.info").write_text(f"Name=x\nVersion={text}\n")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    # the other spelling of '_' and '-' is tried too
    assert _version("my-pkg") == (0, text.strip(), 0, num)


@pytest.mark.parametrize("text", ["8.1.RC1", "8.1", "8.1.0-gamma", "8.1.0-rc1x", "x.1.0"])
def test_a_version_that_is_not_a_number(tmp_path, monkeypatch, text):
    (tmp_path / "share/info/runtime").mkdir(parents=True)
    (tmp_path / "share/info/runtime/version.info").write_text(f"Version={text}\n")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    st, s, st_num, _ = _version("runtime")
    assert (st, s, st_num) == (0, text, INTERNAL)
    assert "is not major.minor.patch" in aclnn_emu.errors.recent_error_message()


def test_a_missing_package_or_home(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    assert _version("runtime")[0] == INVALID_FILE
    assert "share/info/runtime/version.info" in aclnn_emu.errors.recent_error_message()
    monkeypatch.delenv("ASCEND_HOME_PATH")
    assert _version("runtime")[0] == INVALID_FILE
    (tmp_path / "share/info/long").mkdir(parents=True)
    (tmp_path / "share/info/long/version.info").write_text("Version=" + "9" * 200 + "\n")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    assert _version("long")[0] == INTERNAL


def test_null_arguments():
    s = ffi.new("char[128]")
    assert lib.aclsysGetVersionStr(ffi.NULL, s) == INVALID_PARAM
    assert lib.aclsysGetVersionNum(ffi.new("char[]", b"runtime"), ffi.NULL) == INVALID_PARAM
    assert lib.aclGetCannAttributeList(ffi.NULL, ffi.new("size_t *")) == INVALID_PARAM
    assert lib.aclGetCannAttribute(0, ffi.NULL) == INVALID_PARAM
    assert lib.aclrtGetErrorVerbose(0, ffi.NULL) == INVALID_PARAM
    assert lib.aclrtCheckArchCompatibility(ffi.NULL, ffi.new("int32_t *")) == INVALID_PARAM
    assert lib.aclrtGetDeviceCapability(0, 1, ffi.NULL) == INVALID_PARAM


def test_cann_attributes():
    attrs, n = ffi.new("aclCannAttr **"), ffi.new("size_t *")
    assert lib.aclGetCannAttributeList(attrs, n) == 0
    listed = [attrs[0][i] for i in range(n[0])]
    assert listed == [lib.ACL_CANN_ATTR_INF_NAN, lib.ACL_CANN_ATTR_BF16, lib.ACL_CANN_ATTR_JIT_COMPILE]
    value = ffi.new("int32_t *")
    got = []
    for a in listed:
        assert lib.aclGetCannAttribute(a, value) == 0
        got.append(value[0])
    assert got == [1, 1, 0]
    assert lib.aclGetCannAttribute(lib.ACL_CANN_ATTR_UNDEFINED, value) == INVALID_PARAM


def test_fault_and_capability_queries():
    aclnn_emu.ensure_device()
    info = ffi.new("aclrtErrorInfo *")
    info.tryRepair, info.errorType = 7, 3  # overwritten
    assert lib.aclrtGetErrorVerbose(0, info) == 0
    assert (info.tryRepair, info.hasDetail, info.errorType) == (0, 0, lib.ACL_RT_NO_ERROR)
    assert lib.aclrtGetErrorVerbose(999, info) == INVALID_DEVICE
    ok = ffi.new("int32_t *")
    soc = ffi.string(lib.aclrtGetSocName()).decode()
    assert lib.aclrtCheckArchCompatibility(soc.lower().encode(), ok) == 0 and ok[0] == 1
    assert lib.aclrtCheckArchCompatibility(b"Ascend310P3", ok) == 0 and ok[0] == 0
    other = "Ascend910B2" if soc == "Ascend950" else "Ascend950"
    assert lib.aclrtCheckArchCompatibility(other.encode(), ok) == 0 and ok[0] == 0
    assert lib.aclrtGetDeviceCapability(0, lib.ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, ok) == 0 and ok[0] == 0
    assert lib.aclrtGetDeviceCapability(0, 5, ok) == INVALID_PARAM
    assert lib.aclrtGetDeviceCapability(-1, 1, ok) == INVALID_DEVICE


def test_data_buffers():
    mem = ffi.new("char[64]")
    b = lib.aclCreateDataBuffer(mem, 64)
    assert b != ffi.NULL
    assert lib.aclGetDataBufferAddr(b) == mem and lib.aclGetDataBufferSizeV2(b) == 64
    assert lib.aclUpdateDataBuffer(b, ffi.NULL, 2**40) == 0
    assert lib.aclGetDataBufferAddr(b) == ffi.NULL and lib.aclGetDataBufferSizeV2(b) == 2**40
    assert lib.aclGetDataBufferSize(b) == 0  # cut to 32 bits, as CANN's deprecated getter
    assert lib.aclDestroyDataBuffer(b) == 0
    assert lib.aclDestroyDataBuffer(b) == INVALID_PARAM  # stale: refused, never read
    assert lib.aclGetDataBufferAddr(b) == ffi.NULL and lib.aclGetDataBufferSizeV2(ffi.NULL) == 0
    assert lib.aclDestroyDataBuffer(ffi.NULL) == INVALID_PARAM


def test_thread_resources_are_the_socs_cores():
    v = ffi.new("uint32_t *")
    assert lib.aclrtGetResInCurrentThread(lib.ACL_RT_DEV_RES_CUBE_CORE, v) == 0
    cube = v[0]
    assert lib.aclrtGetResInCurrentThread(lib.ACL_RT_DEV_RES_VECTOR_CORE, v) == 0
    assert (cube, v[0]) in ((24, 48), (20, 40), (32, 64))
    assert lib.aclrtGetResInCurrentThread(7, v) == INVALID_PARAM
    assert lib.aclrtGetResInCurrentThread(0, ffi.NULL) == INVALID_PARAM
