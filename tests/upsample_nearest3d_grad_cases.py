"""Shared tests of the nearest(-exact) 3-D gradients: each operator's test file imports them and
defines the ``grad_op`` fixture (the function, torch's mode, whether it is nearest-exact)."""

import numpy as np
import pytest
from upsample_nearest_cases import array, check_message

from reference import F32, nearest_grad

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

CASES = [
    ((1, 2, 2, 3, 4), (4, 6, 8)),
    ((2, 1, 5, 5, 5), (2, 3, 7)),
    ((2, 2, 2, 2, 3), (1, 1, 1)),
    ((1, 1, 3, 3, 3), (3, 3, 3)),
]


def steps(in_sizes, out_sizes):
    return [F32(o) / F32(i) for i, o in zip(in_sizes, out_sizes)]


@pytest.mark.parametrize("shape, out", CASES)
def test_matches_the_gather_rule(grad_op, shape, out, rng):
    op, mode, EXACT = grad_op
    g = array(rng, (*shape[:2], *out), "float32")
    got = op(g, out, shape)
    np.testing.assert_allclose(got, nearest_grad(g, shape[2:], steps(shape[2:], out), EXACT), rtol=1e-5, atol=1e-5)


def test_scales_count_when_all_three_are_given(grad_op, rng):
    op, mode, EXACT = grad_op
    shape, out = (1, 2, 3, 4, 5), (6, 6, 10)
    g = array(rng, (1, 2, *out), "float32")
    got = op(g, out, shape, 2.0, 1.5, 2.0)
    want = nearest_grad(g, shape[2:], [F32(2.0), F32(1.5), F32(2.0)], EXACT)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_channels_last_and_half_types(grad_op, rng):
    op, mode, EXACT = grad_op
    shape, out = (1, 3, 2, 3, 4), (3, 5, 6)
    g = array(rng, (1, 3, *out), "float16")
    want = nearest_grad(g, shape[2:], steps(shape[2:], out), EXACT)
    g_last = np.ascontiguousarray(g.transpose(0, 2, 3, 4, 1))
    got = op(g_last, out, (1, 2, 3, 4, 3), format="NDHWC")
    np.testing.assert_allclose(got.transpose(0, 4, 1, 2, 3).astype(np.float64), want, rtol=2e-3, atol=2e-3)


@pytest.mark.skipif(torch is None, reason="torch is not installed")
@pytest.mark.parametrize("shape, out", CASES)
def test_agrees_with_torch_autograd(grad_op, shape, out, rng):
    op, mode, EXACT = grad_op
    g = array(rng, (*shape[:2], *out), "float32")
    x = torch.zeros(shape, requires_grad=True)
    torch.nn.functional.interpolate(x, size=out, mode=mode).backward(torch.from_numpy(g))
    got = op(g, out, shape)
    np.testing.assert_allclose(got, x.grad.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 4, 4, 4), np.int32), (4, 4, 4), (1, 1, 2, 2, 2)), "gradOut dtype must be"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 4, 4), (1, 1, 2, 2, 2)), "gradOut must be 5-D"),
        ((np.zeros((1, 1, 4, 4, 4), np.float32), (4, 4), (1, 1, 2, 2, 2)), "outputSize must have 3 values"),
        ((np.zeros((1, 1, 4, 4, 4), np.float32), (4, 4, 4), (1, 1, 2, 2)), "inputSize must have 5 values"),
        ((np.zeros((1, 1, 4, 4, 4), np.float32), (4, 4, 5), (1, 1, 2, 2, 2)), "gradOut shape must be (1,1,4,4,5)"),
    ],
)  # fmt: skip
def test_checks(grad_op, args, message):
    op = grad_op[0]
    check_message(op, args, {}, message)
