"""aclnnUpsampleNearest3dBackward against CANN's gather rule (tests/reference.py), torch's autograd, checks."""

import pytest
from upsample_nearest3d_grad_cases import *  # noqa: F403 (the tests, run for this operator)

import aclnn_emu


@pytest.fixture
def grad_op():
    return aclnn_emu.upsample_nearest3d_backward, "nearest", False
