"""aclnnUpsampleLinear1d against a float32 model of CANN's kernel (tests/reference.py), PyTorch, and its checks."""

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ParamInvalidError, ParamNullptrError

from reference import F32, forward_axis

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def cann_ratio(n_in, n_out, align, scale):
    """The op_api's and tiling's ratio on Atlas A2 (float32), None for the ViewCopy path."""
    if n_in == n_out or abs(scale - 1.0) < 1e-9:
        return None
    if align:
        return F32(n_in - 1) / F32(n_out - 1) if n_out > 1 else F32(0)
    return F32(1.0 / scale) if scale > 0 else F32(n_in) / F32(n_out)


def model(x, n_out, align, scale):
    x32 = x.astype(np.float32)
    ratio = cann_ratio(x.shape[-1], n_out, align, scale)
    if ratio is None:
        return x32
    lo, hi, wl, wh = forward_axis(n_out, x.shape[-1], align, ratio)
    return (wl * x32[..., lo] + wh * x32[..., hi]).astype(np.float32)


CASES = [((2, 3, 7), 15), ((1, 4, 16), 5), ((1, 1, 1), 4), ((3, 2, 9), 9), ((1, 2, 5), 1), ((2, 2, 33), 64)]


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("shape, n_out", CASES)
def test_matches_the_model_bit_for_bit(shape, n_out, align, rng):
    x = rng.standard_normal(shape).astype(np.float32)
    got = aclnn_emu.upsample_linear1d(x, (n_out,), align)
    np.testing.assert_array_equal(got, model(x, n_out, align, -1.0))


@pytest.mark.parametrize("offset", [0, 1])
def test_results_past_the_caches_match_the_model(offset, rng):
    """A 36 MB result (past half of any last-level cache, at most 32 MiB) goes out with streaming stores,
    its rows' partial end lines through the cache when out= starts one element off a line."""
    x = rng.standard_normal((4, 128, 4608)).astype(np.float32)
    block = np.full(4 * 128 * 9216 + 2, -7.0, np.float32)
    out = block[offset : offset + 4 * 128 * 9216].reshape(4, 128, 9216)
    aclnn_emu.upsample_linear1d(x, (9216,), out=out)
    np.testing.assert_array_equal(out, model(x, 9216, False, -1.0))
    assert (np.delete(block, np.s_[offset : offset + out.size]) == -7.0).all()


@pytest.mark.parametrize("scale", [2.0, 2.5, 0.5])
def test_a_positive_scale_steps_by_its_inverse(scale, rng):
    x = rng.standard_normal((2, 3, 8)).astype(np.float32)
    n_out = int(8 * scale)
    np.testing.assert_array_equal(aclnn_emu.upsample_linear1d(x, (n_out,), False, scale), model(x, n_out, False, scale))


@pytest.mark.skipif(torch is None, reason="torch is not installed")
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("shape, n_out", CASES)
def test_agrees_with_torch(shape, n_out, align, rng):
    x = rng.standard_normal(shape).astype(np.float32)
    ref = torch.nn.functional.interpolate(torch.from_numpy(x), size=n_out, mode="linear", align_corners=align)
    np.testing.assert_allclose(aclnn_emu.upsample_linear1d(x, (n_out,), align), ref.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_types_compute_in_float32(dtype, rng):
    dt = np.dtype(dtype) if dtype == "float16" else pytest.importorskip("ml_dtypes").bfloat16
    x = rng.standard_normal((2, 2, 6)).astype(dt)
    got = aclnn_emu.upsample_linear1d(x, (11,), False)
    assert got.dtype == np.dtype(dt)
    np.testing.assert_array_equal(got, model(x, 11, False, -1.0).astype(dt))


def test_strided_input_and_reference_switch_agree(rng):
    x = rng.standard_normal((2, 3, 20)).astype(np.float32)[:, ::-1, ::2]
    np.testing.assert_array_equal(aclnn_emu.upsample_linear1d(x, (17,), True), model(x, 17, True, -1.0))


def test_empty_batch_is_an_empty_result():
    assert aclnn_emu.upsample_linear1d(np.zeros((0, 2, 4), np.float32), (8,)).shape == (0, 2, 8)


@pytest.mark.parametrize(
    "x, size, scale, message",
    [
        (np.zeros((2, 4), np.float32), (8,), -1.0, "self must be 3-D"),
        (np.zeros((1, 2, 4), np.float32), (8, 2), -1.0, "outputSize must have 1 values"),
        (np.zeros((1, 0, 4), np.float32), (8,), -1.0, "Non-empty 3D data tensor expected"),
        (np.zeros((1, 2, 4), np.float32), (0,), -1.0, "outputSize[0] must be >= 1"),
        (np.zeros((1, 2, 4), np.float32), (8,), 3.0, "Scale conflicts with outputSize"),
        (np.zeros((1, 2, 4), np.float32), (8,), 0.0, "Scale conflicts with outputSize"),
        (np.zeros((1, 2, 4), np.float64), (8,), -1.0, "self dtype must be FLOAT16, FLOAT or BF16, got DOUBLE"),
    ],
)  # fmt: skip
def test_checks_in_cann_order(x, size, scale, message):
    with pytest.raises(ParamInvalidError) as e:
        aclnn_emu.upsample_linear1d(x, size, False, scale)
    assert e.value.status == 161002
    assert e.value.message.startswith("aclnnUpsampleLinear1dGetWorkspaceSize: ")
    assert message in e.value.message


def test_out_shape_is_checked_at_handle_level():
    with (
        aclnn_emu.Tensor(np.zeros((1, 2, 4), np.float32), format="NCL") as x,
        aclnn_emu.IntArray([8]) as size,
        aclnn_emu.Tensor(np.zeros((1, 2, 7), np.float32), format="NCL") as out,
    ):
        with pytest.raises(ParamInvalidError, match=r"out shape must be \(1,2,8\)"):
            aclnn_emu.upsample_linear1d_get_workspace_size(x, size, False, -1.0, out)
        with pytest.raises(ParamNullptrError, match="outputSize is NULL"):
            aclnn_emu.upsample_linear1d_get_workspace_size(x, None, False, -1.0, out)
