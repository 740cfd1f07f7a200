"""aclnnUpsampleNearest3d against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import (
    array,
    check_against_model,
    check_message,
    gather_test,
    size_ratios,
    torch_test,
)

import aclnn_emu

from reference import F32

SIZES = [((1, 2, 2, 3, 4), (4, 6, 8)), ((2, 1, 5, 5, 5), (2, 3, 7)), ((2, 2, 2, 2, 3), (1, 1, 1))]


test_gather_matches_cann_bit_for_bit = gather_test(
    aclnn_emu.upsample_nearest3d, SIZES, ["float32", "float16", "bfloat16", "float64"], exact=False
)


def test_scales_step_by_their_inverse_when_all_three_are_given(rng):
    x = array(rng, (1, 2, 3, 4, 5), "float32")
    ratios = [F32(1.0 / s) for s in (2.0, 1.5, 2.5)]
    check_against_model(aclnn_emu.upsample_nearest3d, x, (6, 6, 12), ratios, False, scales_d=2.0, scales_h=1.5,
                        scales_w=2.5)  # fmt: skip
    # one scale unset: the sizes' ratio on every axis
    check_against_model(aclnn_emu.upsample_nearest3d, x, (6, 6, 12), size_ratios((3, 4, 5), (6, 6, 12)), False,
                        scales_d=2.0, scales_h=0.0, scales_w=2.5)  # fmt: skip


def test_ndhwc(rng):
    x = np.ascontiguousarray(array(rng, (1, 3, 2, 3, 4), "float32").transpose(0, 2, 3, 4, 1))
    out = (3, 5, 6)
    check_against_model(aclnn_emu.upsample_nearest3d, x, out, size_ratios((2, 3, 4), out), False, True, format="NDHWC")


test_agrees_with_torch = torch_test(aclnn_emu.upsample_nearest3d, SIZES, "nearest")


def test_cann_example_values():
    x = np.arange(1, 49, dtype=np.float32).reshape(2, 2, 2, 2, 3)  # test_aclnn_upsample_nearest3d.cpp's input
    np.testing.assert_array_equal(aclnn_emu.upsample_nearest3d(x, (1, 1, 1)).ravel(), [1, 13, 25, 37])


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 2, 2, 2), np.int32), (4, 4, 4)), "self dtype must be"),
        ((np.zeros((1, 1, 2, 2), np.float32), (4, 4, 4)), "self must be 5-D"),
        ((np.zeros((1, 1, 2, 2, 2), np.float32), (4, 4)), "outputSize must have 3 values"),
        ((np.zeros((1, 1, 2, 2, 2), np.float32), (4, 0, 4)), "must be > 0"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(aclnn_emu.upsample_nearest3d, args, {}, message)
