"""aclnnUpsampleBilinear2dBackwardV2 against the float64 reference, PyTorch, and its checks."""

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ParamInvalidError, ParamNullptrError, ffi, lib

from reference import rel_err, upsample_bilinear2d_backward

try:
    import ml_dtypes
except ImportError:  # pragma: no cover
    ml_dtypes = None

TOL = {"float32": 1e-5, "float16": 2e-3, "bfloat16": 1.6e-2}


def dtypes():
    out = [np.float32, np.float16]
    if ml_dtypes is not None:
        out.append(ml_dtypes.bfloat16)
    return out


def run_nchw(g, in_hw, align, sh=0.0, sw=0.0, **kw):
    n, c, oh, ow = g.shape
    return aclnn_emu.upsample_bilinear2d_backward_v2(g, (oh, ow), (n, c) + tuple(in_hw), align, sh, sw, **kw)


def test_seed_example():
    g = np.ones((1, 1, 6, 6), np.float32)
    out = run_nchw(g, (3, 3), True, 2.0, 2.0)
    ref = upsample_bilinear2d_backward(g, (3, 3), True, 2.0, 2.0)
    assert out.shape == (1, 1, 3, 3)
    assert abs(float(out.sum(dtype=np.float64)) - 36.0) < 1e-4
    assert rel_err(out, ref) <= 1e-5
    assert np.all(out > 0)  # every input pixel receives its share


def test_identity_is_exact(rng):
    g = rng.standard_normal((2, 3, 17, 9)).astype(np.float32)
    for align in (False, True):
        np.testing.assert_array_equal(run_nchw(g, (17, 9), align), g)


def random_case(rng, i):
    n, c = rng.integers(1, 3), rng.integers(1, 4)
    # Every fourth case has large inputs, the next large outputs (sizes up to 300).
    h, w = rng.integers(1, 300, 2) if i % 4 == 0 else rng.integers(1, 40, 2)
    oh, ow = rng.integers(1, 300, 2) if i % 4 == 1 else rng.integers(1, 40, 2)
    align = bool(i % 2)
    kind = i % 3  # 0: no scales, 1: usable scales, 2: scales that must be rejected
    if kind == 1:
        sh, sw = rng.uniform(0.3, 3.0, 2)
        oh, ow = max(1, int(np.floor(h * sh))), max(1, int(np.floor(w * sw)))
        if oh != np.floor(h * sh) or ow != np.floor(w * sw):
            sh = sw = 0.0
    elif kind == 2:
        sh, sw = rng.uniform(0.3, 3.0, 2)
    else:
        sh = sw = 0.0
    return int(n), int(c), int(h), int(w), int(oh), int(ow), align, float(sh), float(sw)


@pytest.mark.parametrize("i", range(24))
@pytest.mark.parametrize("dtype", dtypes(), ids=lambda d: np.dtype(d).name)
def test_random_nchw(rng, i, dtype):
    rng = np.random.default_rng(1000 + i)
    n, c, h, w, oh, ow, align, sh, sw = random_case(rng, i)
    g = rng.standard_normal((n, c, oh, ow)).astype(dtype)
    out = run_nchw(g, (h, w), align, sh, sw)
    assert out.dtype == np.dtype(dtype)
    ref = upsample_bilinear2d_backward(g.astype(np.float64), (h, w), align, sh, sw)
    assert rel_err(out.astype(np.float64), ref) <= TOL[np.dtype(dtype).name]


@pytest.mark.parametrize("i", range(12))
@pytest.mark.parametrize("dtype", dtypes(), ids=lambda d: np.dtype(d).name)
def test_random_nhwc(i, dtype):
    rng = np.random.default_rng(2000 + i)
    n, c, h, w, oh, ow, align, sh, sw = random_case(rng, i)
    g_nchw = rng.standard_normal((n, c, oh, ow)).astype(dtype)
    g = np.ascontiguousarray(g_nchw.transpose(0, 2, 3, 1))
    out = aclnn_emu.upsample_bilinear2d_backward_v2(g, (oh, ow), (n, h, w, c), align, sh, sw, format="NHWC")
    assert out.shape == (n, h, w, c)
    ref = upsample_bilinear2d_backward(g_nchw.astype(np.float64), (h, w), align, sh, sw)
    assert rel_err(out.transpose(0, 3, 1, 2).astype(np.float64), ref) <= TOL[np.dtype(dtype).name]


@pytest.mark.parametrize("factor", [2, 3, 4, 8])
@pytest.mark.parametrize("align", [False, True])
def test_integer_upscale_factors(factor, align):
    # Integer factors take the kernel's polyphase path; sizes make the affine run start and end inside the row.
    rng = np.random.default_rng(factor)
    h, w = 9, 13
    g = rng.standard_normal((2, 3, h * factor, w * factor)).astype(np.float32)
    for sh, sw in [(0.0, 0.0), (float(factor), float(factor))]:
        out = run_nchw(g, (h, w), align, sh, sw)
        ref = upsample_bilinear2d_backward(g.astype(np.float64), (h, w), align, sh, sw)
        assert rel_err(out, ref) <= 1e-5


def test_fp16_rounds_once_to_nearest_even(rng):
    # fp32 accumulation rounded once: equals the fp32 result rounded to fp16.
    g = rng.standard_normal((1, 2, 12, 10)).astype(np.float16)
    out16 = run_nchw(g, (5, 7), False)
    out32 = run_nchw(g.astype(np.float32), (5, 7), False)
    np.testing.assert_array_equal(out16, out32.astype(np.float16))
    if ml_dtypes is not None:
        gb = g.astype(ml_dtypes.bfloat16)
        outb = run_nchw(gb, (5, 7), False)
        np.testing.assert_array_equal(outb, run_nchw(gb.astype(np.float32), (5, 7), False).astype(ml_dtypes.bfloat16))


def test_strided_input_and_output_never_writes_outside_view(rng):
    big = rng.standard_normal((2, 6, 40, 50)).astype(np.float32)
    g = big[:, ::2, 3:33, 5:45:2]  # non-contiguous, offset view
    assert not g.flags.c_contiguous
    host = np.full((3, 5, 30, 40), 7.0, np.float32)
    out = host[1:3, 1:4, 2:27:2, 5:37:3]  # (2, 3, 13, 11) strided view
    sentinel = host.copy()
    res = run_nchw(g, (13, 11), True, out=out)
    assert res is out
    ref = upsample_bilinear2d_backward(np.array(g, np.float64), (13, 11), True, 0.0, 0.0)
    assert rel_err(out, ref) <= 1e-5
    mask = np.ones(host.shape, bool)
    mask[1:3, 1:4, 2:27:2, 5:37:3] = False
    np.testing.assert_array_equal(host[mask], sentinel[mask])


def test_nhwc_strided_channels(rng):
    g_big = rng.standard_normal((1, 8, 9, 10)).astype(np.float32)
    g = g_big[..., ::2]  # channel stride 2
    n, oh, ow, c = g.shape
    out = aclnn_emu.upsample_bilinear2d_backward_v2(g, (oh, ow), (n, 4, 5, c), False, format="NHWC")
    ref = upsample_bilinear2d_backward(np.array(g, np.float64).transpose(0, 3, 1, 2), (4, 5), False, 0.0, 0.0)
    assert rel_err(out.transpose(0, 3, 1, 2), ref) <= 1e-5


def test_negative_strides_are_copied(rng):
    g = rng.standard_normal((1, 2, 8, 8)).astype(np.float32)
    out = run_nchw(g[:, :, ::-1], (4, 4), False)
    ref = upsample_bilinear2d_backward(g[:, :, ::-1].astype(np.float64), (4, 4), False, 0.0, 0.0)
    assert rel_err(out, ref) <= 1e-5


def test_empty_batch_and_channels():
    for shape in [(0, 3, 4, 4), (2, 0, 4, 4)]:
        out = run_nchw(np.zeros(shape, np.float32), (2, 2), False)
        assert out.shape == shape[:2] + (2, 2)


def test_deterministic_across_thread_counts(threads, rng):
    g = rng.standard_normal((3, 5, 64, 48)).astype(np.float32)
    results = []
    for n in (1, 2, 3):
        threads(n)
        results.append(run_nchw(g, (29, 31), False).tobytes())
        results.append(
            aclnn_emu.upsample_bilinear2d_backward_v2(
                np.ascontiguousarray(g.transpose(0, 2, 3, 1)), (64, 48), (3, 29, 31, 5), False, format="NHWC"
            )
            .transpose(0, 3, 1, 2)
            .tobytes()
        )
    assert results[0::2] == [results[0]] * 3
    assert results[1::2] == [results[1]] * 3


torch = None
try:
    import torch
except ImportError:  # pragma: no cover
    pass


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
@pytest.mark.parametrize("i", range(16))
def test_against_pytorch(i):
    rng = np.random.default_rng(3000 + i)
    n, c, h, w, oh, ow, align, sh, sw = random_case(rng, i)
    g = rng.standard_normal((n, c, oh, ow)).astype(np.float32)
    ours = run_nchw(g, (h, w), align, sh, sw)
    from reference import scales_usable

    usable = scales_usable(h, w, oh, ow, sh, sw)
    theirs = torch.ops.aten.upsample_bilinear2d_backward(
        torch.from_numpy(g), [oh, ow], [n, c, h, w], align, sh if usable else None, sw if usable else None
    ).numpy()
    ref = upsample_bilinear2d_backward(g.astype(np.float64), (h, w), align, sh, sw)
    assert rel_err(ours, ref) <= 1e-5
    assert rel_err(theirs.astype(np.float64), ref) <= 1e-4  # the reference agrees with PyTorch
    assert rel_err(ours, theirs.astype(np.float64)) <= 1e-4


# ---- phase-one checks: status code and message, in CANN's order ----------


def call(g, out_size, in_size, out, align=False, sh=0.0, sw=0.0, fmt="NCHW", out_fmt=None):
    """Phase one through the handle API (returns the executor on success)."""
    with (
        aclnn_emu.Tensor(g, format=fmt) as tg,
        aclnn_emu.Tensor(out, format=out_fmt or fmt) as to,
        aclnn_emu.IntArray(out_size) as osz,
        aclnn_emu.IntArray(in_size) as isz,
    ):
        return aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(tg, osz, isz, align, sh, sw, to)


def f32(*shape):
    return np.zeros(shape, np.float32)


@pytest.mark.parametrize(
    "args, message",
    [
        ((f32(1, 1, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2)), "gradOut must be 4-D"),
        ((f32(1, 1, 4, 4), (4, 4), (1, 2, 2), f32(1, 1, 2, 2)), "inputSize must have 4 values, got 3"),
        ((f32(1, 1, 4, 4), (4, 4, 1), (1, 1, 2, 2), f32(1, 1, 2, 2)), "outputSize must have 2 values, got 3"),
        ((f32(1, 1, 4, 4), (4, 4), (1, 1, 0, 2), f32(1, 1, 0, 2)), "must be > 0"),
        ((f32(1, 1, 4, 4), (4, 0), (1, 1, 2, 2), f32(1, 1, 2, 2)), "must be > 0"),
        ((f32(1, 1, 4, 5), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2)), "gradOut shape must be (1,1,4,4)"),
        ((f32(1, 2, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2)), "gradOut shape must be (1,1,4,4)"),
        ((f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 3)), "out shape must be (1,1,2,2) (inputSize)"),
        ((f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(2, 1, 2, 2)), "got (2,1,2,2)"),
        (
            (np.zeros((1, 1, 4, 4)), (4, 4), (1, 1, 2, 2), np.zeros((1, 1, 2, 2))),
            "gradOut dtype must be FLOAT, FLOAT16 or BF16, got DOUBLE",
        ),
        (
            (f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), np.zeros((1, 1, 2, 2), np.float16)),
            "out dtype must be FLOAT (gradOut's), got FLOAT16",
        ),
    ],
)
def test_checks(args, message):
    with pytest.raises(ParamInvalidError) as e:
        call(*args)
    assert e.value.status == 161002
    assert message in e.value.message
    assert e.value.message.startswith("aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize: ")


def test_out_format_check():
    with pytest.raises(ParamInvalidError, match="out format must be NCHW or NHWC, got ND"):
        call(f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2), out_fmt="ND")


def test_check_order_rank_before_dtype():
    # Both the rank (check 2) and the dtype (check 6) are wrong: the rank is reported.
    with pytest.raises(ParamInvalidError, match="gradOut must be 4-D"):
        call(np.zeros((4, 4)), (4, 4), (1, 1, 2, 2), np.zeros((1, 1, 2, 2)))
    # Shape (check 4) before dtype (check 6).
    with pytest.raises(ParamInvalidError, match="gradOut shape must be"):
        call(np.zeros((1, 1, 3, 4)), (4, 4), (1, 1, 2, 2), np.zeros((1, 1, 2, 2)))


def test_dims_above_int32():
    big = 2**31
    t = aclnn_emu.Tensor  # zero-sized tensors with a huge dim are legal and cheap
    with (
        aclnn_emu.DeviceBuffer(64) as buf,
        t(buf, shape=(big, 0, 4, 4), dtype=np.float32, format="NCHW") as tg,
        t(buf, shape=(big, 0, 2, 2), dtype=np.float32, format="NCHW") as to,
        aclnn_emu.IntArray((4, 4)) as osz,
        aclnn_emu.IntArray((big, 0, 2, 2)) as isz,
    ):
        with pytest.raises(ParamInvalidError, match="gradOut dim 0 is 2147483648, above INT32_MAX"):
            aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(tg, osz, isz, False, 0.0, 0.0, to)


def test_overlapping_output_rejected():
    base = np.zeros(8, np.float32)
    out = np.lib.stride_tricks.as_strided(base, (1, 1, 2, 2), (0, 0, 0, 4))
    with pytest.raises(ParamInvalidError, match="out has overlapping strides"):
        call(f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), out)


@pytest.mark.parametrize("which", range(6))
def test_null_arguments(which):
    names = ["gradOut", "outputSize", "inputSize", "out", "workspaceSize", "executor"]
    with (
        aclnn_emu.Tensor(f32(1, 1, 4, 4), format="NCHW") as tg,
        aclnn_emu.Tensor(f32(1, 1, 2, 2), format="NCHW") as to,
        aclnn_emu.IntArray((4, 4)) as osz,
        aclnn_emu.IntArray((1, 1, 2, 2)) as isz,
    ):
        ws, ex = ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")
        args = [tg.handle, osz.handle, isz.handle, to.handle, ws, ex]
        args[which] = ffi.NULL
        st = lib.aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(
            args[0], args[1], args[2], False, 0.0, 0.0, args[3], args[4], args[5]
        )
        assert st == ParamNullptrError.codes[0]
        assert f"{names[which]} is NULL" in aclnn_emu.errors.recent_error_message()
