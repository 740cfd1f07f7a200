"""libc_sec's bounds-checked functions, adump's exception information, and profiling's model subscriptions.

securec's return codes are libboundscheck's; the exception dump is turned on by acl.json's dump_scene and
writes where CANN's layout says; a subscription's pipe is closed when it ends. aclInit runs once a process,
so the dump tests run in fresh interpreters with their own acl.json.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import textwrap

import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib

EOK, EINVAL, ERANGE, EINVAL_AND_RESET, ERANGE_AND_RESET, EOVERLAP_AND_RESET = 0, 22, 34, 150, 162, 182


def msg() -> str:
    return E.recent_error_message()


@pytest.fixture(autouse=True)
def device():
    aclnn_emu.ensure_device(0)


def test_memset_s_and_memcpy_s():
    buf = ffi.new("char[8]", b"abcdefg")
    assert lib.memset_s(buf, 8, ord("x"), 3) == EOK and ffi.string(buf) == b"xxxdefg"
    assert lib.memset_s(buf, 4, ord("y"), 6) == ERANGE_AND_RESET and bytes(ffi.buffer(buf, 5)) == b"yyyye"
    assert lib.memset_s(ffi.NULL, 4, 0, 1) == EINVAL
    assert lib.memset_s(buf, 0, 0, 1) == ERANGE
    assert lib.memcpy_s(buf, 8, b"12345678", 8) == EOK and bytes(ffi.buffer(buf)) == b"12345678"
    assert lib.memcpy_s(buf, 4, b"12345678", 5) == ERANGE_AND_RESET and bytes(ffi.buffer(buf, 5)) == b"\0\0\0\x005"
    assert lib.memcpy_s(buf, 8, ffi.NULL, 1) == EINVAL_AND_RESET and bytes(ffi.buffer(buf)) == b"\0" * 8
    assert lib.memcpy_s(buf + 1, 7, buf, 4) == EOVERLAP_AND_RESET
    assert lib.memmove_s(buf + 1, 7, buf, 4) == EOK


def test_string_functions():
    dst = ffi.new("char[6]")
    assert lib.strcpy_s(dst, 6, b"hello") == EOK and ffi.string(dst) == b"hello"
    assert lib.strcpy_s(dst, 6, b"hello!") == ERANGE_AND_RESET and ffi.string(dst) == b""
    assert lib.strncpy_s(dst, 6, b"hello world", 3) == EOK and ffi.string(dst) == b"hel"
    assert lib.strcat_s(dst, 6, b"lo") == EOK and ffi.string(dst) == b"hello"
    assert lib.strcat_s(dst, 6, b"!") == ERANGE_AND_RESET and ffi.string(dst) == b""
    assert lib.strcpy_s(dst, 6, ffi.NULL) == EINVAL_AND_RESET
    assert lib.strcpy_s(ffi.NULL, 6, b"x") == EINVAL


DUMP_CHILD = textwrap.dedent(
    """
    import json, os, struct, sys
    import numpy as np
    from aclnn_emu import errors, ffi, lib
    assert lib.aclInit(sys.argv[1].encode() if sys.argv[1] else ffi.NULL) == 0
    path = ffi.new("char[4096]")
    if sys.argv[2] == "off":
        assert lib.acldumpGetExceptionInfoPath(path, 4096) == errors.ACL_ERROR_FAILURE
        assert "the exception dump is not enabled" in errors.recent_error_message()
        sys.exit(0)
    assert lib.acldumpGetExceptionInfoPath(path, 4096) == errors.ACL_ERROR_FAILURE  # no device yet
    assert lib.aclrtSetDevice(0) == 0
    assert lib.acldumpGetExceptionInfoPath(path, 2) == errors.ACL_ERROR_INVALID_PARAM
    assert lib.acldumpGetExceptionInfoPath(path, 4096) == 0
    root = ffi.string(path).decode()
    print(root)
    dev = ffi.new("void **")
    assert lib.aclrtMalloc(dev, 16, 0) == 0
    data = np.arange(4, dtype=np.float32)
    assert lib.aclrtMemcpy(dev[0], 16, ffi.from_buffer(data), 16, 1) == 0
    t = ffi.new("acldumpTensorInfo[1]")
    t[0].type, t[0].tensorSize, t[0].dataType, t[0].tensorAddr = 1, 16, 0, ffi.cast("int64_t *", dev[0])
    t[0].addrType, t[0].placement, t[0].shapeNum, t[0].shape[0] = 2, 0, 1, 4
    for bad in (b"", b"a/../b", b".."):
        assert lib.acldumpSaveExceptionInfo(bad, ffi.NULL, t, 1) == errors.ACL_ERROR_INVALID_PARAM
    t[0].addrType = 0
    assert lib.acldumpSaveExceptionInfo(b"x", ffi.NULL, t, 1) == errors.ACL_ERROR_INVALID_PARAM
    assert "is not ACL_DUMP_ADDR_RAW" in errors.recent_error_message()
    t[0].addrType = 2
    host = ffi.new("char[16]")
    t[0].tensorAddr = ffi.cast("int64_t *", host)
    assert lib.acldumpSaveExceptionInfo(b"x", ffi.NULL, t, 1) == errors.ACL_ERROR_FAILURE
    t[0].tensorAddr = ffi.cast("int64_t *", dev[0])
    assert lib.acldumpSaveExceptionInfo(b"sub/op", b"tag=1", t, 1) == 0
    (name,) = os.listdir(os.path.join(root, "sub"))
    assert name.startswith("op.custom.") and len(name) == len("op.custom.") + 17
    blob = open(os.path.join(root, "sub", name), "rb").read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    assert header["op_name"] == "op" and header["user_tag"] == "tag=1" and header["tensors"][0]["shape"] == [4]
    assert np.frombuffer(blob[8 + n:], np.float32).tolist() == [0, 1, 2, 3]
    print("ok")
    """
)


def run_child(tmp_path, config: str | None, mode: str, env_extra: dict | None = None):
    cfg = ""
    if config is not None:
        (tmp_path / "acl.json").write_text(config)
        cfg = str(tmp_path / "acl.json")
    env = {k: v for k, v in os.environ.items() if k not in ("ASCEND_DUMP_PATH", "ASCEND_WORK_PATH")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", DUMP_CHILD, cfg, mode], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def test_exception_dump_writes_in_cann_layout(tmp_path):
    out = tmp_path / "dumps"
    r = run_child(tmp_path, f'{{"dump": {{"dump_path": "{out}", "dump_scene": "aic_err_brief_dump"}}}}', "on")
    assert r.returncode == 0, r.stderr
    root, ok = r.stdout.split()
    assert root == str(out / "extra-info" / "data-dump" / "0") and ok == "ok"


def test_exception_dump_path_from_the_environment_first(tmp_path):
    r = run_child(tmp_path, '{"dump": {"dump_path": "/nonexistent/x", "dump_scene": "lite_exception"}}', "on",
                  {"ASCEND_DUMP_PATH": str(tmp_path / "env")})  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == str(tmp_path / "env" / "extra-info" / "data-dump" / "0")


@pytest.mark.parametrize("config", [None, "{}", '{"dump": {"dump_scene": "unknown"}}'])
def test_exception_dump_off_without_its_scene(tmp_path, config):
    r = run_child(tmp_path, config, "off")
    assert r.returncode == 0, r.stderr


def test_model_subscription_closes_its_pipe():
    r, w = os.pipe()
    fd = ffi.new("int *", w)
    assert lib.aclprofCreateSubscribeConfig(1, 0xFF, ffi.NULL) == ffi.NULL
    assert lib.aclprofCreateSubscribeConfig(2, 0xFF, fd) == ffi.NULL
    nothing = lib.aclprofCreateSubscribeConfig(0, 0xFF, fd)
    cfg = lib.aclprofCreateSubscribeConfig(1, 0xFF, fd)
    assert lib.aclprofModelSubscribe(77, cfg) == E.ACL_ERROR_INVALID_MODEL_ID and "not known to profiling" in msg()
    assert lib.MsprofSetDeviceIdByGeModelIdx(77, 0) == 0
    assert lib.aclprofModelSubscribe(77, nothing) == E.ACL_ERROR_INVALID_PARAM and "asks for nothing" in msg()
    assert lib.aclprofModelSubscribe(77, cfg) == 0
    assert lib.aclprofModelSubscribe(77, cfg) == E.ACL_ERROR_PROF_REPEAT_SUBSCRIBE
    assert lib.aclprofModelUnSubscribe(77) == 0
    assert fd[0] == -1 and os.read(r, 10) == b""  # the write end is closed: the reader sees the end
    os.close(r)
    assert lib.aclprofModelUnSubscribe(77) == E.ACL_ERROR_INVALID_MODEL_ID
    assert lib.MsprofUnsetDeviceIdByGeModelIdx(77, 0) == 0
    for c in (cfg, nothing):
        assert lib.aclprofDestroySubscribeConfig(c) == 0
    assert lib.aclprofDestroySubscribeConfig(cfg) == E.ACL_ERROR_INVALID_PARAM


def signed_record(model_id: int, start: int, end: int) -> bytes:
    """One ProfOpDesc as CANN writes it: the signature is CRC-32C (no final xor) of the 76 bytes after it."""
    body = struct.pack("<IIIQQQQQQQI", model_id, 0, 0, 5, end - start, start, end, 0, 0, 0, 0) + b"\0" * 4
    crc = 0xFFFFFFFF
    for b in body:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return struct.pack("<I", crc) + body


def test_op_record_getters():
    size = ffi.new("size_t *")
    assert lib.aclprofGetOpDescSize(size) == 0 and size[0] == 80
    recs = signed_record(3, 100, 250) + signed_record(4, 300, 310)
    n = ffi.new("uint32_t *")
    assert lib.aclprofGetOpNum(recs, len(recs), n) == 0 and n[0] == 2
    assert lib.aclprofGetOpStart(recs, len(recs), 1) == 300 and lib.aclprofGetOpEnd(recs, len(recs), 0) == 250
    assert lib.aclprofGetOpDuration(recs, len(recs), 0) == 150 and lib.aclprofGetModelId(recs, len(recs), 1) == 4
    assert lib.aclprofGetOpStart(recs, len(recs), 2) == 0  # past the records
    bad = bytearray(recs)
    bad[20] ^= 1
    assert lib.aclprofGetOpNum(bytes(bad), len(bad), n) == E.ACL_ERROR_INVALID_PARAM and "wrong signature" in msg()
    assert lib.aclprofGetOpNum(recs, 79, n) == E.ACL_ERROR_INVALID_PARAM
    assert lib.aclprofGetOpNameLen(recs, len(recs), 0, size) == E.ACL_ERROR_INVALID_PARAM
    assert "not one this process ran" in msg()
