"""Every bad argument gets the library's status and a message naming the parameter (issue 22).

Each class of bad input is driven through every operator's array API and
handle API: a value of the right kind reaches the C checks (their status and
message, as the C API gives for the same values); a value the C type cannot
hold is one AclnnError naming the parameter and its range; a value of the
wrong Python type is a TypeError naming the parameter.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import errors as E
from aclnn_emu import lib

X = np.ones((1, 2, 8, 8), np.float32)
BOXES = np.array([[0, 0, 0, 4, 4], [0, 1, 1, 6, 6]], np.float32)
GRAD_ROI = np.ones((2, 2, 2, 2), np.float32)
GRAD_UP = np.ones((1, 2, 16, 16), np.float32)


@dataclass
class Op:
    name: str
    fn: Callable[..., Any]
    args: dict[str, Any]
    tensors: dict[str, str]  # Python parameter -> C parameter named when it is None
    null_status: int  # CANN's status for a NULL tensor
    sizes: dict[str, str] = field(default_factory=dict)  # size sequences -> C parameter
    ints: dict[str, tuple[str, int]] = field(default_factory=dict)  # int parameters -> (C parameter, bits)
    bools: tuple[str, ...] = ()
    floats: tuple[str, ...] = ()
    has_format: bool = False

    def call(self, **overrides: Any) -> Any:
        return self.fn(**{**self.args, **overrides})


OPS = [
    Op("upsample_bilinear2d", aclnn_emu.upsample_bilinear2d,
       dict(input=X, output_size=(16, 16), align_corners=False, scales_h=0.0, scales_w=0.0),
       {"input": "self"}, E.ACLNN_ERR_INNER_NULLPTR, sizes={"output_size": "outputSize"},
       bools=("align_corners",), floats=("scales_h", "scales_w"), has_format=True),
    Op("upsample_bilinear2d_backward_v2", aclnn_emu.upsample_bilinear2d_backward_v2,
       dict(grad_out=GRAD_UP, output_size=(16, 16), input_size=(1, 2, 8, 8), align_corners=False),
       {"grad_out": "gradOut"}, E.ACLNN_ERR_PARAM_NULLPTR, sizes={"output_size": "outputSize", "input_size": "input"},
       bools=("align_corners",), floats=("scales_h", "scales_w"), has_format=True),
    Op("upsample_bilinear2d_backward", aclnn_emu.upsample_bilinear2d_backward,
       dict(grad_out=GRAD_UP, output_size=(16, 16), input_size=(1, 2, 8, 8), align_corners=False),
       {"grad_out": "gradOut"}, E.ACLNN_ERR_PARAM_NULLPTR, sizes={"output_size": "outputSize", "input_size": "input"},
       bools=("align_corners",), floats=("scales_h", "scales_w"), has_format=True),
    Op("roi_align_v2", aclnn_emu.roi_align_v2,
       dict(input=X, boxes=BOXES, pooled_height=2, pooled_width=2, spatial_scale=1.0, sampling_ratio=2),
       {"input": "self", "boxes": "boxes"}, E.ACLNN_ERR_PARAM_NULLPTR,
       ints={"pooled_height": ("pooledHeight", 64), "pooled_width": ("pooledWidth", 64),
             "sampling_ratio": ("samplingRatio", 64)},
       bools=("aligned",), floats=("spatial_scale",)),
    Op("roi_align", aclnn_emu.roi_align,
       dict(input=X, rois=BOXES[:, 1:], batch_indices=np.zeros(2, np.int32), mode="avg", output_height=2,
            output_width=2, sampling_ratio=2, spatial_scale=1.0),
       {"input": "self", "rois": "rois", "batch_indices": "batchIndices"}, E.ACLNN_ERR_PARAM_NULLPTR,
       ints={"output_height": ("outputHeight", 32), "output_width": ("outputWidth", 32),
             "sampling_ratio": ("samplingRatio", 32)},
       floats=("spatial_scale",)),
    Op("roi_align_v2_backward", aclnn_emu.roi_align_v2_backward,
       dict(grad_output=GRAD_ROI, boxes=BOXES, input_shape=(1, 2, 8, 8), pooled_height=2, pooled_width=2,
            spatial_scale=1.0, sampling_ratio=2),
       {"grad_output": "gradOutput", "boxes": "boxes"}, E.ACLNN_ERR_PARAM_NULLPTR,
       sizes={"input_shape": "inputShape"},
       ints={"pooled_height": ("pooledHeight", 64), "pooled_width": ("pooledWidth", 64),
             "sampling_ratio": ("samplingRatio", 64)},
       bools=("aligned",), floats=("spatial_scale",)),
]  # fmt: skip
IDS = [op.name for op in OPS]


def raises_status(status: int, *fragments: str, fn: Callable[[], Any]) -> E.AclnnError:
    with pytest.raises(E.AclnnError) as info:
        fn()
    err = info.value
    assert err.status == status, (err.status, err.message)
    for f in fragments:
        assert f in err.message, (f, err.message)
    return err


def test_the_good_calls_run():
    for op in OPS:
        assert op.call().size > 0, op.name


# ---- values of the right kind: the library decides ---------------------------------


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_negative_sizes_reach_the_library(op):
    for name, c_name in {**op.sizes, **{k: v[0] for k, v in op.ints.items()}}.items():
        if name == "sampling_ratio":
            raises_status(E.ACLNN_ERR_PARAM_INVALID, "samplingRatio", fn=lambda: op.call(sampling_ratio=-1))
            continue
        value = op.args[name]
        bad = [*value[:-1], -3] if isinstance(value, tuple) else -3
        raises_status(E.ACLNN_ERR_PARAM_INVALID, c_name, fn=lambda bad=bad, name=name: op.call(**{name: bad}))


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_results_of_2_63_bytes_or_more_are_refused_by_the_library(op):
    huge = {
        "upsample_bilinear2d": dict(output_size=(2**31, 2**31)),
        "upsample_bilinear2d_backward_v2": dict(input_size=(2**40, 2**40, 8, 8)),
        "upsample_bilinear2d_backward": dict(input_size=(2**40, 2**40, 8, 8)),
        "roi_align_v2": dict(pooled_height=2**40, pooled_width=2**40),
        "roi_align": None,  # int32 sizes: the product stays far below 2**63 bytes
        "roi_align_v2_backward": dict(input_shape=(2**62, 2, 8, 8)),
    }[op.name]
    if huge is None:
        pytest.skip("int32 sizes cannot describe 2**63 bytes")
    raises_status(E.ACLNN_ERR_PARAM_INVALID, "overflows int64", fn=lambda: op.call(**huge))


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_null_tensors_get_canns_status(op):
    for name, c_name in op.tensors.items():
        raises_status(op.null_status, f"{c_name} is NULL", fn=lambda name=name: op.call(**{name: None}))


@pytest.mark.parametrize("op", [op for op in OPS if op.sizes], ids=[op.name for op in OPS if op.sizes])
def test_size_arrays_of_the_wrong_length_reach_the_library(op):
    for name in op.sizes:
        value = op.args[name]
        raises_status(E.ACLNN_ERR_PARAM_INVALID, fn=lambda value=value, name=name: op.call(**{name: (*value, 4)}))


def test_roi_align_mode_none_and_nul():
    op = OPS[IDS.index("roi_align")]
    raises_status(E.ACLNN_ERR_PARAM_INVALID, "mode is NULL", fn=lambda: op.call(mode=None))
    raises_status(E.ACLNN_ERR_PARAM_INVALID, "mode contains a NUL", fn=lambda: op.call(mode="avg\0max"))


# ---- values the C type cannot hold -------------------------------------------------------


@pytest.mark.parametrize("op", [op for op in OPS if op.ints], ids=[op.name for op in OPS if op.ints])
def test_ints_beyond_their_c_type_name_the_parameter_and_range(op):
    for name, (_, bits) in op.ints.items():
        for bad in (2 ** (bits - 1), -(2 ** (bits - 1)) - 1):
            err = raises_status(
                E.ACLNN_ERR_PARAM_INVALID, name, f"int{bits}", fn=lambda b=bad, n=name: op.call(**{n: b})
            )
            assert "must be in [" in err.message and str(bad) in err.message


@pytest.mark.parametrize("op", [op for op in OPS if op.sizes], ids=[op.name for op in OPS if op.sizes])
def test_size_values_beyond_int64_name_the_parameter(op):
    for name in op.sizes:
        value = op.args[name]
        raises_status(E.ACLNN_ERR_PARAM_INVALID, f"{name}[0]", "int64",
                      fn=lambda value=value, name=name: op.call(**{name: (2**63, *value[1:])}))  # fmt: skip


@pytest.mark.parametrize("op", [op for op in OPS if op.has_format], ids=[op.name for op in OPS if op.has_format])
def test_unknown_format_names_the_parameter_and_the_choices(op):
    raises_status(
        E.ACLNN_ERR_PARAM_INVALID, "format must be one of", "NCHW", "'NWHC'", fn=lambda: op.call(format="NWHC")
    )
    with pytest.raises(TypeError, match="format must be a format name"):
        op.call(format=None)


def test_device_buffer_sizes_beyond_size_t():
    raises_status(E.ACL_ERROR_INVALID_PARAM, "nbytes", "uint64", fn=lambda: aclnn_emu.DeviceBuffer(-1))
    raises_status(E.ACL_ERROR_INVALID_PARAM, "nbytes", fn=lambda: aclnn_emu.DeviceBuffer(2**64))
    with pytest.raises(TypeError, match="nbytes must be an int"):
        aclnn_emu.DeviceBuffer("64")


def test_int_array_values_beyond_int64():
    raises_status(E.ACLNN_ERR_PARAM_INVALID, "values[1]", fn=lambda: aclnn_emu.IntArray([1, 2**63]))


# ---- values of the wrong Python type --------------------------------------------------------


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_wrong_python_types_are_type_errors_naming_the_parameter(op):
    for name in op.ints:
        with pytest.raises(TypeError, match=f"{name} must be an int, got str '3'"):
            op.call(**{name: "3"})
        with pytest.raises(TypeError, match=f"{name} must be an int, got float"):
            op.call(**{name: 2.0})
    for name in op.bools:
        with pytest.raises(TypeError, match=f"{name} must be a bool, got str 'yes'"):
            op.call(**{name: "yes"})
    for name in op.floats:
        with pytest.raises(TypeError, match=f"{name} must be a float, got str"):
            op.call(**{name: "1.0"})
    for name in op.sizes:
        with pytest.raises(TypeError, match=f"{name} must be a sequence of ints"):
            op.call(**{name: "16"})
    with pytest.raises(TypeError, match="stream must be an aclnn_emu.Stream or None, got str"):
        op.call(stream="s")


# ---- the handle-level API ---------------------------------------------------------------------


def _handle_calls():
    """Each operator's phase one over good handles, as a function of overrides."""
    x = aclnn_emu.Tensor(X, format="NCHW")
    boxes = aclnn_emu.Tensor(BOXES)
    up_out = aclnn_emu.Tensor(np.empty((1, 2, 16, 16), np.float32), format="NCHW")
    down_out = aclnn_emu.Tensor(np.empty((1, 2, 8, 8), np.float32), format="NCHW")
    grad_up = aclnn_emu.Tensor(GRAD_UP, format="NCHW")
    roi_out = aclnn_emu.Tensor(np.empty((2, 2, 2, 2), np.float32), format="NCHW")
    grad_roi = aclnn_emu.Tensor(GRAD_ROI, format="NCHW")
    rois = aclnn_emu.Tensor(np.ascontiguousarray(BOXES[:, 1:]))
    idx = aclnn_emu.Tensor(np.zeros(2, np.int32))
    osize, isize = aclnn_emu.IntArray([16, 16]), aclnn_emu.IntArray([1, 2, 8, 8])
    m = aclnn_emu
    return {
        "upsample_bilinear2d": (m.upsample_bilinear2d_get_workspace_size,
                                dict(self=x, output_size=osize, align_corners=False, scales_h=0.0, scales_w=0.0,
                                     out=up_out), E.ACLNN_ERR_INNER_NULLPTR),
        "upsample_bilinear2d_backward_v2": (m.upsample_bilinear2d_backward_v2_get_workspace_size,
                                            dict(grad_out=grad_up, output_size=osize, input_size=isize,
                                                 align_corners=False, scales_h=0.0, scales_w=0.0, out=down_out),
                                            E.ACLNN_ERR_PARAM_NULLPTR),
        "upsample_bilinear2d_backward": (m.upsample_bilinear2d_backward_get_workspace_size,
                                         dict(grad_out=grad_up, output_size=osize, input_size=isize,
                                              align_corners=False, scales_h=0.0, scales_w=0.0, out=down_out),
                                         E.ACLNN_ERR_PARAM_NULLPTR),
        "roi_align_v2": (m.roi_align_v2_get_workspace_size,
                         dict(self=x, boxes=boxes, pooled_height=2, pooled_width=2, spatial_scale=1.0,
                              sampling_ratio=2, aligned=False, out=roi_out), E.ACLNN_ERR_PARAM_NULLPTR),
        "roi_align": (m.roi_align_get_workspace_size,
                      dict(self=x, rois=rois, batch_indices=idx, mode="avg", output_height=2, output_width=2,
                           sampling_ratio=2, spatial_scale=1.0, out=roi_out), E.ACLNN_ERR_PARAM_NULLPTR),
        "roi_align_v2_backward": (m.roi_align_v2_backward_get_workspace_size,
                                  dict(grad_output=grad_roi, boxes=boxes, input_shape=isize, pooled_height=2,
                                       pooled_width=2, spatial_scale=1.0, sampling_ratio=2, aligned=False,
                                       grad_input=down_out), E.ACLNN_ERR_PARAM_NULLPTR),
    }  # fmt: skip


@pytest.mark.parametrize("name", IDS)
def test_handle_level_bad_arguments(name):
    fn, args, null_status = _handle_calls()[name]
    ws, ex = fn(**args)
    ex.close()
    tensor_params = [k for k, v in args.items() if isinstance(v, aclnn_emu.Tensor)]
    for p in tensor_params:  # None is a NULL handle: the library's status
        with pytest.raises(E.AclnnError) as info:
            fn(**{**args, p: None})
        assert info.value.status == null_status and "is NULL" in info.value.message
        with pytest.raises(TypeError, match=f"{p} must be a Tensor or None, got ndarray"):
            fn(**{**args, p: np.ones(4, np.float32)})
    for p, v in args.items():
        if isinstance(v, bool):
            with pytest.raises(TypeError, match=f"{p} must be a bool"):
                fn(**{**args, p: "yes"})
        elif isinstance(v, int):
            with pytest.raises(TypeError, match=f"{p} must be an int"):
                fn(**{**args, p: "2"})
            bits = 32 if name == "roi_align" else 64
            raises_status(
                E.ACLNN_ERR_PARAM_INVALID, p, f"int{bits}", fn=lambda p=p, bits=bits: fn(**{**args, p: 2**bits})
            )
        elif isinstance(v, float):
            with pytest.raises(TypeError, match=f"{p} must be a float"):
                fn(**{**args, p: "1.0"})
        elif isinstance(v, aclnn_emu.IntArray):
            with pytest.raises(TypeError, match=f"{p} must be a IntArray or None"):
                fn(**{**args, p: [16, 16]})


# ---- no leak on a failed call ------------------------------------------------------------------


def test_a_closed_stream_leaks_nothing():
    s = aclnn_emu.Stream()
    s.close()
    gc.collect()
    before = lib.aclnnEmuLiveHandles()
    for _ in range(1000):
        with pytest.raises(E.HandleClosedError):
            aclnn_emu.upsample_bilinear2d(X, (16, 16), stream=s)
    gc.collect()
    assert lib.aclnnEmuLiveHandles() == before


def test_failed_calls_at_every_step_leak_nothing():
    gc.collect()
    before = lib.aclnnEmuLiveHandles()
    for op in OPS:
        for _ in range(50):
            for bad in ({next(iter(op.tensors)): None}, {"stream": "s"}):
                with pytest.raises((E.AclnnError, TypeError)):
                    op.call(**bad)
    gc.collect()
    assert lib.aclnnEmuLiveHandles() == before


# ---- messages that say what is wrong ------------------------------------------------------------


def test_negative_stride_is_reported_as_the_stride():
    with pytest.raises(E.ParamInvalidError, match=r"stride\[0\] is negative \(-1\)"):
        aclnn_emu.Tensor(aclnn_emu.DeviceBuffer(64), shape=(4,), strides=(-1,), dtype=np.float32)


def test_v1_backward_with_nd_out_says_how_cann_reads_it():
    with pytest.raises(E.ParamInvalidError, match="read as NHWC because out's format is ND"):
        aclnn_emu.upsample_bilinear2d_backward(GRAD_UP, (16, 16), (1, 2, 8, 8), format="ND")


def test_overlap_message_says_why_interleaved_views_are_refused():
    base = np.zeros(2 * 16 * 16, np.float32)
    grad = base[0::2].reshape(1, 1, 16, 16)  # even elements
    out = base[1::2].reshape(1, 1, 16, 16)[:, :, :8, :8]  # odd elements: no element shared
    with pytest.raises(E.ParamInvalidError, match="byte ranges .* intersect .*interleaved views that share no element"):
        aclnn_emu.upsample_bilinear2d_backward_v2(grad, (16, 16), (1, 1, 8, 8), out=out)


def test_cache_bytes_option_and_names_with_nul():
    old = aclnn_emu.get_option("ACLNN_EMU_CACHE_BYTES")
    try:
        aclnn_emu.set_option("ACLNN_EMU_CACHE_BYTES", 0)
        assert aclnn_emu.get_option("ACLNN_EMU_CACHE_BYTES") == 0
        raises_status(E.ACL_ERROR_INVALID_PARAM, ">= 0", fn=lambda: aclnn_emu.set_option("ACLNN_EMU_CACHE_BYTES", -1))
    finally:
        aclnn_emu.set_option("ACLNN_EMU_CACHE_BYTES", old)
    strict = aclnn_emu.get_option("ACLNN_EMU_STRICT")
    raises_status(E.ACL_ERROR_INVALID_PARAM, "NUL", fn=lambda: aclnn_emu.set_option("ACLNN_EMU_STRICT\0X", 1))
    assert aclnn_emu.get_option("ACLNN_EMU_STRICT") == strict  # the truncated name was not set


# ---- the forward follows the backward's rules ----------------------------------------------------


@pytest.mark.parametrize("scale", [float("nan"), float("inf")])
@pytest.mark.parametrize("direction", ["roi_align_v2", "roi_align", "roi_align_v2_backward"])
def test_non_finite_spatial_scale_warns_in_both_directions(direction, scale):
    op = OPS[IDS.index(direction)]
    # (the backward also says, at synchronisation, that it skips the boxes)
    with pytest.warns(aclnn_emu.AclnnWarning, match="spatialScale is (NaN|infinite); CANN accepts it|are skipped"):
        op.call(spatial_scale=scale)
    aclnn_emu.set_option("ACLNN_EMU_STRICT", 1)
    try:
        raises_status(
            E.ACLNN_ERR_PARAM_INVALID, "spatialScale", "(strict mode)", fn=lambda: op.call(spatial_scale=scale)
        )
    finally:
        aclnn_emu.set_option("ACLNN_EMU_STRICT", 0)


@pytest.mark.parametrize("direction", ["roi_align_v2", "roi_align_v2_backward"])
def test_sampling_ratio_above_int32_warns_in_both_directions(direction):
    op = OPS[IDS.index(direction)]
    with pytest.warns(aclnn_emu.AclnnWarning, match=r"samplingRatio 4294967298 is above INT32_MAX.*\(2 samples"):
        cast = op.call(sampling_ratio=2**32 + 2)
    aclnn_emu.set_option("ACLNN_EMU_STRICT", 1)
    try:
        raises_status(E.ACLNN_ERR_PARAM_INVALID, "above INT32_MAX", fn=lambda: op.call(sampling_ratio=2**32 + 2))
    finally:
        aclnn_emu.set_option("ACLNN_EMU_STRICT", 0)
    assert np.all(np.isfinite(cast))


# ---- cases the suite lacked ------------------------------------------------------------------------


def test_forward_shrink_within_50x_with_a_scale_that_is_not_the_size_ratio():
    from reference import cann_upsample_forward_plan, upsample_bilinear2d_forward

    # int(100 * 0.105) == 10 and 1 / 0.105 = 9.52 <= 50: CANN's UpsampleBilinear2d with the scale, not 10.
    plan = cann_upsample_forward_plan((100, 100), (10, 10), False, 0.105, 0.105, np.float32)
    assert plan[0] == "upsample" and abs(float(plan[1]) - 1 / 0.105) < 1e-5
    x = np.random.default_rng(7).standard_normal((1, 2, 100, 100)).astype(np.float32)
    got = aclnn_emu.upsample_bilinear2d(x, (10, 10), False, 0.105, 0.105)
    ratio = aclnn_emu.upsample_bilinear2d(x, (10, 10), False, 0.0, 0.0)
    assert np.array_equal(got, upsample_bilinear2d_forward(x, (10, 10), False, 0.105, 0.105))
    assert not np.array_equal(got, ratio)


def test_roi_align_v2_refuses_a_self_overlapping_out():
    out = np.lib.stride_tricks.as_strided(np.zeros(8, np.float32), (2, 2, 2, 2), (0, 0, 8, 4))
    raises_status(E.ACLNN_ERR_PARAM_INVALID, "out has overlapping strides", fn=lambda: OPS[3].call(out=out))


# ---- non-finite values propagate as CANN's kernels do -------------------------------------------------


def _assert_same_non_finite(got, ref):
    assert np.array_equal(np.isnan(got), np.isnan(ref)), (np.isnan(got).sum(), np.isnan(ref).sum())
    assert np.array_equal(np.isposinf(got), np.isposinf(ref)) and np.array_equal(np.isneginf(got), np.isneginf(ref))
    finite = np.isfinite(ref)
    np.testing.assert_allclose(got[finite], ref[finite], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "g_hw, in_hw, align, scales",
    [((40, 40), (20, 20), False, (0.0, 0.0)),  # the issue's case: 252 NaNs and 4 Infs
     ((32, 48), (16, 24), False, (2.0, 2.0)),  # 2x upsample backward
     ((33, 47), (17, 23), True, (0.0, 0.0)),
     ((24, 40), (24, 20), False, (0.0, 0.0)),  # H pass skipped (identity)
     ((50, 30), (20, 30), False, (0.0, 0.0))],  # W pass skipped
)  # fmt: skip
def test_non_finite_grad_spreads_over_canns_cube_tiles(g_hw, in_hw, align, scales):
    from reference import upsample_grad_cube

    rng = np.random.default_rng(sum(g_hw))
    g = rng.standard_normal((1, 2, *g_hw)).astype(np.float32)
    g[0, 0, g_hw[0] // 3, g_hw[1] // 2] = np.inf
    g[0, 1, 1, 2] = -np.inf
    g[0, 1, g_hw[0] - 2, g_hw[1] - 5] = np.nan
    got = aclnn_emu.upsample_bilinear2d_backward_v2(g, g_hw, (1, 2, *in_hw), align, *scales)
    ref = upsample_grad_cube(g, in_hw, align, *scales)
    _assert_same_non_finite(got, ref)
    if g_hw == (40, 40):
        assert np.isnan(got[0, 0]).sum() == 252 and np.isinf(got[0, 0]).sum() == 4  # one Inf


def test_non_finite_grad_in_nhwc_and_float16():
    from reference import upsample_grad_cube

    g = np.random.default_rng(3).standard_normal((1, 3, 40, 40)).astype(np.float32)
    g[0, 1, 20, 7] = np.inf
    ref = upsample_grad_cube(g, (20, 20), False)
    nhwc = aclnn_emu.upsample_bilinear2d_backward_v2(
        np.ascontiguousarray(g.transpose(0, 2, 3, 1)), (40, 40), (1, 20, 20, 3), format="NHWC"
    )
    _assert_same_non_finite(nhwc.transpose(0, 3, 1, 2), ref)
    half = aclnn_emu.upsample_bilinear2d_backward_v2(g.astype(np.float16), (40, 40), (1, 3, 20, 20))
    assert np.array_equal(np.isnan(half), np.isnan(ref)) and np.array_equal(np.isinf(half), np.isinf(ref))


def test_finite_grads_keep_the_kernels_bits_next_to_a_non_finite_plane():
    g = np.random.default_rng(4).standard_normal((1, 2, 40, 40)).astype(np.float32)
    clean = aclnn_emu.upsample_bilinear2d_backward_v2(g, (40, 40), (1, 2, 20, 20))
    g[0, 0, 5, 5] = np.nan
    dirty = aclnn_emu.upsample_bilinear2d_backward_v2(g, (40, 40), (1, 2, 20, 20))
    assert np.array_equal(dirty[0, 1], clean[0, 1])
    finite = np.isfinite(dirty[0, 0])
    assert np.array_equal(dirty[0, 0][finite], clean[0, 0][finite])


@pytest.mark.parametrize(
    "in_hw, out_hw, scales, align",
    [((64, 64), (16, 16), (0.25, 0.25), False),  # 4x downscale: rows 4j and 4j+3 carry no weight
     ((20, 30), (50, 60), (2.5, 2.0), False),  # upscale
     ((33, 17), (66, 51), (2.0, 3.0), True),
     ((40, 40), (20, 40), (0.5, 1.0), False)],  # W pass skipped (scale 1)
)  # fmt: skip
def test_non_finite_input_spreads_over_canns_forward_cube_tiles(in_hw, out_hw, scales, align):
    from reference import cann_upsample_forward_plan, upsample_forward_cube

    assert cann_upsample_forward_plan(in_hw, out_hw, align, *scales, np.float32)[0] == "upsample"
    rng = np.random.default_rng(sum(in_hw))
    x = rng.standard_normal((2, 3, *in_hw)).astype(np.float32)
    x[0, 0, in_hw[0] // 2, in_hw[1] // 3] = np.inf
    x[1, 2, 0, 0] = -np.inf
    x[1, 1, 4, in_hw[1] - 1] = np.nan
    got = aclnn_emu.upsample_bilinear2d(x, out_hw, align, *scales)
    ref = upsample_forward_cube(x, out_hw, align, *scales, cores=24)  # Ascend910B1's AI cores
    _assert_same_non_finite(got, ref)
    assert np.isnan(got).sum() > np.isinf(got).sum()  # zero weights met the Infs


def test_forward_without_scales_takes_resize_v2_and_spreads_nothing():
    x = np.random.default_rng(1).standard_normal((1, 1, 64, 64)).astype(np.float32)
    x[0, 0, 32, 32] = np.inf
    y = aclnn_emu.upsample_bilinear2d(x, (16, 16))  # ResizeBilinearV2: a vector kernel, no cube window
    assert np.isnan(y).sum() == 0


def test_ascend950_takes_one_sample_of_a_zero_size_aligned_box():
    # arch35 ROIAlignGrad: max(ceil(len / pooled), 1) samples a bin; 910B's TBE kernel takes ceil(0) = 0.
    code = """
import warnings, numpy as np, aclnn_emu
aclnn_emu.set_soc("{soc}")
g = np.arange(1, 9, dtype=np.float32).reshape(1, 2, 2, 2)
box = np.array([[0, 3.5, 2.5, 3.5, 2.5]], np.float32)  # aligned: the point (x, y) = (3, 2)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    gi = aclnn_emu.roi_align_v2_backward(g, box, (1, 2, 8, 8), 2, 2, 1.0, 0, True)
want = np.zeros((1, 2, 8, 8), np.float32)
if "{soc}" == "Ascend950":
    want[0, :, 2, 3] = g.sum(axis=(2, 3))[0]
    assert not w, [str(x.message) for x in w]
else:
    assert any("no sample" in str(x.message) or "skipped" in str(x.message) for x in w), [str(x.message) for x in w]
assert np.array_equal(gi, want), gi[0, :, 1:4, 2:5]
print("ok")
"""
    import subprocess
    import sys

    for soc in ("Ascend950", "Ascend910B1"):
        r = subprocess.run([sys.executable, "-c", code.format(soc=soc)], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and r.stdout.strip() == "ok", (soc, r.stdout, r.stderr)
