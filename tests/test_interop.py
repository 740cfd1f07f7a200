"""Arrays from outside numpy: torch tensors through DLPack, buffer-protocol objects, lists."""

import array

import numpy as np
import pytest

import aclnn_emu

from reference import rel_err, roi_align_backward, upsample_bilinear2d_backward

torch = pytest.importorskip("torch")


def test_torch_tensor_in_and_out_without_copies():
    g = torch.randn(2, 3, 8, 8)
    out = torch.full((2, 3, 4, 4), 7.0)
    res = aclnn_emu.upsample_bilinear2d_backward_v2(g, (8, 8), (2, 3, 4, 4), out=out)
    assert res is out
    ref = upsample_bilinear2d_backward(g.numpy().astype(np.float64), (4, 4), False, 0.0, 0.0)
    assert rel_err(out.numpy(), ref) <= 1e-6


def test_requires_grad_tensor_is_read_without_autograd():
    g = torch.randn(1, 2, 6, 6, requires_grad=True)
    with pytest.warns(aclnn_emu.AutogradCutWarning, match="autograd stops here"):
        res = aclnn_emu.upsample_bilinear2d_backward_v2(g, (6, 6), (1, 2, 3, 3))
    ref = upsample_bilinear2d_backward(g.detach().numpy().astype(np.float64), (3, 3), False, 0.0, 0.0)
    assert rel_err(res, ref) <= 1e-6
    assert g.grad is None


def test_strided_torch_tensor():
    base = torch.randn(2, 3, 8, 16)
    g = base[:, :, :, ::2]  # non-contiguous view
    res = aclnn_emu.upsample_bilinear2d_backward_v2(g, (8, 8), (2, 3, 4, 4))
    ref = upsample_bilinear2d_backward(g.numpy().astype(np.float64), (4, 4), False, 0.0, 0.0)
    assert rel_err(res, ref) <= 1e-6


def test_bfloat16_torch_tensors():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    g = torch.randn(1, 2, 8, 8).to(torch.bfloat16)
    out = torch.zeros(1, 2, 4, 4, dtype=torch.bfloat16)
    aclnn_emu.upsample_bilinear2d_backward_v2(g, (8, 8), (1, 2, 4, 4), out=out)
    g_np = g.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    want = aclnn_emu.upsample_bilinear2d_backward_v2(g_np, (8, 8), (1, 2, 4, 4))
    np.testing.assert_array_equal(out.view(torch.int16).numpy(), want.view(np.int16))


def test_roi_align_with_torch_tensors():
    g = torch.randn(2, 3, 2, 2, requires_grad=True)
    boxes = torch.tensor([[0, 1.0, 1.0, 6.0, 6.0], [0, 2.0, 0.5, 7.0, 5.0]])
    out = torch.zeros(1, 3, 8, 8)
    aclnn_emu.roi_align_v2_backward(g, boxes, (1, 3, 8, 8), sampling_ratio=2, aligned=True, out=out)
    ref = roi_align_backward(g.detach().numpy(), boxes.numpy(), (1, 3, 8, 8), 1.0, 2, True)
    assert rel_err(out.numpy(), ref) <= 1e-5


def test_lists_become_float32():
    grad = [[[[1.0, 2.0], [3.0, 4.0]]]]
    res = aclnn_emu.upsample_bilinear2d_backward_v2(grad, (2, 2), (1, 1, 1, 1))
    assert res.dtype == np.float32 and res[0, 0, 0, 0] == pytest.approx(10.0)
    gi = aclnn_emu.roi_align_v2_backward([[[[1.0]]]], [[0, 0, 0, 4, 4]], (1, 1, 4, 4), sampling_ratio=1, aligned=True)
    assert gi.dtype == np.float32 and gi.sum() == pytest.approx(1.0)


def test_buffer_protocol_out():
    buf = array.array("f", [5.0] * 4)
    out = memoryview(buf).cast("B").cast("f", (1, 1, 2, 2))  # a 4-D buffer-protocol object
    res = aclnn_emu.upsample_bilinear2d_backward_v2(np.ones((1, 1, 4, 4), np.float32), (4, 4), (1, 1, 2, 2), out=out)
    assert res is out and list(buf) == [4.0, 4.0, 4.0, 4.0]


def test_read_only_out_is_refused():
    out = np.zeros((1, 1, 2, 2), np.float32)
    out.flags.writeable = False
    with pytest.raises(TypeError, match="out must be writable"):
        aclnn_emu.upsample_bilinear2d_backward_v2(np.ones((1, 1, 4, 4), np.float32), (4, 4), (1, 1, 2, 2), out=out)


def test_unviewable_input_is_a_clear_error():
    with pytest.raises((TypeError, ValueError)):
        aclnn_emu.upsample_bilinear2d_backward_v2(object(), (4, 4), (1, 1, 2, 2))
