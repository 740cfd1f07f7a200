"""aclnnUpsampleNearestExact1d against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import (
    array,
    check_against_model,
    check_message,
    gather_test,
    torch_test,
)

import aclnn_emu

from reference import F32

SIZES = [((1, 3, 3), (5,)), ((2, 2, 17), (4,)), ((1, 1, 1), (6,)), ((3, 2, 8), (12,))]


test_gather_matches_cann_bit_for_bit = gather_test(
    aclnn_emu.upsample_nearest_exact1d, SIZES, ["float32", "float16", "bfloat16", "uint8"], exact=True
)


def test_a_positive_scale_steps_by_its_inverse(rng):
    x = array(rng, (1, 2, 6), "float32")
    check_against_model(aclnn_emu.upsample_nearest_exact1d, x, (9,), [F32(1.0 / 1.5)], True, scales=1.5)


test_agrees_with_torch = torch_test(aclnn_emu.upsample_nearest_exact1d, SIZES, "nearest-exact")


def test_cann_example_values():
    x = np.arange(9, dtype=np.float32).reshape(1, 3, 3)  # test_aclnn_upsample_nearest.cpp's input
    np.testing.assert_array_equal(aclnn_emu.upsample_nearest_exact1d(x, (5,))[0, 0], [0, 0, 1, 2, 2])


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 2, 4), np.float64), (8,)), "self dtype must be"),
        ((np.zeros((1, 0, 4), np.float32), (8,)), "N, C, L and outputSize must be > 0"),
        ((np.zeros((1, 2, 4, 1), np.float32), (8,)), "self must be 3-D"),
        ((np.zeros((1, 2, 4), np.float32), (8, 2)), "outputSize must have 1 values"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(aclnn_emu.upsample_nearest_exact1d, args, {}, message)
