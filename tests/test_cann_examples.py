"""CANN's own example programs of the operators, built unchanged.

The programs are hicann/ops-cv's (objdetect/roi_align/examples, image/upsample_bilinear2d/examples,
image/resize_bilinear_v2_grad/examples); they are not copied into this repository. The test takes
them from a checkout or a git directory of ops-cv named by ACLNN_EMU_OPS_CV (or a local mirror),
builds each with the README's compiler line and runs it; each must exit 0 and print the result the
Python API computes for the same inputs (the inputs below are the programs').
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from aclnn_emu import cli

from reference import (
    cann_roi_align_forward,
    cann_trilinear3d,
    forward_axis,
    nearest_grad,
    nearest_resize,
    nearest_scatter,
    upsample_bilinear2d_backward,
    upsample_bilinear2d_forward,
)

CANDIDATES = [os.environ.get("ACLNN_EMU_OPS_CV", ""), "/work/.mirror/hicann+ops-cv/repo"]
# hicann/ops-math's programs (aclnnAdd, aclnnMul): EXAMPLES entries that start with "ops-math:".
MATH_CANDIDATES = [os.environ.get("ACLNN_EMU_OPS_MATH", ""), "/work/.mirror/hicann+ops-math/repo"]
EXAMPLES = {
    "roi_align_v2": "objdetect/roi_align/examples/test_aclnn_roi_align_v2.cpp",
    "roi_align": "objdetect/roi_align/examples/test_aclnn_roi_align.cpp",
    "upsample_bilinear2d": "image/upsample_bilinear2d/examples/test_aclnn_upsample_bilinear2d.cpp",
    "upsample_bilinear2d_backward": (
        "image/resize_bilinear_v2_grad/examples/test_aclnn_upsample_bilinear_2d_backward.cpp"
    ),
    "upsample_linear1d": "image/upsample_linear1d/examples/test_aclnn_upsample_linear1d.cpp",
    "resize_linear": "image/resize_linear/examples/test_aclnn_resize_linear.cpp",
    "upsample_nearest1d": "image/resize_nearest_neighbor_v2/examples/test_aclnn_upsample_nearest1d.cpp",
    "upsample_nearest2d": "image/resize_nearest_neighbor_v2/examples/test_aclnn_upsample_nearest2d.cpp",
    "upsample_nearest1d_v2": "image/upsample_nearest3d/examples/test_aclnn_upsample_nearest1d_v2.cpp",
    "upsample_nearest2d_v2": "image/upsample_nearest3d/examples/test_aclnn_upsample_nearest2d_v2.cpp",
    "upsample_nearest3d": "image/upsample_nearest3d/examples/test_aclnn_upsample_nearest3d.cpp",
    "upsample_nearest_exact1d": "image/upsample_nearest/examples/test_aclnn_upsample_nearest.cpp",
    "upsample_nearest_exact1d_uint8": "image/upsample_nearest/examples/test_aclnn_upsample_nearest_exact1d_uint8.cpp",
    "upsample_nearest_exact2d": "image/upsample_nearest/examples/test_aclnn_upsample_nearest_exact2d.cpp",
    "upsample_nearest_exact2d_uint8": "image/upsample_nearest/examples/test_aclnn_upsample_nearest_exact2d_uint8.cpp",
    "upsample_nearest_exact3d": "image/upsample_nearest_exact3d/examples/test_aclnn_upsample_nearest_exact3d.cpp",
    "upsample_trilinear3d": "image/resize_upsample_trilinear/examples/test_aclnn_upsample_trilinear3d.cpp",
    "upsample_nearest3d_backward": "image/upsample_nearest3d_grad/examples/test_aclnn_upsample_nearest3d_grad.cpp",
    "upsample_nearest_exact3d_backward": (
        "image/upsample_nearest_exact3d_grad/examples/test_aclnn_upsample_nearest_exact3d_grad.cpp"
    ),
    "upsample_trilinear3d_backward": (
        "image/upsample_trilinear3d_backward/examples/test_aclnn_upsample_trilinear3d_backward.cpp"
    ),
    "upsample_linear1d_backward": "image/upsample_bilinear2d_grad/examples/test_aclnn_upsample_linear1d_backward.cpp",
    "resize_linear_grad": "image/resize_linear_grad/examples/test_aclnn_resize_linear_grad.cpp",
    "upsample_nearest1d_backward": "image/upsample_nearest2d_grad/examples/test_aclnn_upsample_nearest1d_backward.cpp",
    "upsample_nearest2d_backward": "image/upsample_nearest2d_grad/examples/test_aclnn_upsample_nearest2d_grad.cpp",
    "upsample_nearest_exact1d_backward": (
        "image/upsample_nearest_exact2d_grad/examples/test_aclnn_upsample_nearest_exact1d_backward.cpp"
    ),
    "upsample_nearest_exact2d_backward": (
        "image/upsample_nearest_exact2d_grad/examples/test_aclnn_upsample_nearest_exact2d_grad.cpp"
    ),
    "resize": "image/resize_bilinear_v2/examples/test_aclnn_resize.cpp",
    "add": "ops-math:math/add/examples/test_aclnn_add.cpp",
    "mul": "ops-math:math/mul/examples/test_aclnn_mul.cpp",
}


def _source(rel: str) -> str | None:
    candidates = CANDIDATES
    if rel.startswith("ops-math:"):
        rel, candidates = rel[len("ops-math:") :], MATH_CANDIDATES
    for root in filter(None, candidates):
        p = Path(root)
        if (p / rel).is_file():
            return (p / rel).read_text()
        if (p / "HEAD").is_file():  # a git directory without a work tree
            r = subprocess.run(["git", "--git-dir", str(p), "show", f"HEAD:{rel}"], capture_output=True, text=True)
            if r.returncode == 0:
                return r.stdout
    return None


def _ratios(in_sizes, out_sizes):
    return [np.float32(i) / np.float32(o) for i, o in zip(in_sizes, out_sizes)]


def _expected(name: str) -> np.ndarray:
    """The programs' results from the independent models of tests/reference.py (the inputs are the programs')."""
    x9, x8 = np.arange(9, dtype=np.float32).reshape(1, 3, 3), np.arange(8, dtype=np.float32).reshape(1, 1, 4, 2)
    x48 = np.arange(1, 49, dtype=np.float32).reshape(2, 2, 2, 2, 3)
    if name == "upsample_nearest1d_backward":  # gradOut (1, 4.1) into L = 3; int(3 * 1.1) != 2: the scatter rule
        return nearest_scatter(np.array([[[1.0, 4.1]]], np.float32), (3,), [np.float32(3) / np.float32(2)])
    if name == "upsample_nearest2d_backward":  # gradOut (2, 2, 3, 3) of 1..36 into (2, 2, 1, 1), no scales
        g = np.arange(1, 37, dtype=np.float32).reshape(2, 2, 3, 3)
        return nearest_scatter(g, (1, 1), [np.float32(1) / np.float32(3)] * 2)
    if name == "upsample_nearest_exact1d_backward":  # gradOut (1, 2) into L = 4, scale 0.5
        return nearest_grad(np.array([[[1.0, 2.0]]], np.float32), (4,), [np.float32(0.5)], exact=True)
    if name == "upsample_nearest_exact2d_backward":  # gradOut (1, 1, 4, 2) of 0..7 into (8, 4), scales 0.5
        return nearest_grad(x8, (8, 4), [np.float32(0.5)] * 2, exact=True)
    if name == "resize":  # (1, 1, 2, 2) of 1..4 to (4, 4), "nearest"
        return nearest_resize(np.arange(1, 5, dtype=np.float32).reshape(1, 1, 2, 2), (4, 4), _ratios((2, 2), (4, 4)))
    if name in ("upsample_linear1d", "resize_linear"):  # (1, 1, 2) -> 3, no alignCorners, scale -1: the sizes' ratio
        x = np.array([[[1.0, 1.0]]] if name == "upsample_linear1d" else [[[1.0, 4.0]]], np.float32)
        lo, hi, wl, wh = forward_axis(3, 2, False, np.float32(2) / np.float32(3))
        return wl * x[..., lo] + wh * x[..., hi]
    if name == "upsample_nearest1d":
        return nearest_resize(x9, (5,), _ratios((3,), (5,)))
    if name == "upsample_nearest1d_v2":  # (1, 3, 3) -> 6, scaleL 0 (its out host buffer is 6 floats of 18)
        return nearest_resize(x9, (6,), _ratios((3,), (6,)))
    if name in ("upsample_nearest2d", "upsample_nearest2d_v2"):
        return nearest_resize(x8, (8, 4), _ratios((4, 2), (8, 4)))
    if name == "upsample_nearest3d":
        return nearest_resize(x48, (1, 1, 1), _ratios((2, 2, 3), (1, 1, 1)))
    if name.startswith("upsample_nearest_exact1d"):
        return nearest_resize(x9, (5,), _ratios((3,), (5,)), exact=True)
    if name.startswith("upsample_nearest_exact2d"):
        return nearest_resize(x8, (8, 4), _ratios((4, 2), (8, 4)), exact=True)
    if name in ("upsample_linear1d_backward", "resize_linear_grad"):  # gradOut (1, 1, 3) = 1, 2, 3 into L = 6
        # alignCorners: the ratio (6 - 1) / (3 - 1) = 2.5 whatever the scale (1.1); each value to its two taps
        g, out = np.array([1.0, 2.0, 3.0]), np.zeros(6)
        lo, hi, wl, wh = forward_axis(3, 6, True, np.float32(2.5))
        for j in range(3):
            out[lo[j]] += wl[j] * g[j]
            out[hi[j]] += wh[j] * g[j]
        return out
    if name == "upsample_trilinear3d_backward":  # gradOut (2, 2, 2, 2, 2) of 1..32 into (2, 2, 1, 1, 1)
        return np.arange(1, 33, dtype=np.float64).reshape(4, 8).sum(axis=1)
    if name.endswith("3d_backward"):  # gradOut (2, 2, 2, 2, 2) of 1..32 into (2, 2, 1, 1, 1)
        g = np.arange(1, 33, dtype=np.float32).reshape(2, 2, 2, 2, 2)
        return nearest_grad(g, (1, 1, 1), [np.float32(2)] * 3, exact="exact" in name)
    if name == "upsample_trilinear3d":  # (1, 1, 2, 2, 2) of 1..8 -> (4, 4, 4), no alignCorners, no scales
        return cann_trilinear3d(np.arange(1, 9, dtype=np.float32).reshape(1, 1, 2, 2, 2), (4, 4, 4), False)
    if name == "upsample_nearest_exact3d":
        return nearest_resize(x48, (1, 1, 1), _ratios((2, 2, 3), (1, 1, 1)), exact=True)
    if name in ("add", "mul"):  # (4, 2) FLOAT: 0..7 and 1, 1, 1, 2, 2, 2, 3, 3; aclnnAdd's alpha 1.2f (Axpy, in FLOAT)
        a, b = np.arange(8, dtype=np.float32), np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32)
        return a + np.float32(1.2) * b if name == "add" else a * b
    x36 = np.arange(1, 37, dtype=np.float32).reshape(1, 1, 6, 6)
    box = np.array([[0.0, -2.0, -2.0, 22.0, 22.0]], np.float32)
    if name == "roi_align_v2":  # pooled 3x3, samplingRatio 2, spatialScale 0.25, aligned=false
        return cann_roi_align_forward(x36, box, 3, 3, 0.25, 2, 0)
    if name == "roi_align":  # "avg", 3x3, adaptive, spatialScale 1 (roi_end_mode 0)
        return cann_roi_align_forward(x36, box, 3, 3, 1.0, 0, 0)
    if name == "upsample_bilinear2d":  # (1, 1, 4, 2) -> (8, 4), alignCorners, scales 2
        return upsample_bilinear2d_forward(np.arange(8, dtype=np.float32).reshape(1, 1, 4, 2), (8, 4), True, 2.0, 2.0)
    # V1 backward: gradOut of ones (1, 1, 6, 6) into (1, 1, 3, 3), alignCorners; V1 uses no scales
    return upsample_bilinear2d_backward(np.ones((1, 1, 6, 6)), (3, 3), True, 0.0, 0.0)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_cann_example_builds_unchanged_and_runs(name, tmp_path):
    text = _source(EXAMPLES[name])
    if text is None:
        repo, var = (
            ("ops-math", "ACLNN_EMU_OPS_MATH")
            if EXAMPLES[name].startswith("ops-math:")
            else ("ops-cv", "ACLNN_EMU_OPS_CV")
        )
        pytest.skip(f"hicann/{repo}'s examples not found: set {var} to a checkout or git directory of it")
    src = tmp_path / Path(EXAMPLES[name]).name
    src.write_text(text)
    exe = tmp_path / "example"
    home = cli.TOOLKIT_HOME
    env = {**os.environ, "LD_LIBRARY_PATH": f"{home / 'lib64'}:{os.environ.get('LD_LIBRARY_PATH', '')}"}
    build = ["g++", str(src), f"-I{home / 'include'}", f"-L{home / 'lib64'}", "-lopapi", "-lascendcl", "-lnnopbase",
             "-o", str(exe)]  # fmt: skip
    r = subprocess.run(build, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    got = np.array([float(v) for v in re.findall(r"result\[\d+\] is: (\S+)", r.stdout)], np.float32)
    assert got.size > 0, r.stdout
    np.testing.assert_allclose(got, _expected(name).ravel(), rtol=1e-5, atol=1e-5)
