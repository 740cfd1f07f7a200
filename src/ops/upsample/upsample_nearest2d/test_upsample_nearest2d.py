"""aclnnUpsampleNearest2d against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import (
    DTYPES,
    array,
    check_against_model,
    check_message,
    gather_test,
    size_ratios,
    torch_test,
)

import aclnn_emu

# The last two are whole-number downscales along W (steps of 2 and 3), rows long enough to vectorise.
SIZES = [
    ((2, 3, 5, 7), (10, 14)),
    ((1, 2, 8, 8), (3, 5)),
    ((1, 1, 3, 4), (7, 9)),
    ((2, 4, 6, 6), (6, 6)),
    ((1, 2, 12, 40), (6, 20)),
    ((1, 2, 9, 57), (3, 19)),
]


test_gather_matches_cann_bit_for_bit = gather_test(aclnn_emu.upsample_nearest2d, SIZES, DTYPES, exact=False)


@pytest.mark.parametrize("shape, out", SIZES)
def test_nhwc(shape, out, rng):
    x = np.ascontiguousarray(array(rng, shape, "float32").transpose(0, 2, 3, 1))
    check_against_model(aclnn_emu.upsample_nearest2d, x, out, size_ratios(shape[2:], out), False, True, format="NHWC")


test_agrees_with_torch = torch_test(aclnn_emu.upsample_nearest2d, SIZES, "nearest")


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 4, 4), np.int32), (8, 8)), "self dtype must be"),
        ((np.zeros((1, 1, 4, 4), np.float32), (8,)), "outputSize must have 2 values"),
        ((np.zeros((1, 4, 4), np.float32), (8, 8)), "self must be 4-D"),
        ((np.zeros((1, 1, 4, 4), np.float32), (0, 8)), "must be > 0"),
        ((np.zeros((1, 0, 4, 4), np.float32), (8, 8)), "self's C must be >= 1"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(aclnn_emu.upsample_nearest2d, args, {}, message)
