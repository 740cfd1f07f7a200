"""Model runtime instances: capture and replay, task groups and their update, built models with labels.

What a model should compute is worked out from the work captured (numpy sums of the inputs), never read back
from the emulator; the statuses are CANN's (model_ri.cpp and the runtime's aclgraph checks).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib

SUM, ACL_FLOAT = 10, 0
GLOBAL, THREAD_LOCAL, RELAXED = 0, 1, 2
STREAM_PERSISTENT = 0x4


def msg() -> str:
    return E.recent_error_message()


@pytest.fixture(autouse=True)
def device():
    aclnn_emu.ensure_device(0)


def device_array(values) -> aclnn_emu.DeviceBuffer:
    a = np.asarray(values, np.float32)
    buf = aclnn_emu.DeviceBuffer(a.nbytes)
    buf.copy_from_host(a)
    return buf


def reduce_into(dst, src, stream) -> None:
    assert lib.aclrtReduceAsync(dst.handle, src.handle, dst.nbytes, SUM, ACL_FLOAT, stream, ffi.NULL) == 0, msg()


def capture(stream, mode=RELAXED):
    assert lib.aclmdlRICaptureBegin(stream.handle, mode) == 0, msg()


def end_capture(stream):
    m = ffi.new("aclmdlRI *")
    assert lib.aclmdlRICaptureEnd(stream.handle, m) == 0, msg()
    return m[0]


def test_captured_work_runs_only_when_replayed():
    src, dst = device_array([1, 2, 3]), device_array([0, 0, 0])
    with aclnn_emu.Stream() as cap, aclnn_emu.Stream() as run:
        capture(cap)
        status, model = ffi.new("aclmdlRICaptureStatus *"), ffi.new("aclmdlRI *")
        assert lib.aclmdlRICaptureGetInfo(cap.handle, status, model) == 0 and status[0] == 1
        reduce_into(dst, src, cap.handle)
        reduce_into(dst, src, cap.handle)
        m = end_capture(cap)
        assert model[0] == m
        assert dst.copy_to_host(np.float32).tolist() == [0, 0, 0]  # nothing ran at capture
        for _ in range(3):
            assert lib.aclmdlRIExecuteAsync(m, run.handle) == 0
        run.synchronize()
        assert dst.copy_to_host(np.float32).tolist() == [6, 12, 18]  # 3 runs x 2 sums of src
        assert lib.aclmdlRIExecute(m, 5000) == 0  # on the default stream, waited for
        assert dst.copy_to_host(np.float32).tolist() == [8, 16, 24]
        assert lib.aclmdlRIDestroy(m) == 0
        assert lib.aclmdlRIDestroy(m) == E.ACL_ERROR_INVALID_PARAM and "destroyed" in msg()
        assert lib.aclmdlRICaptureGetInfo(cap.handle, status, model) == 0 and status[0] == 0
    src.close()
    dst.close()


def test_synchronous_work_during_a_capture_follows_the_exchange_mode():
    host = np.ones(4, np.float32)
    with aclnn_emu.Stream() as cap, aclnn_emu.DeviceBuffer(16) as buf:
        capture(cap, GLOBAL)
        refused = lib.aclrtMemcpy(buf.handle, 16, ffi.from_buffer(host), 16, 1)
        assert refused == E.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT and "capture" in msg()
        assert lib.aclrtMemset(buf.handle, 16, 0, 16) == E.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
        mode = ffi.new("aclmdlRICaptureMode *", RELAXED)
        assert lib.aclmdlRICaptureThreadExchangeMode(mode) == 0 and mode[0] == GLOBAL
        assert lib.aclrtMemcpy(buf.handle, 16, ffi.from_buffer(host), 16, 1) == 0  # RELAXED: runs now
        assert lib.aclmdlRICaptureThreadExchangeMode(mode) == 0 and mode[0] == RELAXED  # back to GLOBAL
        assert lib.aclrtSynchronizeStream(cap.handle) == E.ACL_ERROR_RT_STREAM_CAPTURED
        assert lib.aclrtDestroyStream(cap.handle) == E.ACL_ERROR_RT_STREAM_CAPTURED
        m = end_capture(cap)
        assert buf.copy_to_host(np.float32).tolist() == [1, 1, 1, 1]
        assert lib.aclrtMemset(buf.handle, 16, 0, 16) == 0  # no capture under way
        assert lib.aclmdlRIDestroy(m) == 0
    # A RELAXED capture refuses nothing.
    with aclnn_emu.Stream() as cap, aclnn_emu.DeviceBuffer(16) as buf:
        capture(cap, RELAXED)
        assert lib.aclrtMemset(buf.handle, 16, 0, 16) == 0
        assert lib.aclmdlRIDestroy(end_capture(cap)) == 0


def test_capture_errors():
    with aclnn_emu.Stream() as s:
        assert lib.aclmdlRICaptureBegin(ffi.NULL, 0) == E.ACL_ERROR_INVALID_PARAM
        assert lib.aclmdlRICaptureBegin(s.handle, 3) == E.ACL_ERROR_RT_PARAM_INVALID
        default = ffi.new("aclrtStream *")
        assert lib.aclrtCtxGetCurrentDefaultStream(default) == 0
        assert lib.aclmdlRICaptureBegin(default[0], 0) == E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
        m = ffi.new("aclmdlRI *")
        assert lib.aclmdlRICaptureEnd(s.handle, m) == E.ACL_ERROR_RT_STREAM_NOT_CAPTURED
        capture(s)
        assert lib.aclmdlRICaptureBegin(s.handle, 0) == E.ACL_ERROR_RT_STREAM_CAPTURED
        assert lib.aclmdlRICaptureTaskGrpBegin(s.handle) == 0
        assert lib.aclmdlRICaptureTaskGrpBegin(s.handle) == E.ACL_ERROR_STREAM_TASK_GROUP_STATUS
        with aclnn_emu.DeviceBuffer(4) as a, aclnn_emu.DeviceBuffer(4) as b:
            # A task group takes operator kernels only.
            st = lib.aclrtReduceAsync(a.handle, b.handle, 4, SUM, ACL_FLOAT, s.handle, ffi.NULL)
            assert st == E.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
        assert lib.aclmdlRICaptureEnd(s.handle, m) == E.ACL_ERROR_STREAM_TASK_GROUP_STATUS
        assert m[0] == ffi.NULL
    with aclnn_emu.Stream() as s:
        capture(s)
        m = end_capture(s)
        assert lib.aclmdlRIExecuteAsync(ffi.NULL, s.handle) == E.ACL_ERROR_INVALID_PARAM
        capture(s)
        assert lib.aclmdlRIExecuteAsync(m, s.handle) == E.ACL_ERROR_RT_STREAM_CAPTURED
        assert lib.aclmdlRIDestroy(end_capture(s)) == 0
        assert lib.aclmdlRIDestroy(m) == 0


def add_executor(x, y, alpha, out):
    """aclnnAdd's phase one over device buffers of 4 floats: out = x + alpha * y."""
    tensors = [aclnn_emu.Tensor(b, shape=(4,), dtype=np.float32) for b in (x, y, out)]
    with aclnn_emu.Scalar(alpha, np.float32) as a:
        _, ex = aclnn_emu.add_get_workspace_size(tensors[0], tensors[1], a, tensors[2])
    for t in tensors:
        t.close()
    return ex


def test_task_group_update_replaces_the_kernel_in_later_runs():
    x, y = device_array([1, 2, 3, 4]), device_array([10, 10, 10, 10])
    out = device_array([0, 0, 0, 0])
    with aclnn_emu.Stream() as cap, aclnn_emu.Stream() as upd:
        capture(cap)
        assert lib.aclmdlRICaptureTaskGrpBegin(cap.handle) == 0
        add_executor(x, y, 1.0, out).run(stream=cap)
        grp = ffi.new("aclrtTaskGrp *")
        assert lib.aclmdlRICaptureTaskGrpEnd(cap.handle, grp) == 0 and grp[0] != ffi.NULL
        m = end_capture(cap)
        assert lib.aclmdlRIExecute(m, 5000) == 0
        assert out.copy_to_host(np.float32).tolist() == [11, 12, 13, 14]
        assert lib.aclmdlRICaptureTaskUpdateBegin(upd.handle, grp[0]) == 0
        assert lib.aclmdlRICaptureTaskUpdateBegin(upd.handle, grp[0]) == E.ACL_ERROR_STREAM_TASK_GROUP_STATUS
        add_executor(x, y, 0.5, out).run(stream=upd)  # replaces the kernel: does not run
        upd.synchronize()
        assert out.copy_to_host(np.float32).tolist() == [11, 12, 13, 14]
        assert lib.aclmdlRICaptureTaskUpdateEnd(upd.handle) == 0
        for _ in range(2):
            assert lib.aclmdlRIExecute(m, 5000) == 0
            assert out.copy_to_host(np.float32).tolist() == [6, 7, 8, 9]
        # An update must replace every kernel of the group.
        assert lib.aclmdlRICaptureTaskUpdateBegin(upd.handle, grp[0]) == 0
        assert lib.aclmdlRICaptureTaskUpdateEnd(upd.handle) == E.ACL_ERROR_RT_INTERNAL_ERROR
        assert "0 of the task group's 1 kernels were replaced" in msg()
        assert lib.aclmdlRICaptureTaskUpdateEnd(upd.handle) == E.ACL_ERROR_STREAM_TASK_GROUP_STATUS
        assert lib.aclmdlRIDestroy(m) == 0
    for b in (x, y, out):
        b.close()


def persistent_stream():
    s = ffi.new("aclrtStream *")
    assert lib.aclrtCreateStreamWithConfig(s, 0, STREAM_PERSISTENT) == 0
    return s[0]


@pytest.mark.parametrize("index, runs_x", [(0, True), (1, False), (7, False)])
def test_built_model_switches_to_a_label(index, runs_x):
    """[SWITCH(*ptr) -> L0: x += 1, L1: y += 1, END]: index 0 runs both sums, 1 (or past the end) only y's."""
    one, x, y = device_array([1]), device_array([0]), device_array([0])
    idx = aclnn_emu.DeviceBuffer(4)
    idx.copy_from_host(np.array([index], np.uint32))
    bound = persistent_stream()
    m = ffi.new("aclmdlRI *")
    assert lib.aclmdlRIBuildBegin(m, 0) == 0
    assert lib.aclmdlRIBindStream(m[0], bound, 0) == 0
    labels = ffi.new("aclrtLabel[2]")
    for i in range(2):
        assert lib.aclrtCreateLabel(labels + i) == 0
    lst = ffi.new("aclrtLabelList *")
    assert lib.aclrtCreateLabelList(labels, 2, lst) == 0
    assert lib.aclrtSwitchLabelByIndex(idx.handle, 2, lst[0], bound) == 0
    assert lib.aclrtSetLabel(labels[0], bound) == 0
    reduce_into(x, one, bound)
    assert lib.aclrtSetLabel(labels[1], bound) == 0
    reduce_into(y, one, bound)
    assert lib.aclrtSetLabel(labels[1], bound) == E.ACL_ERROR_RT_INTERNAL_ERROR and "set already" in msg()
    assert lib.aclmdlRIBuildEnd(m[0], ffi.NULL) == E.ACL_ERROR_RT_MODEL_EXECUTE  # no end task yet
    assert lib.aclmdlRIEndTask(m[0], bound) == 0
    assert lib.aclmdlRIBuildEnd(m[0], ffi.NULL) == 0
    assert x.copy_to_host(np.float32)[0] == 0 and y.copy_to_host(np.float32)[0] == 0  # stored, not run
    assert lib.aclmdlRIExecute(m[0], 5000) == 0
    assert x.copy_to_host(np.float32)[0] == (1 if runs_x else 0) and y.copy_to_host(np.float32)[0] == 1
    assert lib.aclmdlRIUnbindStream(m[0], bound) == 0
    assert lib.aclmdlRIDestroy(m[0]) == 0
    assert lib.aclrtDestroyLabel(labels[0]) == E.ACL_ERROR_RT_INTERNAL_ERROR  # still in its list
    assert lib.aclrtDestroyLabelList(lst[0]) == 0
    for i in range(2):
        assert lib.aclrtDestroyLabel(labels[i]) == 0
    assert lib.aclrtDestroyStream(bound) == 0
    for b in (one, x, y, idx):
        b.close()


def test_build_errors():
    with aclnn_emu.Stream() as plain:
        m = ffi.new("aclmdlRI *")
        assert lib.aclmdlRIBuildBegin(m, 1) == E.ACL_ERROR_RT_PARAM_INVALID
        assert lib.aclmdlRIBuildBegin(m, 0) == 0
        assert lib.aclmdlRIBindStream(m[0], plain.handle, 0) == E.ACL_ERROR_RT_PARAM_INVALID
        assert "is not persistent" in msg()
        bound = persistent_stream()
        assert lib.aclmdlRIBindStream(m[0], bound, 5) == E.ACL_ERROR_RT_PARAM_INVALID
        assert lib.aclmdlRIBindStream(m[0], bound, 0) == 0
        assert lib.aclmdlRIBindStream(m[0], bound, 0) == E.ACL_ERROR_RT_STREAM_MODEL
        assert lib.aclmdlRIExecuteAsync(m[0], plain.handle) == E.ACL_ERROR_RT_MODEL_EXECUTE and "not ready" in msg()
        assert lib.aclmdlRIExecuteAsync(m[0], bound) == E.ACL_ERROR_RT_PARAM_INVALID
        label = ffi.new("aclrtLabel *")
        assert lib.aclrtCreateLabel(label) == 0
        assert lib.aclrtSetLabel(label[0], plain.handle) == E.ACL_ERROR_RT_STREAM_MODEL
        assert lib.aclrtSetLabel(label[0], bound) == E.ACL_ERROR_RT_INTERNAL_ERROR and "in no label list" in msg()
        assert lib.aclrtCreateLabelList(label, 0, ffi.new("aclrtLabelList *")) == E.ACL_ERROR_RT_PARAM_INVALID
        assert lib.aclmdlRIEndTask(m[0], bound) == 0
        assert lib.aclmdlRIEndTask(m[0], bound) == E.ACL_ERROR_RT_INTERNAL_ERROR
        assert lib.aclmdlRIUnbindStream(m[0], bound) == 0
        assert lib.aclmdlRIDestroy(m[0]) == 0
        assert lib.aclrtDestroyLabel(label[0]) == 0
        assert lib.aclrtDestroyStream(bound) == 0


def test_external_event_flags_belong_in_a_capture(tmp_path):
    ev = ffi.new("aclrtEvent *")
    assert lib.aclrtCreateEventExWithFlag(ev, 1) == 0
    with aclnn_emu.Stream() as s, aclnn_emu.Stream() as other:
        assert lib.aclrtRecordEventWithFlag(ev[0], s.handle, 1) == E.ACL_ERROR_RT_STREAM_NOT_CAPTURED
        assert lib.aclrtStreamWaitEventWithFlag(s.handle, ev[0], 5, 1) == E.ACL_ERROR_INVALID_PARAM
        assert lib.aclrtStreamWaitEventWithFlag(s.handle, ev[0], 0, 1) == E.ACL_ERROR_RT_STREAM_NOT_CAPTURED
        # In a capture: the graph's external record is the event's latest at every launch, so a stream
        # waiting on the event after the launch waits for the graph.
        src, dst = device_array([5, 6]), device_array([0, 0])
        capture(s)
        reduce_into(dst, src, s.handle)
        assert lib.aclrtRecordEventWithFlag(ev[0], s.handle, 1) == 0
        m = end_capture(s)
        path = tmp_path / "model.json"
        assert lib.aclmdlRIDebugJsonPrint(m, str(path).encode(), 0) == 0
        trace = json.loads(path.read_text())
        assert [t["ph"] for t in trace] == ["X"] * 3 and trace[-1]["name"] == "MODEL_END_GRAPH"
        gate = aclnn_emu.DeviceBuffer(8)
        gate.copy_from_host(np.zeros(1, np.uint64))
        assert lib.aclrtValueWait(gate.handle, 1, 0, s.handle) == 0  # hold the graph's stream
        assert lib.aclmdlRIExecuteAsync(m, s.handle) == 0
        assert lib.aclrtStreamWaitEvent(other.handle, ev[0]) == 0
        out = np.zeros(2, np.float32)
        assert lib.aclrtMemcpyAsync(ffi.from_buffer(out), 8, dst.handle, 8, 2, other.handle) == 0
        status = ffi.new("aclrtStreamStatus *")
        assert lib.aclrtStreamQuery(other.handle, status) == 0 and status[0] != 0  # waiting for the graph
        gate.copy_from_host(np.ones(1, np.uint64))
        other.synchronize()
        assert out.tolist() == [5, 6]
        s.synchronize()
        assert lib.aclmdlRIDestroy(m) == 0
        for b in (src, dst, gate):
            b.close()
    assert lib.aclrtDestroyEvent(ev[0]) == 0
