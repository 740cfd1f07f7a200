"""Shared cases for the nearest(-exact) upsample operators' tests (in their folders under src/ops/upsample/)."""

from __future__ import annotations

import numpy as np
import pytest

from reference import F32, nearest_resize

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

# (input shape, output sizes) of the trilinear tests, forward and backward: up, down, 2x, unchanged.
TRILINEAR_SIZES = [
    ((1, 2, 2, 3, 4), (4, 6, 8)),
    ((2, 1, 5, 5, 5), (2, 3, 7)),
    ((1, 1, 2, 2, 2), (4, 4, 4)),
    ((1, 3, 4, 4, 4), (4, 4, 4)),
]
DTYPES = ["float32", "float16", "bfloat16", "float64", "uint8"]


def array(rng, shape, dtype):
    """Random values of a dtype (bfloat16 through ml_dtypes), exactly representable in it."""
    if dtype == "bfloat16":
        dt = pytest.importorskip("ml_dtypes").bfloat16
    else:
        dt = np.dtype(dtype)
    if dtype == "uint8":
        return rng.integers(0, 256, shape).astype(np.uint8)
    return rng.standard_normal(shape).astype(dt)


def size_ratios(in_sizes, out_sizes):
    """The sizes' ratio per axis, float32 as the kernels' tilings compute it."""
    return [F32(i) / F32(o) for i, o in zip(in_sizes, out_sizes)]


def check_against_model(fn, x, out_sizes, ratios, exact, channels_last=False, **kw):
    got = fn(x, out_sizes, **kw)
    want = nearest_resize(x, out_sizes, ratios, exact, channels_last)
    assert got.dtype == x.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), np.ascontiguousarray(want).view(np.uint8))


def check_against_torch(fn, x, out_sizes, mode, **kw):
    if torch is None:
        pytest.skip("torch is not installed")
    ref = torch.nn.functional.interpolate(torch.from_numpy(x), size=tuple(out_sizes), mode=mode)
    np.testing.assert_array_equal(fn(x, out_sizes, **kw), ref.numpy())


def check_message(fn, args, kw, message):
    from aclnn_emu import ParamInvalidError

    with pytest.raises(ParamInvalidError) as e:
        fn(*args, **kw)
    assert e.value.status == 161002
    assert message in e.value.message, e.value.message


def gather_test(fn, sizes, dtypes, exact):
    """The test that fn's gather is CANN's, bit for bit, over sizes x dtypes (an operator's module binds it)."""

    @pytest.mark.parametrize("dtype", dtypes)
    @pytest.mark.parametrize("shape, out", sizes)
    def test(shape, out, dtype, rng):
        check_against_model(fn, array(rng, shape, dtype), out, size_ratios(shape[2:], out), exact)

    return test


def torch_test(fn, sizes, mode):
    """The test that fn agrees with torch's interpolate in `mode` over sizes."""

    @pytest.mark.parametrize("shape, out", sizes)
    def test(shape, out, rng):
        check_against_torch(fn, array(rng, shape, "float32"), out, mode)

    return test


def autograd_test(fn, sizes, mode):
    """The test that fn, a gradient, agrees with torch's autograd of interpolate in `mode` over sizes."""

    @pytest.mark.parametrize("shape, out", sizes)
    def test(shape, out, rng):
        if torch is None:
            pytest.skip("torch is not installed")
        g = array(rng, (*shape[:2], *out), "float32")
        x = torch.zeros(shape, requires_grad=True)
        torch.nn.functional.interpolate(x, size=out, mode=mode).backward(torch.from_numpy(g))
        np.testing.assert_allclose(fn(g, out, shape), x.grad.numpy(), rtol=1e-5, atol=1e-5)

    return test
