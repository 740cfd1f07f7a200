"""aclnnUpsampleNearest1d against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import (
    DTYPES,
    check_message,
    gather_test,
    torch_test,
)

import aclnn_emu

SIZES = [((1, 3, 3), (5,)), ((2, 2, 17), (4,)), ((1, 1, 1), (6,)), ((3, 2, 8), (8,))]


test_gather_matches_cann_bit_for_bit = gather_test(aclnn_emu.upsample_nearest1d, SIZES, DTYPES, exact=False)


test_agrees_with_torch = torch_test(aclnn_emu.upsample_nearest1d, SIZES, "nearest")


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
