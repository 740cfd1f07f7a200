"""CANN's ATK system-test sweeps (ops-cv tests/st/<api>/atk_<api>.json), case by case, against their golden.

Each sweep lists cases (an input's dtype, shape and value distribution, the sizes or scale factors) that
CANN's ATK runs on the NPU and on torch: the CPU golden computes half types in float32, as the sweep's
executor does, and a gradient's golden is torch's autograd of the forward for a gradOut of ones. The
executors' rules are followed: ``size`` gives outputSize with the scales 0, ``scale_factor`` gives the
scales and outputSize = int(in * factor). The comparison is bit-exact (the forwards copy elements, the
gradients of ones count them), stricter than ATK's single-benchmark thresholds. Cases whose input and
output exceed 2**20 elements run with ACLNN_EMU_ATK_FULL=1 (the full sweep, up to 2**27).
"""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest
from test_cann_examples import CANDIDATES

import aclnn_emu

torch = pytest.importorskip("torch")

NN = "image/resize_nearest_neighbor_v2/tests/st/"
G2 = "image/upsample_nearest2d_grad/tests/st/"
GE = "image/upsample_nearest_exact2d_grad/tests/st/"
SWEEPS = {  # api: (sweep file, our function, torch mode, spatial axes); gradients end in "Backward"
    "UpsampleNearest1d": (NN + "aclnnUpsampleNearest1d/atk_aclnnUpsampleNearest1d.json", "upsample_nearest1d",
                          "nearest", 1),
    "UpsampleNearest2d": (NN + "aclnnUpsampleNearest2d/atk_aclnnUpsampleNearest2d.json", "upsample_nearest2d",
                          "nearest", 2),
    "UpsampleNearestExact1d": ("image/upsample_nearest/tests/st/aclnnUpsampleNearestExact1d/"
                               "atk_aclnnUpsampleNearestExact1d.json", "upsample_nearest_exact1d", "nearest-exact", 1),
    "UpsampleNearestExact2d": ("image/upsample_nearest/tests/st/aclnnUpsampleNearestExact2d/"
                               "atk_aclnnUpsampleNearestExact2d.json", "upsample_nearest_exact2d", "nearest-exact", 2),
    "UpsampleNearest1dBackward": (G2 + "aclnnUpsampleNearest1dBackward/atk_aclnnUpsampleNearest1dBackward.json",
                                  "upsample_nearest1d_backward", "nearest", 1),
    "UpsampleNearest2dBackward": (G2 + "aclnnUpsampleNearest2dBackward/atk_aclnnUpsampleNearest2dBackward.json",
                                  "upsample_nearest2d_backward", "nearest", 2),
    "UpsampleNearestExact1dBackward": (GE + "aclnnUpsampleNearestExact1dBackward/"
                                       "atk_aclnnUpsampleNearestExact1dBackward.json",
                                       "upsample_nearest_exact1d_backward", "nearest-exact", 1),
    "UpsampleNearestExact2dBackward": (GE + "aclnnUpsampleNearestExact2dBackward/"
                                       "atk_aclnnUpsampleNearestExact2dBackward.json",
                                       "upsample_nearest_exact2d_backward", "nearest-exact", 2),
}  # fmt: skip
DTYPES = {"fp32": np.float32, "fp16": np.float16, "fp64": np.float64, "uint8": np.uint8}
# The full sweep stops at 2**27 elements: beyond, a case's float32 golden alone needs gigabytes (the largest,
# (8, 64, 300, 286) -> 1339 x 1745, 1.2e9 elements, does not fit a 24 GiB machine beside ours).
LIMIT = 2**27 if os.environ.get("ACLNN_EMU_ATK_FULL") else 2**20


def _sweep(rel: str) -> list | None:
    for root in filter(None, CANDIDATES):
        r = subprocess.run(["git", "--git-dir", root, "show", f"HEAD:{rel}"], capture_output=True, text=True)
        if r.returncode == 0:
            return json.loads(r.stdout)
        if os.path.isfile(os.path.join(root, rel)):
            with open(os.path.join(root, rel)) as f:
                return json.load(f)
    return None


def _kwargs(case: dict) -> dict:
    """The case's inputs by name; repeated names (a tuple's entries) become lists."""
    out: dict = {}
    for item in case["inputs"]:
        items = item if isinstance(item, list) else [item]
        if isinstance(item, list):
            out[items[0]["name"]] = [x["range_values"] for x in items]
        else:
            out[item["name"]] = item
    return out


def _data(spec: dict, rng: np.random.Generator) -> np.ndarray:
    shape, rv = spec["shape"], spec["range_values"]
    if spec["dtype"] == "bf16":
        dt = pytest.importorskip("ml_dtypes").bfloat16
    else:
        dt = DTYPES[spec["dtype"]]
    if isinstance(rv, list) and rv and isinstance(rv[0], str):  # every element "inf", "-inf" or "nan"
        if dt == np.uint8:
            pytest.skip("a non-finite fill of a uint8 tensor")
        return np.full(shape, float(rv[0]), np.float32).astype(dt)
    if isinstance(rv, dict):
        mean, std = rng.uniform(*rv["mean"]), rng.uniform(*rv["std"])
        x = rng.normal(mean, std, shape)
    else:
        x = rng.uniform(rv[0], rv[1], shape)
    return (np.clip(x, 0, 255) if dt == np.uint8 else x).astype(dt)


def _cases():
    for api, (rel, *_) in SWEEPS.items():
        sweep = _sweep(rel)
        if sweep is None:
            yield pytest.param(api, None, id=f"{api}-missing")
            continue
        for case in sweep:
            yield pytest.param(api, case, id=f"{api}-{case['id']}")


@pytest.mark.parametrize("api, case", list(_cases()))
def test_atk_case(api, case):
    if case is None:
        pytest.skip("hicann/ops-cv's sweeps not found: set ACLNN_EMU_OPS_CV to a checkout or git directory of it")
    _, fn_name, mode, axes = SWEEPS[api]
    kw = _kwargs(case)
    x = _data(kw["input"], np.random.default_rng(case["id"]))
    spatial = x.shape[2:]
    factor = kw.get("scale_factor")
    if factor is not None:
        factor = factor["range_values"] if isinstance(factor, dict) else factor
        factors = [float(factor)] * axes if not isinstance(factor, list) else [float(f) for f in factor]
        sizes = [int(n * f) for n, f in zip(spatial, factors)]
        scales = factors
        golden_kw = {"scale_factor": tuple(factors) if axes > 1 else factors[0]}
    else:
        size = kw["size"]
        size = size["range_values"] if isinstance(size, dict) else size
        sizes = [int(v) for v in (size if isinstance(size, list) else [size])]
        scales = [0.0] * axes
        golden_kw = {"size": tuple(sizes)}
    if x.size + int(np.prod(x.shape[:2])) * int(np.prod(sizes)) > LIMIT:
        pytest.skip(
            "beyond 2**27 elements (the golden's memory)"
            if LIMIT > 2**20
            else "a large case: ACLNN_EMU_ATK_FULL=1 runs it"
        )
    fn = getattr(aclnn_emu, fn_name)
    if api.endswith("Backward"):
        # The executors' gradient: ones of the forward's output shape, against torch's autograd (float32).
        g = np.ones((*x.shape[:2], *sizes), x.dtype)
        got = fn(g, sizes, x.shape, *scales)
        xt = torch.from_numpy(x.astype(np.float32)).requires_grad_(True)
        y = torch.nn.functional.interpolate(xt, mode=mode, **golden_kw)
        assert list(y.shape[2:]) == sizes
        y.backward(torch.ones_like(y))
        golden = xt.grad
    else:
        plain = fn_name in ("upsample_nearest1d", "upsample_nearest2d")
        got = fn(x, sizes) if plain else fn(x, sizes, *scales)
        golden = torch.nn.functional.interpolate(torch.from_numpy(x.astype(np.float32)), mode=mode, **golden_kw)
    # The golden holds float32 values cast back; a float64 input's results are compared at that precision.
    narrow = np.float32 if x.dtype == np.float64 else x.dtype
    want = golden.numpy().astype(narrow)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.astype(narrow).view(np.uint8), want.view(np.uint8))
