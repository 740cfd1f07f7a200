import numpy as np
import pytest

import aclnn_emu


@pytest.fixture
def rng():
    return np.random.default_rng(20261129)


@pytest.fixture
def threads():
    """Set ACLNN_EMU_THREADS for one test and restore it."""
    old = aclnn_emu.get_option("ACLNN_EMU_THREADS")
    yield lambda n: aclnn_emu.set_option("ACLNN_EMU_THREADS", n)
    aclnn_emu.set_option("ACLNN_EMU_THREADS", old)


@pytest.fixture
def strict():
    """Strict validation mode for one test."""
    old = aclnn_emu.get_option("ACLNN_EMU_STRICT")
    aclnn_emu.set_option("ACLNN_EMU_STRICT", 1)
    yield
    aclnn_emu.set_option("ACLNN_EMU_STRICT", old)


@pytest.fixture(autouse=True)
def _no_stale_warnings():
    """Warnings left pending by raw ``lib`` calls (which nothing drains) stay with their test."""
    yield
    while aclnn_emu.lib.aclnnEmuPendingWarnings():
        aclnn_emu.lib.aclnnEmuTakeWarning(aclnn_emu.ffi.NULL, 0)
