"""aclnnUpsampleLinear1dBackward against the transpose of CANN's 1-D taps (tests/reference.py), torch, and checks."""

import numpy as np
import pytest
from upsample_nearest_cases import check_message

import aclnn_emu

from reference import F32, forward_axis

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def model(g, n_in, align, scales):
    """The op_api's path and ratio (Atlas A2), then each gradOut value scattered to its two taps (float64)."""
    n_out = g.shape[-1]
    if n_in == n_out:
        return g.astype(np.float64)
    fits = abs(scales) <= 1e-9 or n_out == np.floor(n_in * scales)
    if align:
        ratio = F32(n_in - 1) / F32(n_out - 1) if n_out > 1 else F32(0)
    elif fits and scales > 0:
        ratio = F32(1.0 / scales)
    else:
        ratio = F32(n_in) / F32(n_out)
    lo, hi, wl, wh = forward_axis(n_out, n_in, align, ratio)
    keep = (
        np.floor(ratio * ((np.arange(n_out) + (0 if align else 0.5)).astype(F32)) - (0 if align else 0.5)) <= n_in - 1
    )
    out = np.zeros((*g.shape[:-1], n_in))
    for j in np.flatnonzero(keep):  # the gradient kernels drop a source past the input
        out[..., lo[j]] += wl[j] * g[..., j].astype(np.float64)
        out[..., hi[j]] += wh[j] * g[..., j].astype(np.float64)
    return out


CASES = [((2, 3, 15), 7), ((1, 4, 5), 16), ((1, 1, 4), 1), ((2, 2, 64), 33), ((1, 2, 9), 9)]


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("g_shape, n_in", CASES)
def test_matches_the_model(g_shape, n_in, align, rng):
    g = rng.standard_normal(g_shape).astype(np.float32)
    got = aclnn_emu.upsample_linear1d_backward(g, (g_shape[-1],), (*g_shape[:2], n_in), align)
    np.testing.assert_allclose(got, model(g, n_in, align, 0.0), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("scales", [2.0, 0.5, 2.2])
def test_scales_count_only_when_they_reproduce_the_sizes(scales, rng):
    n_in = 8
    n_out = int(np.floor(n_in * 2.0)) if scales == 2.2 else int(n_in * scales)
    g = rng.standard_normal((1, 2, n_out)).astype(np.float32)
    got = aclnn_emu.upsample_linear1d_backward(g, (n_out,), (1, 2, n_in), False, scales)
    np.testing.assert_allclose(got, model(g, n_in, False, scales), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(torch is None, reason="torch is not installed")
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("g_shape, n_in", CASES)
def test_agrees_with_torch_autograd(g_shape, n_in, align, rng):
    g = rng.standard_normal(g_shape).astype(np.float32)
    x = torch.zeros((*g_shape[:2], n_in), requires_grad=True)
    torch.nn.functional.interpolate(x, size=g_shape[-1], mode="linear", align_corners=align).backward(
        torch.from_numpy(g)
    )
    got = aclnn_emu.upsample_linear1d_backward(g, (g_shape[-1],), (*g_shape[:2], n_in), align)
    np.testing.assert_allclose(got, x.grad.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 4), np.float32), (4,), (1, 1, 2)), "gradOut must be 3-D"),
        ((np.zeros((1, 1, 4), np.float32), (4, 1), (1, 1, 2)), "outputSize must have 1 values"),
        ((np.zeros((1, 1, 4), np.float32), (4,), (1, 2)), "inputSize must have 3 values"),
        ((np.zeros((1, 1, 4), np.float32), (4,), (1, 1, 0)), "must be > 0"),
        ((np.zeros((1, 1, 4), np.float32), (5,), (1, 1, 2)), "gradOut shape must be (1,1,5)"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(aclnn_emu.upsample_linear1d_backward, args, {}, message)
