"""aclnnUpsampleNearestExact1dBackward against CANN's range rule (tests/reference.py), torch, and checks."""

import numpy as np
import pytest
from upsample_nearest_cases import array, autograd_test, check_message

import aclnn_emu

from reference import F32, nearest_grad

op = aclnn_emu.upsample_nearest_exact1d_backward


@pytest.mark.parametrize("shape, out, scale", [((1, 2, 4), (9,), 0.0), ((2, 1, 6), (4,), 0.0), ((1, 3, 5), (8,), 1.5)])
def test_sums_each_input_range(shape, out, scale, rng):
    g = array(rng, (*shape[:2], *out), "float32")
    step = F32(scale) if scale > 0 else F32(out[0]) / F32(shape[2])
    want = nearest_grad(g, shape[2:], [step], exact=True)
    np.testing.assert_allclose(op(g, out, shape, scale), want, rtol=1e-6, atol=1e-6)


def test_half_types_sum_in_float32(rng):
    g = array(rng, (1, 2, 12), "float16")
    want = nearest_grad(g.astype(np.float32), (5,), [F32(12) / F32(5)], exact=True).astype(np.float32)
    np.testing.assert_array_equal(op(g, (12,), (1, 2, 5)), want.astype(np.float16))


def test_cann_example_values():
    got = op(np.array([[[1.0, 2.0]]], np.float32), (2,), (1, 1, 4), 0.5)  # the ops-cv example's call
    np.testing.assert_array_equal(got.ravel(), [0, 1, 0, 2])


test_agrees_with_torch_autograd = autograd_test(op, [((1, 2, 3), (7,)), ((2, 1, 8), (5,))], "nearest-exact")


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 4), np.int32), (4,), (1, 1, 2)), "gradOutput dtype must be"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4,), (1, 1, 2)), "gradOutput must be 3-D"),
        ((np.zeros((1, 1, 4), np.float32), (4,), (1, 1, 2, 2)), "out must be 3-D"),  # out (inputSize's) first
        ((np.zeros((1, 1, 4), np.float32), (4,), (1, 1, 2), -1.0), "scales cannot be negative"),
        ((np.zeros((1, 1, 4), np.float32), (4,), (1, 1, 2), 60.0), "scales are too large"),
        ((np.zeros((1, 1, 4), np.float32), (4,), (1, 1, 0)), "scales are too large"),  # the step 0 / 4, first
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(op, args, {}, message)
