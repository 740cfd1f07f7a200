"""aclnnUpsampleNearest1dV2 against CANN's index rule (tests/reference.py), PyTorch, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import DTYPES, array, check_against_model, check_against_torch, check_message, size_ratios

import aclnn_emu

from reference import F32


@pytest.mark.parametrize("dtype", DTYPES)
def test_sizes_ratio_without_a_scale(dtype, rng):
    x = array(rng, (2, 3, 7), dtype)
    check_against_model(aclnn_emu.upsample_nearest1d_v2, x, (12,), size_ratios((7,), (12,)), False)


def test_a_positive_scale_steps_by_its_inverse(rng):
    x = array(rng, (1, 2, 6), "float32")
    check_against_model(aclnn_emu.upsample_nearest1d_v2, x, (9,), [F32(1.0 / np.float32(1.5))], False, scale_l=1.5)


def test_agrees_with_torch(rng):
    check_against_torch(aclnn_emu.upsample_nearest1d_v2, array(rng, (2, 2, 9), "float32"), (20,), "nearest")


def test_checks():
    check_message(aclnn_emu.upsample_nearest1d_v2, (np.zeros((1, 2, 4), np.int32), (8,)), {}, "self dtype must be")
    with aclnn_emu.Tensor(np.zeros((1, 2, 4), np.float32), format="NCL") as x, aclnn_emu.IntArray([8]) as size:
        with aclnn_emu.Tensor(np.zeros((1, 2, 7), np.float32), format="NCL") as out:
            with pytest.raises(aclnn_emu.ParamInvalidError, match=r"Expected output size \(L: 8\), but got output"):
                aclnn_emu.upsample_nearest1d_v2_get_workspace_size(x, size, 0.0, out)
