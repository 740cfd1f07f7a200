"""Validation mode: every misuse the emulator detects, committed by a C program, in normal and strict mode."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from aclnn_emu import cli

SOURCE = Path(__file__).parent / "c" / "misuse.c"


@pytest.fixture(scope="module")
def misuse(tmp_path_factory):
    exe = tmp_path_factory.mktemp("misuse") / "misuse"
    subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", *cli.cflags(), str(SOURCE), "-o", str(exe),
                    *cli.libs(), "-lm"], check=True)  # fmt: skip

    def run(scenario, strict):
        env = dict(os.environ, ACLNN_EMU_STRICT="1" if strict else "0", ASCEND_GLOBAL_LOG_LEVEL="2")
        r = subprocess.run([str(exe), scenario], capture_output=True, text=True, env=env, timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        results = {m[0]: (int(m[1]), m[2]) for m in re.findall(r"^(.*?) status=(-?\d+) msg=(.*)$", r.stdout, re.M)}
        return results, r.stdout, r.stderr

    return run


# scenario, call, (normal status, strict status), message fragment
CASES = [
    ("host_memory_as_device", "launch", (0, 161002), "gradOut data 0x", "is not inside memory from aclrtMalloc"),
    ("unaligned_address", "launch", (0, 161002), "gradOut address", "is not 32-byte aligned"),
    ("memcpy_kind_mismatch", "aclrtMemcpy", (0, 100000), "kind ACL_MEMCPY_HOST_TO_DEVICE disagrees", "is host memory"),
    ("missing_sync", "aclrtMemcpy", (0, 100000), "that aclnnUpsampleBilinear2dBackwardV2, enqueued on stream",
     "missing aclrtSynchronizeStream"),
    ("free_in_use", "aclrtFree", (0, 100000), "frees memory", "still uses"),
    ("bad_boxes", "aclrtSynchronizeStream", (0, 161002), "box 1 = (5, 1, 1, 3, 3)", "image id outside [0, 1)"),
    ("leak", "aclFinalize", (0, 500001), "3 resource(s) still alive at aclFinalize",
     "(1 aclTensor, 1 aclIntArray, 1 memory block(s))"),
]  # fmt: skip


@pytest.mark.parametrize("scenario, call, statuses, fragment, fragment2", CASES, ids=[c[0] for c in CASES])
def test_strict_misuse(misuse, scenario, call, statuses, fragment, fragment2):
    normal, out_n, err_n = misuse(scenario, strict=False)
    assert normal[call][0] == statuses[0]
    assert "[WARNING]" in err_n and fragment in err_n and fragment2 in err_n  # normal mode: a warning
    strict, out_s, err_s = misuse(scenario, strict=True)
    assert strict[call][0] == statuses[1]
    assert fragment in strict[call][1] and fragment2 in strict[call][1]
    assert "(strict mode)" in out_s[out_s.index(f"{call} status=") :]  # the message ends with it (may span lines)


# Always errors, whatever the mode.
ALWAYS = [
    ("before_init", "aclrtMalloc", 100001, "aclInit has not been called"),
    ("after_finalize", "aclrtMalloc", 100001, "aclInit has not been called (or aclFinalize was)"),
    ("no_device", "aclrtCreateStream", 107002, "no device is set on this thread"),
    ("view_past_block", "launch", 161002, "gradOut view reaches 32 bytes past the end of its 32-byte block"),
    ("memcpy_count_over_destmax", "aclrtMemcpy", 100000, "count 256 exceeds destMax 16"),
    ("executor_reuse", "second launch", 161002, "was already used up or destroyed"),
    ("null_executor", "launch", 161001, "executor is NULL"),
    ("stale_tensor", "aclDestroyTensor", 161002, "was already destroyed (stale handle)"),
    # A port that never allocates the workspace phase one reported: CANN's CommonOpExecutorRun status.
    ("null_workspace", "launch", 161001, "workspace is NULL but phase one asked for"),
    # Too small: CANN does not check it (the NPU would write past it); refused here.
    ("small_workspace", "launch", 161002, "is smaller than the"),
]


@pytest.mark.parametrize("scenario, call, status, fragment", ALWAYS, ids=[c[0] for c in ALWAYS])
@pytest.mark.parametrize("strict", [False, True])
def test_always_detected(misuse, scenario, call, status, fragment, strict):
    results, _, _ = misuse(scenario, strict)
    assert results[call][0] == status
    assert fragment in results[call][1]


def test_missing_sync_copy_is_fine_after_synchronize(misuse):
    results, _, _ = misuse("missing_sync", strict=True)
    assert results["after sync"][0] == 0


def test_failed_launch_leaks_nothing(misuse):
    results, _, _ = misuse("view_past_block", strict=True)
    assert results["aclFinalize"][0] == 0  # the single-use executor was released by the failed call


def test_strict_mode_fills_fresh_memory_with_nan(misuse):
    _, out, _ = misuse("uninitialised_memory", strict=True)
    assert "fresh memory is NaN: 1" in out


def test_info_log_lines(tmp_path):
    exe = tmp_path / "sample"
    subprocess.run(["cc", str(SOURCE.parent / "sample_c.c"), "-o", str(exe), *cli.cflags(), *cli.libs(), "-lm"],
                   check=True)  # fmt: skip
    env = dict(os.environ, ASCEND_GLOBAL_LOG_LEVEL="1", ASCEND_SLOG_PRINT_TO_STDOUT="1")
    out = subprocess.run([str(exe)], capture_output=True, text=True, env=env).stdout
    assert re.search(r"\[INFO\] aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize gradOut=f32\(1,1,6,6\) "
                     r"out=f32\(1,1,3,3\) alignCorners=1 .* -> 0 \(ws=[1-9][0-9]*\)", out)  # fmt: skip
    assert re.search(r"\[INFO\] aclnnRoiAlignV2Backward kernel done in [0-9.]+ ms", out)
    assert "[INFO] aclrtMalloc size=" in out and "[INFO] aclrtSetDevice deviceId=0 -> 0" in out


def test_null_workspace_releases_the_executor(misuse):
    results, out, _ = misuse("null_workspace", strict=False)
    assert "workspace size > 0: 1" in out
    assert results["reuse"][0] == 161002 and "already used up or destroyed" in results["reuse"][1]
