"""aclnnUpsampleBilinear2dBackwardV2 against the float64 reference, PyTorch, and its checks."""

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ParamInvalidError

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


@pytest.mark.parametrize("w", [18, 61, 64, 100])
@pytest.mark.parametrize("dtype", dtypes(), ids=lambda d: np.dtype(d).name)
def test_x2_upscale_rows_of_one_weight_each(rng, w, dtype):
    """Rows wide enough that every interior W tap has one weight (x2, align_corners false) take the fused H and
    W pass, for interior rows (four gradOut rows) and the ends (three or fewer): the float64 reference's values,
    half types as their float32 result rounded once; row lengths around the pass's blocks of eight outputs."""
    for oh, ow, h, sh, sw in [
        (12, 2 * w, 6, 0.0, 0.0),
        (11, 2 * w, 6, 0.0, 0.0),
        (12, 2 * w + 1, 6, 0.0, 0.0),
        (12, 2 * w - 1, 6, 0.0, 0.0),
        (12, 2 * w, 6, 2.0, 2.0),
        (2, 2 * w, 1, 0.0, 0.0),
    ]:
        g = rng.standard_normal((2, 3, oh, ow)).astype(dtype)
        out = run_nchw(g, (h, w), False, sh, sw)
        g32 = g.astype(np.float32)
        ref = upsample_bilinear2d_backward(g32.astype(np.float64), (h, w), False, sh, sw)
        if dtype is np.float32:
            assert rel_err(out, ref) <= 1e-5, (oh, ow, h, w)
        else:
            np.testing.assert_array_equal(out, run_nchw(g32, (h, w), False, sh, sw).astype(dtype))


@pytest.mark.parametrize("oh, h, scale", [(20, 8, 1.0), (36, 16, 1.0), (15, 6, 1.0), (12, 6, 2.0**-124)])
@pytest.mark.parametrize("dtype", dtypes()[1:], ids=lambda d: np.dtype(d).name)
def test_x2_pass_fuses_exact_products_only(rng, oh, h, scale, dtype):
    """Half-type x2 rows add their products of weight 1/4 to the sums after them in one rounding (fused
    multiply-add), which gives the two operations' bits only where those products are exact. H x2.25 and x2.5
    have rows of four sources whose weights (ninths, fifths) are not powers of two: their products round, and
    must not be fused. H x2 fuses, also where bfloat16's values are so small that the sums are subnormal floats
    (the products stay exact). Either way the values are the float32 path's rounded once."""
    g = (rng.standard_normal((2, 8, oh, 512)) * scale).astype(dtype)
    out = run_nchw(g, (h, 256), False)
    np.testing.assert_array_equal(out, run_nchw(g.astype(np.float32), (h, 256), False).astype(dtype))


@pytest.mark.parametrize("oh, h", [(14, 6), (19, 9), (21, 11), (22, 12), (24, 12)])
@pytest.mark.parametrize("dtype", dtypes()[1:], ids=lambda d: np.dtype(d).name)
def test_x2_row_pairs_with_their_own_weights(rng, oh, h, dtype):
    """Half-type x2 rows go through the pass two at a time, the second's four sources two rows on from the
    first's, with one set of H weights. H 6 -> 14, 9 -> 19, 11 -> 21 and 12 -> 22 have such neighbours whose
    weights differ (the rows must then go one at a time); 12 -> 24 is the exact x2 whose interior rows all
    pair. The float32 path, which never pairs, rounded once gives the bits; the float64 model written from
    CANN's source agrees to the output type's rounding."""
    g = rng.standard_normal((2, 3, oh, 2 * 40)).astype(dtype)
    out = run_nchw(g, (h, 40), False)
    np.testing.assert_array_equal(out, run_nchw(g.astype(np.float32), (h, 40), False).astype(dtype))
    ref = upsample_bilinear2d_backward(g.astype(np.float64), (h, 40), False, 0.0, 0.0)
    assert rel_err(out, ref) <= 2.0**-7


@pytest.mark.parametrize("dtype", dtypes(), ids=lambda d: np.dtype(d).name)
def test_x2_upscale_of_strided_rows(rng, dtype):
    """The x2 pass reads half-type gradOut rows in place when each row is contiguous, whatever the row, channel
    and batch strides: padded rows and every other channel give the bits of a contiguous copy; columns apart
    (every other one) take the converted rows instead, with the same bits again."""
    big = rng.standard_normal((3, 6, 14, 2 * 2 * 40 + 6)).astype(dtype)
    for g in (big[::2, ::2, 1:13, 3 : 3 + 2 * 40], big[:2, 1:4, :12, : 4 * 40 : 2]):
        assert not g.flags.c_contiguous
        out = run_nchw(g, (6, 40), False)
        np.testing.assert_array_equal(out, run_nchw(np.ascontiguousarray(g), (6, 40), False))
        g32 = g.astype(np.float32)
        if dtype is np.float32:
            ref = upsample_bilinear2d_backward(g32.astype(np.float64), (6, 40), False, 0.0, 0.0)
            assert rel_err(out, ref) <= 1e-5
        else:
            np.testing.assert_array_equal(out, run_nchw(g32, (6, 40), False).astype(dtype))


X2_BITS_SCRIPT = """
import hashlib, numpy as np, aclnn_emu as ae
dts = [np.float32, np.float16]
try:
    import ml_dtypes
    dts.append(ml_dtypes.bfloat16)
except ImportError:
    pass
h, rng = hashlib.sha256(), np.random.default_rng(5)
for dt in dts:
    for w in (9, 18, 40, 61, 100):
        for oh, ow, h_in, sw in [(12, 2 * w, 6, 0.0), (11, 2 * w + 1, 6, 0.0), (12, 2 * w, 6, 1.9), (3, 2 * w, 2, 0.0)]:
            g = rng.standard_normal((2, 2, oh, ow)).astype(dt)
            out = ae.upsample_bilinear2d_backward_v2(g, (oh, ow), (2, 2, h_in, w), False, 0.0, sw)
            h.update(np.ascontiguousarray(out).view(np.uint8).tobytes())
    g3 = rng.standard_normal((1, 2, 6, 10, 44)).astype(dt)
    h.update(ae.upsample_trilinear3d_backward(g3, (6, 10, 44), (1, 2, 3, 5, 22)).view(np.uint8).tobytes())
print(h.hexdigest())
"""


def test_x2_pass_gives_the_same_bits_on_every_instruction_set(tmp_path):
    """The x2 pass and the half-type conversions have AVX-512, AVX2 and plain paths (the CPU picks one;
    ACLNN_EMU_MAX_CPU_ISA caps it): on the paths this machine has, the same bits."""
    import os
    import subprocess
    import sys

    script = tmp_path / "x2_bits.py"
    script.write_text(X2_BITS_SCRIPT)
    digests = {}
    for isa in ("", "avx2", "baseline"):
        env = dict(os.environ, ACLNN_EMU_MAX_CPU_ISA=isa)
        r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
        assert r.returncode == 0, r.stderr
        digests[isa or "cpu"] = r.stdout.strip()
    assert len(set(digests.values())) == 1, digests


def test_x2_upscale_of_negative_zeros_is_positive_zero():
    # Every sum starts from +0.0 (CANN's accumulators start at zero): -0.0 gradients give +0.0, on the fused
    # x2 pass as at the row ends.
    g = np.full((1, 2, 8, 96), -0.0, np.float32)
    out = run_nchw(g, (4, 48), False)
    assert not np.signbit(out).any()


def test_outputs_beyond_the_caches_are_streamed_and_equal(rng):
    # A 36 MB float32 output leaves the kernel through streaming stores, whole or row by row
    # (padded rows); the values are those of the reference, and the same in both.
    g = rng.standard_normal((2, 4, 512, 550)).astype(np.float32)
    whole = run_nchw(g, (1024, 1100), False, 0.0, 0.0)
    assert whole.nbytes > 32 << 20
    assert rel_err(whole, upsample_bilinear2d_backward(g.astype(np.float64), (1024, 1100), False, 0.0, 0.0)) <= 1e-5
    host = np.full((2, 4, 1024, 1104), 7.0, np.float32)
    padded = run_nchw(g, (1024, 1100), False, 0.0, 0.0, out=host[..., :1100])
    np.testing.assert_array_equal(padded, whole)
    np.testing.assert_array_equal(host[..., 1100:], 7.0)


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
    from reference import cann_upsample_ratios

    # PyTorch gets the scales where CANN's kernel uses them (ratio = fl(1/scale)).
    r_h, r_w, _, _ = cann_upsample_ratios((n, c, oh, ow), (n, c, h, w), align, sh, sw)
    use_h = sh if sh > 0 and not align and r_h == np.float32(1.0 / sh) else None
    use_w = sw if sw > 0 and not align and r_w == np.float32(1.0 / sw) else None
    theirs = torch.ops.aten.upsample_bilinear2d_backward(
        torch.from_numpy(g), [oh, ow], [n, c, h, w], align, use_h, use_w
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
        (
            (f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(2, 1, 2, 2)),
            "out.shape[0] must equal gradOut.shape[0] (1), got 2",
        ),
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


def test_empty_tensors_return_before_any_other_check():
    # CANN returns early for empty tensors (workspace 0), even with a huge dim.
    big = 2**31
    t = aclnn_emu.Tensor  # zero-sized tensors with a huge dim are legal and cheap
    with (
        aclnn_emu.DeviceBuffer(64) as buf,
        t(buf, shape=(big, 0, 4, 4), dtype=np.float32, format="NCHW") as tg,
        t(buf, shape=(big, 0, 2, 2), dtype=np.float32, format="NCHW") as to,
        aclnn_emu.IntArray((4, 4)) as osz,
        aclnn_emu.IntArray((big, 0, 2, 2)) as isz,
    ):
        ws, ex = aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(tg, osz, isz, False, 0.0, 0.0, to)
        assert ws == 0
        ex.close()


def test_overlapping_output_rejected():
    base = np.zeros(8, np.float32)
    out = np.lib.stride_tricks.as_strided(base, (1, 1, 2, 2), (0, 0, 0, 4))
    with pytest.raises(ParamInvalidError, match="out has overlapping strides"):
        call(f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), out)


# ---- fidelity to CANN's op_api, tiling and kernel (paths, ratios, skips) ----


def test_equal_sizes_with_scales_are_not_an_identity():
    # gradOut's shape equals inputSize: CANN runs the kernel with ratio fl(1/scale), no shortcut.
    rng = np.random.default_rng(5)
    g = rng.standard_normal((1, 2, 8, 8)).astype(np.float32)
    got = run_nchw(g, (8, 8), False, 2.0, 2.0)
    ref = upsample_bilinear2d_backward(g.astype(np.float64), (8, 8), False, 2.0, 2.0)
    from reference import interpolation_matrix

    m = interpolation_matrix(8, 8, False, np.float32(0.5))
    np.testing.assert_allclose(ref, np.einsum("ncij,iy,jx->ncyx", g.astype(np.float64), m, m), rtol=1e-12)
    assert rel_err(got, ref) <= 1e-6
    assert not np.allclose(got, g)  # not the identity


def test_equal_sizes_scale_half_drops_sources_beyond_the_edge():
    # Ratio 2 on equal sizes: gradOut rows 4..7 land beyond the last input row and are dropped.
    g = np.ones((1, 1, 8, 8), np.float32)
    got = run_nchw(g, (8, 8), False, 0.5, 0.5)
    assert got.sum() == pytest.approx(16.0)  # 4 x 4 sources kept, each with weight 1
    assert rel_err(got, upsample_bilinear2d_backward(g.astype(np.float64), (8, 8), False, 0.5, 0.5)) <= 1e-6


def test_equal_sizes_without_scales_are_an_identity():
    g = np.random.default_rng(6).standard_normal((2, 3, 5, 7)).astype(np.float32)
    np.testing.assert_array_equal(run_nchw(g, (5, 7), False), g)
    np.testing.assert_array_equal(run_nchw(g, (5, 7), True), g)


@pytest.mark.parametrize("tiny", [1e-10, 5e-10, 1e-9])
def test_tiny_scales_are_scales(tiny):
    # 0 < |s| <= 1e-9 skips the consistency check; the kernel still uses 1/s, so every source lands
    # far beyond the last index and is dropped (PyTorch would clamp them onto it).
    g = np.random.default_rng(7).standard_normal((1, 1, 6, 6)).astype(np.float32)
    got = run_nchw(g, (3, 3), False, tiny, tiny)
    ref = upsample_bilinear2d_backward(g.astype(np.float64), (3, 3), False, tiny, tiny)
    assert rel_err(got, ref) <= 1e-6
    assert not got.any()


def test_scale_near_one_skips_the_w_pass():
    # |ratio_w - 1| < 1e-6: the kernel copies along W; H is interpolated with its own ratio.
    g = np.random.default_rng(8).standard_normal((1, 2, 9, 9)).astype(np.float32)
    s = 1.0 + 2e-7
    got = run_nchw(g, (9, 9), False, 0.5, s)
    ref = upsample_bilinear2d_backward(g.astype(np.float64), (9, 9), False, 0.5, s)
    assert rel_err(got, ref) <= 1e-6


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_equal_sizes_accept_other_dtypes_through_float32(dtype):
    g = (np.random.default_rng(9).standard_normal((1, 2, 4, 6)) * 100).astype(dtype)
    got = run_nchw(g, (4, 6), False, 2.0, 2.0)
    assert got.dtype == np.dtype(dtype)
    ref32 = upsample_bilinear2d_backward(g.astype(np.float32).astype(np.float64), (4, 6), False, 2.0, 2.0)
    want = np.trunc(ref32.astype(np.float32)).astype(dtype) if dtype == np.int32 else ref32
    tol = 0 if dtype == np.int32 else 1e-6
    assert np.max(np.abs(got.astype(np.float64) - want)) <= tol * max(1.0, np.max(np.abs(want)))


def test_other_dtypes_are_refused_when_sizes_differ():
    with pytest.raises(ParamInvalidError, match="gradOut dtype must be FLOAT, FLOAT16 or BF16, got INT32"):
        call(np.zeros((1, 1, 4, 4), np.int32), (4, 4), (1, 1, 2, 2), np.zeros((1, 1, 2, 2), np.int32))


def test_layout_comes_from_grad_outs_format():
    # gradOut NHWC with out labelled NCHW: NHWC layout (CANN reads gradOut's storage format).
    rng = np.random.default_rng(10)
    g_nchw = rng.standard_normal((1, 3, 8, 6)).astype(np.float32)
    g = np.ascontiguousarray(g_nchw.transpose(0, 2, 3, 1))
    out = np.zeros((1, 4, 3, 3), np.float32)  # (N, H, W, C)
    with (
        aclnn_emu.Tensor(g, format="NHWC") as tg,
        aclnn_emu.Tensor(out, format="NCHW") as to,
        aclnn_emu.IntArray((8, 6)) as osz,
        aclnn_emu.IntArray((1, 4, 3, 3)) as isz,
    ):
        ws, ex = aclnn_emu.upsample_bilinear2d_backward_v2_get_workspace_size(tg, osz, isz, False, 0, 0, to)
        w = aclnn_emu.DeviceBuffer(ws)
        ex.run(w)
        aclnn_emu.synchronize_device()
    ref = upsample_bilinear2d_backward(g_nchw.astype(np.float64), (4, 3), False, 0, 0, nhwc=True)
    assert rel_err(out.transpose(0, 3, 1, 2), ref) <= 1e-6


def test_grad_out_nd_is_refused():
    with pytest.raises(ParamInvalidError, match="gradOut format must be NCHW or NHWC, got ND"):
        call(f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2), fmt="ND", out_fmt="NCHW")


def test_check_order_as_cann():
    # inputSize's NULL check comes before outputSize's.
    with aclnn_emu.Tensor(f32(1, 1, 4, 4), format="NCHW") as tg, aclnn_emu.Tensor(f32(1, 1, 2, 2), format="NCHW") as to:
        ws, ex = aclnn_emu.ffi.new("uint64_t *"), aclnn_emu.ffi.new("aclOpExecutor **")
        st = aclnn_emu.lib.aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(
            tg.handle, aclnn_emu.ffi.NULL, aclnn_emu.ffi.NULL, False, 0, 0, to.handle, ws, ex
        )
        assert st == 161001 and "inputSize is NULL" in aclnn_emu.errors.recent_error_message()
    # The dtype check comes before the out H/W check.
    with pytest.raises(ParamInvalidError, match="gradOut dtype must be"):
        call(np.zeros((1, 1, 4, 4)), (4, 4), (1, 1, 2, 2), np.zeros((1, 1, 3, 3)))
    # The empty-tensor return comes before the out H/W check.
    ws, ex = call(f32(0, 1, 4, 4), (4, 4), (0, 1, 2, 2), f32(0, 1, 3, 3))
    assert ws == 0
    ex.close()


def test_workspace_is_reported_and_required():
    ws, ex = call(f32(1, 1, 4, 4), (4, 4), (1, 1, 2, 2), f32(1, 1, 2, 2))
    # The tiling's fixed 32 MiB, its intermediate (N*C*outH*W*8 bytes) and weight matrices, the FLOAT result.
    assert ws > 32 << 20
    with pytest.raises(aclnn_emu.ParamNullptrError, match="workspace is NULL but phase one asked for"):
        ex.run()
    assert ex.closed  # CANN releases the executor


def test_ascend950_branches_in_a_fresh_process(tmp_path):
    script = tmp_path / "soc950.py"
    script.write_text(
        "import warnings, numpy as np, aclnn_emu as ae\n"
        "ae.set_soc('Ascend950')\n"
        "try:\n"
        "    ae.upsample_bilinear2d_backward_v2(np.ones((1, 1, 4, 4), np.float32), (4, 4), (1, 1, 2, 2))\n"
        "except ae.ParamInvalidError as e:\n"
        "    print('refused', e.status, 'support for Ascend950 is not implemented' in e.message)\n"
        "out = np.full((1, 1, 2, 2), 7.0, np.float32)\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    ae.upsample_bilinear2d_backward_v2(np.ones((1, 1, 2, 2), np.float32), (2, 2), (1, 1, 2, 2), out=out)\n"
        "print('untouched', bool((out == 7.0).all()), any('launches no kernel' in str(x.message) for x in w))\n"
    )
    import subprocess
    import sys

    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "refused 161002 True" in r.stdout and "untouched True True" in r.stdout


@pytest.mark.parametrize("w", [7, 17, 32])
@pytest.mark.parametrize("dtype", dtypes()[1:], ids=lambda d: np.dtype(d).name)
def test_half_types_round_once_on_every_vector_path(rng, w, dtype):
    """out16 == out32.astype(float16) exactly (bf16 likewise) for rows of 7, 17 and 32 elements, strided rows
    and NHWC with W*C >= 8: the contiguous-row conversions (F16C and their scalar twins) must round, not truncate."""
    g = rng.standard_normal((2, 3, 2 * w, 2 * w)).astype(dtype)
    np.testing.assert_array_equal(
        run_nchw(g, (w, w), False), run_nchw(g.astype(np.float32), (w, w), False).astype(dtype)
    )
    gs = rng.standard_normal((2, 3, 2 * w, 4 * w)).astype(dtype)[..., ::2]  # strided rows
    np.testing.assert_array_equal(
        run_nchw(gs, (w, w), True), run_nchw(gs.astype(np.float32), (w, w), True).astype(dtype)
    )
    gn = rng.standard_normal((2, 2 * w, 2 * w, 8)).astype(dtype)  # NHWC, W*C >= 8
    kw = dict(format="NHWC")
    out = aclnn_emu.upsample_bilinear2d_backward_v2(gn, (2 * w, 2 * w), (2, w, w, 8), False, **kw)
    ref = aclnn_emu.upsample_bilinear2d_backward_v2(gn.astype(np.float32), (2 * w, 2 * w), (2, w, w, 8), False, **kw)
    np.testing.assert_array_equal(out, ref.astype(dtype))


@pytest.mark.parametrize("factor", [2, 4, 8])
@pytest.mark.parametrize("align", [False, True])
def test_integer_downscale_factors(factor, align, rng):
    # Downscales by 2, 4, 8 take the kernel's periodic two-tap W gather on most of each row.
    g = rng.standard_normal((2, 3, 9, 40)).astype(np.float32)
    out = run_nchw(g, (9 * factor, 40 * factor), align)
    ref = upsample_bilinear2d_backward(g.astype(np.float64), (9 * factor, 40 * factor), align, 0.0, 0.0)
    assert rel_err(out, ref) <= 1e-5
