"""aclnnUpsampleNearest2dV2 against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import DTYPES, array, check_against_model, check_against_torch, check_message, size_ratios

import aclnn_emu

from reference import F32


@pytest.mark.parametrize("dtype", DTYPES)
def test_sizes_ratio_without_scales(dtype, rng):
    x = array(rng, (2, 3, 5, 7), dtype)
    check_against_model(aclnn_emu.upsample_nearest2d_v2, x, (9, 12), size_ratios((5, 7), (9, 12)), False)


def test_both_scales_step_by_their_inverse_and_doubling_by_half(rng):
    x = array(rng, (1, 2, 6, 5), "float32")
    # H: 6 -> 12 doubles with outH + outW <= 128: exactly 0.5 (computeScale); W: 1 / 1.5 in float32
    ratios = [F32(0.5), F32(1.0 / np.float32(1.5))]
    check_against_model(aclnn_emu.upsample_nearest2d_v2, x, (12, 7), ratios, False, scales_h=1.9, scales_w=1.5)
    # one scale unset: the sizes' ratio (ResizeNearestNeighborV2)
    check_against_model(aclnn_emu.upsample_nearest2d_v2, x, (12, 7), size_ratios((6, 5), (12, 7)), False,
                        scales_h=1.9, scales_w=0.0)  # fmt: skip


def test_agrees_with_torch(rng):
    check_against_torch(aclnn_emu.upsample_nearest2d_v2, array(rng, (2, 3, 5, 7), "float32"), (9, 12), "nearest")


def test_empty_tensors_return_before_the_checks():
    assert aclnn_emu.upsample_nearest2d_v2(np.zeros((0, 1, 4, 4), np.int32), (8, 8)).shape == (0, 1, 8, 8)


def test_checks():
    check_message(aclnn_emu.upsample_nearest2d_v2, (np.zeros((1, 1, 4, 4), np.int32), (8, 8)), {}, "self dtype")
    check_message(aclnn_emu.upsample_nearest2d_v2, (np.zeros((1, 1, 4, 4), np.float32), (8,)), {}, "must have 2")
