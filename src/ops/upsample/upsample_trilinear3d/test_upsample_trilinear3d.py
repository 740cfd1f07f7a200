"""aclnnUpsampleTrilinear3d against a float32 model of CANN's passes (tests/reference.py), PyTorch, and checks."""

import numpy as np
import pytest
from upsample_nearest_cases import TRILINEAR_SIZES, array, check_message, torch

import aclnn_emu

from reference import cann_trilinear3d as model

CASES = TRILINEAR_SIZES


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("shape, out", CASES)
def test_matches_the_model_bit_for_bit(shape, out, align, rng):
    x = array(rng, shape, "float32")
    np.testing.assert_array_equal(aclnn_emu.upsample_trilinear3d(x, out, align), model(x, out, align))


def test_scales_count_only_when_all_three_are_given(rng):
    x = array(rng, (1, 2, 3, 4, 5), "float32")
    got = aclnn_emu.upsample_trilinear3d(x, (6, 6, 12), False, 2.0, 1.5, 2.5)
    np.testing.assert_array_equal(got, model(x, (6, 6, 12), False, (2.0, 1.5, 2.5)))
    got = aclnn_emu.upsample_trilinear3d(x, (6, 6, 12), False, 2.0, 0.0, 2.5)
    np.testing.assert_array_equal(got, model(x, (6, 6, 12), False))


def test_ndhwc_and_half_types(rng):
    x = array(rng, (1, 3, 2, 3, 4), "float16")
    want = model(x, (3, 5, 6), True).astype(np.float16)
    got = aclnn_emu.upsample_trilinear3d(np.ascontiguousarray(x.transpose(0, 2, 3, 4, 1)), (3, 5, 6), True,
                                         format="NDHWC")  # fmt: skip
    np.testing.assert_array_equal(got, np.ascontiguousarray(want.transpose(0, 2, 3, 4, 1)))


@pytest.mark.skipif(torch is None, reason="torch is not installed")
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("shape, out", CASES)
def test_agrees_with_torch(shape, out, align, rng):
    x = array(rng, shape, "float32")
    ref = torch.nn.functional.interpolate(torch.from_numpy(x), size=out, mode="trilinear", align_corners=align)
    np.testing.assert_allclose(aclnn_emu.upsample_trilinear3d(x, out, align), ref.numpy(), rtol=1e-5, atol=1e-5)


def test_cann_example_values():
    x = np.arange(1, 9, dtype=np.float32).reshape(1, 1, 2, 2, 2)  # test_aclnn_upsample_trilinear3d.cpp's input
    np.testing.assert_array_equal(aclnn_emu.upsample_trilinear3d(x, (4, 4, 4)), model(x, (4, 4, 4), False))


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 2, 2, 2), np.int32), (4, 4, 4)), "self dtype must be"),
        ((np.zeros((1, 1, 2, 2), np.float32), (4, 4, 4)), "self must be 5-D"),
        ((np.zeros((1, 1, 2, 2, 2), np.float32), (4, 4)), "outputSize must have 3 values"),
        ((np.zeros((1, 0, 2, 2, 2), np.float32), (4, 4, 4)), "Non-empty 5D data tensor expected"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(aclnn_emu.upsample_trilinear3d, args, {}, message)
