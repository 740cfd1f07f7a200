"""CANN's ATK system-test sweeps (ops-cv tests/st/<api>/atk_<api>.json), case by case, against their golden.

Each sweep lists cases (an input's dtype, shape and value distribution, the sizes or scale factors) that
CANN's ATK runs on the NPU and on torch; the sweep's executor (executor_<api>.py beside it) says how a case
becomes the aclnn call and the torch call. The golden is torch on the CPU computing half types in float32,
as the executors do; a gradient's golden is torch's autograd of the forward for a gradOut of ones.

The executors' rules, one per ``Sweep.rule``:

- ``torch``: ``size`` gives outputSize with the scales 0 (aclnnUpsampleLinear1d: -1), ``scale_factor`` gives
  the scales and outputSize = int(in * factor); torch gets the same size or factor.
- ``scales``: the V2 nearest executors draw the scales (``scalesL``/``scalesH``/``scalesW``, a float32 range)
  and pass outputSize = floor(scale * in); torch gets ``scale_factor`` = the scales.
- ``given``: outputSize and the scales are the case's own (resize_nearest_neighbor_v2_grad's sweep); torch
  gets the size.
- ``resize``: aclnnResize's four scales; torch gets the spatial two as ``scale_factor``.

The comparison: a nearest operator copies elements and a nearest gradient of ones counts them, so those are
compared bit for bit, stricter than ATK; the linear ones within ATK's single-benchmark thresholds (relative
2**-13 float32, 2**-10 float16, 2**-7 bfloat16, taken against max(|golden|, 1) so that values near zero are
held to the same absolute error), with Inf and NaN where the golden has them. Cases whose input and output
exceed 2**20 elements run with ACLNN_EMU_ATK_FULL=1 (the full sweep, up to 2**27).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from dataclasses import dataclass

import numpy as np
import pytest
from test_cann_examples import CANDIDATES

import aclnn_emu

torch = pytest.importorskip("torch")


@dataclass(frozen=True)
class Sweep:
    rel: str  # the sweep file in ops-cv
    fn: str  # our array function
    mode: str  # torch's interpolate mode
    axes: int  # spatial axes
    rule: str = "torch"  # the executor's rule (module docstring)

    @property
    def backward(self) -> bool:
        return self.fn.endswith("_backward")

    @property
    def linear(self) -> bool:
        return self.mode in ("linear", "bilinear", "trilinear")


def _st(folder: str, api: str) -> str:
    return f"image/{folder}/tests/st/aclnn{api}/atk_aclnn{api}.json"


SWEEPS = {
    "UpsampleNearest1d": Sweep(_st("resize_nearest_neighbor_v2", "UpsampleNearest1d"), "upsample_nearest1d",
                               "nearest", 1),
    "UpsampleNearest2d": Sweep(_st("resize_nearest_neighbor_v2", "UpsampleNearest2d"), "upsample_nearest2d",
                               "nearest", 2),
    "UpsampleNearest1dV2": Sweep(_st("upsample_nearest3d", "UpsampleNearest1dV2"), "upsample_nearest1d_v2",
                                 "nearest", 1, "scales"),
    "UpsampleNearest2dV2": Sweep(_st("upsample_nearest3d", "UpsampleNearest2dV2"), "upsample_nearest2d_v2",
                                 "nearest", 2, "scales"),
    "UpsampleNearest3d": Sweep(_st("upsample_nearest3d", "UpsampleNearest3d"), "upsample_nearest3d", "nearest", 3),
    "UpsampleNearestExact1d": Sweep(_st("upsample_nearest", "UpsampleNearestExact1d"), "upsample_nearest_exact1d",
                                    "nearest-exact", 1),
    "UpsampleNearestExact2d": Sweep(_st("upsample_nearest", "UpsampleNearestExact2d"), "upsample_nearest_exact2d",
                                    "nearest-exact", 2),
    "UpsampleNearestExact3d": Sweep(_st("upsample_nearest_exact3d", "UpsampleNearestExact3d"),
                                    "upsample_nearest_exact3d", "nearest-exact", 3),
    "UpsampleNearest1dBackward": Sweep(_st("upsample_nearest2d_grad", "UpsampleNearest1dBackward"),
                                       "upsample_nearest1d_backward", "nearest", 1),
    "UpsampleNearest2dBackward": Sweep(_st("upsample_nearest2d_grad", "UpsampleNearest2dBackward"),
                                       "upsample_nearest2d_backward", "nearest", 2),
    "UpsampleNearest2dBackward-tbe": Sweep(_st("resize_nearest_neighbor_v2_grad", "UpsampleNearest2dBackward"),
                                           "upsample_nearest2d_backward", "nearest", 2, "given"),
    "UpsampleNearest3dBackward": Sweep(_st("upsample_nearest3d_grad", "UpsampleNearest3dBackward"),
                                       "upsample_nearest3d_backward", "nearest", 3),
    "UpsampleNearestExact1dBackward": Sweep(_st("upsample_nearest_exact2d_grad", "UpsampleNearestExact1dBackward"),
                                            "upsample_nearest_exact1d_backward", "nearest-exact", 1),
    "UpsampleNearestExact2dBackward": Sweep(_st("upsample_nearest_exact2d_grad", "UpsampleNearestExact2dBackward"),
                                            "upsample_nearest_exact2d_backward", "nearest-exact", 2),
    "UpsampleNearestExact3dBackward": Sweep(_st("upsample_nearest_exact3d_grad", "UpsampleNearestExact3dBackward"),
                                            "upsample_nearest_exact3d_backward", "nearest-exact", 3),
    "UpsampleLinear1d": Sweep(_st("upsample_linear1d", "UpsampleLinear1d"), "upsample_linear1d", "linear", 1),
    "UpsampleLinear1dBackward": Sweep(_st("upsample_bilinear2d_grad", "UpsampleLinear1dBackward"),
                                      "upsample_linear1d_backward", "linear", 1),
    "UpsampleTrilinear3d": Sweep(_st("resize_upsample_trilinear", "UpsampleTrilinear3d"), "upsample_trilinear3d",
                                 "trilinear", 3),
    "UpsampleTrilinear3dBackward": Sweep(_st("upsample_trilinear3d_backward", "UpsampleTrilinear3dBackward"),
                                         "upsample_trilinear3d_backward", "trilinear", 3),
    "Resize": Sweep(_st("resize_bilinear_v2", "Resize"), "resize", "", 2, "resize"),
}  # fmt: skip
DTYPES = {"fp32": np.float32, "fp16": np.float16, "fp64": np.float64, "uint8": np.uint8}
RTOL = {np.dtype(np.float32): 2**-13, np.dtype(np.float16): 2**-10, np.dtype(np.float64): 2**-13}
# The full sweep stops at 2**27 elements: beyond, a case's float32 golden alone needs gigabytes (the largest,
# (8, 64, 300, 286) -> 1339 x 1745, 1.2e9 elements, does not fit a 24 GiB machine beside ours).
LIMIT = 2**27 if os.environ.get("ACLNN_EMU_ATK_FULL") else 2**20
# ACLNN_EMU_ATK_EVERY=k takes every k-th case of each sweep (CI's sanitized run: the plain run has checked
# every case's numbers; the sanitized one looks for memory errors, which a sample of shapes finds as well).
EVERY = max(1, int(os.environ.get("ACLNN_EMU_ATK_EVERY", "1")))


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
    """The case's inputs by name: a tensor's spec, an attribute's value; a tuple's entries become lists."""
    out: dict = {}
    for item in case["inputs"]:
        if isinstance(item, list):
            out[item[0]["name"]] = [x["range_values"] for x in item]
        else:
            out[item["name"]] = item if item["type"] == "tensor" else item["range_values"]
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


def _one(v):
    """An attribute given as a scalar or a one-entry list."""
    return v[0] if isinstance(v, list) and len(v) == 1 else v


@dataclass
class Call:
    sizes: list[int]  # outputSize (a gradient: the forward's)
    scales: list[float]  # the aclnn call's scales, one per spatial axis (Resize: all four)
    golden_kw: dict  # torch.nn.functional.interpolate's size= or scale_factor=


def _call(sweep: Sweep, kw: dict, spatial: tuple[int, ...], rng: np.random.Generator) -> Call:
    """The aclnn call and the torch call a case stands for, by its executor's rule."""
    axes = sweep.axes
    if sweep.rule == "resize":
        scales = [float(np.float32(rng.uniform(*s) if isinstance(s, list) else s)) for s in kw["scales"]]
        return Call([], scales, {"scale_factor": tuple(scales[2:])})
    if sweep.rule == "scales":
        names = ["scalesL"] if axes == 1 else ["scalesH", "scalesW"]
        drawn = [kw[n] if not isinstance(kw[n], list) else rng.uniform(*kw[n]) for n in names]
        scales = [float(np.float32(s)) for s in drawn]
        sizes = [math.floor(s * n) for s, n in zip(scales, spatial)]
        return Call(sizes, scales, {"scale_factor": scales})
    if sweep.rule == "given":
        sizes = [int(v) for v in kw["outputSize_int"]]
        scales = [float(kw[f"scales{a}_double"]) for a in "DHW"[3 - axes :]]
        return Call(sizes, scales, {"size": tuple(sizes)})
    factor = _one(kw.get("scale_factor"))
    if factor is not None:
        factors = [float(f) for f in factor] if isinstance(factor, list) else [float(factor)] * axes
        sizes = [int(n * f) for n, f in zip(spatial, factors)]
        return Call(sizes, factors, {"scale_factor": tuple(factors) if axes > 1 else factors[0]})
    size = _one(kw["size"])
    sizes = [int(v) for v in (size if isinstance(size, list) else [size])]
    unset = -1.0 if sweep.fn == "upsample_linear1d" else 0.0
    return Call(sizes, [unset] * axes, {"size": tuple(sizes)})


def _cases():
    for api, sweep in SWEEPS.items():
        cases = _sweep(sweep.rel)
        if cases is None:
            yield pytest.param(api, None, id=f"{api}-missing")
            continue
        for case in cases[::EVERY]:
            yield pytest.param(api, case, id=f"{api}-{case['id']}")


def _golden(sweep: Sweep, x: np.ndarray, call: Call, kw: dict, nhwc: bool) -> np.ndarray:
    """torch's result in float32: the forward, or the gradient of ones through it."""
    xt = torch.from_numpy(x.astype(np.float32))
    if nhwc:
        xt = xt.permute(0, 3, 1, 2)
    mode = sweep.mode or kw["mode"]
    extra = {"align_corners": bool(kw.get("align_corners", False))} if mode in ("linear", "trilinear") else {}
    xt.requires_grad_(sweep.backward)
    y = torch.nn.functional.interpolate(xt, mode=mode, **call.golden_kw, **extra)
    if sweep.backward:
        y.backward(torch.ones_like(y))
        y = xt.grad
    y = y.detach()
    return (y.permute(0, 2, 3, 1) if nhwc else y).numpy()


def _ours(sweep: Sweep, x: np.ndarray, call: Call, kw: dict, fmt: str) -> np.ndarray:
    fn = getattr(aclnn_emu, sweep.fn)
    if sweep.rule == "resize":
        return fn(x, call.scales, kw["mode"])
    args: list = [x, call.sizes]
    if sweep.backward:
        # The executors' gradOut: ones of the forward's output shape; the input's shape is inputSize.
        args = [np.ones((*x.shape[:2], *call.sizes), x.dtype), call.sizes, list(x.shape)]
    if sweep.linear:
        args.append(bool(kw.get("align_corners", False)))
    if sweep.fn not in ("upsample_nearest1d", "upsample_nearest2d"):  # the V1 nearest forwards take no scales
        args += call.scales
    extra = {"format": fmt} if fmt == "NHWC" else {}
    return fn(*args, **extra)


@pytest.mark.parametrize("api, case", list(_cases()))
def test_atk_case(api, case):
    if case is None:
        pytest.skip("hicann/ops-cv's sweeps not found: set ACLNN_EMU_OPS_CV to a checkout or git directory of it")
    sweep = SWEEPS[api]
    kw = _kwargs(case)
    rng = np.random.default_rng(case["id"])
    spec = kw.get("input") or kw["x"]
    x = _data(spec, rng)
    fmt = kw.get("format", "NCHW")
    nhwc = fmt == "NHWC"
    spatial = x.shape[1:-1] if nhwc else x.shape[2:]
    call = _call(sweep, kw, spatial, rng)
    out_spatial = call.sizes or [int(n * s) for n, s in zip(spatial, call.scales[2:])]
    if x.size + int(np.prod(x.shape)) // int(np.prod(spatial) or 1) * int(np.prod(out_spatial)) > LIMIT:
        pytest.skip(
            "beyond 2**27 elements (the golden's memory)"
            if LIMIT > 2**20
            else "a large case: ACLNN_EMU_ATK_FULL=1 runs it"
        )
    got = _ours(sweep, x, call, kw, fmt)
    golden = _golden(sweep, x, call, kw, nhwc)
    # The golden holds float32 values cast back; a float64 input's results are compared at that precision.
    narrow = np.dtype(np.float32 if x.dtype == np.float64 else x.dtype)
    want = golden.astype(narrow)
    assert got.shape == want.shape
    got = got.astype(narrow)
    if not (sweep.linear or kw.get("mode") == "bilinear"):
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
        return
    g, w = got.astype(np.float64), want.astype(np.float64)
    if (
        not sweep.backward
        and isinstance(spec["range_values"], list)
        and isinstance(spec["range_values"][0], str)
        and "inf" in spec["range_values"][0]
    ):
        # An input of Infs: both are non-finite everywhere; which outputs are NaN depends on where an Inf meets
        # a zero weight: torch's where the coordinate is whole, CANN's also at the clamped last index (and, not
        # modelled, wherever its matmul tile holds a zero weight). Where both are infinite, the sign agrees.
        assert not np.isfinite(g).any() and not np.isfinite(w).any()
        both = np.isinf(g) & np.isinf(w)
        np.testing.assert_array_equal(g[both], w[both])
        return
    rtol = RTOL.get(narrow, 2**-7)  # bfloat16
    finite = np.isfinite(w)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg="NaN where the golden has none, or none")
    np.testing.assert_array_equal(g[~finite & ~np.isnan(w)], w[~finite & ~np.isnan(w)], err_msg="Inf")
    err = np.abs(g[finite] - w[finite]) / np.maximum(np.abs(w[finite]), 1.0)
    assert err.size == 0 or err.max() <= rtol, f"relative error {err.max():.3g} > {rtol:.3g}"


# ---- hicann/ops-math's sweeps of the binary family: torch.add / torch.mul on two tensors (and alpha) ----

MATH_ROOTS = [os.environ.get("ACLNN_EMU_OPS_MATH", ""), "/work/.mirror/hicann+ops-math/repo"]
BINARY_SWEEPS = {"Add": ("math/add/tests/st/aclnnAdd/atk_aclnnAdd.json", "add", torch.add),
                 "Mul": ("math/mul/tests/st/aclnnMul/atk_aclnnMul.json", "mul", torch.mul)}  # fmt: skip
ALL_DTYPES = {**DTYPES, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64, "bool": np.bool_}


def _math_sweep(rel: str) -> list | None:
    for root in filter(None, MATH_ROOTS):
        r = subprocess.run(["git", "--git-dir", root, "show", f"HEAD:{rel}"], capture_output=True, text=True)
        if r.returncode == 0:
            return json.loads(r.stdout)
        if os.path.isfile(os.path.join(root, rel)):
            with open(os.path.join(root, rel)) as f:
                return json.load(f)
    return None


def _binary_cases():
    for api, (rel, *_) in BINARY_SWEEPS.items():
        cases = _math_sweep(rel)
        if cases is None:
            yield pytest.param(api, None, id=f"{api}-missing")
            continue
        for case in cases[::EVERY]:
            yield pytest.param(api, case, id=f"{api}-{case['id']}")


def _dtype(name: str) -> np.dtype:
    return np.dtype(pytest.importorskip("ml_dtypes").bfloat16 if name == "bf16" else ALL_DTYPES[name])


def _tensor(spec: dict, rng: np.random.Generator) -> np.ndarray:
    """Uniform over the range (integers over its integers), cast as numpy casts; uint8 clipped at 0."""
    dt, (lo, hi) = _dtype(spec["dtype"]), spec["range_values"]
    if dt.kind in "iub":
        x = rng.integers(int(lo), int(hi) + 1, spec["shape"])
        return (x != 0) if dt == np.bool_ else np.clip(x, 0, None).astype(dt) if dt == np.uint8 else x.astype(dt)
    return rng.uniform(lo, hi, spec["shape"]).astype(dt)


def _to_torch(a: np.ndarray) -> torch.Tensor:
    a = np.ascontiguousarray(a)
    if a.dtype.name == "bfloat16":
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


@pytest.mark.parametrize("api, case", list(_binary_cases()))
def test_atk_binary_case(api, case):
    """A case runs where torch runs (and is refused where torch refuses), within ATK's thresholds."""
    if case is None:
        pytest.skip("hicann/ops-math's sweeps not found: set ACLNN_EMU_OPS_MATH to a checkout or git directory of it")
    _, fn_name, golden_fn = BINARY_SWEEPS[api]
    rng = np.random.default_rng(case["id"])
    specs = [t for t in case["inputs"] if t["type"] == "tensor"]
    if sum(int(np.prod(t["shape"])) for t in specs) * 2 > LIMIT:
        pytest.skip("a large case: ACLNN_EMU_ATK_FULL=1 runs it" if LIMIT <= 2**20 else "beyond 2**27 elements")
    tensors = [_tensor(t, rng) for t in specs]
    scalars = [s for s in case["inputs"] if s["type"] == "scalar"]
    extra, golden_kw = [], {}
    if scalars:  # alpha: the case's value in its dtype (numpy's cast: uint8(-4) is 252, bool(-3) True)
        s = scalars[0]
        v = s["range_values"]
        v = rng.uniform(*v) if isinstance(v, list) else v
        alpha = np.asarray(v).astype(_dtype(s["dtype"]))[()]
        extra.append(alpha)
        golden_kw["alpha"] = alpha.item() if alpha.dtype.name != "bfloat16" else float(alpha)
    try:
        want = golden_fn(*(_to_torch(t).float() if t.dtype.name == "bfloat16" else _to_torch(t) for t in tensors),
                         **golden_kw)  # fmt: skip
    except RuntimeError:
        with pytest.raises(aclnn_emu.ParamInvalidError):
            getattr(aclnn_emu, fn_name)(*tensors, *extra)
        return
    got = getattr(aclnn_emu, fn_name)(*tensors, *extra)
    if all(t.dtype.name == "bfloat16" for t in tensors):
        want = want.to(torch.bfloat16)  # the golden ran in float32, as ATK's executors compute half types
    w = want.view(torch.int16).numpy().view(got.dtype) if want.dtype == torch.bfloat16 else want.numpy()
    assert got.shape == w.shape and got.dtype == w.dtype, (got.dtype, w.dtype)
    if got.dtype.kind in "iub":
        np.testing.assert_array_equal(got, w)
        return
    g, ww = got.astype(np.float64), w.astype(np.float64)
    rtol = RTOL.get(got.dtype, 2**-7)
    err = np.abs(g - ww) / np.maximum(np.abs(ww), 1.0)
    assert err.size == 0 or err.max() <= rtol, f"relative error {err.max():.3g} > {rtol:.3g}"
