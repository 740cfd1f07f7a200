"""aclnnUpsampleNearest1d against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import DTYPES, array, check_against_model, check_against_torch, check_message, size_ratios

import aclnn_emu

SIZES = [((1, 3, 3), (5,)), ((2, 2, 17), (4,)), ((1, 1, 1), (6,)), ((3, 2, 8), (8,))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, out", SIZES)
def test_gather_matches_cann_bit_for_bit(shape, out, dtype, rng):
    x = array(rng, shape, dtype)
    check_against_model(aclnn_emu.upsample_nearest1d, x, out, size_ratios(shape[2:], out), False)


@pytest.mark.parametrize("shape, out", SIZES)
def test_agrees_with_torch(shape, out, rng):
    check_against_torch(aclnn_emu.upsample_nearest1d, array(rng, shape, "float32"), out, "nearest")


def test_cann_example_values():
    x = np.arange(9, dtype=np.float32).reshape(1, 3, 3)  # test_aclnn_upsample_nearest1d.cpp's input
    want = [[0, 0, 1, 1, 2], [3, 3, 4, 4, 5], [6, 6, 7, 7, 8]]
    np.testing.assert_array_equal(aclnn_emu.upsample_nearest1d(x, (5,))[0], want)


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 2, 4), np.int32), (8,)), "self dtype must be"),
        ((np.zeros((1, 2, 4), np.float32), ()), "The size of outputSize should be greater than 0"),
        ((np.zeros((2, 4), np.float32), (8,)), "self must be 3-D"),
        ((np.zeros((1, 0, 4), np.float32), (8,)), "Non-empty 3D data tensor expected"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(aclnn_emu.upsample_nearest1d, args, {}, message)
