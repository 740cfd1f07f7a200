"""aclnn_emu.torch: the operators as torch custom ops with CANN's gradients (issue 26, first part)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import aclnn_emu  # noqa: E402
import aclnn_emu.torch as et  # noqa: E402

BOXES = torch.tensor([[0, 1.0, 1.0, 9.0, 7.0], [0, 2.5, 0.5, 6.0, 8.0]])


def test_opcheck_every_op():
    x = torch.randn(1, 3, 10, 12)
    g = torch.randn(1, 3, 20, 24)
    gr = torch.randn(2, 3, 2, 2)
    cases = [
        (torch.ops.aclnn_emu.upsample_bilinear2d, (x, [20, 24], False, 0.0, 0.0)),
        (torch.ops.aclnn_emu.upsample_bilinear2d_backward_v2, (g, [20, 24], [1, 3, 10, 12], False, 0.0, 0.0)),
        (torch.ops.aclnn_emu.roi_align_v2, (x, BOXES, 2, 2, 1.0, 2, False)),
        (torch.ops.aclnn_emu.roi_align_v2_backward, (gr, BOXES, [1, 3, 10, 12], 2, 2, 1.0, 2, False)),
    ]
    for op, args in cases:
        if args[0].shape == x.shape:
            args = (args[0].clone().requires_grad_(), *args[1:])
        torch.library.opcheck(op, args)


def test_autograd_gradients_are_the_backward_operators_bitwise():
    x = torch.randn(2, 3, 10, 12, requires_grad=True)
    y = et.upsample_bilinear2d(x, [20, 24], True, 0.0, 0.0)
    g = torch.randn_like(y)
    y.backward(g)
    want = aclnn_emu.upsample_bilinear2d_backward_v2(g.numpy(), (20, 24), (2, 3, 10, 12), True)
    assert np.array_equal(x.grad.numpy(), want)
    assert np.array_equal(y.detach().numpy(), aclnn_emu.upsample_bilinear2d(x.detach().numpy(), (20, 24), True))

    x2 = torch.randn(1, 3, 10, 12, requires_grad=True)
    r = et.roi_align(x2, BOXES, 3, 1.0, 2, True)
    gr = torch.randn_like(r)
    r.backward(gr)
    want = aclnn_emu.roi_align_v2_backward(gr.numpy(), BOXES.numpy(), (1, 3, 10, 12), 3, 3, 1.0, 2, True)
    assert np.array_equal(x2.grad.numpy(), want)


def test_non_contiguous_channels_last_and_half_inputs():
    x = torch.randn(1, 4, 10, 12)
    ref = et.upsample_bilinear2d(x, [20, 24], False, 0.0, 0.0)
    cl = x.to(memory_format=torch.channels_last)
    assert torch.equal(et.upsample_bilinear2d(cl, [20, 24], False, 0.0, 0.0), ref)
    sliced = torch.randn(1, 4, 10, 24)[..., ::2]
    assert torch.equal(et.upsample_bilinear2d(sliced, [20, 24], False, 0.0, 0.0),
                       et.upsample_bilinear2d(sliced.contiguous(), [20, 24], False, 0.0, 0.0))  # fmt: skip
    for dt in (torch.float16, torch.bfloat16):
        h = et.upsample_bilinear2d(x.to(dt), [20, 24], False, 0.0, 0.0)
        assert h.dtype == dt and torch.allclose(h.float(), ref, atol=2e-2, rtol=2e-2)


def test_shapes_propagate_under_fake_tensors():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(2, 3, 10, 12)
        assert et.upsample_bilinear2d(x, [5, 7], False, 0.0, 0.0).shape == (2, 3, 5, 7)
        assert et.roi_align(x, torch.empty(4, 5), (2, 3)).shape == (4, 3, 2, 3)


def test_double_is_refused_with_canns_message():
    with pytest.raises(aclnn_emu.ParamInvalidError, match="self dtype|DOUBLE"):
        et.upsample_bilinear2d(torch.randn(1, 1, 4, 4, dtype=torch.float64), [8, 8], False, 0.0, 0.0)


def test_the_onnx_op_and_the_v1_backward_are_ops_too():
    x = torch.randn(1, 3, 10, 12)
    rois, idx = BOXES[:, 1:].contiguous(), torch.zeros(2, dtype=torch.int32)
    torch.library.opcheck(torch.ops.aclnn_emu.roi_align_onnx, (x, rois, idx, "max", 2, 2, 2, 1.0))
    want = aclnn_emu.roi_align(x.numpy(), rois.numpy(), idx.numpy(), "max", 2, 2, 2, 1.0)
    assert np.array_equal(et.roi_align_onnx(x, rois, idx, "max", 2, 2, 2, 1.0).numpy(), want)
    g = torch.randn(1, 3, 20, 24)
    torch.library.opcheck(torch.ops.aclnn_emu.upsample_bilinear2d_backward, (g, [20, 24], [1, 3, 10, 12], False, 0.0,
                                                                             0.0))  # fmt: skip


@pytest.mark.filterwarnings("ignore:Input #0 requires gradient and is not a double precision:UserWarning")
def test_gradcheck_in_float32():
    # CANN's kernels compute in float32: gradcheck's finite differences need float32 tolerances.
    x = torch.randn(1, 2, 5, 6, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: et.upsample_bilinear2d(t, [9, 11], False, 0.0, 0.0), (x,), eps=1e-2,
                                    atol=1e-2, rtol=1e-2)  # fmt: skip
    x2 = torch.randn(1, 2, 10, 12, requires_grad=True)
    boxes = torch.tensor([[0, 1.3, 1.1, 8.2, 7.4]])
    assert torch.autograd.gradcheck(lambda t: et.roi_align(t, boxes, 2, 1.0, 2, True), (x2,), eps=1e-2, atol=1e-2,
                                    rtol=1e-2)  # fmt: skip


def test_ops_run_on_a_chosen_stream():
    x = torch.randn(1, 3, 10, 12)
    with aclnn_emu.Stream() as s, et.use_stream(s):
        y = et.upsample_bilinear2d(x, [20, 24], False, 0.0, 0.0)
        assert lib_live_streams() >= 1
    assert torch.equal(y, et.upsample_bilinear2d(x, [20, 24], False, 0.0, 0.0))


def lib_live_streams():
    return int(aclnn_emu.lib.aclnnEmuLiveHandles())


def test_interpolate_matches_the_array_api_and_falls_back_for_other_modes():
    x = torch.randn(2, 3, 10, 12, requires_grad=True)
    y = et.interpolate(x, size=(20, 24), mode="bilinear", align_corners=False)
    assert np.array_equal(y.detach().numpy(), aclnn_emu.upsample_bilinear2d(x.detach().numpy(), (20, 24)))
    y.sum().backward()
    assert x.grad is not None and x.grad.shape == x.shape
    z = et.interpolate(x, scale_factor=3.0, mode="bilinear")
    assert z.shape == (2, 3, 30, 36)
    n = et.interpolate(x, scale_factor=2, mode="nearest")
    assert torch.equal(n, torch.nn.functional.interpolate(x, scale_factor=2, mode="nearest"))


def test_cann_numerics_swaps_torchvision_roi_align_in_a_model_that_trains():
    tv = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1))
    pool = tv.ops.RoIAlign((3, 3), spatial_scale=0.5, sampling_ratio=2, aligned=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(2, 3, 16, 16)
    boxes = torch.tensor([[0, 2.0, 2.0, 20.0, 24.0], [1, 4.0, 0.0, 30.0, 18.0]])
    losses = []
    with et.cann_numerics():
        assert tv.ops.roi_align is not torch.ops.torchvision.roi_align
        for _ in range(5):
            feat = model(x)
            up = torch.nn.functional.interpolate(feat, scale_factor=2.0, mode="bilinear", align_corners=False)
            loss = pool(up, boxes).square().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
    assert losses[-1] < losses[0]
    # The swap is undone: torchvision's own again.
    ref = tv.ops.roi_align(feat.detach(), boxes, (3, 3), 0.5, 2, True)
    assert ref.shape == (2, 4, 3, 3)


def test_array_api_warns_once_that_autograd_is_cut():
    import subprocess
    import sys

    code = (
        "import warnings, torch, aclnn_emu\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    g = torch.ones(1, 1, 4, 4, requires_grad=True)\n"
        "    for _ in range(3):\n"
        "        aclnn_emu.upsample_bilinear2d_backward_v2(g, (4, 4), (1, 1, 2, 2))\n"
        "cut = [x for x in w if issubclass(x.category, aclnn_emu.AutogradCutWarning)]\n"
        "assert len(cut) == 1 and 'autograd stops here' in str(cut[0].message), [str(x.message) for x in w]\n"
        "print('ok')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_the_torch_example_runs():
    pytest.importorskip("torchvision")
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent / "examples" / "torch_cann_numerics.py"
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "loss (CANN)" in r.stdout and len(r.stdout.splitlines()) == 6


def test_export_and_compile_see_the_ops():
    class Head(torch.nn.Module):
        def forward(self, x, boxes):
            y = et.upsample_bilinear2d(x, [20, 24], False, 0.0, 0.0)
            return et.roi_align(y, boxes, 3, 1.0, 2, True)

    x = torch.randn(1, 3, 10, 12)
    boxes = torch.tensor([[0, 1.0, 1.0, 9.0, 7.0]])
    ep = torch.export.export(Head(), (x, boxes))
    targets = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
    assert targets == ["aclnn_emu.upsample_bilinear2d.default", "aclnn_emu.roi_align_v2.default"], targets
    assert torch.equal(ep.module()(x, boxes), Head()(x, boxes))
    # Under torch.compile (AOT autograd, no code generation) the forward and CANN's backward run as traced.
    xg = x.clone().requires_grad_()
    compiled = torch.compile(Head(), backend="aot_eager", fullgraph=True)
    out = compiled(xg, boxes)
    out.sum().backward()
    xe = x.clone().requires_grad_()
    Head()(xe, boxes).sum().backward()
    assert torch.equal(out, Head()(x, boxes)) and torch.equal(xg.grad, xe.grad)


def test_roi_align_takes_torchvisions_list_of_boxes():
    x = torch.randn(2, 3, 10, 12)
    per_image = [torch.tensor([[1.0, 1.0, 9.0, 7.0]]), torch.tensor([[2.0, 0.5, 6.0, 8.0], [0.0, 0.0, 4.0, 4.0]])]
    rows = torch.tensor([[0, 1.0, 1.0, 9.0, 7.0], [1, 2.0, 0.5, 6.0, 8.0], [1, 0.0, 0.0, 4.0, 4.0]])
    assert torch.equal(et.roi_align(x, per_image, 2, 1.0, 2), et.roi_align(x, rows, 2, 1.0, 2))


def test_strided_inputs_of_every_op_are_read_in_place_with_the_same_results():
    x = torch.randn(1, 3, 10, 24)[..., ::2]
    g = torch.randn(2, 3, 4, 4)[:, :, ::2, ::2]
    base = torch.randn(2, 10).abs() * 3
    base[:, 0] = 0
    boxes = base[:, ::2]  # (image id, x1, y1, x2, y2) from every other column
    assert not x.is_contiguous() and not g.is_contiguous() and not boxes.is_contiguous()
    assert torch.equal(et.roi_align_v2(x, boxes, 2, 2, 1.0, 2, False),
                       et.roi_align_v2(x.contiguous(), boxes.contiguous(), 2, 2, 1.0, 2, False))  # fmt: skip
    assert torch.equal(et.roi_align_v2_backward(g, boxes, [1, 3, 10, 12], 2, 2, 1.0, 2, False),
                       et.roi_align_v2_backward(g.contiguous(), boxes.contiguous(), [1, 3, 10, 12], 2, 2, 1.0, 2,
                                                False))  # fmt: skip
    gu = torch.randn(1, 3, 20, 48)[..., ::2]
    assert torch.equal(et.upsample_bilinear2d_backward_v2(gu, [20, 24], [1, 3, 10, 12], False, 0.0, 0.0),
                       et.upsample_bilinear2d_backward_v2(gu.contiguous(), [20, 24], [1, 3, 10, 12], False, 0.0,
                                                          0.0))  # fmt: skip
