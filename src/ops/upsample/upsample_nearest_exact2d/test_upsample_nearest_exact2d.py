"""aclnnUpsampleNearestExact2d against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

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

SIZES = [((2, 3, 5, 7), (10, 14)), ((1, 2, 8, 8), (3, 5)), ((1, 1, 3, 4), (7, 9)), ((1, 1, 4, 2), (8, 4))]


test_gather_matches_cann_bit_for_bit = gather_test(
    aclnn_emu.upsample_nearest_exact2d, SIZES, ["float32", "float16", "bfloat16", "uint8"], exact=True
)


def test_scales_and_nhwc(rng):
    x = np.ascontiguousarray(array(rng, (1, 3, 4, 6), "uint8").transpose(0, 2, 3, 1))
    check_against_model(aclnn_emu.upsample_nearest_exact2d, x, (8, 9), [F32(1.0 / 2.0), F32(1.0 / 1.5)], True, True,
                        scales_h=2.0, scales_w=1.5, format="NHWC")  # fmt: skip


test_agrees_with_torch = torch_test(aclnn_emu.upsample_nearest_exact2d, SIZES, "nearest-exact")


def test_empty_tensors_return_before_the_checks():
    assert aclnn_emu.upsample_nearest_exact2d(np.zeros((0, 1, 4, 4), np.int32), (8, 8)).shape == (0, 1, 8, 8)
    assert aclnn_emu.upsample_nearest_exact2d(np.zeros((1, 1, 4, 4), np.float32), (8, 0)).shape == (1, 1, 8, 0)


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 4, 4), np.float64), (8, 8)), "self dtype must be"),
        ((np.zeros((1, 4, 4), np.float32), (8, 8)), "self must be 4-D"),
        ((np.zeros((1, 1, 4, 4), np.float32), (8,)), "outputSize must have 2 values"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(aclnn_emu.upsample_nearest_exact2d, args, {}, message)
