"""The fast paths against their family's reference kernel (ACLNN_EMU_REFERENCE_KERNELS=1).

Upsample: the forward fast path makes the same products and sums as the
reference, so the bits must match; the backward sums in another order (H
then W, pairwise), so it must match to float32 rounding, with Inf and NaN
in the same places (float16 results: one half-precision rounding step apart
at most). RoIAlign backward: the fast path sums each axis' sample weights
before spreading them, the reference adds sample by sample: float32
rounding apart, on both SoCs' geometries.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

CASES = textwrap.dedent(
    """
    import itertools, sys
    import numpy as np
    import aclnn_emu as emu
    rng = np.random.default_rng(7)
    out = {}
    sizes = [((2, 3, 5, 7), (10, 14)), ((1, 4, 8, 8), (3, 5)), ((1, 2, 6, 6), (6, 6)), ((2, 16, 9, 4), (18, 8)),
             ((1, 3, 1, 1), (4, 4)), ((1, 2, 16, 16), (4, 4)), ((1, 1, 40, 3), (7, 9)), ((1, 8, 33, 17), (64, 40)),
             ((1, 2, 3, 160), (6, 320)), ((1, 1, 2, 72), (16, 576))]
    for k, ((shape, osize), dt, align, scales, fmt, special) in enumerate(itertools.product(
            sizes, [np.float32, np.float16], [False, True], [(0.0, 0.0), (2.0, 2.0), (0.5, 0.5)], ["NCHW", "NHWC"],
            [False, True])):
        n, c, h, w = shape
        x = rng.standard_normal(shape).astype(np.float32)
        g = rng.standard_normal((n, c, *osize)).astype(np.float32)
        if special:
            x.reshape(-1)[x.size // 3] = np.inf
            g.reshape(-1)[g.size // 2] = np.nan
        if fmt == "NHWC":
            x, g = (np.ascontiguousarray(a.transpose(0, 2, 3, 1)) for a in (x, g))
        isize = (n, c, h, w) if fmt == "NCHW" else (n, h, w, c)
        k = f"{k}-{np.dtype(dt).name}"
        out[f"fwd{k}"] = emu.upsample_bilinear2d(x.astype(dt), osize, align, *scales, format=fmt)
        for name in ("upsample_bilinear2d_backward_v2", "upsample_bilinear2d_backward"):
            try:
                out[f"{name}{k}"] = getattr(emu, name)(g.astype(dt), osize, isize, align, *scales, format=fmt)
            except emu.AclnnError as e:
                out[f"{name}{k}"] = np.array([e.status])
    # wide rows: the integer upscales' stretch of equal weights, and 1-D rows split in place (-0.0 included)
    lines = [((2, 3, 200), (400,)), ((1, 2, 80), (640,)), ((1, 3, 4097), (8194,)), ((2, 2, 100), (400,)),
             ((1, 2, 300), (900,))]
    for k, ((shape, osize), dt, align, zeros) in enumerate(itertools.product(
            lines, [np.float32, np.float16], [False, True], [False, True])):
        g = rng.standard_normal((*shape[:2], *osize)).astype(np.float32)
        if zeros:
            g[0] = -0.0
            g[-1, -1, ::3] = -0.0
        out[f"bwd1-{k}-{np.dtype(dt).name}"] = emu.upsample_linear1d_backward(g.astype(dt), osize, shape, align)
    vols = [((2, 3, 4, 5, 7), (8, 10, 14)), ((1, 2, 8, 8, 8), (3, 5, 4)), ((1, 4, 3, 6, 6), (3, 6, 6)),
            ((1, 3, 1, 1, 1), (2, 4, 4)), ((2, 5, 6, 2, 9), (12, 2, 5)), ((1, 8, 5, 9, 4), (10, 18, 8))]
    for k, ((shape, osize), dt, align, scales, fmt, special) in enumerate(itertools.product(
            vols, [np.float32, np.float16], [False, True], [(0.0,) * 3, (2.0,) * 3], ["NCDHW", "NDHWC"],
            [False, True])):
        x = rng.standard_normal(shape).astype(np.float32)
        g = rng.standard_normal((*shape[:2], *osize)).astype(np.float32)
        if special:
            x.reshape(-1)[x.size // 3] = np.inf
            x.reshape(-1)[x.size // 2] = np.nan
            g.reshape(-1)[g.size // 2] = np.nan
        isize = shape
        if fmt == "NDHWC":
            x, g = (np.ascontiguousarray(a.transpose(0, 2, 3, 4, 1)) for a in (x, g))
            isize = (shape[0], *shape[2:], shape[1])
        key = f"fwd3-{k}-{np.dtype(dt).name}"
        try:
            out[key] = emu.upsample_trilinear3d(x.astype(dt), osize, align, *scales, format=fmt)
        except emu.AclnnError as e:
            out[key] = np.array([e.status])
        key = f"bwd3-{k}-{np.dtype(dt).name}"
        try:
            out[key] = emu.upsample_trilinear3d_backward(g.astype(dt), osize, isize, align, *scales, format=fmt)
        except emu.AclnnError as e:
            out[key] = np.array([e.status])
    np.savez(sys.argv[1], **{k: v.astype(np.float32) for k, v in out.items()})
    """
)


ROI_CASES = textwrap.dedent(
    """
    import itertools, sys
    import numpy as np
    import aclnn_emu as emu
    rng = np.random.default_rng(11)
    out = {}
    for k, ((b, c, h, w, nk), pooled, scale, ratio, aligned) in enumerate(itertools.product(
            [(2, 3, 12, 10, 6), (1, 17, 30, 30, 9), (3, 1, 5, 40, 4)], [(2, 2), (7, 7), (3, 5)], [1.0, 0.25],
            [0, 2, 3], [False, True])):
        boxes = np.zeros((nk, 5), np.float32)
        boxes[:, 0] = rng.integers(-1, b + 1, nk)
        xy = rng.uniform(-3, max(h, w) / scale + 3, (nk, 4))
        boxes[:, 1:3] = np.minimum(xy[:, :2], xy[:, 2:])
        boxes[:, 3:5] = np.maximum(xy[:, :2], xy[:, 2:])
        g = rng.standard_normal((nk, c, *pooled)).astype(np.float32)
        out[f"roi{k}"] = emu.roi_align_v2_backward(g, boxes, (b, c, h, w), *pooled, scale, ratio, aligned)
    np.savez(sys.argv[1], **out)
    """
)


def _run(tmp_path, reference: bool, cases: str = CASES, soc: str = "Ascend910B2") -> dict[str, np.ndarray]:
    path = tmp_path / f"{'ref' if reference else 'fast'}-{soc}-{abs(hash(cases))}.npz"
    env = dict(os.environ, ACLNN_EMU_REFERENCE_KERNELS="1" if reference else "0", ACLNN_EMU_SOC=soc)
    # boxes outside the batch are expected here: their warnings are not errors
    code = "import warnings; warnings.simplefilter('ignore')\n" + cases
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, env=env)
    with np.load(path) as data:
        return dict(data)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("upsample_reference")
    return _run(tmp, False), _run(tmp, True)


def test_forward_fast_path_is_the_reference_bit_for_bit(outputs):
    fast, ref = outputs
    keys = [k for k in fast if k.startswith("fwd")]
    assert len(keys) > 300 and sum(k.startswith("fwd3") and fast[k].size > 1 for k in keys) > 150
    for k in keys:
        np.testing.assert_array_equal(fast[k].view(np.uint32), ref[k].view(np.uint32), err_msg=k)


def test_backward_fast_path_matches_the_reference_to_rounding(outputs):
    fast, ref = outputs
    keys = [k for k in fast if not k.startswith("fwd")]
    assert len(keys) > 600 and sum(k.startswith("bwd3") and fast[k].size > 1 for k in keys) > 150
    for k in keys:
        a, b = fast[k], ref[k]
        assert a.shape == b.shape, k
        np.testing.assert_array_equal(np.isnan(a), np.isnan(b), err_msg=k)
        np.testing.assert_array_equal(np.isposinf(a), np.isposinf(b), err_msg=k)
        finite = np.isfinite(a)
        scale = float(np.abs(b[finite]).max()) if finite.any() else 1.0
        # float32 sums in another order; float16 results may then round to neighbouring halves
        tol = 1e-3 if k.endswith("float16") else 1e-5
        np.testing.assert_allclose(a[finite], b[finite], rtol=tol, atol=tol * scale + 1e-30, err_msg=k)
        # a zero is +0.0 on both: the reference adds every term to a +0.0 (a -0.0 gradient included)
        np.testing.assert_array_equal(np.signbit(a[b == 0]), np.signbit(b[b == 0]), err_msg=k)


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend950"])
def test_roi_backward_fast_path_matches_the_reference_to_rounding(tmp_path, soc):
    fast, ref = _run(tmp_path, False, ROI_CASES, soc), _run(tmp_path, True, ROI_CASES, soc)
    assert len(fast) == 108
    for k in fast:
        a, b = fast[k], ref[k]
        scale = float(np.abs(b).max()) if b.size else 1.0
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5 * scale + 1e-30, err_msg=f"{soc} {k}")
    assert sum(bool(np.abs(v).max() > 0) for v in ref.values()) > 75  # most cases have boxes on the map
