"""aclnnUpsampleNearest1dBackward against the index rule of the kernel CANN's op_api picks, torch, and checks."""

import numpy as np
import pytest
from upsample_nearest_cases import array, autograd_test, check_message

import aclnn_emu

from reference import F32, nearest_grad, nearest_scatter

op = aclnn_emu.upsample_nearest1d_backward


def test_a_scale_that_gives_l_sums_each_input_range(rng):
    g = array(rng, (2, 3, 10), "float32")  # int(4 * 2.5) == 10: UpsampleNearest2dGrad with the step 2.5
    np.testing.assert_allclose(op(g, (10,), (2, 3, 4), 2.5), nearest_grad(g, (4,), [F32(2.5)]), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_otherwise_each_grad_goes_to_its_forward_source(dtype, rng):
    g = array(rng, (1, 2, 82), dtype)  # no scale: ResizeNearestNeighborV2Grad (DOUBLE: the AI CPU, same rule)
    want = nearest_scatter(g.astype(np.float32), (2,), [F32(2) / F32(82)])
    np.testing.assert_allclose(op(g, (82,), (1, 2, 2)).astype(np.float64), want, rtol=1e-2, atol=1e-2)
    assert not np.allclose(want, nearest_grad(g.astype(np.float32), (2,), [F32(82) / F32(2)]))


def test_cann_example_values():
    # test_aclnn_upsample_nearest1d_backward.cpp: int(3 * 1.1) != 2, so the scale is dropped: [1, 4.1, 0]
    got = op(np.array([[[1.0, 4.1]]], np.float32), (2,), (1, 1, 3), 1.1)
    np.testing.assert_array_equal(got.ravel(), np.array([1.0, 4.1, 0.0], np.float32))


def test_a_scale_past_int64_misses_l(rng):
    g = array(rng, (1, 1, 6), "float32")  # int(3 * 1e300) is INT64_MIN on CANN's x86 host: the scatter rule
    np.testing.assert_allclose(op(g, (6,), (1, 1, 3), 1e300), nearest_scatter(g, (3,), [F32(0.5)]), rtol=1e-6)


def test_half_with_a_scale_that_misses_l_is_refused():
    with pytest.raises(aclnn_emu.InnerError) as e:
        op(np.ones((1, 1, 2), np.float16), (2,), (1, 1, 3), 1.1)
    assert e.value.status == 561103 and "takes FLOAT and BF16 only" in str(e.value)


test_agrees_with_torch_autograd = autograd_test(
    op, [((1, 2, 3), (6,)), ((2, 1, 8), (4,)), ((1, 1, 5), (7,))], "nearest"
)


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 4, 4), np.float32), (4,), (1, 1, 2)), "gradOut must be 3-D"),
        ((np.zeros((1, 1, 4), np.float32), (4, 4), (1, 1, 2)), "outputSize must have 1 values"),
        ((np.zeros((1, 1, 4), np.float32), (4,), (1, 1, 2, 2)), "inputSize must have 3 values"),
        ((np.zeros((1, 1, 4), np.int32), (4,), (1, 1, 2)), "gradOut dtype must be"),
        ((np.zeros((1, 1, 4), np.float32), (5,), (1, 1, 2)), "gradOut shape must be (1,1,5)"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(op, args, {}, message)
