"""IPC events and IPC memory between processes, and stream configuration handles.

An IPC event's records are shared: a record pending in one process is seen as pending by another, and a
synchronisation there waits for it (CANN's IpcEvent). The second process is a fresh interpreter that opens
the handle this one exported.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib

EVENT_SYNC, EVENT_IPC = 0x01, 0x40
RECORDED_COMPLETE, RECORDED_NOT_READY = 1, 0


def msg() -> str:
    return E.recent_error_message()


@pytest.fixture(autouse=True)
def device():
    aclnn_emu.ensure_device(0)


def ipc_event():
    ev = ffi.new("aclrtEvent *")
    assert lib.aclrtCreateEventExWithFlag(ev, EVENT_IPC) == 0, msg()
    return ev[0]


def status_of(event) -> int:
    st = ffi.new("aclrtEventRecordedStatus *")
    assert lib.aclrtQueryEventStatus(event, st) == 0
    return st[0]


CHILD = textwrap.dedent(
    """
    import sys
    import numpy as np
    import aclnn_emu
    from aclnn_emu import ffi, lib
    aclnn_emu.ensure_device(0)
    handle = ffi.new("aclrtIpcEventHandle *")
    ffi.memmove(handle.reserved, bytes.fromhex(sys.argv[1]), 64)
    ev = ffi.new("aclrtEvent *")
    assert lib.aclrtIpcOpenEventHandle(handle[0], ev) == 0
    with aclnn_emu.Stream() as s, aclnn_emu.DeviceBuffer(8) as gate:
        gate.copy_from_host(np.zeros(1, np.uint64))
        assert lib.aclrtValueWait(gate.handle, 1, 1, s.handle) == 0  # the stream holds until the gate opens
        assert lib.aclrtRecordEvent(ev[0], s.handle) == 0
        print("recorded", flush=True)
        sys.stdin.readline()
        gate.copy_from_host(np.ones(1, np.uint64))
        s.synchronize()
    assert lib.aclrtDestroyEvent(ev[0]) == 0
    print("done", flush=True)
    """
)


def test_a_record_pending_in_another_process_holds_this_one():
    ev = ipc_event()
    assert status_of(ev) == RECORDED_COMPLETE  # CANN: nothing pending reads as recorded
    assert lib.aclrtRecordEvent(ev, ffi.NULL) == 0 and lib.aclrtSynchronizeEvent(ev) == 0
    handle = ffi.new("aclrtIpcEventHandle *")
    assert lib.aclrtIpcGetEventHandle(ev, handle) == 0
    child = subprocess.Popen([sys.executable, "-c", CHILD, bytes(ffi.buffer(handle.reserved)).hex()],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert child.stdout.readline().strip() == "recorded"
        assert status_of(ev) == RECORDED_NOT_READY  # the other process's record has not run
        assert lib.aclrtSynchronizeEventWithTimeout(ev, 50) == E.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
        child.stdin.write("go\n")
        child.stdin.flush()
        assert lib.aclrtSynchronizeEventWithTimeout(ev, 10000) == 0
        assert status_of(ev) == RECORDED_COMPLETE
        assert child.stdout.readline().strip() == "done"
    finally:
        child.stdin.close()
        assert child.wait(30) == 0
    assert lib.aclrtDestroyEvent(ev) == 0


def test_ipc_event_errors():
    ev = ipc_event()
    plain = ffi.new("aclrtEvent *")
    assert lib.aclrtCreateEvent(plain) == 0
    handle = ffi.new("aclrtIpcEventHandle *")
    assert lib.aclrtIpcGetEventHandle(plain[0], handle) == E.ACL_ERROR_RT_PARAM_INVALID
    assert "was not created with ACL_EVENT_IPC" in msg()
    assert lib.aclrtIpcGetEventHandle(ev, ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    bad = ffi.new("aclrtEvent *")
    assert lib.aclrtCreateEventExWithFlag(bad, EVENT_IPC | EVENT_SYNC) == E.ACL_ERROR_RT_PARAM_INVALID
    assert "ACL_EVENT_IPC stands alone" in msg()
    garbage = ffi.new("aclrtIpcEventHandle *")
    ffi.memmove(garbage.reserved, b"\x07" * 64, 64)
    assert lib.aclrtIpcOpenEventHandle(garbage[0], bad) == E.ACL_ERROR_RT_PARAM_INVALID
    assert "not one aclrtIpcGetEventHandle gave for a live IPC event" in msg()
    assert lib.aclrtIpcOpenEventHandle(garbage[0], ffi.NULL) == E.ACL_ERROR_INVALID_PARAM
    unsupported = E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert lib.aclrtResetEvent(ev, ffi.NULL) == unsupported and "is an IPC event" in msg()
    assert lib.aclrtQueryEvent(ev, ffi.new("aclrtEventStatus *")) == unsupported
    assert lib.aclrtEventGetTimestamp(ev, ffi.new("uint64_t *")) == unsupported
    assert lib.aclrtEventElapsedTime(ffi.new("float *"), plain[0], ev) == unsupported
    # A handle of a destroyed event no longer opens.
    assert lib.aclrtIpcGetEventHandle(ev, handle) == 0
    assert lib.aclrtDestroyEvent(ev) == 0
    assert lib.aclrtIpcOpenEventHandle(handle[0], bad) == E.ACL_ERROR_RT_PARAM_INVALID
    assert lib.aclrtDestroyEvent(plain[0]) == 0


def test_stream_config_handles():
    h = lib.aclrtCreateStreamConfigHandle()
    assert h != ffi.NULL and h.priority == 0 and h.flag == 0
    assert lib.aclrtSetStreamConfigOpt(h, 3, ffi.new("uint32_t *", 5), 4) == 0  # PRIORITY
    assert lib.aclrtSetStreamConfigOpt(h, 2, ffi.new("uint32_t *", 0), 4) == 0  # FLAG, as CANN's sample passes it
    assert lib.aclrtSetStreamConfigOpt(h, 2, ffi.new("size_t *", 0), 8) == 0
    assert lib.aclrtSetStreamConfigOpt(h, 3, ffi.new("uint32_t *", 8), 4) == E.ACL_ERROR_INVALID_PARAM
    assert "priority 8 is out of range [0, 7]" in msg()
    assert lib.aclrtSetStreamConfigOpt(h, 1, ffi.new("uint32_t *", 8), 4) == E.ACL_ERROR_INVALID_PARAM
    assert "valueSize 4: attr 1 takes 8 bytes" in msg()
    assert lib.aclrtSetStreamConfigOpt(h, 4, ffi.new("uint32_t *", 0), 4) == E.ACL_ERROR_INVALID_PARAM
    assert lib.aclrtSetStreamConfigOpt(h, 3, ffi.NULL, 4) == E.ACL_ERROR_INVALID_PARAM
    work = np.zeros(4, np.uint8)
    assert lib.aclrtSetStreamConfigOpt(h, 0, ffi.new("void **", ffi.from_buffer(work)), 8) == 0
    assert h.workptr == ffi.from_buffer(work)
    s = ffi.new("aclrtStream *")
    assert lib.aclrtCreateStreamV2(s, h) == 0
    prio = ffi.new("uint32_t *")
    assert lib.aclrtStreamGetPriority(s[0], prio) == 0 and prio[0] == 5
    assert lib.aclrtDestroyStream(s[0]) == 0
    assert lib.aclrtCreateStreamV2(ffi.NULL, h) == E.ACL_ERROR_INVALID_PARAM
    assert lib.aclrtDestroyStreamConfigHandle(h) == 0
    assert lib.aclrtDestroyStreamConfigHandle(h) == E.ACL_ERROR_INVALID_PARAM and "destroyed" in msg()
    assert lib.aclrtSetStreamConfigOpt(h, 3, prio, 4) == E.ACL_ERROR_INVALID_PARAM  # no write into a freed one
    assert lib.aclrtCreateStreamV2(s, ffi.NULL) == 0  # every default
    assert lib.aclrtDestroyStream(s[0]) == 0


IMPORTER = textwrap.dedent(
    """
    import sys
    import numpy as np
    import aclnn_emu
    from aclnn_emu import errors, ffi, lib
    aclnn_emu.ensure_device(0)
    key, mode = sys.argv[1].encode(), sys.argv[2]
    p = ffi.new("void **")
    st = lib.aclrtIpcMemImportByKey(p, key, 0)
    if mode == "refused":
        assert st == errors.ACL_ERROR_RT_PARAM_INVALID, st
        print(errors.recent_error_message())
        sys.exit(0)
    assert st == 0, errors.recent_error_message()
    seen = np.frombuffer(ffi.buffer(p[0], 16), np.float32).copy()
    print(" ".join(str(int(v)) for v in seen), flush=True)
    ffi.memmove(p[0], np.array([40, 41, 42, 43], np.float32).tobytes(), 16)  # write through the shared pages
    assert lib.aclrtIpcMemClose(key) == 0
    assert lib.aclrtMemset(p[0], 16, 0, 16) != 0  # closed: refused like freed memory
    """
)


def run_importer(key: bytes, mode: str = "ok") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", IMPORTER, key.decode(), mode], capture_output=True, text=True,
                          timeout=60)  # fmt: skip


def export(buf, offset: int, size: int, flags: int = 0) -> bytes:
    key = ffi.new("char[64]")
    assert lib.aclrtIpcMemGetExportKey(buf.handle + offset, size, key, 64, flags) == 0, msg()
    return ffi.string(key)


def test_ipc_memory_is_shared_with_another_process():
    with aclnn_emu.DeviceBuffer(64) as guarded, aclnn_emu.DeviceBuffer(64) as buf:
        # Not on the whitelist: refused.
        guarded_key = export(guarded, 0, 64)
        r = run_importer(guarded_key, "refused")
        assert r.returncode == 0, r.stderr
        assert "not on the export's whitelist" in r.stdout
        assert lib.aclrtIpcMemClose(guarded_key) == 0
        # The importer's pid is only known once it runs: this export takes every process (the whitelist is
        # checked with this process's own pid below).
        buf.copy_from_host(np.arange(16, dtype=np.float32))
        key = export(buf, 16, 16, flags=1)  # elements 4..7; DISABLE_PID_VALIDATION
        r = run_importer(key)
        assert r.returncode == 0, r.stderr
        assert r.stdout.split() == ["4", "5", "6", "7"]
        # The importer's writes are in this process's block, at the same addresses as before the export.
        np.testing.assert_array_equal(buf.copy_to_host(np.float32)[4:8], [40, 41, 42, 43])
        assert lib.aclrtIpcMemClose(key) == 0
        assert lib.aclrtIpcMemClose(key) == E.ACL_ERROR_RT_PARAM_INVALID
        r = run_importer(key, "refused")  # closed by its exporter: no new imports
        assert "no live export" in r.stdout


def test_ipc_memory_whitelist_by_pid():
    with aclnn_emu.DeviceBuffer(64) as buf:
        buf.copy_from_host(np.arange(16, dtype=np.float32))
        key = export(buf, 0, 64)
        me = ffi.new("int32_t[1]", [os.getpid()])
        assert lib.aclrtIpcMemSetImportPid(key, me, 1) == 0
        p = ffi.new("void **")
        assert lib.aclrtIpcMemImportByKey(p, key, 0) == 0  # this process is on the list now
        assert np.frombuffer(ffi.buffer(p[0], 8), np.float32).tolist() == [0, 1]
        assert lib.aclrtIpcMemClose(key) == 0  # closes the import first
        assert lib.aclrtIpcMemClose(key) == 0  # then the export
        assert lib.aclrtIpcMemSetImportPid(key, me, 1) == E.ACL_ERROR_RT_PARAM_INVALID


def test_a_process_leaves_no_shared_memory_names_behind(tmp_path):
    code = textwrap.dedent(
        """
        import aclnn_emu
        from aclnn_emu import ffi, lib
        aclnn_emu.ensure_device(0)
        buf = aclnn_emu.DeviceBuffer(64)
        key = ffi.new("char[64]")
        assert lib.aclrtIpcMemGetExportKey(buf.handle, 64, key, 64, 0) == 0
        ev = ffi.new("aclrtEvent *")
        assert lib.aclrtCreateEventExWithFlag(ev, 0x40) == 0
        import os
        print(os.getpid())
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    pid = r.stdout.strip()
    assert not [n for n in os.listdir("/dev/shm") if f"_{pid}_" in n and n.startswith("aclnn_emu_")]


def test_ipc_memory_errors():
    key = ffi.new("char[64]")
    with aclnn_emu.DeviceBuffer(64) as buf:
        assert lib.aclrtIpcMemGetExportKey(ffi.NULL, 8, key, 64, 0) == E.ACL_ERROR_INVALID_PARAM
        assert lib.aclrtIpcMemGetExportKey(buf.handle, 0, key, 64, 0) == E.ACL_ERROR_INVALID_PARAM
        assert lib.aclrtIpcMemGetExportKey(buf.handle, 8, key, 64, 2) == E.ACL_ERROR_INVALID_PARAM
        assert lib.aclrtIpcMemGetExportKey(buf.handle, 8, key, 4, 0) == E.ACL_ERROR_INVALID_PARAM
        assert "too small for the key" in msg()
        assert lib.aclrtIpcMemGetExportKey(buf.handle, 65, key, 64, 0) == E.ACL_ERROR_RT_PARAM_INVALID
        host = np.zeros(16, np.uint8)
        assert lib.aclrtIpcMemGetExportKey(ffi.from_buffer(host), 8, key, 64, 0) == E.ACL_ERROR_RT_PARAM_INVALID
        assert lib.aclrtIpcMemGetExportKey(buf.handle, 8, key, 64, 0) == 0
        again = ffi.new("char[64]")
        assert lib.aclrtIpcMemGetExportKey(buf.handle, 8, again, 64, 0) == E.ACL_ERROR_RT_PARAM_INVALID
        assert "exported already" in msg()
        p = ffi.new("void **")
        assert lib.aclrtIpcMemImportByKey(p, b"no_such_key", 0) == E.ACL_ERROR_RT_PARAM_INVALID
        assert lib.aclrtIpcMemImportByKey(p, b"../etc", 0) == E.ACL_ERROR_RT_PARAM_INVALID
        assert lib.aclrtIpcMemClose(key) == 0
    # The exported block was freed: a fresh allocation never gets its (shared) pages back.
    with aclnn_emu.DeviceBuffer(64) as fresh:
        fresh.copy_from_host(np.ones(16, np.float32))
        assert fresh.copy_to_host(np.float32).tolist() == [1.0] * 16
