"""aclnnUpsampleNearestExact3d against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

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

SIZES = [((1, 2, 2, 3, 4), (4, 6, 8)), ((2, 1, 5, 5, 5), (2, 3, 7)), ((2, 2, 2, 2, 3), (1, 1, 1))]


test_gather_matches_cann_bit_for_bit = gather_test(
    aclnn_emu.upsample_nearest_exact3d, SIZES, ["float32", "float16", "bfloat16"], exact=True
)


def test_scales_that_fit_step_by_their_inverse(rng):
    x = array(rng, (1, 2, 3, 4, 5), "float32")
    ratios = [F32(1.0 / s) for s in (2.0, 1.5, 2.0)]
    check_against_model(aclnn_emu.upsample_nearest_exact3d, x, (6, 6, 10), ratios, True, scales_d=2.0, scales_h=1.5,
                        scales_w=2.0)  # fmt: skip


test_agrees_with_torch = torch_test(aclnn_emu.upsample_nearest_exact3d, SIZES, "nearest-exact")


def test_cann_example_values():
    x = np.arange(1, 49, dtype=np.float32).reshape(2, 2, 2, 2, 3)  # test_aclnn_upsample_nearest_exact3d.cpp's input
    np.testing.assert_array_equal(aclnn_emu.upsample_nearest_exact3d(x, (1, 1, 1)).ravel(), [11, 23, 35, 47])


@pytest.mark.parametrize(
    "args, kw, message",
    [
        ((np.zeros((1, 1, 2, 2, 2), np.float64), (4, 4, 4)), {}, "self dtype must be"),
        ((np.zeros((1, 1, 2, 2, 2), np.float32), (4, 4, 4)), {"scales_d": 2.0, "scales_h": 2.0, "scales_w": 3.0},
         "Scale conflicts with outputSize. scale_W * input_W should be equal to outputSize_W"),
        ((np.zeros((1, 1, 2, 2, 2), np.float32), (4, 4)), {}, "outputSize must have 3 values"),
    ],
)  # fmt: skip
def test_checks(args, kw, message):
    check_message(aclnn_emu.upsample_nearest_exact3d, args, kw, message)
