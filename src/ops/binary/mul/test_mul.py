"""aclnnMul against PyTorch (CANN's Mul computes as torch.mul: half types in FLOAT, integers wrap) and its checks."""

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

PAIRS = [(np.float32, np.float32), (np.float16, np.float16), (np.float16, np.float32), (BF16, BF16),
         (BF16, np.float16), (np.float64, np.float32), (np.int32, np.int32), (np.int64, np.int64),
         (np.uint8, np.uint8), (np.int8, np.uint8), (np.int16, np.int16), (np.bool_, np.bool_),
         (np.bool_, np.float16), (np.int64, np.float32), (np.complex64, np.complex64),
         (np.complex128, np.float64)]  # fmt: skip
SHAPES = [((3, 4, 5), (4, 1)), ((6,), (2, 6)), ((), (5,)), ((2, 1, 3), (1, 4, 1))]


def _data(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.asarray(rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True))
    if dtype.kind == "c":
        return np.asarray((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype))
    return np.asarray((rng.standard_normal(shape) * 30).astype(dtype))


def _torch(a):
    a = np.ascontiguousarray(a)
    return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16) if a.dtype == BF16 else torch.from_numpy(a)


def _numpy(t):
    return t.view(torch.int16).numpy().view(BF16) if t.dtype == torch.bfloat16 else t.numpy()


@pytest.mark.parametrize("da, db", PAIRS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("sa, sb", SHAPES)
def test_is_torch_mul_bit_for_bit(rng, da, db, sa, sb):
    a, b = _data(rng, sa, da), _data(rng, sb, db)
    got = aclnn_emu.mul(a, b)
    want = _numpy(torch.mul(_torch(a), _torch(b)))
    if want.dtype == np.complex64:  # torch's vectorised complex64 product fuses its multiply-adds; CANN's does not
        x, y = np.broadcast_arrays(a.astype(np.complex64), b.astype(np.complex64))
        f = np.float32
        re = x.real.astype(f) * y.real.astype(f) - x.imag.astype(f) * y.imag.astype(f)
        im = x.real.astype(f) * y.imag.astype(f) + x.imag.astype(f) * y.real.astype(f)
        want = (re + 1j * im.astype(np.complex64)).astype(np.complex64)
        want.imag = im
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8), np.ascontiguousarray(want).view(np.uint8))


@pytest.mark.parametrize("sa, sb", [((3, 1), (3, 43)), ((3, 43), (3, 1)), ((3, 43), (3, 43))])
def test_float16_rows_with_a_side_repeated(rng, sa, sb):
    """Rows long enough for the vector loop (43: five 8-lane steps and a tail): a product in FLOAT, rounded once."""
    a, b = _data(rng, sa, np.float16), _data(rng, sb, np.float16)
    want = (a.astype(np.float32) * b.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(aclnn_emu.mul(a, b).view(np.uint16), want.view(np.uint16))


def test_transposed_inputs_and_a_strided_out(rng):
    a = _data(rng, (5, 4), np.float32).T
    b = _data(rng, (4, 1), np.float32)
    out = np.zeros((4, 10), np.float32)[:, ::2]
    aclnn_emu.mul(a, b, out=out)
    np.testing.assert_array_equal(out, a * b)


@pytest.mark.parametrize(
    "a, b, out_dtype, text",
    [
        (np.zeros(2, np.uint16), np.zeros(2, np.uint16), None, "self"),
        (np.zeros(2, np.float32), np.zeros(2, np.float32), np.uint32, "out"),
        (np.zeros(2, np.float32), np.zeros(2, np.float32), np.int32, "Result type FLOAT can't be cast to the desired"
         " output type INT32."),
        (np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32), None, "The size of tensor self [2, 3] must match"
         " the size of tensor other [3, 2]."),
    ],
)  # fmt: skip
def test_checks_in_cann_order(a, b, out_dtype, text):
    out = None if out_dtype is None else np.zeros(np.broadcast_shapes(a.shape, b.shape), out_dtype)
    with pytest.raises(ParamInvalidError, match="aclnnMul") as e:
        aclnn_emu.mul(a, b, out=out)
    assert e.value.status == 161002 and text in str(e.value)


def test_null_other_at_handle_level():
    with aclnn_emu.Tensor(np.zeros(2, np.float32)) as a, aclnn_emu.Tensor(np.zeros(2, np.float32)) as o:
        with pytest.raises(ParamNullptrError, match="other is NULL") as e:
            aclnn_emu.mul_get_workspace_size(a, None, o)
        assert e.value.status == 161001


def test_ascend950_does_not_check_the_cast_to_out():
    code = textwrap.dedent(
        """
        import numpy as np, aclnn_emu
        aclnn_emu.set_soc("Ascend950")
        out = np.zeros(3, np.int32)
        aclnn_emu.mul(np.array([1.5, -2.7, 3.0], np.float32), np.float32(2.0), out=out)
        print(out.tolist())
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[3, -5, 6]"  # FLOAT products, cast toward zero
