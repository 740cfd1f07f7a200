"""aclnnUpsampleNearest2dBackward against CANN's two index rules (tests/reference.py), torch's autograd, checks."""

import numpy as np
import pytest
from upsample_nearest_cases import array, autograd_test, check_message

import aclnn_emu

from reference import F32, nearest_grad, nearest_scatter

op = aclnn_emu.upsample_nearest2d_backward


def test_without_scales_each_grad_goes_to_its_forward_source(rng):
    # ResizeNearestNeighborV2Grad: gradOut index j to floor(j * in / out). At W 2 -> 82 float32 rounding makes
    # it differ from the range rule of the scaled paths, which tells the two apart.
    g = array(rng, (1, 2, 3, 82), "float32")
    got = op(g, (3, 82), (1, 2, 3, 2))
    np.testing.assert_allclose(got, nearest_scatter(g, (3, 2), [F32(1), F32(2) / F32(82)]), rtol=1e-6, atol=1e-6)
    assert not np.allclose(got, nearest_grad(g, (3, 2), [F32(1), F32(82) / F32(2)]), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("out", [(8, 8), (8, 12)])  # an integer factor (the pairwise path) and another
def test_sums_start_from_positive_zero(out):
    # CANN's sums start from 0.0f: a gradient of -0.0 everywhere gives +0.0, not -0.0 (what dropping the zero
    # start, or storing a first term that could be -0.0, would give).
    got = op(np.full((1, 2, *out), -0.0, np.float32), out, (1, 2, 4, 4))
    assert got.shape == (1, 2, 4, 4) and not np.signbit(got).any()


@pytest.mark.parametrize("shape, out", [((2, 3, 5, 7), (9, 4)), ((1, 1, 4, 4), (8, 8)), ((1, 2, 6, 5), (3, 11))])
def test_scatter_on_random_sizes(shape, out, rng):
    g = array(rng, (*shape[:2], *out), "float32")
    want = nearest_scatter(g, shape[2:], [F32(i) / F32(o) for i, o in zip(shape[2:], out)])
    np.testing.assert_allclose(op(g, out, shape), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("scales", [(2.0, 1.5), (0.0, 2.5), (1.7, 0.0)])
def test_a_positive_scale_sums_each_input_range(scales, rng):
    shape, out = (1, 2, 4, 6), (8, 9)
    g = array(rng, (1, 2, *out), "float32")
    steps = [F32(s) if s > 0 else F32(o) / F32(i) for s, i, o in zip(scales, shape[2:], out)]
    np.testing.assert_allclose(op(g, out, shape, *scales), nearest_grad(g, shape[2:], steps), rtol=1e-5, atol=1e-5)


def test_ai_core_path_casts_half_types_to_float32(rng):
    # both scales positive, planes of at least 8 x 16 and int(in * s) == out: UpsampleNearest2dGrad on FLOAT
    shape, out = (1, 3, 8, 16), (16, 32)
    g = array(rng, (1, 3, *out), "float16")
    got = op(g, out, shape, 2.0, 2.0)
    want = nearest_grad(g.astype(np.float32), shape[2:], [F32(2), F32(2)]).astype(np.float32).astype(np.float16)
    np.testing.assert_array_equal(got, want)


def test_unchanged_sizes_with_a_scale_step_by_one(rng):
    g = array(rng, (1, 1, 4, 4), "float32")
    np.testing.assert_array_equal(op(g, (4, 4), (1, 1, 4, 4), 3.0, 0.0), g)


def test_nhwc(rng):
    g = array(rng, (1, 6, 8, 3), "float32")
    got = op(g, (6, 8), (1, 3, 4, 3), format="NHWC")
    want = nearest_scatter(g, (3, 4), [F32(3) / F32(6), F32(4) / F32(8)], channels_last=True)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


test_agrees_with_torch_autograd = autograd_test(
    op, [((1, 2, 3, 4), (6, 12)), ((2, 1, 5, 5), (10, 5)), ((1, 1, 6, 6), (3, 2))], "nearest"
)


def test_cann_example_values():
    g = np.arange(1, 37, dtype=np.float32).reshape(2, 2, 3, 3)  # test_aclnn_upsample_nearest2d_grad.cpp's input
    np.testing.assert_array_equal(op(g, (3, 3), (2, 2, 1, 1)).ravel(), [45, 126, 207, 288])


@pytest.mark.parametrize(
    "args, kw, message",
    [
        ((np.zeros((1, 1, 4, 4), np.int32), (4, 4), (1, 1, 2, 2)), {}, "gradOut dtype must be"),
        ((np.zeros((1, 4, 4), np.float32), (4, 4), (1, 1, 2, 2)), {}, "gradOut must be 4-D"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 4, 4), (1, 1, 2, 2)), {}, "outputSize must have 2 values"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 4), (1, 1, 2)), {}, "inputSize must have 4 values"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 5), (1, 1, 2, 2)), {}, "gradOut shape must be (1,1,4,5)"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 4), (1, 1, 0, 2)), {}, "must be > 0"),
    ],
)  # fmt: skip
def test_checks(args, kw, message):
    check_message(op, args, kw, message)
