"""aclnnResize against float32 models of CANN's TBE kernels (tests/reference.py), torch, and its checks."""

import numpy as np
import pytest
from upsample_nearest_cases import array, check_message, torch

import aclnn_emu

from reference import F32, cann_resize_bilinear, nearest_resize

op = aclnn_emu.resize
SIZES = [((2, 3, 5, 7), (9, 4)), ((1, 2, 4, 4), (8, 8)), ((1, 1, 6, 3), (2, 11))]
# W upscales by 2, 4 and 8 long enough for the kernels' periodic stretch, with other factors along H (so
# the x and y weights of a product differ).
SIZES += [((1, 2, 5, 16), (15, 32)), ((2, 1, 6, 12), (12, 48)), ((1, 1, 4, 9), (8, 72))]


def _scales(shape, out):
    return (1.0, 1.0, out[0] / shape[2], out[1] / shape[3])


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("shape, out", SIZES)
def test_nearest_copies_floor_of_dst_times_in_over_out(shape, out, dtype, rng):
    x = array(rng, shape, dtype)
    want = nearest_resize(x, out, [F32(i) / F32(o) for i, o in zip(shape[2:], out)])
    np.testing.assert_array_equal(op(x, _scales(shape, out)).view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("shape, out", SIZES)
def test_bilinear_weighs_each_pixel_as_resize_bilinear_v2(shape, out, rng):
    x = array(rng, shape, "float32")
    np.testing.assert_array_equal(op(x, _scales(shape, out), "bilinear"), cann_resize_bilinear(x, out))


@pytest.mark.parametrize("shape, out", [((1, 2, 3, 5), (7, 4)), *SIZES[3:]])
def test_bilinear_half_rounds_once(shape, out, rng):
    x = array(rng, shape, "float16")
    want = cann_resize_bilinear(x.astype(np.float32), out).astype(np.float16)
    np.testing.assert_array_equal(op(x, _scales(shape, out), "bilinear"), want)


@pytest.mark.parametrize("view", [np.s_[:, :, ::2], np.s_[..., ::2], np.s_[:, :, 1:, :]])
def test_bilinear_half_channels_last_and_strided(view, rng):
    x = array(rng, (2, 6, 18, 10), "float16")[view]
    want = cann_resize_bilinear(x.astype(np.float32), (11, 2 * x.shape[2]), channels_last=True)
    got = op(x, (1.0, 11 / x.shape[1], 2.0, 1.0), "bilinear", format="NHWC")
    np.testing.assert_array_equal(got, want.astype(np.float16))


def test_bilinear_reads_a_strided_view_in_place(rng):
    base = array(rng, (2, 3, 6, 14), "float32")
    x = base[:, :, 1:, ::2]  # W stride 2, H stride 14: the float32 path's tap offsets carry the stride
    got = op(x, _scales(x.shape, (9, 11)), "bilinear")
    np.testing.assert_array_equal(got, cann_resize_bilinear(np.ascontiguousarray(x), (9, 11)))


# Channels innermost: dense rows vectorise along C (odd and single C, x2, other factors); a W-strided
# view keeps C dense; a C-strided one does not.
NHWC = [
    ((1, 5, 7, 3), (9, 4), None),
    ((2, 6, 9, 16), (12, 18), None),
    ((1, 4, 5, 1), (8, 15), None),
    ((1, 5, 14, 17), (10, 7), np.s_[:, :, ::2]),
    ((1, 3, 4, 10), (7, 9), np.s_[..., ::2]),
]


@pytest.mark.parametrize("shape, out, view", NHWC)
def test_nhwc(shape, out, view, rng):
    x = array(rng, shape, "float32")
    x = x if view is None else x[view]
    got = op(x, (1.0, out[0] / x.shape[1], out[1] / x.shape[2], 1.0), "bilinear", format="NHWC")
    np.testing.assert_array_equal(got, cann_resize_bilinear(np.ascontiguousarray(x), out, channels_last=True))


@pytest.mark.parametrize("fmt", ["NCHW", "NHWC"])
def test_bilinear_streams_a_large_output(fmt, rng):
    # 32 MiB out: beyond emu_stream_bytes on any machine, so rows are made in L1 and streamed.
    shape = (1, 512, 64, 64) if fmt == "NCHW" else (1, 64, 64, 512)
    x = array(rng, shape, "float32")
    scales = (1.0, 1.0, 2.0, 2.0) if fmt == "NCHW" else (1.0, 2.0, 2.0, 1.0)
    got = op(x, scales, "bilinear", format=fmt)
    np.testing.assert_array_equal(got, cann_resize_bilinear(x, (128, 128), channels_last=fmt == "NHWC"))


@pytest.mark.parametrize("offset", [1, 4])
def test_bilinear_streams_into_out_off_the_cache_lines(offset, rng):
    # out= starting `offset` floats into a cache line (numpy's large arrays start 4 in): rows of 8 lines
    # stream, their partial lines at either end through the cache; nothing outside the view is written.
    x = array(rng, (1, 512, 64, 64), "float32")
    buf = np.full(512 * 128 * 128 + 64, 7.0, np.float32)
    start = (-buf.ctypes.data // 4) % 16 + offset
    view = buf[start : start + 512 * 128 * 128].reshape(1, 512, 128, 128)
    assert view.nbytes >= 32 << 20 and view.ctypes.data % 64 == offset * 4
    op(x, (1.0, 1.0, 2.0, 2.0), "bilinear", out=view)
    np.testing.assert_array_equal(view, cann_resize_bilinear(x, (128, 128)))
    np.testing.assert_array_equal(buf[:start], 7.0)
    np.testing.assert_array_equal(buf[start + view.size :], 7.0)


@pytest.mark.skipif(torch is None, reason="torch is not installed")
@pytest.mark.parametrize("shape, out", SIZES)
def test_agrees_with_torch(shape, out, rng):
    x = array(rng, shape, "float32")
    t = torch.from_numpy(x)
    bilinear = torch.nn.functional.interpolate(t, size=out, mode="bilinear", align_corners=False).numpy()
    np.testing.assert_allclose(op(x, _scales(shape, out), "bilinear"), bilinear, rtol=1e-5, atol=1e-5)
    nearest = torch.nn.functional.interpolate(t, size=out, mode="nearest").numpy()
    np.testing.assert_array_equal(op(x, _scales(shape, out), "nearest"), nearest)


def test_cann_example_values():
    x = np.array([1, 2, 3, 4], np.float32).reshape(1, 1, 2, 2)  # test_aclnn_resize.cpp: scales (1, 1, 2, 2)
    np.testing.assert_array_equal(op(x, (1, 1, 2, 2)).ravel(), [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4])


def test_modes_are_prefixes_as_in_cann(rng):
    x = array(rng, (1, 1, 3, 3), "float32")
    np.testing.assert_array_equal(op(x, (1, 1, 2, 2), "nearest-exact"), op(x, (1, 1, 2, 2), "nearest"))


def test_bf16_bilinear_has_no_atlas_a2_kernel():
    pytest.importorskip("ml_dtypes")
    x = array(np.random.default_rng(0), (1, 1, 2, 2), "bfloat16")
    with pytest.raises(aclnn_emu.InnerError) as e:
        op(x, (1, 1, 2, 2), "bilinear")
    assert e.value.status == 561103


def _handle_call(x, out_shape, scales, mode="nearest", fmt="NCHW", out_fmt=None):
    with aclnn_emu.Tensor(x, format=fmt) as t, aclnn_emu.FloatArray(scales) as s:
        with aclnn_emu.Tensor(np.zeros(out_shape, x.dtype), format=out_fmt or fmt) as o:
            return aclnn_emu.resize_get_workspace_size(t, s, mode, o)


@pytest.mark.parametrize(
    "out_shape, scales, mode, out_fmt, message",
    [
        ((1, 1, 4, 4), (1, 1, 2, 2), "trilinear", None, "mode must be"),
        ((1, 1, 4, 4), (1, 1, 2, 2), "nearest", "NHWC", "out format must be NCHW"),
        ((1, 1, 5, 4), (1, 1, 2, 2), "nearest", None, "The dim of height is not matched"),
        ((1, 1, 4, 5), (1, 1, 2, 2), "nearest", None, "The dim of width is not matched"),  # 2 x 2 admits 3 and 4
        ((1, 2, 4, 4), (1, 1, 2, 2), "nearest", None, "The dim of batch or channel is not matched"),
        ((1, 1, 4, 4), (1, 2, 2), "nearest", None, "scales must have 4 values"),
        ((1, 1, 4), (1, 1, 2, 2), "nearest", None, "out must be 4-D"),
        ((1, 1, 4, 4), (1, 1, float("nan"), 2), "nearest", None, "The dim of height is not matched"),  # the x86 cast
        ((1, 1, 4, 4), (1, 1, 2, 1e30), "nearest", None, "The dim of width is not matched"),
    ],
)  # fmt: skip
def test_checks(out_shape, scales, mode, out_fmt, message):
    x = np.zeros((1, 1, 2, 2), np.float32)
    with pytest.raises(aclnn_emu.ParamInvalidError, match=message.replace("(", r"\(")) as e:
        _handle_call(x, out_shape, scales, mode, out_fmt=out_fmt)
    assert e.value.status == 161002


def test_dtype_is_checked():
    check_message(op, (np.zeros((1, 1, 2, 2), np.int32), (1, 1, 2, 2)), {}, "self dtype must be")
