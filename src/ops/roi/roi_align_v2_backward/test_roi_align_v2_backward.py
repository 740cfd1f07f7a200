"""aclnnRoiAlignV2Backward against the float64 reference, torchvision, and its checks."""

import math
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import AclnnError, ParamInvalidError

from reference import random_boxes, rel_err, roi_align_backward, roi_align_backward_separable

# The fast path's closed-form weights: the reference kernel refuses such work by design (its bound of 2**32
# sample updates), so these run only on the fast path.
fast_path_only = pytest.mark.skipif(
    os.environ.get("ACLNN_EMU_REFERENCE_KERNELS") == "1", reason="the reference kernel refuses this much work"
)

try:
    import torch
    import torchvision
except ImportError:  # pragma: no cover
    torch = torchvision = None


def run(g, boxes, shape, scale=1.0, ratio=0, aligned=False, **kw):
    return aclnn_emu.roi_align_v2_backward(g, boxes, shape, None, None, scale, ratio, aligned, **kw)


def check_case(g, boxes, shape, scale, ratio, aligned, tol=1e-5):
    got = run(g, boxes, shape, scale, ratio, aligned)
    ref = roi_align_backward(g, boxes, shape, scale, ratio, aligned)
    assert rel_err(got, ref) <= tol, (scale, ratio, aligned)
    return got, ref


def test_hand_computed_aligned_center():
    # aligned, scale 1: box [-0.5, 3.5]^2 after the shift; one sample at (1.5, 1.5).
    g = np.ones((1, 1, 1, 1), np.float32)
    got = run(g, np.array([[0, 0, 0, 4, 4]], np.float32), (1, 1, 4, 4), 1.0, 1, True)
    want = np.zeros((1, 1, 4, 4))
    want[0, 0, 1:3, 1:3] = 0.25
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-7)


def test_hand_computed_legacy_two_samples():
    # legacy mode, box 1..2 (width 1): samples at 1.25 and 1.75 per axis, g/4 each.
    g = np.full((1, 1, 1, 1), 4.0, np.float32)
    got = run(g, np.array([[0, 1, 1, 2, 2]], np.float32), (1, 1, 4, 4), 1.0, 2, False)
    want = np.zeros((1, 1, 4, 4))
    want[0, 0, 1:3, 1:3] = 1.0
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)


@pytest.mark.parametrize("i", range(24))
def test_random_against_reference(i):
    rng = np.random.default_rng(100 + i)
    b, c = int(rng.integers(1, 4)), int(rng.integers(1, 11))  # channel blocks of 4 and a remainder
    h, w = (int(v) for v in rng.integers(1, 40, 2))
    k = int(rng.integers(1, 12))
    ph, pw = (int(v) for v in rng.integers(1, 8, 2))
    scale = float(rng.choice([1.0, 0.5, 0.25, 0.125]))
    ratio = int(rng.choice([0, 1, 2, 3]))
    aligned = bool(i % 2)
    boxes = random_boxes(rng, k, b, h, w, scale)
    g = rng.standard_normal((k, c, ph, pw)).astype(np.float32)
    check_case(g, boxes, (b, c, h, w), scale, ratio, aligned)


EDGE_BOXES = np.array(
    [
        [0, -10, -10, 3, 3],  # partly outside (top-left)
        [0, 14, 12, 40, 30],  # partly outside (bottom-right)
        [1, -50, -50, -20, -20],  # wholly outside
        [1, 30, 30, 90, 90],  # wholly outside
        [0, 8, 8, 5, 4],  # degenerate: x2 < x1, y2 < y1
        [1, 6, 6, 6, 6],  # zero size
        [0, 3.3, 4.1, 3.6, 4.2],  # tiny (adaptive sampling -> 1 sample)
        [1.9, 2, 2, 12, 9],  # fractional image id -> image 1
        [2, 2, 2, 12, 9],  # image id == B: skipped
        [-0.5, 2, 2, 12, 9],  # image id floors to -1: skipped
        [0, -1.0, -1.0, 17, 15],  # samples near the -1 / H edges
    ],
    np.float32,
)


@pytest.mark.parametrize("aligned", [False, True])
@pytest.mark.parametrize("ratio", [0, 1, 2, 5])
def test_edge_cases(aligned, ratio):
    rng = np.random.default_rng(7)
    g = rng.standard_normal((len(EDGE_BOXES), 3, 3, 4)).astype(np.float32)
    # the out-of-range ids among them; aligned and adaptive, the zero-size box has no sample
    with pytest.warns(aclnn_emu.AclnnWarning, match="image id outside|have no sample"):
        check_case(g, EDGE_BOXES, (2, 3, 14, 16), 1.0, ratio, aligned)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_boxes_contribute_nothing(bad):
    boxes = np.array([[0, 1, 1, 6, 6], [0, bad, 1, 6, 6], [0, 1, 1, 6, bad], [bad, 1, 1, 6, 6]], np.float32)
    g = np.ones((4, 2, 2, 2), np.float32)
    with pytest.warns(aclnn_emu.AclnnWarning, match="3 box"):
        got = run(g, boxes, (1, 2, 8, 8), 1.0, 2, True)
    only_first = run(g[:1], boxes[:1], (1, 2, 8, 8), 1.0, 2, True)
    np.testing.assert_array_equal(got, only_first)


@fast_path_only
def test_many_samples_closed_form_matches_enumeration():
    # 10**4 samples per bin and axis (10**8 per bin in all): checked against per-axis enumeration.
    boxes = np.array([[0, -20, -10, 30, 25], [0, 2, 3, 2.5, 3.5]], np.float32)
    g = np.random.default_rng(3).standard_normal((2, 2, 3, 3)).astype(np.float32)
    got = run(g, boxes, (1, 2, 12, 16), 1.0, 10**4, False)
    ref = roi_align_backward_separable(g, boxes, (1, 2, 12, 16), 1.0, 10**4, False)
    assert rel_err(got, ref) <= 1e-5


@fast_path_only
def test_large_adaptive_box_matches_enumeration():
    boxes = np.array([[0, -4e4, -3e4, 5e4, 6e4]], np.float32)  # bins of ~1.3e4 px: ~1.3e4 samples per axis
    g = np.random.default_rng(4).standard_normal((1, 1, 7, 7)).astype(np.float32)
    got = run(g, boxes, (1, 1, 20, 24), 1.0, 0, True)
    ref = roi_align_backward_separable(g, boxes, (1, 1, 20, 24), 1.0, 0, True)
    assert rel_err(got, ref) <= 1e-5


@fast_path_only
def test_huge_boxes_and_ratios_take_bounded_time():
    boxes = np.array([[0, -1e9, -1e9, 1e9, 1e9], [0, 0, 0, 10, 10]], np.float32)
    g = np.ones((2, 4, 7, 7), np.float32)
    t0 = time.perf_counter()
    adaptive = run(g, boxes, (1, 4, 32, 32), 1.0, 0, False)
    with pytest.warns(aclnn_emu.AclnnWarning, match="above INT32_MAX; CANN's tiling casts it to int32"):
        fixed = run(g, boxes, (1, 4, 32, 32), 1.0, 2**62, True)
    fixed2 = run(g, boxes, (1, 4, 32, 32), 1.0, 2**31 - 1, True)  # the largest count CANN takes as given
    assert time.perf_counter() - t0 < 5.0
    assert np.all(np.isfinite(adaptive)) and np.all(np.isfinite(fixed)) and np.all(np.isfinite(fixed2))
    # The second box alone is well inside: the first contributes the rest, never more than its grads.
    assert adaptive.sum() <= g.sum() + 1e-3


def test_strided_tensors_and_guard_band():
    rng = np.random.default_rng(11)
    big_g = rng.standard_normal((6, 10, 4, 9)).astype(np.float32)
    g = big_g[::2, 1:8:2, :, 2:7]  # (3, 4, 4, 5), strided
    big_boxes = np.zeros((3, 8), np.float32)
    big_boxes[:, 1:6] = random_boxes(rng, 3, 2, 12, 15, 0.5)
    boxes = big_boxes[:, 1:6]  # row stride 8
    host = np.full((4, 6, 20, 40), -3.0, np.float32)
    out = host[1:3, 1:5, 3:15, 2:32:2]  # (2, 4, 12, 15), x stride 2
    before = host.copy()
    res = run(g, boxes, (2, 4, 12, 15), 0.5, 2, True, out=out)
    assert res is out
    ref = roi_align_backward(np.array(g), np.array(boxes), (2, 4, 12, 15), 0.5, 2, True)
    assert rel_err(out, ref) <= 1e-5
    mask = np.ones(host.shape, bool)
    mask[1:3, 1:5, 3:15, 2:32:2] = False
    np.testing.assert_array_equal(host[mask], before[mask])


def test_wide_planes_in_row_bands_and_box_chunks():
    # A 6 x 60000 plane is updated in bands of rows (1 MiB each), and boxes this wide need more
    # than one chunk of weights: later chunks add to what earlier ones stored, here through
    # x-strided and contiguous gradInputs alike.
    rng = np.random.default_rng(21)
    shape = (1, 2, 6, 60000)
    k = 400  # about 3 * 10**4 x weights a box: two chunks of 2**23
    boxes = np.zeros((k, 5), np.float32)
    boxes[:, 1] = rng.uniform(-5, 100, k)
    boxes[:, 2] = rng.uniform(-1, 3, k)
    boxes[:, 3] = rng.uniform(59000, 60500, k)
    boxes[:, 4] = rng.uniform(3, 8, k)
    g = rng.standard_normal((k, 2, 3, 3)).astype(np.float32)
    ref = roi_align_backward(g, boxes, shape, 1.0, 2, True)
    host = np.full((1, 2, 6, 120000), 7.0, np.float32)
    strided = run(g, boxes, shape, 1.0, 2, True, out=host[..., ::2])
    assert rel_err(strided, ref) <= 1e-5
    np.testing.assert_array_equal(host[..., 1::2], 7.0)
    assert run(g, boxes, shape, 1.0, 2, True).tobytes() == np.ascontiguousarray(strided).tobytes()


def test_grad_input_beyond_the_caches_is_streamed():
    # 36 MB planes leave the kernel through streaming stores, whole or row by row (padded rows).
    rng = np.random.default_rng(22)
    shape = (1, 1, 1500, 6000)
    boxes = random_boxes(rng, 24, 1, 1500, 6000, 1.0)
    g = rng.standard_normal((24, 1, 7, 7)).astype(np.float32)
    ref = roi_align_backward(g, boxes, shape, 1.0, 2, True)
    whole = run(g, boxes, shape, 1.0, 2, True)
    assert rel_err(whole, ref) <= 1e-5
    host = np.full((1, 1, 1500, 6016), 7.0, np.float32)
    padded = run(g, boxes, shape, 1.0, 2, True, out=host[..., :6000])
    np.testing.assert_array_equal(padded, whole)
    np.testing.assert_array_equal(host[..., 6000:], 7.0)


def test_empty_inputs_zero_fill():
    out = np.full((2, 3, 5, 5), 9.0, np.float32)
    run(np.zeros((0, 3, 2, 2), np.float32), np.zeros((0, 5), np.float32), (2, 3, 5, 5), out=out)
    assert not out.any()
    out[...] = 9.0
    run(np.zeros((4, 3, 0, 2), np.float32), np.zeros((4, 5), np.float32), (2, 3, 5, 5), out=out)
    assert not out.any()


def test_deterministic_across_thread_counts(threads):
    rng = np.random.default_rng(5)
    boxes = random_boxes(rng, 200, 2, 40, 50, 0.25)
    g = rng.standard_normal((200, 16, 7, 7)).astype(np.float32)
    outs = []
    for n in (1, 2, 3):
        threads(n)
        outs.append(run(g, boxes, (2, 16, 40, 50), 0.25, 0, True).tobytes())
    assert outs == [outs[0]] * 3


@pytest.mark.skipif(torchvision is None, reason="torchvision is not installed")
@pytest.mark.parametrize("i", range(12))
def test_against_torchvision(i):
    rng = np.random.default_rng(500 + i)
    b, c, h, w = 2, 3, int(rng.integers(8, 40)), int(rng.integers(8, 40))
    k, ph, pw = 10, int(rng.integers(1, 8)), int(rng.integers(1, 8))
    scale, ratio, aligned = [1.0, 0.5, 0.25][i % 3], [0, 2, 1][i % 3], bool(i % 2)
    boxes = random_boxes(rng, k, b, h, w, scale)
    boxes[:3, 1:] -= 0.3 * w / scale  # some boxes partly outside the map
    g = rng.standard_normal((k, c, ph, pw)).astype(np.float32)
    x = torch.zeros((b, c, h, w), dtype=torch.float32, requires_grad=True)
    y = torchvision.ops.roi_align(x, torch.from_numpy(boxes), (ph, pw), scale, ratio, aligned)
    y.backward(torch.from_numpy(g))
    theirs = x.grad.numpy().astype(np.float64)
    ours, ref = check_case(g, boxes, (b, c, h, w), scale, ratio, aligned)
    assert rel_err(theirs, ref) <= 1e-4  # the reference agrees with torchvision (float32 there)
    assert rel_err(ours, theirs) <= 1e-4


def test_strict_mode_rejects_bad_boxes_at_execution(strict):
    boxes = np.array([[0, 1, 1, 5, 5], [0, 1, 1, 5, 5], [0, 1, 1, 5, 5], [3, 1, 1, 5, 5]], np.float32)
    with pytest.raises(AclnnError) as e:
        run(np.ones((4, 1, 2, 2), np.float32), boxes, (2, 1, 8, 8))
    assert e.value.status == 161002
    assert e.value.api == "aclrtSynchronizeStream"
    assert "box 3" in e.value.message and "outside [0, 2)" in e.value.message


# ---- phase-one checks ----------------------------------------------------


def f32(*shape):
    return np.zeros(shape, np.float32)


def phase_one(g, boxes, in_shape, gi, ph=2, pw=2, scale=1.0, ratio=0, fmts=("NCHW", "ND", "NCHW")):
    with (
        aclnn_emu.Tensor(g, format=fmts[0]) as tg,
        aclnn_emu.Tensor(boxes, format=fmts[1]) as tb,
        aclnn_emu.Tensor(gi, format=fmts[2]) as ti,
        aclnn_emu.IntArray(in_shape) as shp,
    ):
        return aclnn_emu.roi_align_v2_backward_get_workspace_size(tg, tb, shp, ph, pw, scale, ratio, False, ti)


OK = (f32(3, 4, 2, 2), f32(3, 5), (2, 4, 8, 8), f32(2, 4, 8, 8))


@pytest.mark.parametrize(
    "change, message",
    [
        ({0: np.zeros((3, 4, 2, 2))}, "gradOutput dtype must be FLOAT, got DOUBLE"),
        ({1: np.zeros((3, 5), np.float16)}, "boxes dtype must be FLOAT (gradOutput's), got FLOAT16"),
        ({3: np.zeros((2, 4, 8, 8), np.int32)}, "gradInput dtype must be FLOAT (gradOutput's), got INT32"),
        ({"fmts": ("NHWC", "ND", "NCHW")}, "gradOutput format must be NCHW, got NHWC"),
        ({"fmts": ("NCHW", "NCHW", "NCHW")}, "boxes format must be ND, got NCHW"),
        ({"fmts": ("NCHW", "ND", "ND")}, "gradInput format must be NCHW, got ND"),
        ({0: f32(3, 4, 2)}, "gradOutput must be 4-D, got 3-D (3,4,2)"),
        ({1: f32(15)}, "boxes must be 2-D, got 1-D (15)"),
        ({1: f32(3, 4)}, "boxes.shape[1] must equal 5 (5), got 4"),
        ({2: (2, 4, 8)}, "inputShape must have 4 values (B, C, H, W), got 3"),
        ({1: f32(2, 5)}, "boxes.shape[0] must equal gradOutput.shape[0] (3), got 2"),
        ({"ph": 3}, "gradOutput.shape[2] must equal pooledHeight (3), got 2"),
        ({"pw": 1}, "gradOutput.shape[3] must equal pooledWidth (1), got 2"),
        ({3: f32(2, 4, 8)}, "gradInput must be 4-D, got 3-D"),
        ({3: f32(2, 5, 8, 8), 2: (2, 5, 8, 8)}, "gradInput.shape[1] must equal gradOutput.shape[1] (4), got 5"),
        ({3: f32(2, 4, 8, 9)}, "gradInput.shape[3] must equal inputShape[3] (8), got 9"),
        ({3: f32(1, 4, 8, 8)}, "gradInput.shape[0] must equal inputShape[0] (2), got 1"),
        ({"ratio": -1}, "samplingRatio must be >= 0, got -1"),
        ({"scale": 0.0}, "spatialScale must be > 0"),
        ({"scale": 1e-40}, "spatialScale must be > 0"),
    ],
)
def test_checks(change, message):
    args = list(OK)
    kw = {}
    for key, v in change.items():
        if isinstance(key, int):
            args[key] = v
        else:
            kw[key] = v
    with pytest.raises(ParamInvalidError) as e:
        phase_one(*args, **kw)
    assert e.value.status == 161002
    assert e.value.message == "aclnnRoiAlignV2BackwardGetWorkspaceSize: " + message or message in e.value.message
    assert message in e.value.message


def test_check_order():
    # dtype (2) is reported before format (3), format before shapes (4), shapes before attributes (6).
    with pytest.raises(ParamInvalidError, match="gradOutput dtype"):
        phase_one(np.zeros((3, 4, 2)), OK[1], OK[2], OK[3], fmts=("ND", "ND", "NCHW"))
    with pytest.raises(ParamInvalidError, match="gradInput format"):
        phase_one(f32(3, 4, 2), OK[1], OK[2], OK[3], fmts=("NCHW", "ND", "ND"))
    with pytest.raises(ParamInvalidError, match="boxes must be 2-D"):
        phase_one(*OK[:1], f32(3), *OK[2:], ratio=-1)


# ---- fidelity to CANN's kernels (its float32 geometry, counts and positions) ---


@pytest.mark.parametrize("width, pooled", [(21, 7), (42, 7), (49, 7), (77, 7), (42, 14), (84, 14), (98, 14), (154, 14)])
def test_adaptive_count_is_cann_910b(width, pooled):
    # width * fl(1/pooled) lands just above an integer: CANN's 910B takes one more sample than torchvision.
    boxes = np.array([[0, 0, 0, width, width]], np.float32)
    g = np.random.default_rng(width).standard_normal((1, 2, pooled, pooled)).astype(np.float32)
    got = run(g, boxes, (1, 2, 160, 160), 1.0, 0, False)
    ref = roi_align_backward(g, boxes, (1, 2, 160, 160), 1.0, 0, False)
    assert rel_err(got, ref) <= 1e-5
    bin_ = np.float32(width) * (np.float32(1) / np.float32(pooled))
    assert math.ceil(float(bin_)) == width // pooled + 1  # the extra sample the test is about
    # torchvision's count (width / pooled exactly) gives a different result.
    tv = roi_align_backward_with_count(g, boxes, (1, 2, 160, 160), width // pooled)
    assert rel_err(tv, ref) > 1e-3


def roi_align_backward_with_count(g, boxes, shape, count):
    return roi_align_backward(g, boxes, shape, 1.0, count, False)


def test_scale_one_third_float32_geometry():
    # fl(1/3) * 63 rounds in float32 to just above 21: geometry in double would differ.
    scale = float(np.float32(1.0) / np.float32(3.0))
    boxes = np.array([[0, 0, 0, 63, 63], [0, 3, 6, 66, 69]], np.float32)
    g = np.random.default_rng(3).standard_normal((2, 3, 7, 7)).astype(np.float32)
    got = run(g, boxes, (1, 3, 32, 32), scale, 0, False)
    assert rel_err(got, roi_align_backward(g, boxes, (1, 3, 32, 32), scale, 0, False)) <= 1e-5


@pytest.mark.parametrize("case", range(300))
def test_random_against_cann_model(case):
    rng = np.random.default_rng(50_000 + case)
    b, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    h, w = int(rng.integers(4, 40)), int(rng.integers(4, 40))
    ph, pw = int(rng.integers(1, 8)), int(rng.integers(1, 8))
    k = int(rng.integers(1, 6))
    scale = float(rng.choice([1.0, 0.5, 0.25, 1 / 3, 0.3, 1 / 7, 0.0625, 2.0]))
    ratio = int(rng.choice([0, 0, 0, 1, 2, 3]))
    aligned = bool(rng.integers(0, 2))
    boxes = random_boxes(rng, k, b, h, w, scale)
    if case % 4 == 0:  # boxes crossing the map's edges
        boxes[:, 1:] += rng.uniform(-0.5, 0.5, (k, 4)).astype(np.float32) * np.array([w, h, w, h]) / scale
    g = rng.standard_normal((k, c, ph, pw)).astype(np.float32)
    with warnings.catch_warnings():  # crossing boxes may end before they start: no sample (warned, as CANN skips)
        warnings.filterwarnings("ignore", "aclnnRoiAlignV2Backward: .* have no sample", aclnn_emu.AclnnWarning)
        got = run(g, boxes, (b, c, h, w), scale, ratio, aligned)
    ref = roi_align_backward(g, boxes, (b, c, h, w), scale, ratio, aligned)
    assert rel_err(got, ref) <= 1e-5


@pytest.mark.parametrize("soc950", [False, True], ids=["Ascend910B1", "Ascend950"])
def test_soc_adaptive_rule_in_a_fresh_process(soc950, tmp_path):
    # The SoC is fixed at aclInit: each runs in its own interpreter.
    script = tmp_path / "soc.py"
    script.write_text(
        "import sys, numpy as np, aclnn_emu as ae\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from reference import roi_align_backward, rel_err\n"
        f"ae.set_soc({'Ascend950' if soc950 else 'Ascend910B1'!r})\n"
        "boxes = np.array([[0, 0, 0, 21, 21], [0.7, 2, 3, 30, 29]], np.float32)\n"
        "g = np.random.default_rng(1).standard_normal((2, 2, 7, 7)).astype(np.float32)\n"
        "got = ae.roi_align_v2_backward(g, boxes, (1, 2, 40, 40), sampling_ratio=0)\n"
        f"ref = roi_align_backward(g, boxes, (1, 2, 40, 40), 1.0, 0, False, soc950={soc950})\n"
        "other = roi_align_backward(g, boxes, (1, 2, 40, 40), 1.0, 0, False, soc950=" + str(not soc950) + ")\n"
        "print(ae.soc_name(), rel_err(got, ref), rel_err(got, other))\n"
    )
    import subprocess
    import sys

    tests = Path(__file__).resolve().parents[4] / "tests"  # reference.py
    r = subprocess.run([sys.executable, str(script), str(tests)], capture_output=True, text=True,
                       timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr
    name, err, other = r.stdout.split()
    assert name == ("Ascend950" if soc950 else "Ascend910B1")
    assert float(err) <= 1e-5 and float(other) > 1e-3


def test_sampling_ratio_above_int32_max():
    boxes = np.array([[0, 1, 1, 9, 9]], np.float32)
    g = np.ones((1, 1, 2, 2), np.float32)
    ratio = 2**32 + 3  # the int32 cast gives 3 samples, the reciprocal comes from the int64 value
    with pytest.warns(aclnn_emu.AclnnWarning, match=r"above INT32_MAX; CANN's tiling casts it to int32 \(3 samples"):
        got = run(g, boxes, (1, 1, 12, 12), 1.0, ratio, False)
    ref = roi_align_backward(g, boxes, (1, 1, 12, 12), 1.0, ratio, False)
    assert rel_err(got, ref) <= 1e-5


def test_sampling_ratio_above_int32_max_is_an_error_in_strict_mode(strict):
    with pytest.raises(ParamInvalidError, match=r"samplingRatio 4294967299 is above INT32_MAX.*\(strict mode\)"):
        run(np.ones((1, 1, 2, 2), np.float32), np.array([[0, 1, 1, 9, 9]], np.float32), (1, 1, 12, 12), 1.0,
            2**32 + 3, False)  # fmt: skip


def test_nan_spatial_scale_warns_and_skips():
    boxes = np.array([[0, 1, 1, 9, 9]], np.float32)
    with pytest.warns(aclnn_emu.AclnnWarning) as record:
        got = run(np.ones((1, 1, 2, 2), np.float32), boxes, (1, 1, 12, 12), float("nan"), 0, False)
    messages = " ".join(str(w.message) for w in record)
    assert "spatialScale is NaN; CANN accepts it" in messages and "are skipped" in messages
    assert not got.any()


def test_empty_grad_input_with_boxes_is_cann_inner_nullptr():
    with pytest.raises(aclnn_emu.InnerError) as e:
        run(np.ones((1, 1, 2, 2), np.float32), np.array([[0, 1, 1, 5, 5]], np.float32), (1, 1, 0, 8), 1.0, 0, False)
    assert e.value.status == 561103 and "ROIAlignGrad tiling rejects dims <= 0" in e.value.message


def test_empty_grad_output_zero_fills_any_grad_input():
    out = run(np.ones((0, 2, 2, 2), np.float32), np.zeros((0, 5), np.float32), (1, 2, 4, 4), 1.0, 0, False)
    assert out.shape == (1, 2, 4, 4) and not out.any()


def test_workspace_size_is_reported():
    with (
        aclnn_emu.Tensor(np.ones((1, 1, 2, 2), np.float32), format="NCHW") as tg,
        aclnn_emu.Tensor(np.array([[0, 1, 1, 5, 5]], np.float32)) as tb,
        aclnn_emu.Tensor(np.zeros((1, 20, 8, 8), np.float32)[:, :1], format="NCHW") as ti,
        aclnn_emu.IntArray((1, 1, 8, 8)) as shape,
    ):
        ws, ex = aclnn_emu.roi_align_v2_backward_get_workspace_size(tg, tb, shape, 2, 2, 1.0, 0, False, ti)
        ex.close()
    c1 = 1
    expect = (
        math.ceil(1 * c1 * 2 * 2 * 16 * 4 / 512) * 512  # gradOutput in NC1HWC0
        + math.ceil(1 * c1 * 8 * 8 * 16 * 4 / 512) * 512  # the kernel's NC1HWC0 result
        + math.ceil(1 * 1 * 8 * 8 * 4 / 512) * 512  # back to NCHW
        + 1 * 1024  # the kernel's workspace, one core
    )
    assert ws == expect
