"""aclnnAdd against PyTorch where CANN agrees, numpy models of CANN's kernels where it does not, and its checks."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ParamInvalidError, ParamNullptrError

torch = pytest.importorskip("torch")
ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)
F32 = np.float32

SHAPES = [((2, 3, 4), (3, 4)), ((5,), (2, 1, 5)), ((4, 1), (1, 6)), ((), (3,)), ((1, 1, 7), (7,))]
# Pairs whose sum CANN computes as torch does (alpha 1: Add in the promoted dtype, half types in FLOAT).
PAIRS = [(np.float32, np.float32), (np.float16, np.float16), (np.float16, np.float32), (BF16, np.float32),
         (BF16, BF16), (np.float16, BF16), (np.float64, np.float64), (np.int32, np.int32), (np.int64, np.int8),
         (np.uint8, np.int8), (np.int16, np.uint8), (np.bool_, np.bool_), (np.bool_, np.int32),
         (np.int32, np.float16), (np.complex64, np.complex64), (np.complex64, np.float64)]  # fmt: skip


def _data(rng, shape, dtype):
    return np.asarray(_draw(rng, shape, dtype))


def _draw(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return (rng.standard_normal(shape) * 100).astype(dtype)


def _torch(a):
    if a.dtype == BF16:
        return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(a))


def _numpy(t):
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(BF16)
    return t.numpy()


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint8)


@pytest.mark.parametrize("da, db", PAIRS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("sa, sb", SHAPES)
def test_alpha_one_is_torch_add_bit_for_bit(rng, da, db, sa, sb):
    a, b = _data(rng, sa, da), _data(rng, sb, db)
    got = aclnn_emu.add(a, b)
    want = _numpy(torch.add(_torch(a), _torch(b)))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(_bits(got), _bits(want))


def _axpy_f32(a, b, alpha):
    """Axpy in FLOAT: self + float(alpha) * other, each step rounded to float32."""
    return (a.astype(F32) + F32(alpha) * b.astype(F32)).astype(F32)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_axpy_computes_in_float(rng, dtype):
    a, b = _data(rng, (3, 50), dtype), _data(rng, (50,), dtype)
    got = aclnn_emu.add(a, b, 0.3)
    np.testing.assert_array_equal(_bits(got), _bits(_axpy_f32(a, b, 0.3).astype(dtype)))
    # torch computes the same up to its fused multiply-add (one rounding fewer): a rounding of the terms apart
    want = _numpy(torch.add(_torch(a), _torch(b), alpha=0.3)).astype(np.float64)
    scale = np.abs(a.astype(np.float64)) + np.abs(0.3 * b.astype(np.float64))
    eps = 2.0**-10 if dtype == np.float16 else 2.0**-23
    assert (np.abs(got.astype(np.float64) - want) <= eps * scale).all()


@pytest.mark.parametrize("alpha", [1.0, 0.3])
@pytest.mark.parametrize("sa, sb", [((3, 1), (3, 43)), ((3, 43), (3, 1)), ((3, 43), (43,))])
def test_float16_rows_with_a_side_repeated(rng, sa, sb, alpha):
    """Rows long enough for the vector loop (43: five 8-lane steps and a tail), one side repeated along them."""
    a, b = _data(rng, sa, np.float16), _data(rng, sb, np.float16)
    got = aclnn_emu.add(a, b, alpha)
    np.testing.assert_array_equal(_bits(got), _bits(_axpy_f32(a, b, alpha).astype(np.float16)))


@pytest.mark.parametrize("offset", [0, 1])
@pytest.mark.parametrize("dtype, side", [(np.float32, 3000), (np.float16, 4100)])
def test_results_past_the_caches(rng, dtype, side, offset):
    """Over 32 MiB of results (past half of any last-level cache, at most 32 MiB) go out with streaming
    stores; into a view one element off a cache line, the partial lines at the rows' ends go through the
    cache (float16: the elements before the first 16-byte boundary)."""
    a, b = _data(rng, (side, side), dtype), _data(rng, (side,), dtype)
    block = np.full(side * side + 2, -7.0, dtype)
    out = block[offset : offset + side * side].reshape(side, side)
    aclnn_emu.add(a, b, 0.5, out=out)
    np.testing.assert_array_equal(_bits(out), _bits(_axpy_f32(a, b, 0.5).astype(dtype)))
    assert (np.delete(block, np.s_[offset : offset + out.size]) == -7.0).all()


def test_bf16_alpha_multiplies_then_adds_on_atlas_a2(rng):
    """Atlas A2 has no BF16 Axpy: Mul(other, alpha as BF16) then Add, each rounded to BF16."""
    a, b = _data(rng, (400,), BF16), _data(rng, (400,), BF16)
    alpha = 0.3
    t = (b.astype(F32) * F32(np.asarray(alpha, F32).astype(BF16))).astype(BF16)
    want = (a.astype(F32) + t.astype(F32)).astype(BF16)
    got = aclnn_emu.add(a, b, alpha)
    np.testing.assert_array_equal(_bits(got), _bits(want))
    once = (a.astype(F32) + F32(alpha) * b.astype(F32)).astype(BF16)
    assert (_bits(once) != _bits(want)).any()  # the two roundings are visible


def test_bf16_sums_round_to_nearest_even_on_every_row_path(rng):
    """The float32 sums narrowed to BF16 on rows of 16-lane blocks and a tail: ties to even, subnormals kept (no
    flush to zero), overflow to Inf, NaN stays NaN; the bits of ml_dtypes' rounding of the float32 sums."""
    n = 16 * 9 + 7
    a = (1.0 + rng.integers(0, 128, n) / 128.0).astype(F32) * rng.choice([-1.0, 1.0], n).astype(F32)
    b = (rng.integers(0, 8, n) * 2 + 1).astype(F32) * F32(2.0**-8)  # odd multiples of half an ulp: ties
    a[::5] = F32(2.0**-130) * rng.integers(1, 100, len(a[::5]))  # subnormal sums
    b[::5] = F32(2.0**-133) * rng.integers(1, 100, len(b[::5]))
    a[3::17], b[3::17] = F32(3.3e38), F32(3.3e38)  # overflow
    a[7::19] = np.nan
    a, b = a.astype(BF16), b.astype(BF16)
    got = aclnn_emu.add(a, b)
    with np.errstate(over="ignore"):  # the overflow to Inf is one of the cases
        want = (a.astype(F32) + b.astype(F32)).astype(BF16)
    assert np.isinf(want).any() and (np.abs(want.astype(F32)) < F32(2.0**-126)).any()
    nan = np.isnan(want.astype(F32))
    np.testing.assert_array_equal(np.isnan(got.astype(F32)), nan)
    np.testing.assert_array_equal(_bits(got[~nan]), _bits(want[~nan]))


def test_int32_alpha_runs_in_float_and_truncates():
    """Atlas A2's INT32 Axpy: converted to FLOAT, self + alpha * other, truncated toward zero."""
    a = np.array([2**25 + 1, -7, 100, 2**31 - 1], np.int32)
    b = np.array([0, 2, -3, 1], np.int32)
    got = aclnn_emu.add(a, b, 3)
    s = a.astype(F32) + F32(3) * b.astype(F32)
    want = np.trunc(np.clip(s, -(2.0**31), 2.0**31 - 1)).astype(np.int64).clip(-(2**31), 2**31 - 1).astype(np.int32)
    np.testing.assert_array_equal(got, want)
    assert got[0] != a[0] + 3 * b[0]  # 2**25 + 1 is not a float32


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint8, np.int16])
def test_other_integers_wrap(rng, dtype):
    a, b = _data(rng, (64,), dtype), _data(rng, (64,), dtype)
    got = aclnn_emu.add(a, b, np.int64(-3))
    width = np.dtype(dtype).itemsize * 8
    exact = a.astype(object) + b.astype(object) * (-3)
    want = np.array([((v + 2 ** (width - 1)) % 2**width) - 2 ** (width - 1) for v in exact], np.int64)
    if np.dtype(dtype).kind == "u":
        want = np.array([v % 2**width for v in exact], np.int64)
    np.testing.assert_array_equal(got.astype(np.int64), want)


def test_bool_adds_as_or_and_alpha_zero_drops_other():
    a, b = np.array([True, True, False, False]), np.array([True, False, True, False])
    np.testing.assert_array_equal(aclnn_emu.add(a, b), [True, True, True, False])
    np.testing.assert_array_equal(aclnn_emu.add(a, b, False), a)


def test_double_and_complex_alpha(rng):
    a, b = _data(rng, (20,), np.float64), _data(rng, (20,), np.float64)
    np.testing.assert_array_equal(aclnn_emu.add(a, b, 2.5), a + 2.5 * b)
    c, d = _data(rng, (20,), np.complex128), _data(rng, (20,), np.complex128)
    alpha = np.complex128(0.5 - 2j)
    t = np.array([complex(x.real * alpha.real - x.imag * alpha.imag, x.real * alpha.imag + x.imag * alpha.real)
                  for x in d])  # fmt: skip
    np.testing.assert_array_equal(aclnn_emu.add(c, d, alpha), c + t)


def test_strided_views_and_out(rng):
    a = _data(rng, (6, 8), np.float32)[::2, 1::2]
    b = _data(rng, (8, 3), np.float32).T[:, ::2][:1]
    out = np.zeros((3, 8), np.float32)[:, ::2]
    r = aclnn_emu.add(a, b, out=out)
    assert r is out
    np.testing.assert_array_equal(out, _axpy_f32(a, b, 1.0))


def test_result_casts_to_a_wider_out(rng):
    a, b = _data(rng, (10,), np.float16), _data(rng, (10,), np.float16)
    out = np.empty(10, np.float64)
    aclnn_emu.add(a, b, out=out)
    np.testing.assert_array_equal(out, (a.astype(F32) + b.astype(F32)).astype(np.float16).astype(np.float64))


def test_empty_inputs():
    r = aclnn_emu.add(np.zeros((0, 3), np.float32), np.ones(3, np.float32))
    assert r.shape == (0, 3)


@pytest.mark.parametrize(
    "a, b, alpha, out_dtype, text",
    [
        (np.zeros(2, np.uint16), np.zeros(2, np.uint16), 1, None, "self"),
        (np.zeros(2, F32), np.zeros(2, np.uint32), 1, None, "other"),
        (np.zeros(2, np.int32), np.zeros(2, np.int32), 1.5, None, "Alpha dtype DOUBLE can't be cast to the promote"
         " dtype INT32."),
        (np.zeros(2, bool), np.zeros(2, bool), 2.0, None, "Alpha dtype DOUBLE can't be cast to the promote"
         " dtype BOOL."),
        (np.zeros(2, F32), np.zeros(2, F32), 1, np.int32, "Promote dtype FLOAT can't be cast to the desired output"
         " type INT32."),
        (np.zeros(2, np.int32), np.zeros(2, np.int32), 1, bool, "Promote dtype INT32 can't be cast to the desired"
         " output type BOOL."),
        (np.zeros((2, 3), F32), np.zeros(4, F32), 1, None, "The size of tensor self [2, 3] must match the size of"
         " tensor other [4]."),
    ],
)  # fmt: skip
def test_checks_in_cann_order(a, b, alpha, out_dtype, text):
    out = None if out_dtype is None else np.zeros(np.broadcast_shapes(a.shape, b.shape), out_dtype)
    with pytest.raises(ParamInvalidError, match="aclnnAdd") as e:
        aclnn_emu.add(a, b, alpha, out=out)
    assert e.value.status == 161002 and text in str(e.value)


def test_out_shape_is_checked():
    with pytest.raises(ParamInvalidError, match=r"Shape of out should be \[2, 3\], but current is \[3, 2\]\."):
        aclnn_emu.add(np.zeros((2, 3), F32), np.zeros(3, F32), out=np.zeros((3, 2), F32))


def test_null_alpha_at_handle_level():
    with aclnn_emu.Tensor(np.zeros(2, F32)) as a, aclnn_emu.Tensor(np.zeros(2, F32)) as o:
        with pytest.raises(ParamNullptrError, match="alpha is NULL") as e:
            aclnn_emu.add_get_workspace_size(a, a, None, o)
        assert e.value.status == 161001


ASCEND950 = textwrap.dedent(
    """
    import numpy as np, ml_dtypes, aclnn_emu
    aclnn_emu.set_soc("Ascend950")
    bf = ml_dtypes.bfloat16
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(400) * 100).astype(bf)
    b = (rng.standard_normal(400) * 100).astype(bf)
    want = (a.astype(np.float32) + np.float32(0.3) * b.astype(np.float32)).astype(bf)  # Axpy: one rounding
    assert (aclnn_emu.add(a, b, 0.3).view(np.uint16) == want.view(np.uint16)).all()
    t, f = np.array([True, True, False]), np.array([True, False, True])
    # AxpyV2 on BOOL: min(self + alpha * other, 1), nonzero is true (1 - 1 is false); Atlas A2 gives or
    assert aclnn_emu.add(t, f, np.int64(-1)).tolist() == [False, True, True], aclnn_emu.add(t, f, np.int64(-1))
    print("ok")
    """
)


def test_ascend950_axpy_paths():
    r = subprocess.run([sys.executable, "-c", ASCEND950], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_bool_with_negative_alpha_is_or_on_atlas_a2():
    t, f = np.array([True, True, False]), np.array([True, False, True])
    assert aclnn_emu.add(t, f, np.int64(-1)).tolist() == [True, True, True]
