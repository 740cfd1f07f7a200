"""aclnnUpsampleBilinear2dBackward (V1) against the reference, and V1's own checks and paths (CANN's V1 op_api)."""

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ParamInvalidError, ParamNullptrError

from reference import rel_err, upsample_bilinear2d_backward

try:
    import ml_dtypes
except ImportError:  # pragma: no cover
    ml_dtypes = None


def run(g, in_size, align=False, sh=0.0, sw=0.0, fmt="NCHW", **kw):
    oh, ow = (g.shape[1], g.shape[2]) if fmt == "NHWC" else g.shape[2:]
    return aclnn_emu.upsample_bilinear2d_backward(g, (oh, ow), in_size, align, sh, sw, format=fmt, **kw)


@pytest.mark.parametrize("i", range(16))
@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
def test_random_cases_ignore_the_scales(i, dtype):
    """Atlas A2 runs ResizeBilinearV2Grad: the sizes' ratio, whatever scales are passed."""
    rng = np.random.default_rng(2000 + i)
    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    h, w, oh, ow = (int(v) for v in rng.integers(1, 40, 4))
    align = bool(i % 2)
    sh, sw = (float(v) for v in rng.uniform(0.3, 3.0, 2))
    g = rng.standard_normal((n, c, oh, ow)).astype(dtype)
    out = run(g, (n, c, h, w), align, sh, sw)
    assert out.dtype == np.dtype(dtype)
    if (oh, ow) == (h, w):
        np.testing.assert_array_equal(out, g)
        return
    ref = upsample_bilinear2d_backward(g.astype(np.float64), (h, w), align, 0.0, 0.0)
    assert rel_err(out.astype(np.float64), ref) <= (1e-5 if dtype == np.float32 else 2e-3)


def test_scales_that_v2_would_use_are_not_used():
    g = np.arange(14 * 14, dtype=np.float32).reshape(1, 1, 14, 14)
    v1 = run(g, (1, 1, 5, 5), False, 2.9, 2.9)
    v2_scaled = aclnn_emu.upsample_bilinear2d_backward_v2(g, (14, 14), (1, 1, 5, 5), False, 2.9, 2.9)
    v2_sizes = aclnn_emu.upsample_bilinear2d_backward_v2(g, (14, 14), (1, 1, 5, 5), False)
    assert not np.allclose(v2_scaled, v2_sizes)
    assert rel_err(v1, upsample_bilinear2d_backward(g.astype(np.float64), (5, 5), False, 0.0, 0.0)) <= 1e-5


def test_nhwc(rng):
    g = rng.standard_normal((2, 9, 11, 3)).astype(np.float32)
    out = run(g, (2, 4, 5, 3), True, fmt="NHWC")
    ref = upsample_bilinear2d_backward(g.astype(np.float64).transpose(0, 3, 1, 2), (4, 5), True, 0.0, 0.0)
    assert rel_err(out.transpose(0, 3, 1, 2), ref) <= 1e-5


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.int8, np.uint8, np.int64])
def test_equal_sizes_copy_any_dtype_unchanged(rng, dtype):
    # No Cast to FLOAT on V1's equal-size path: values beyond float32's precision survive.
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    g = (rng.integers(info.min, info.max, (2, 3, 4, 5), dtype=dtype) if info else
         rng.standard_normal((2, 3, 4, 5)) * 1e300)  # fmt: skip
    np.testing.assert_array_equal(run(g, (2, 3, 4, 5)), g)
    big = np.full((1, 1, 3, 3), 16777217, np.int32)
    np.testing.assert_array_equal(run(big, (1, 1, 3, 3)), big)


def test_strided_views_never_write_outside_the_output(rng):
    big = rng.standard_normal((2, 6, 40, 50)).astype(np.float32)
    g = big[:, ::2, 3:33, 5:45:2]
    host = np.full((3, 5, 30, 40), 7.0, np.float32)
    out = host[1:3, 1:4, 2:27:2, 5:37:3]
    sentinel = host.copy()
    assert run(g, (2, 3, 13, 11), True, out=out) is out
    assert rel_err(out, upsample_bilinear2d_backward(np.array(g, np.float64), (13, 11), True, 0.0, 0.0)) <= 1e-5
    mask = np.ones(host.shape, bool)
    mask[1:3, 1:4, 2:27:2, 5:37:3] = False
    np.testing.assert_array_equal(host[mask], sentinel[mask])


# ---- phase-one checks: status code and message, in CANN's V1 order --------


def f32(*shape):
    return np.zeros(shape, np.float32)


def call(g, out_size, in_size, out, fmt="NCHW", out_fmt=None):
    with (
        aclnn_emu.Tensor(g, format=fmt) as tg,
        aclnn_emu.Tensor(out, format=out_fmt or fmt) as to,
        aclnn_emu.IntArray(out_size) as osz,
        aclnn_emu.IntArray(in_size) as isz,
    ):
        return aclnn_emu.upsample_bilinear2d_backward_get_workspace_size(tg, osz, isz, False, 0.0, 0.0, to)


@pytest.mark.parametrize(
    "args, message",
    [
        ((f32(1, 1, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2)), "gradOut must be 4-D"),
        ((f32(1, 1, 4, 4), (4, 4, 1), (1, 1, 2, 2), f32(1, 1, 2, 2)), "outputSize must have 2 values, got 3"),
        ((f32(1, 1, 4, 4), (4, 4), (1, 2, 2), f32(1, 1, 2, 2)), "inputSize must have 4 values, got 3"),
        ((f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2)), "out must be 4-D"),
        ((f32(1, 1, 4, 4), (4, 0), (1, 1, 2, 2), f32(1, 1, 2, 2)), "must be > 0"),
        ((f32(1, 1, 4, 5), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2)), "gradOut.shape[3] must equal"),
        ((f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 3, 2)), "out.shape[2] must equal inputSize (2), got 3"),
        ((f32(1, 1, 4, 4).astype(np.float64), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2).astype(np.float64)),
         "gradOut dtype must be FLOAT16 or FLOAT, got DOUBLE"),
        ((f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), np.zeros((1, 1, 2, 2), np.float16)),
         "out dtype must be FLOAT (gradOut's), got FLOAT16"),
    ],
)  # fmt: skip
def test_checks(args, message):
    with pytest.raises(ParamInvalidError) as e:
        call(*args)
    assert e.value.status == 161002
    assert message in e.value.message
    assert e.value.message.startswith("aclnnUpsampleBilinear2dBackwardGetWorkspaceSize: ")


@pytest.mark.skipif(ml_dtypes is None, reason="ml_dtypes is not installed")
def test_bf16_is_refused_when_sizes_differ_and_copied_when_equal():
    g = np.ones((1, 1, 4, 4), ml_dtypes.bfloat16)
    with pytest.raises(ParamInvalidError, match="gradOut dtype must be FLOAT16 or FLOAT, got BF16"):
        run(g, (1, 1, 2, 2))
    np.testing.assert_array_equal(run(g, (1, 1, 4, 4)), g)


def test_shape_is_checked_before_dtype_and_in_outs_format():
    # CheckShape (2) before the dtype (3): a DOUBLE gradOut with a wrong shape reports the shape.
    with pytest.raises(ParamInvalidError, match="gradOut.shape"):
        call(np.zeros((1, 1, 3, 4)), (4, 4), (1, 1, 2, 2), np.zeros((1, 1, 2, 2)))
    # The layout of CheckShape is out's: an NHWC out makes an NCHW-shaped gradOut wrong.
    with pytest.raises(ParamInvalidError, match=r"gradOut.shape\[1\] must equal"):
        call(f32(1, 3, 4, 4), (4, 4), (1, 3, 2, 2), f32(1, 3, 2, 2), out_fmt="NHWC")


def test_gradout_format_must_be_nchw_or_nhwc():
    with pytest.raises(ParamInvalidError, match="gradOut format must be NCHW or NHWC, got ND"):
        call(f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2), fmt="ND", out_fmt="NCHW")


def test_workspace():
    ws, ex = call(f32(0, 1, 4, 4), (4, 4), (0, 1, 2, 2), f32(0, 1, 2, 2))
    assert ws == 0  # an empty gradOut returns first
    ex.close()
    ws, ex = call(f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2))
    assert ws > 0
    with pytest.raises(ParamNullptrError, match="workspace is NULL but phase one asked for"):
        ex.run()
