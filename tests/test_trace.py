"""`aclnn-emu run --trace`: the timeline a program leaves, in the Chrome trace event format Perfetto opens.

The file is checked against the format as its documentation defines it (the JSON object form: traceEvents, each
event's phase and the fields that phase requires, balanced B/E on a thread, b/e paired by cat and id, metadata
events naming threads), written here from that documentation, and then for the events the program made.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict

PROGRAM = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "aclnnop/aclnn_add.h"
#include "mstx/ms_tools_ext.h"

#define CHECK(x) do { int rc_ = (x); if (rc_) { printf("FAILED %s -> %d\n", #x, rc_); return 1; } } while (0)

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));
    void *stamp = aclprofCreateStamp();
    CHECK(aclprofSetStampTraceMessage(stamp, "model_load", 10));
    CHECK(aclprofMark(stamp));
    CHECK(aclprofPush(stamp));
    uint32_t range;
    CHECK(aclprofRangeStart(stamp, &range));
    aclprofStepInfo *step = aclprofCreateStepInfo();
    CHECK(aclprofGetStepTimestamp(step, ACL_STEP_START, stream));
    mstxDomainHandle_t domain = mstxDomainCreateA("my_domain");
    mstxRangeId id = mstxDomainRangeStartA(domain, "add \"quoted\"", stream);
    mstxMarkA("global mark", stream);

    float host[4] = {1, 2, 3, 4};
    void *x, *out;
    CHECK(aclrtMalloc(&x, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&out, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(x, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
    int64_t shape[1] = {4}, strides[1] = {1};
    aclTensor *tx = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, x);
    aclTensor *to = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, out);
    float one = 1.0f;
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *ex;
    CHECK(aclnnAddGetWorkspaceSize(tx, tx, alpha, to, &ws, &ex));
    CHECK(aclnnAdd(NULL, 0, ex, stream));
    CHECK(aclrtSynchronizeStream(stream));

    mstxDomainRangeEnd(domain, id);
    CHECK(aclprofGetStepTimestamp(step, ACL_STEP_END, stream));
    CHECK(aclprofRangeStop(range));
    CHECK(aclprofPop());
    aclprofDestroyStepInfo(step);
    aclprofDestroyStamp(stamp);
    mstxDomainDestroy(domain);
    aclDestroyTensor(tx);
    aclDestroyTensor(to);
    aclDestroyScalar(alpha);
    aclrtFree(x);
    aclrtFree(out);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}
"""

PHASES = set("BEXiIbneMCsftPNOD")


def validate_trace_event_format(doc) -> list[dict]:
    """The trace's events, after checking them against the Trace Event Format's JSON object form."""
    assert isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list)
    assert doc.get("displayTimeUnit", "ms") in ("ms", "ns")
    open_b: dict[tuple, list[str]] = defaultdict(list)
    open_async: dict[tuple, str] = {}
    for ev in doc["traceEvents"]:
        assert isinstance(ev, dict), ev
        ph = ev.get("ph")
        assert ph in PHASES, ev
        assert isinstance(ev.get("name"), str), ev
        assert isinstance(ev.get("pid"), int) and isinstance(ev.get("tid"), int), ev
        if ph == "M":
            assert ev["name"] in ("process_name", "process_labels", "process_sort_index", "thread_name",
                                  "thread_sort_index"), ev  # fmt: skip
            assert isinstance(ev.get("args"), dict) and "name" in ev["args"] or "sort_index" in ev["args"], ev
            continue
        assert isinstance(ev.get("ts"), (int, float)), ev
        if "cat" in ev:
            assert isinstance(ev["cat"], str), ev
        if ph == "X":
            assert isinstance(ev.get("dur"), (int, float)) and ev["dur"] >= 0, ev
        elif ph in "iI":
            assert ev.get("s", "t") in ("g", "p", "t"), ev
        elif ph == "B":
            open_b[(ev["pid"], ev["tid"])].append(ev["name"])
        elif ph == "E":
            assert open_b[(ev["pid"], ev["tid"])], f"E without a B on its thread: {ev}"
            open_b[(ev["pid"], ev["tid"])].pop()
        elif ph in "be":
            assert "id" in ev and isinstance(ev.get("cat"), str), ev
            key = (ev["cat"], ev["id"])
            if ph == "b":
                assert key not in open_async, ev
                open_async[key] = ev["name"]
            else:
                assert open_async.pop(key, None) == ev["name"], f"e without its b: {ev}"
    assert not any(open_b.values()), f"B without E: {dict(open_b)}"
    assert not open_async, f"b without e: {open_async}"
    return doc["traceEvents"]


def test_run_trace_opens_as_a_perfetto_json_trace(tmp_path):
    src = tmp_path / "traced.c"
    src.write_text(PROGRAM)
    out = tmp_path / "trace"
    r = subprocess.run([sys.executable, "-m", "aclnn_emu", "run", "--trace", str(out), str(src)],
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    trace_file = out / "traced.trace.json"
    assert f"trace: {trace_file}" in r.stdout
    assert (out / "traced.report").read_text() in r.stdout  # the report, saved beside the trace
    events = validate_trace_event_format(json.loads(trace_file.read_text()))

    names = {(e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    ops = [e for e in events if e["ph"] == "X" and e.get("cat") == "operator"]
    assert [e["name"] for e in ops] == ["aclnnAdd"]
    assert names[ops[0]["tid"]].startswith("stream ")  # on the track of the stream that ran it
    marks = {(e["name"], e.get("cat")) for e in events if e["ph"] == "i"}
    assert {("model_load", "msproftx"), ("global mark", "mstx"), ("step 1 start", "step")} <= marks
    assert ("step 1 end", "step") in marks
    assert [e["name"] for e in events if e["ph"] == "B"] == ["model_load"]
    ranges = {(e["name"], e["cat"]) for e in events if e["ph"] == "b"}
    assert ranges == {("model_load", "msproftx"), ('add "quoted"', "my_domain")}
    # The domain's range encloses the operator, on the host's clock.
    b = next(e for e in events if e["ph"] == "b" and e["cat"] == "my_domain")
    e = next(e for e in events if e["ph"] == "e" and e["cat"] == "my_domain")
    assert b["ts"] <= ops[0]["ts"] and ops[0]["ts"] + ops[0]["dur"] <= e["ts"]


def test_no_trace_without_the_option(tmp_path):
    src = tmp_path / "plain.c"
    src.write_text(PROGRAM)
    r = subprocess.run([sys.executable, "-m", "aclnn_emu", "run", str(src)], capture_output=True, text=True,
                       timeout=300, cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "trace:" not in r.stdout and not list(tmp_path.rglob("*.trace.json"))


def test_the_validator_rejects_what_the_format_forbids():
    ok = {"traceEvents": [{"ph": "B", "name": "a", "pid": 1, "tid": 1, "ts": 0},
                          {"ph": "E", "name": "", "pid": 1, "tid": 1, "ts": 1}]}  # fmt: skip
    validate_trace_event_format(ok)
    for bad in (
        [{"ph": "E", "name": "", "pid": 1, "tid": 1, "ts": 1}],  # E without B
        [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1}],  # X without dur
        [{"ph": "b", "name": "a", "pid": 1, "tid": 1, "ts": 1, "cat": "c"}],  # b without id
        [{"ph": "b", "name": "a", "pid": 1, "tid": 1, "ts": 1, "cat": "c", "id": 1}],  # never ended
        [{"ph": "Q", "name": "a", "pid": 1, "tid": 1, "ts": 1}],  # no such phase
    ):
        try:
            validate_trace_event_format({"traceEvents": bad})
        except AssertionError:
            continue
        raise AssertionError(f"accepted {bad}")
