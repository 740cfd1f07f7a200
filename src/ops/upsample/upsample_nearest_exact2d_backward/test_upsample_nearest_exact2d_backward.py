"""aclnnUpsampleNearestExact2dBackward against CANN's range rule (tests/reference.py), torch, and checks."""

import numpy as np
import pytest
from upsample_nearest_cases import array, autograd_test, check_message

import aclnn_emu

from reference import F32, nearest_grad

op = aclnn_emu.upsample_nearest_exact2d_backward


@pytest.mark.parametrize("scales", [(0.0, 0.0), (2.0, 1.5), (0.0, 0.7)])
def test_sums_each_input_range(scales, rng):
    shape, out = (2, 3, 4, 6), (9, 5)
    g = array(rng, (*shape[:2], *out), "float32")
    steps = [F32(s) if s > 0 else F32(o) / F32(i) for s, i, o in zip(scales, shape[2:], out)]
    want = nearest_grad(g, shape[2:], steps, exact=True)
    np.testing.assert_allclose(op(g, out, shape, *scales), want, rtol=1e-6, atol=1e-6)


def test_cann_example_values():
    g = np.arange(8, dtype=np.float32).reshape(1, 1, 4, 2)  # test_aclnn_upsample_nearest_exact2d_grad.cpp
    got = op(g, (4, 2), (1, 1, 8, 4), 0.5, 0.5)[0, 0]
    want = np.zeros((8, 4), np.float32)
    want[1::2, 1::2] = g[0, 0]
    np.testing.assert_array_equal(got, want)


def test_empty_tensors_return_before_the_checks():
    assert op(np.zeros((0, 1, 4, 4), np.int32), (4, 4), (0, 1, 2, 2)).shape == (0, 1, 2, 2)


test_agrees_with_torch_autograd = autograd_test(op, [((1, 2, 3, 4), (7, 9)), ((2, 1, 8, 6), (5, 3))], "nearest-exact")


def test_nhwc_is_refused():
    with aclnn_emu.Tensor(np.zeros((1, 4, 4, 1), np.float32), format="NHWC") as g:
        with aclnn_emu.Tensor(np.zeros((1, 2, 2, 1), np.float32), format="NHWC") as o:
            with aclnn_emu.IntArray((4, 4)) as osz, aclnn_emu.IntArray((1, 1, 2, 2)) as isz:
                with pytest.raises(aclnn_emu.ParamInvalidError, match="no NHWC path"):
                    aclnn_emu.upsample_nearest_exact2d_backward_get_workspace_size(g, osz, isz, 0.0, 0.0, o)


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 4, 4), np.int32), (4, 4), (1, 1, 2, 2)), "gradOutput dtype must be"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4,), (1, 1, 2, 2)), "outputSize must have 2 values"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 4), (1, 1, 2, 2), -1.0), "scales cannot be negative"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 4), (1, 1, 2, 2), 0.0, 80.0), "scales are too large"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 4), (1, 2, 2, 2)), "out.shape[1] must equal gradOutput.shape[1]"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(op, args, {}, message)
