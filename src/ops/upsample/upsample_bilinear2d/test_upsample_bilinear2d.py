"""aclnnUpsampleBilinear2d against a float32 model of CANN's kernels, PyTorch, the backward, and its checks."""

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ParamInvalidError, ParamNullptrError

from reference import cann_upsample_forward_plan, upsample_bilinear2d_forward

try:
    import ml_dtypes
except ImportError:  # pragma: no cover
    ml_dtypes = None

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def dtypes():
    out = [np.float32, np.float16]
    if ml_dtypes is not None:
        out.append(ml_dtypes.bfloat16)
    return out


def run(x, out_hw, align=False, sh=0.0, sw=0.0, fmt="NCHW", **kw):
    return aclnn_emu.upsample_bilinear2d(x, out_hw, align, sh, sw, format=fmt, **kw)


def random_case(rng, i):
    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    h, w = rng.integers(1, 200, 2) if i % 4 == 0 else rng.integers(1, 30, 2)
    oh, ow = rng.integers(1, 200, 2) if i % 4 == 1 else rng.integers(1, 30, 2)
    kind = i % 3  # 0: no scales, 1: scales that reproduce the sizes, 2: scales that do not
    sh = sw = 0.0
    if kind == 1:
        sh, sw = (float(v) for v in rng.uniform(0.3, 3.0, 2))
        oh, ow = max(1, int(h * sh)), max(1, int(w * sw))
    elif kind == 2:
        sh, sw = (float(v) for v in rng.uniform(0.3, 3.0, 2))
    return n, c, int(h), int(w), int(oh), int(ow), bool(i % 2), sh, sw


@pytest.mark.parametrize("i", range(30))
def test_random_nchw_is_bit_exact(i):
    rng = np.random.default_rng(500 + i)
    n, c, h, w, oh, ow, align, sh, sw = random_case(rng, i)
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    out = run(x, (oh, ow), align, sh, sw)
    ref = upsample_bilinear2d_forward(x, (oh, ow), align, sh, sw)
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("i", range(12))
def test_random_nhwc_is_bit_exact(i):
    rng = np.random.default_rng(700 + i)
    n, c, h, w, oh, ow, align, sh, sw = random_case(rng, i)
    x = rng.standard_normal((n, h, w, c)).astype(np.float32)
    out = run(x, (oh, ow), align, sh, sw, "NHWC")
    assert out.shape == (n, oh, ow, c)
    ref = upsample_bilinear2d_forward(x.transpose(0, 3, 1, 2), (oh, ow), align, sh, sw, nhwc=True)
    np.testing.assert_array_equal(out.transpose(0, 3, 1, 2), ref)


def test_paths_are_the_ones_cann_takes():
    plan = cann_upsample_forward_plan
    assert plan((4, 4), (8, 8), False, 2.0, 2.0, np.float32)[0] == "resize"  # (2, 2) goes to ResizeBilinearV2
    assert plan((4, 4), (12, 12), False, 3.0, 3.0, np.float32)[0] == "upsample"
    assert plan((4, 4), (12, 12), False, 3.0, 2.0, np.float32)[0] == "resize"  # scales do not reproduce W
    assert plan((5, 5), (5, 5), False, 1.0, 1.0, np.float32)[0] == "copy"
    assert plan((100, 4), (1, 4), False, 0.01, 1.0, np.float32)[0] == "resize"  # shrink beyond 50x
    assert plan((4, 4), (12, 12), False, 3.0, 3.0, np.float64, nhwc=True)[0] == "resize"


def test_scales_that_reproduce_the_sizes_are_used():
    # 1 / 2.9 is not 5 / 14: CANN's AscendC kernel steps by the scale, PyTorch does too.
    x = np.arange(5 * 5, dtype=np.float32).reshape(1, 1, 5, 5)
    with_scale = run(x, (14, 14), False, 2.9, 2.9)
    by_size = run(x, (14, 14), False)
    assert not np.array_equal(with_scale, by_size)
    np.testing.assert_array_equal(with_scale, upsample_bilinear2d_forward(x, (14, 14), False, 2.9, 2.9))


def test_align_corners_example():
    x = np.array([[[[0.0, 1.0], [2.0, 3.0]]]], np.float32)
    out = run(x, (3, 3), True)
    np.testing.assert_array_equal(out[0, 0], [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]])


@pytest.mark.parametrize("dtype", dtypes()[1:], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("w", [7, 17, 32])
def test_half_types_round_once_to_nearest_even(rng, dtype, w):
    # Computed in float32 and rounded once: equals the float32 result rounded (rows of 17 and 32 elements
    # take the vectorised conversions).
    x = rng.standard_normal((2, 3, 6, w)).astype(dtype)
    out = run(x, (11, 2 * w - 1))
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(out, run(x.astype(np.float32), (11, 2 * w - 1)).astype(dtype))
    xt = rng.standard_normal((2, 6, w, 8)).astype(dtype)  # NHWC, W*C >= 8
    out = run(xt, (5, w + 3), fmt="NHWC")
    np.testing.assert_array_equal(out, run(xt.astype(np.float32), (5, w + 3), fmt="NHWC").astype(dtype))


def test_strided_views_never_write_outside_the_output(rng):
    big = rng.standard_normal((2, 6, 40, 50)).astype(np.float32)
    x = big[:, ::2, 3:33, 5:45:2]  # non-contiguous, offset view (2, 3, 30, 20)
    host = np.full((3, 5, 30, 40), 7.0, np.float32)
    out = host[1:3, 1:4, 2:27:2, 5:37:3]  # (2, 3, 13, 11) strided view
    sentinel = host.copy()
    res = run(x, (13, 11), True, out=out)
    assert res is out
    np.testing.assert_array_equal(out, upsample_bilinear2d_forward(np.array(x), (13, 11), True, 0.0, 0.0))
    mask = np.ones(host.shape, bool)
    mask[1:3, 1:4, 2:27:2, 5:37:3] = False
    np.testing.assert_array_equal(host[mask], sentinel[mask])
    xh = big[..., ::3].transpose(0, 2, 3, 1)  # NHWC with a channel stride
    np.testing.assert_array_equal(
        run(xh, (9, 4), fmt="NHWC").transpose(0, 3, 1, 2),
        upsample_bilinear2d_forward(np.array(xh).transpose(0, 3, 1, 2), (9, 4), False, 0.0, 0.0, nhwc=True),
    )


def test_equal_sizes_copy_the_input_bit_for_bit(rng):
    x = rng.standard_normal((2, 3, 9, 7)).astype(np.float32)
    x[0, 0, 0, 0] = np.inf
    for align in (False, True):
        np.testing.assert_array_equal(run(x, (9, 7), align, 1.0, 1.0), x)
        np.testing.assert_array_equal(run(x, (9, 7), align), x)


def test_double_runs_in_nhwc_and_is_refused_in_nchw(rng):
    x = rng.standard_normal((1, 5, 6, 3))
    out = run(x, (9, 4), fmt="NHWC")
    assert out.dtype == np.float64
    ref = upsample_bilinear2d_forward(x.transpose(0, 3, 1, 2), (9, 4), False, 0.0, 0.0, np.float64, nhwc=True)
    np.testing.assert_allclose(out.transpose(0, 3, 1, 2), ref, rtol=1e-6, atol=1e-6)
    with pytest.raises(ParamInvalidError, match="DOUBLE is supported only in NHWC"):
        run(x.transpose(0, 3, 1, 2).copy(), (9, 4))


def test_deterministic_across_thread_counts(threads, rng):
    x = rng.standard_normal((3, 5, 33, 47)).astype(np.float32)
    results = []
    for n in (1, 2, 3):
        threads(n)
        results.append(run(x, (70, 29)).tobytes())
    assert len(set(results)) == 1


@pytest.mark.parametrize("i", range(12))
def test_adjoint_of_the_backward(i):
    """<F(x), g> == <x, B(g)> with B = aclnnUpsampleBilinear2dBackwardV2 on the same sizes."""
    rng = np.random.default_rng(900 + i)
    n, c, h, w, oh, ow, align, sh, sw = random_case(rng, i)  # with scales the two ops choose the same ratio here
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    g = rng.standard_normal((n, c, oh, ow)).astype(np.float32)
    fx = run(x, (oh, ow), align, sh, sw).astype(np.float64)
    bg = aclnn_emu.upsample_bilinear2d_backward_v2(g, (oh, ow), (n, c, h, w), align, sh, sw).astype(np.float64)
    lhs, rhs = float((fx * g).sum()), float((x * bg).sum())
    assert abs(lhs - rhs) <= 1e-4 * max(1.0, abs(lhs))


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
@pytest.mark.parametrize("i", range(16))
def test_against_pytorch(i):
    """Where CANN agrees with PyTorch: sizes only (CANN uses the scales in fewer cases)."""
    rng = np.random.default_rng(1300 + i)
    n, c, h, w, oh, ow, align, _, _ = random_case(rng, i)
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    ref = torch.nn.functional.interpolate(torch.from_numpy(x), size=(oh, ow), mode="bilinear", align_corners=align)
    np.testing.assert_allclose(run(x, (oh, ow), align), ref.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
def test_pytorch_disagrees_when_scales_do_not_reproduce_the_sizes():
    # PyTorch steps by 1 / scale_factor; CANN falls back to the sizes' ratio when int(H * s) != outH.
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    t = torch.ops.aten.upsample_bilinear2d(torch.from_numpy(x), [9, 9], False, 2.0, 2.0).numpy()
    ours = run(x, (9, 9), False, 2.0, 2.0)
    np.testing.assert_allclose(ours, run(x, (9, 9)), rtol=0, atol=0)
    assert not np.allclose(ours, t)


# ---- phase-one checks: status code and message, in CANN's order ----------


def f32(*shape):
    return np.zeros(shape, np.float32)


def call(x, out_size, out, align=False, sh=0.0, sw=0.0, fmt="NCHW", out_fmt=None):
    """Phase one through the handle API (returns the executor on success)."""
    with (
        aclnn_emu.Tensor(x, format=fmt) as tx,
        aclnn_emu.Tensor(out, format=out_fmt or fmt) as to,
        aclnn_emu.IntArray(out_size) as osz,
    ):
        return aclnn_emu.upsample_bilinear2d_get_workspace_size(tx, osz, align, sh, sw, to)


@pytest.mark.parametrize(
    "args, kw, message",
    [
        ((np.zeros((1, 1, 2, 2), np.int32), (4, 4), np.zeros((1, 1, 4, 4), np.int32)), {},
         "self dtype must be FLOAT16, FLOAT, DOUBLE or BF16, got INT32"),
        ((f32(1, 1, 2, 2), (4, 4), np.zeros((1, 1, 4, 4), np.float16)), {},
         "out dtype must be FLOAT (self's), got FLOAT16"),
        ((f32(1, 1, 2, 2), (4, 4), f32(1, 4, 4, 1)), {"out_fmt": "NHWC"}, "self and out must have the same format"),
        ((f32(1, 2, 2), (4, 4), f32(1, 4, 4)), {"fmt": "ND"}, "self format must be NCHW or NHWC, got ND"),
        ((f32(1, 1, 2), (4, 4), f32(1, 1, 4, 4)), {}, "self must be 4-D"),
        ((f32(1, 1, 2, 2), (4, 4), f32(1, 1, 4)), {}, "out must be 4-D"),
        ((f32(1, 1, 2, 2), (4, 4), f32(2, 1, 4, 4)), {}, "out.shape[0] must equal self.shape[0] (1), got 2"),
        ((f32(1, 1, 2, 2), (4, 4), f32(1, 3, 4, 4)), {}, "out.shape[1] must equal self.shape[1] (1), got 3"),
        ((f32(1, 2, 2, 3), (4, 4), f32(1, 4, 4, 2)), {"fmt": "NHWC"},
         "out.shape[3] must equal self.shape[3] (3), got 2"),
        ((f32(1, 1, 2, 2), (4, 4), f32(1, 1, 4, 4)), {"sh": -1.0}, "scalesH and scalesW cannot be negative"),
        ((f32(1, 1, 2, 2), (4, 4, 1), f32(1, 1, 4, 4)), {}, "outputSize must have 2 values, got 3"),
        ((f32(1, 1, 2, 2), (4, 5), f32(1, 1, 4, 4)), {}, "out.shape[3] must equal outputSize[1] (5), got 4"),
        ((f32(1, 2, 2, 1), (3, 4), f32(1, 4, 4, 1)), {"fmt": "NHWC"},
         "out.shape[1] must equal outputSize[0] (3), got 4"),
    ],
)  # fmt: skip
def test_checks(args, kw, message):
    with pytest.raises(ParamInvalidError) as e:
        call(*args, **kw)
    assert e.value.status == 161002
    assert message in e.value.message
    assert e.value.message.startswith("aclnnUpsampleBilinear2dGetWorkspaceSize: ")


def test_check_order_as_cann():
    # dtype (check 2) before format (check 4); format before N/C (5); scales (6) before outputSize (7).
    with pytest.raises(ParamInvalidError, match="self dtype"):
        call(np.zeros((1, 2, 2), np.int32), (4, 4), f32(1, 4, 4), fmt="ND")
    with pytest.raises(ParamInvalidError, match="same format"):
        call(f32(1, 1, 2, 2), (4, 4), f32(2, 1, 4, 4), out_fmt="NHWC")
    with pytest.raises(ParamInvalidError, match="cannot be negative"):
        call(f32(1, 1, 2, 2), (4, 4, 4), f32(1, 1, 4, 4), sw=-2.0)


def test_empty_tensors_need_no_workspace():
    ws, ex = call(f32(0, 3, 4, 4), (2, 2), f32(0, 3, 2, 2))
    assert ws == 0
    ex.close()
    assert run(f32(2, 0, 4, 4), (2, 2)).shape == (2, 0, 2, 2)


def test_workspace_is_reported_and_required():
    ws, ex = call(f32(1, 1, 4, 4), (12, 12), f32(1, 1, 12, 12), sh=3.0, sw=3.0)  # the AscendC kernel
    assert ws > 32 << 20  # its tiling's fixed 32 MiB and intermediate
    with pytest.raises(ParamNullptrError, match="workspace is NULL but phase one asked for"):
        ex.run()
    ws, ex = call(f32(1, 1, 4, 4), (8, 8), f32(1, 1, 8, 8))  # ResizeBilinearV2 through NC1HWC0
    assert 0 < ws < 32 << 20
    ex.close()


def test_overlapping_output_rejected():
    base = np.zeros(8, np.float32)
    out = np.lib.stride_tricks.as_strided(base, (1, 1, 4, 4), (0, 0, 0, 4))
    with pytest.raises(ParamInvalidError, match="out has overlapping strides"):
        call(f32(1, 1, 2, 2), (4, 4), out)


@pytest.mark.parametrize("factor", [2, 3, 4, 8])
@pytest.mark.parametrize("align", [False, True])
def test_integer_factors_are_bit_exact(factor, align, rng):
    # Integer upscaling takes the kernel's periodic W pass (no gathers) on most of each row.
    x = rng.standard_normal((2, 3, 9, 40)).astype(np.float32)
    out = run(x, (9 * factor, 40 * factor), align)
    np.testing.assert_array_equal(out, upsample_bilinear2d_forward(x, (9 * factor, 40 * factor), align, 0.0, 0.0))
    out = run(x, (9 * factor, 40 * factor), align, float(factor), float(factor))
    np.testing.assert_array_equal(
        out, upsample_bilinear2d_forward(x, (9 * factor, 40 * factor), align, float(factor), float(factor))
    )


@pytest.mark.parametrize("factor", [2, 3, 4, 8])
@pytest.mark.parametrize("align", [False, True])
def test_integer_downscales_are_bit_exact(factor, align, rng):
    # Integer downscaling by 2, 4 or 8 reads the input at a constant stride (no gathers).
    x = rng.standard_normal((2, 3, 9 * factor, 40 * factor + 5)).astype(np.float32)
    for ow in (40, 40 * factor + 5 - 5 * factor):
        out = run(x, (9, ow), align)
        np.testing.assert_array_equal(out, upsample_bilinear2d_forward(x, (9, ow), align, 0.0, 0.0))
    x = x[..., : 40 * factor]
    out = run(x, (9, 40), align, 1.0 / factor, 1.0 / factor)
    np.testing.assert_array_equal(out, upsample_bilinear2d_forward(x, (9, 40), align, 1.0 / factor, 1.0 / factor))


def test_large_outputs_take_streaming_stores_and_stay_bit_exact(rng):
    # Outputs beyond 32 MiB are written with streaming stores (AVX2 machines): the same bits.
    x = rng.standard_normal((2, 4, 512, 550)).astype(np.float32)
    out = run(x, (1024, 1100))
    assert out.nbytes > 32 << 20
    np.testing.assert_array_equal(out, upsample_bilinear2d_forward(x, (1024, 1100), False, 0.0, 0.0))


@pytest.mark.parametrize("offset", [1, 4, 15])
def test_large_outputs_off_the_cache_lines_keep_their_neighbours(offset, rng):
    # out= starting `offset` floats into a cache line (numpy's large arrays start 4 in): rows of 32 lines
    # stream, each row's partial lines at either end going through the cache. The values are the
    # reference's and nothing outside the view is written.
    x = rng.standard_normal((2, 16, 256, 256)).astype(np.float32)
    buf = np.full(2 * 16 * 512 * 512 + 64, 7.0, np.float32)
    start = (-buf.ctypes.data // 4) % 16 + offset
    view = buf[start : start + 2 * 16 * 512 * 512].reshape(2, 16, 512, 512)
    assert view.nbytes >= 32 << 20 and view.ctypes.data % 64 == offset * 4
    run(x, (512, 512), out=view)
    np.testing.assert_array_equal(view, upsample_bilinear2d_forward(x, (512, 512), False, 0.0, 0.0))
    np.testing.assert_array_equal(buf[:start], 7.0)
    np.testing.assert_array_equal(buf[start + view.size :], 7.0)


@pytest.mark.parametrize("scale", [1e12, 1e300, float("inf"), float("nan"), 1e-11])
def test_extreme_scales_fall_back_to_the_sizes(scale, rng):
    # int(H * scale) beyond int64 is undefined in C; here it never reproduces the size (found by the fuzzer).
    x = rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
    np.testing.assert_array_equal(run(x, (7, 9), False, scale, scale), run(x, (7, 9)))
