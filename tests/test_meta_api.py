"""The meta API beyond tensors: scalars, tensor and scalar lists (ownership as CANN's), type helpers."""

import gc

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import ffi, lib


def msg():
    return E.recent_error_message()


def tensor(n=4):
    t = lib.aclCreateTensor([n], 1, lib.ACL_FLOAT, ffi.NULL, 0, lib.ACL_FORMAT_ND, [n], 1, ffi.NULL)
    assert t != ffi.NULL
    return t


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
                                   "complex64", "complex128"])  # fmt: skip
def test_scalar_of_every_whole_byte_type(dtype):
    value = np.ones(1, dtype)
    s = lib.aclCreateScalar(ffi.from_buffer(value), aclnn_emu.acl_dtype(value.dtype))
    assert s != ffi.NULL
    assert lib.aclDestroyScalar(s) == 0
    assert lib.aclDestroyScalar(s) == E.ACLNN_ERR_PARAM_INVALID and "already destroyed" in msg()
    assert lib.aclDestroyScalar(ffi.NULL) == 0


def test_scalar_errors():
    assert lib.aclCreateScalar(ffi.NULL, lib.ACL_FLOAT) == ffi.NULL
    assert msg() == "aclCreateScalar: value is NULL"
    v = ffi.new("float *", 1.0)
    assert lib.aclCreateScalar(v, lib.ACL_INT4) == ffi.NULL
    assert "dataType 29 (INT4) has no whole-byte size" in msg()


def test_tensor_list_owns_its_tensors():
    live = lib.aclnnEmuLiveHandles()
    a, b = tensor(), tensor(8)
    tl = lib.aclCreateTensorList([a, ffi.NULL, b], 3)
    assert tl != ffi.NULL
    size = ffi.new("uint64_t *")
    assert lib.aclGetTensorListSize(tl, size) == 0 and size[0] == 3
    assert lib.aclDestroyTensorList(tl) == 0
    off = ffi.new("int64_t *")
    assert lib.aclGetViewOffset(a, off) == E.ACLNN_ERR_PARAM_INVALID and "already destroyed" in msg()
    assert lib.aclnnEmuLiveHandles() == live
    assert lib.aclGetTensorListSize(tl, size) == E.ACLNN_ERR_PARAM_INVALID


def test_tensor_list_checks_its_entries():
    a = tensor()
    lib.aclDestroyTensor(a)
    assert lib.aclCreateTensorList([a], 1) == ffi.NULL
    m = msg()
    assert "aclCreateTensorList: value[0]" in m and "already destroyed" in m
    assert lib.aclCreateTensorList(ffi.NULL, 2) == ffi.NULL and "value is NULL but size is 2" in msg()
    size = ffi.new("uint64_t *")
    assert lib.aclGetTensorListSize(ffi.NULL, size) == E.ACLNN_ERR_PARAM_NULLPTR and "tensorList is NULL" in msg()


def test_member_destroyed_before_its_list_is_reported_and_nothing_leaks():
    live = lib.aclnnEmuLiveHandles()
    a, b = tensor(), tensor()
    tl = lib.aclCreateTensorList([a, b], 2)
    lib.aclDestroyTensor(a)  # CANN would free it twice
    assert lib.aclDestroyTensorList(tl) == E.ACLNN_ERR_PARAM_INVALID and "already destroyed" in msg()
    assert lib.aclnnEmuLiveHandles() == live  # b and the list went anyway


def test_scalar_list():
    live = lib.aclnnEmuLiveHandles()
    vals = [ffi.new("double *", float(i)) for i in range(3)]
    scalars = [lib.aclCreateScalar(v, lib.ACL_DOUBLE) for v in vals]
    sl = lib.aclCreateScalarList(scalars, 3)
    size = ffi.new("uint64_t *")
    assert lib.aclGetScalarListSize(sl, size) == 0 and size[0] == 3
    assert lib.aclDestroyScalarList(sl) == 0
    assert lib.aclnnEmuLiveHandles() == live


def test_array_sizes():
    fa = lib.aclCreateFloatArray([1.0, 2.0], 2)
    ba = lib.aclCreateBoolArray([True, False, True], 3)
    size = ffi.new("uint64_t *")
    assert lib.aclGetFloatArraySize(fa, size) == 0 and size[0] == 2
    assert lib.aclGetBoolArraySize(ba, size) == 0 and size[0] == 3
    wrong = ffi.cast("aclFloatArray *", ba)
    assert lib.aclGetFloatArraySize(wrong, size) == E.ACLNN_ERR_PARAM_INVALID and "is not an aclFloatArray" in msg()
    lib.aclDestroyFloatArray(fa)
    lib.aclDestroyBoolArray(ba)


def test_data_type_size():
    expect = {
        lib.ACL_FLOAT: 4, lib.ACL_FLOAT16: 2, lib.ACL_BF16: 2, lib.ACL_INT8: 1, lib.ACL_INT64: 8, lib.ACL_DOUBLE: 8,
        lib.ACL_COMPLEX128: 16, lib.ACL_BOOL: 1, lib.ACL_INT4: 0, lib.ACL_DT_UNDEFINED: 0,
    }  # fmt: skip
    for dt, size in expect.items():
        assert lib.aclDataTypeSize(dt) == size, dt


def test_float16_conversions_match_numpy():
    rng = np.random.default_rng(0)
    values = np.concatenate([
        rng.standard_normal(2000).astype(np.float32) * np.float32(1000),
        np.array([0.0, -0.0, 65504.0, 65520.0, 1e-8, 6e-8, 5.96e-8, np.inf, -np.inf, 2.0**-24, 2.0**-25], np.float32),
    ])  # fmt: skip
    got = np.array([lib.aclFloatToFloat16(float(v)) for v in values], np.uint16)
    with np.errstate(over="ignore"):
        want16 = values.astype(np.float16)
    np.testing.assert_array_equal(got, want16.view(np.uint16))
    assert np.isnan(np.uint16(lib.aclFloatToFloat16(float("nan"))).view(np.float16))
    halves = np.arange(0, 65536, 7, dtype=np.uint32).astype(np.uint16)
    back = np.array([lib.aclFloat16ToFloat(int(h)) for h in halves], np.float32)
    want = halves.view(np.float16).astype(np.float32)
    np.testing.assert_array_equal(np.isnan(back), np.isnan(want))
    np.testing.assert_array_equal(back[~np.isnan(want)], want[~np.isnan(want)])


def test_python_scalar_and_tensor_list():
    gc.collect()
    live = lib.aclnnEmuLiveHandles()
    with aclnn_emu.Scalar(3, np.int64) as s:
        assert int(s.value) == 3
    a = aclnn_emu.Tensor(np.zeros(4, np.float32))
    b = aclnn_emu.Tensor(np.zeros((2, 2), np.float32))
    with aclnn_emu.TensorList([a, b]) as tl:
        assert len(tl) == 2
        assert a.shape == (4,)  # still usable while the list lives
    a.close()  # owned by the list: nothing to destroy twice
    b.close()
    gc.collect()
    assert lib.aclnnEmuLiveHandles() == live


@pytest.mark.parametrize(
    ("name", "value"), [("FRACTAL_NZ_C0_16", 50), ("FRACTAL_NZ_C0_2", 52), ("FRACTAL_NZ_C0_8", 54)]
)
def test_newer_cann_formats_round_trip(name, value):
    """CANN's later aclFormat values (50..54) are accepted and reported back."""
    assert getattr(lib, "ACL_FORMAT_" + name) == value
    with aclnn_emu.Tensor(np.zeros((2, 16), np.float16), format=name) as t:
        assert t.format == name
        fmt = ffi.new("aclFormat *")
        assert lib.aclGetFormat(t.handle, fmt) == 0 and fmt[0] == value
