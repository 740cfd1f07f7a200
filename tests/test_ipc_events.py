"""IPC events between processes, and stream configuration handles.

An IPC event's records are shared: a record pending in one process is seen as pending by another, and a
synchronisation there waits for it (CANN's IpcEvent). The second process is a fresh interpreter that opens
the handle this one exported.
"""

from __future__ import annotations

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
