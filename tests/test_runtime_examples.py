"""hicann/runtime's example programs (example/), each through its own run.sh, against the installed toolkit.

As CANN's example/README.md has a user run them: source <toolkit>/set_env.sh, source
example/set_sample_env.sh (it builds a helper that asks aclrtGetSocName for SOC_VERSION and finds
ASCENDC_CMAKE_DIR), then ``bash run.sh`` in the example's folder, which configures with CMake, builds with
make and runs the program. The examples are read from a checkout or git directory of hicann/runtime named by
ACLNN_EMU_RUNTIME (or a local mirror) and copied into a temporary directory; nothing of them is committed.

An example whose CMakeLists.txt builds no AI Core kernel (no ascendc_library / ascendc_fatbin_library) must
exit 0 without an ``[ERROR]`` line. One that builds a kernel must stop in CMake's configure step, before any
target builds, with the toolkit's one line naming the kernel source. Examples that need runtime features
the emulator does not have yet are listed in NOT_YET with the first thing each misses, and reported as
expected failures without being run (take an example out of the list to run it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import aclnn_emu

CANDIDATES = [os.environ.get("ACLNN_EMU_RUNTIME", ""), "/work/.mirror/hicann+runtime/repo"]
KERNEL_LINE = "AI Core kernels are not emulated:"

# Kernel-free examples the emulator cannot run yet, with the first thing each misses (issue 25): none now.
NOT_YET: dict[str, str] = {}

# Lines an example must print where CANN's own README or code fixes the result (worked out from the example's
# inputs, not from the emulator's output): the values of the arithmetic it asks the runtime to do.
VECTOR = "[INFO]  The vector data is: "
EXPECTED: dict[str, list[str]] = {
    "2_advanced_features/built_in_task/0_reduce_task": [
        f"Reduce SUM result[{i}] = {2 * (i + 1)}.000000" for i in range(4)
    ],
    # (self + other * 1.1) * other with self = 1..8, other = 2: the capture replayed four times.
    "2_advanced_features/model_ri/0_simple_model": [
        VECTOR + "  ".join(f"{(x + 2.2) * 2:.4f}" for x in range(1, 9)) + "  "
    ]
    * 4,
    # (self + other * 1.1) + other * 1.1 with self = 1..8, other = 2; then the updated kernel's alpha, 2.2.
    "2_advanced_features/model_ri/1_model_update": [
        VECTOR + "  ".join(f"{x + 2 * 1.1 + 2 * 1.1:.4f}" for x in range(1, 9)) + "  ",
        "[INFO]  Update alpha value of aclnnAdd",
        VECTOR + "  ".join(f"{x + 2 * 1.1 + 2 * 2.2:.4f}" for x in range(1, 9)) + "  ",
    ],
    "2_advanced_features/model_ri/4_model_sync_external": ["[INFO]  Check result success."] * 3,
    "2_advanced_features/label/0_simple_label": ["[INFO]  Switch label executed successfully with branch index 1."],
    "2_advanced_features/tdt_channel/0_simple_channel": [
        "[INFO]  Tensor type=0, data type=0, bytes=16, dims=(1, 4), firstValue=1.000",
        "[INFO]  Channel size after send: 1",
        "[INFO]  Channel size after receive: 0",
    ],
    "2_advanced_features/tdt_channel/1_channel_capacity": [
        "[INFO]  Channel size after second send: 2",
        "[INFO]  Third send ret under capacity pressure: 207014",
    ],
    "2_advanced_features/tdt_queue/1_queue_route": ["[INFO]  Queried route count: 1"],
    "2_advanced_features/ipcevent/0_ipcevent": ["[SUCCESS] IPC event synchronization works correctly."],
    "1_basic_features/stream/3_stream_config_query": ["[SUCCESS] Stream config query sample executed successfully."],
}


def _checkout(dest: Path) -> Path | None:
    """hicann/runtime's example/ tree under dest, from a checkout or a git directory."""
    for root in filter(None, CANDIDATES):
        if os.path.isdir(os.path.join(root, "example")):
            shutil.copytree(os.path.join(root, "example"), dest / "example")
            return dest / "example"
        git = ["git", "--git-dir", root]
        if subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True).returncode == 0:
            archive = subprocess.run([*git, "archive", "HEAD", "example"], capture_output=True, check=True)
            subprocess.run(["tar", "x", "-C", str(dest)], input=archive.stdout, check=True)
            return dest / "example"
    return None


def _examples(root: Path | None) -> list[str]:
    if root is None:
        return []
    return sorted(
        str(p.parent.relative_to(root)) for p in root.rglob("CMakeLists.txt") if (p.parent / "run.sh").exists()
    )


def _builds_kernel(folder: Path) -> bool:
    text = (folder / "CMakeLists.txt").read_text(errors="replace")
    return "ascendc_library" in text or "ascendc_fatbin_library" in text


@pytest.fixture(scope="module")
def example_root(tmp_path_factory):
    if shutil.which("cmake") is None or shutil.which("make") is None or shutil.which("g++") is None:
        pytest.skip("cmake, make and g++ build CANN's examples")
    root = _checkout(tmp_path_factory.mktemp("runtime"))
    if root is None:
        pytest.skip("hicann/runtime not found: set ACLNN_EMU_RUNTIME to a checkout or git directory of it")
    return root


def _run(root: Path, rel: str) -> subprocess.CompletedProcess:
    home = aclnn_emu.TOOLKIT_HOME
    script = (
        f'source "{home}/set_env.sh" && cd "{root}" && source ./set_sample_env.sh >/dev/null && '
        f'cd "{root / rel}" && bash run.sh'
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "ACLNN_EMU_LIBRARY"))}
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=600)


def _ids() -> list[str]:
    with __import__("tempfile").TemporaryDirectory() as d:
        return _examples(_checkout(Path(d)))


EXAMPLES = _ids()


@pytest.mark.parametrize("rel", EXAMPLES or ["missing"])
def test_runtime_example(example_root, rel):
    if rel == "missing":
        pytest.skip("hicann/runtime's examples not found")
    folder = example_root / rel
    kernel = _builds_kernel(folder)
    if rel in NOT_YET and not kernel:
        pytest.xfail(NOT_YET[rel])
    r = _run(example_root, rel)
    out = r.stdout + r.stderr
    if kernel:
        # The configure step stops at the kernel library: the toolkit's line is the last, nothing builds.
        assert r.returncode != 0, out[-2000:]
        last = out.strip().splitlines()[-1]
        assert last.startswith(KERNEL_LINE), out[-2000:]
        assert "Building" not in out and "CMake Error" not in out, out[-2000:]
        return
    # A sample's CHECK_ERROR macros print "Operation failed" and return non-zero; some print [ERROR] lines on
    # purpose (1_error_handling's expected failure), so the status and that text decide.
    assert r.returncode == 0, out[-3000:]
    assert "Operation failed" not in out and "[FAILURE]" not in out, out[-3000:]
    lines = r.stdout.splitlines()
    for want in EXPECTED.get(rel, []):
        assert lines.count(want) >= EXPECTED[rel].count(want), f"missing {want!r} in:\n{r.stdout[-3000:]}"


def test_set_sample_env_reports_the_emulated_soc(example_root):
    home = aclnn_emu.TOOLKIT_HOME
    script = f'source "{home}/set_env.sh" && cd "{example_root}" && source ./set_sample_env.sh && echo "$SOC_VERSION"'
    r = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, env=dict(os.environ, ACLNN_EMU_SOC="Ascend910B2")
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == "Ascend910B2"
    assert f"ASCENDC_CMAKE_DIR is set to {home}/tikcpp/ascendc_kernel_cmake" in r.stdout
