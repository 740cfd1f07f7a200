"""aclnnUpsampleTrilinear3dBackward: the adjoint of CANN's trilinear forward, torch's autograd, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import TRILINEAR_SIZES, array, check_message, torch

import aclnn_emu

from reference import cann_trilinear3d

CASES = TRILINEAR_SIZES


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("shape, out", CASES)
def test_is_the_adjoint_of_the_forward(shape, out, align, rng):
    x, g = array(rng, shape, "float32"), array(rng, (*shape[:2], *out), "float32")
    grad = aclnn_emu.upsample_trilinear3d_backward(g, out, shape, align)
    lhs = float(np.sum(cann_trilinear3d(x, out, align).astype(np.float64) * g))
    rhs = float(np.sum(x.astype(np.float64) * grad))
    assert abs(lhs - rhs) <= 1e-4 * (abs(lhs) + float(np.abs(g).sum())), (lhs, rhs)


@pytest.mark.skipif(torch is None, reason="torch is not installed")
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("shape, out", CASES)
def test_agrees_with_torch_autograd(shape, out, align, rng):
    g = array(rng, (*shape[:2], *out), "float32")
    x = torch.zeros(shape, requires_grad=True)
    torch.nn.functional.interpolate(x, size=out, mode="trilinear", align_corners=align).backward(torch.from_numpy(g))
    got = aclnn_emu.upsample_trilinear3d_backward(g, out, shape, align)
    np.testing.assert_allclose(got, x.grad.numpy(), rtol=1e-5, atol=1e-5)


def forward_matrix(shape, out, align):
    """The forward as a matrix (output elements x input elements), column k the forward of basis vector k."""
    n_in = int(np.prod(shape))
    columns = [cann_trilinear3d(np.eye(1, n_in, k, dtype=np.float32).reshape(shape), out, align) for k in range(n_in)]
    return np.stack([c.astype(np.float64).ravel() for c in columns], axis=1)


@pytest.mark.parametrize("layout", ["float16", "W-strided"])
@pytest.mark.parametrize("shape, out", CASES)
def test_converted_rows_match_the_transposed_forward(shape, out, layout, rng):
    """gradOut that is not float32 rows in place (float16; float32 every other element along W) goes through
    the kernel's converted-row slots along D and H: each slice's rows must stay apart."""
    g_shape = (*shape[:2], *out)
    if layout == "float16":
        g = array(rng, g_shape, "float16")
    else:
        g = array(rng, (*g_shape[:-1], 2 * g_shape[-1]), "float32")[..., ::2]
    got = aclnn_emu.upsample_trilinear3d_backward(g, out, shape, False)
    assert got.dtype == g.dtype
    want = (forward_matrix(shape, out, False).T @ g.astype(np.float64).ravel()).reshape(shape)
    tol = 2e-3 if layout == "float16" else 1e-5
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)


def test_cann_example_values():
    g = np.arange(1, 33, dtype=np.float32).reshape(2, 2, 2, 2, 2)  # test_aclnn_upsample_trilinear3d_backward.cpp's
    got = aclnn_emu.upsample_trilinear3d_backward(g, (2, 2, 2), (2, 2, 1, 1, 1))
    np.testing.assert_allclose(got.ravel(), g.reshape(4, 8).sum(axis=1), rtol=1e-6)


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.zeros((1, 1, 4, 4, 4), np.int32), (4, 4, 4), (1, 1, 2, 2, 2)), "gradOut dtype must be"),
        ((np.zeros((1, 1, 4, 4), np.float32), (4, 4, 4), (1, 1, 2, 2, 2)), "gradOut must be 5-D"),
        ((np.zeros((1, 1, 4, 4, 4), np.float32), (4, 4, 4), (1, 1, 2, 2)), "inputSize must have 5 values"),
        ((np.zeros((1, 1, 4, 4, 4), np.float32), (4, 4, 5), (1, 1, 2, 2, 2)), "gradOut shape must be (1,1,4,4,5)"),
    ],
)  # fmt: skip
def test_checks(args, message):
    check_message(aclnn_emu.upsample_trilinear3d_backward, args, {}, message)
