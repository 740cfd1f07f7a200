"""aclnnRoiAlignV2 against a model of CANN's ROIAlign kernel, torchvision, the backward, and its checks."""

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import AclnnWarning, ParamInvalidError, ParamNullptrError, ffi, lib

from reference import cann_roi_align_forward, random_boxes
from reference import roi_forward_case as case

try:
    import torch
    import torchvision
except ImportError:  # pragma: no cover
    torch = torchvision = None


@pytest.mark.parametrize("i", range(24))
def test_v2_is_bit_exact_to_cann_model(i):
    x, boxes, scale, ph, pw = case(i)
    ratio, aligned = i % 4, bool(i % 2)
    out = aclnn_emu.roi_align_v2(x, boxes, ph, pw, scale, ratio, aligned)
    np.testing.assert_array_equal(out, cann_roi_align_forward(x, boxes, ph, pw, scale, ratio, 2 if aligned else 0))


@pytest.mark.parametrize("i", range(6))
def test_v2_float16_rounds_every_step_as_cann(i):
    x, boxes, scale, ph, pw = case(i, np.float16)
    out = aclnn_emu.roi_align_v2(x, boxes, ph, pw, scale, 2, True)
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, cann_roi_align_forward(x, boxes, ph, pw, scale, 2, 2))


@pytest.mark.skipif(torchvision is None, reason="torchvision is not installed")
@pytest.mark.parametrize("i", range(12))
def test_against_torchvision_with_a_fixed_sample_count(i):
    """CANN agrees with torchvision's formula when the sample count is fixed (rounding aside)."""
    x, boxes, scale, ph, pw = case(200 + i)
    ratio, aligned = 1 + i % 3, bool(i % 2)
    ours = aclnn_emu.roi_align_v2(x, boxes, ph, pw, scale, ratio, aligned)
    ref = torchvision.ops.roi_align(torch.from_numpy(x), torch.from_numpy(boxes), (ph, pw), scale, ratio, aligned)
    np.testing.assert_allclose(ours, ref.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(torchvision is None, reason="torchvision is not installed")
def test_adaptive_count_differs_from_torchvision_at_exact_multiples():
    # A 21-pixel box over 7 bins: 21 * float32(1/7) = 3.0000002, so CANN takes 4 samples, torchvision 3.
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 2, 32, 32)).astype(np.float32)
    boxes = np.array([[0, 2.5, 3.5, 23.5, 24.5]], np.float32)  # 21 x 21 pixels after the aligned shift
    ours = aclnn_emu.roi_align_v2(x, boxes, 7, 7, 1.0, 0, True)
    tv = torchvision.ops.roi_align(torch.from_numpy(x), torch.from_numpy(boxes), (7, 7), 1.0, 0, True).numpy()
    np.testing.assert_array_equal(ours, cann_roi_align_forward(x, boxes, 7, 7, 1.0, 0, 2))
    assert not np.allclose(ours, tv, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("i", range(12))
def test_adjoint_of_the_backward(i):
    """<F(x), g> == <x, B(g)> with B = aclnnRoiAlignV2Backward: on 910B both kernels choose the same samples,
    adaptive counts included (ceil(size * float32(1 / pooled)) in both), so the identity holds everywhere."""
    x, boxes, scale, ph, pw = case(300 + i)
    ratio, aligned = i % 4, bool(i % 2)
    rng = np.random.default_rng(i)
    g = rng.standard_normal((len(boxes), x.shape[1], ph, pw)).astype(np.float32)
    fx = aclnn_emu.roi_align_v2(x, boxes, ph, pw, scale, ratio, aligned).astype(np.float64)
    bg = aclnn_emu.roi_align_v2_backward(g, boxes, x.shape, ph, pw, scale, ratio, aligned).astype(np.float64)
    lhs, rhs = float((fx * g).sum()), float((x * bg).sum())
    assert abs(lhs - rhs) <= 1e-4 * max(1.0, abs(lhs))


def test_strided_views_never_write_outside_the_output(rng):
    big = rng.standard_normal((2, 8, 30, 40)).astype(np.float32)
    x = big[:, ::2, 2:28, 5:37]  # (2, 4, 26, 32) strided
    boxes = random_boxes(rng, 5, 2, 26, 32, 0.5)
    host = np.full((7, 6, 9, 9), 7.0, np.float32)
    out = host[1:6, 1:5, 2:8:2, 1:9:3]  # (5, 4, 3, 3)
    sentinel = host.copy()
    assert aclnn_emu.roi_align_v2(x, boxes, 3, 3, 0.5, 2, True, out=out) is out
    np.testing.assert_array_equal(out, cann_roi_align_forward(np.array(x), boxes, 3, 3, 0.5, 2, 2))
    mask = np.ones(host.shape, bool)
    mask[1:6, 1:5, 2:8:2, 1:9:3] = False
    np.testing.assert_array_equal(host[mask], sentinel[mask])


def test_deterministic_across_thread_counts(threads, rng):
    x = rng.standard_normal((2, 16, 40, 40)).astype(np.float32)
    boxes = random_boxes(rng, 64, 2, 40, 40, 0.25)
    results = []
    for n in (1, 2, 3):
        threads(n)
        results.append(aclnn_emu.roi_align_v2(x, boxes, 7, 7, 0.25, 0, True).tobytes())
    assert len(set(results)) == 1


def test_boxes_on_missing_images_warn_and_are_zero(strict):
    x = np.ones((1, 2, 8, 8), np.float32)
    boxes = np.array([[0, 0, 0, 4, 4], [3, 0, 0, 4, 4], [-1, 1, 1, 2, 2]], np.float32)
    with pytest.raises(ParamInvalidError, match=r"2 box\(es\) name an image outside \[0, 1\).*strict mode"):
        aclnn_emu.roi_align_v2(x, boxes, 2, 2, 1.0, 1, True)


def test_boxes_on_missing_images_warn_in_normal_mode():
    x = np.ones((1, 2, 8, 8), np.float32)
    boxes = np.array([[0, 0, 0, 4, 4], [3, 0, 0, 4, 4]], np.float32)
    with pytest.warns(AclnnWarning, match=r"1 box\(es\) name an image outside \[0, 1\) .*first: box 1"):
        out = aclnn_emu.roi_align_v2(x, boxes, 2, 2, 1.0, 1, True)
    np.testing.assert_array_equal(out[1], 0)
    np.testing.assert_array_equal(out[0], 1)


def test_huge_adaptive_sample_counts_are_refused_not_computed_for_hours():
    x = np.ones((1, 1, 4, 4), np.float32)
    boxes = np.array([[0, 0, 0, 1e9, 1e9]], np.float32)
    with pytest.raises(ParamInvalidError, match="ask for more than"):
        aclnn_emu.roi_align_v2(x, boxes, 2, 2, 1.0, 0, False)


def test_empty_boxes():
    x = np.ones((1, 3, 4, 4), np.float32)
    assert aclnn_emu.roi_align_v2(x, np.zeros((0, 5), np.float32), 2, 2).shape == (0, 3, 2, 2)
    assert aclnn_emu.roi_align(x, np.zeros((0, 4), np.float32), np.zeros(0, np.int32)).shape == (0, 3, 1, 1)


# ---- phase-one checks: status code and message, in CANN's order ----------


def f32(*shape):
    return np.zeros(shape, np.float32)


def call_v2(x, boxes, out, ph=2, pw=2, scale=1.0, ratio=0, aligned=False, fmt=("NCHW", "ND", "NCHW")):
    with (
        aclnn_emu.Tensor(x, format=fmt[0]) as tx,
        aclnn_emu.Tensor(boxes, format=fmt[1]) as tb,
        aclnn_emu.Tensor(out, format=fmt[2]) as to,
    ):
        return aclnn_emu.roi_align_v2_get_workspace_size(tx, tb, ph, pw, scale, ratio, aligned, to)


@pytest.mark.parametrize(
    "args, kw, message",
    [
        ((np.zeros((1, 1, 4, 4)), f32(1, 5), f32(1, 1, 2, 2)), {}, "self dtype must be FLOAT or FLOAT16, got DOUBLE"),
        ((f32(1, 1, 4, 4), np.zeros((1, 5), np.float16), f32(1, 1, 2, 2)), {},
         "boxes dtype must be FLOAT (self's), got FLOAT16"),
        ((f32(1, 1, 4, 4), f32(1, 5), np.zeros((1, 1, 2, 2), np.float16)), {},
         "out dtype must be FLOAT (self's), got FLOAT16"),
        ((f32(1, 1, 4, 4), f32(1, 5), f32(1, 1, 2, 2)), {"fmt": ("NHWC", "ND", "NCHW")}, "self format must be NCHW"),
        ((f32(1, 1, 4, 4), f32(1, 5), f32(1, 1, 2, 2)), {"fmt": ("NCHW", "NCHW", "NCHW")}, "boxes format must be ND"),
        ((f32(1, 4, 4), f32(1, 5), f32(1, 1, 2, 2)), {"fmt": ("NCHW", "ND", "NCHW")}, "self must be 4-D"),
        ((f32(1, 1, 4, 4), f32(5), f32(1, 1, 2, 2)), {}, "boxes must be 2-D"),
        ((f32(1, 1, 0, 4), f32(1, 5), f32(1, 1, 2, 2)), {}, "contains 0 in N, H or W"),
        ((f32(1, 1, 4, 4), f32(1, 4), f32(1, 1, 2, 2)), {}, "boxes.shape[1] must equal"),
        ((f32(1, 1, 4, 4), f32(2, 5), f32(1, 1, 2, 2)), {}, "out.shape[0] must equal boxes.shape[0] (2), got 1"),
        ((f32(1, 3, 4, 4), f32(1, 5), f32(1, 1, 2, 2)), {}, "out.shape[1] must equal self.shape[1] (3), got 1"),
        ((f32(1, 1, 4, 4), f32(1, 5), f32(1, 1, 2, 2)), {"ph": 3}, "out.shape[2] must equal pooledHeight (3), got 2"),
        ((f32(1, 1, 4, 4), f32(1, 5), f32(1, 1, 2, 2)), {"ratio": -1}, "samplingRatio must be >= 0, got -1"),
        ((f32(1, 1, 4, 4), f32(1, 5), f32(1, 1, 2, 2)), {"scale": 0.0}, "spatialScale must be > 0"),
    ],
)  # fmt: skip
def test_v2_checks(args, kw, message):
    with pytest.raises(ParamInvalidError) as e:
        call_v2(*args, **kw)
    assert e.value.status == 161002
    assert message in e.value.message
    assert e.value.message.startswith("aclnnRoiAlignV2GetWorkspaceSize: ")


def test_v2_check_order():
    # dtype (2) before format (3) before shape (4) before attributes (5).
    with pytest.raises(ParamInvalidError, match="self dtype"):
        call_v2(np.zeros((1, 4, 4)), f32(1, 5), f32(1, 1, 2, 2), fmt=("ND", "ND", "NCHW"))
    with pytest.raises(ParamInvalidError, match="self format"):
        call_v2(f32(1, 4, 4), f32(1, 5), f32(1, 1, 2, 2), fmt=("ND", "ND", "NCHW"))
    with pytest.raises(ParamInvalidError, match="boxes.shape"):
        call_v2(f32(1, 1, 4, 4), f32(1, 4), f32(1, 1, 2, 2), ratio=-1)


def test_v2_null_arguments_and_workspace():
    with (
        aclnn_emu.Tensor(f32(1, 1, 4, 4), format="NCHW") as tx,
        aclnn_emu.Tensor(f32(1, 5), format="ND") as tb,
        aclnn_emu.Tensor(f32(1, 1, 2, 2), format="NCHW") as to,
    ):
        ws, ex = ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")
        args = [tx.handle, tb.handle, to.handle, ws, ex]
        for i, name in enumerate(["self", "boxes", "out", "workspaceSize", "executor"]):
            a = list(args)
            a[i] = ffi.NULL
            assert lib.aclnnRoiAlignV2GetWorkspaceSize(a[0], a[1], 2, 2, 1.0, 0, False, a[2], a[3], a[4]) == 161001
            assert f"{name} is NULL" in aclnn_emu.errors.recent_error_message()
    size, ex = call_v2(f32(1, 1, 4, 4), f32(1, 5), f32(1, 1, 2, 2))
    assert size > 0  # self and the result in NC1HWC0, the TransData back
    with pytest.raises(ParamNullptrError, match="workspace is NULL but phase one asked for"):
        ex.run()


def test_many_samples_in_all_are_refused_not_computed_for_hours():
    # Each box is within the per-box bound, but all of them together are not (found by the fuzzer).
    x = np.ones((1, 16, 8, 8), np.float32)
    boxes = np.tile(np.array([[0, 0, 0, 4, 4]], np.float32), (2048, 1))
    with pytest.raises(ParamInvalidError, match="samples in all"):
        aclnn_emu.roi_align_v2(x, boxes, 4, 4, 1.0, 255, True)


@pytest.mark.parametrize("aligned", [False, True])
def test_full_channel_blocks_are_bit_exact(aligned, rng):
    # 37 channels: two full blocks of 16 (copied by in-register transposes) and a partial one; W = 29 leaves a tail.
    x = rng.standard_normal((2, 37, 23, 29)).astype(np.float32)
    boxes = random_boxes(rng, 9, 2, 23, 29, 0.5)
    out = aclnn_emu.roi_align_v2(x, boxes, 3, 5, 0.5, 0, aligned)
    np.testing.assert_array_equal(out, cann_roi_align_forward(x, boxes, 3, 5, 0.5, 0, 2 if aligned else 0))


def test_many_boxes_take_the_parallel_geometry_pass(rng):
    x = rng.standard_normal((2, 3, 12, 12)).astype(np.float32)
    boxes = random_boxes(rng, 1100, 2, 12, 12, 1.0)
    boxes[::97, 0] = 5  # some on a missing image: zeros and a warning
    with pytest.warns(AclnnWarning, match="name an image outside"):
        out = aclnn_emu.roi_align_v2(x, boxes, 1, 2, 1.0, 1, True)
    np.testing.assert_array_equal(out, cann_roi_align_forward(x, boxes, 1, 2, 1.0, 1, 2))
