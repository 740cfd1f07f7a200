"""aclnnRoiAlign (ONNX-style: boxes and their image indices apart) against a model of CANN's ROIAlign kernel, and its
checks."""

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ParamInvalidError, ffi, lib

from reference import cann_roi_align_forward
from reference import roi_forward_case as case


def f32(*shape):
    return np.zeros(shape, np.float32)


@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("i", range(10))
def test_onnx_roi_align_is_bit_exact_to_cann_model(i, mode):
    x, boxes, scale, ph, pw = case(100 + i)
    ratio = i % 3
    out = aclnn_emu.roi_align(x, boxes[:, 1:], boxes[:, 0].astype(np.int32), mode, ph, pw, ratio, scale)
    ref = cann_roi_align_forward(x, boxes, ph, pw, scale, ratio, 0, max_mode=mode == "max")
    np.testing.assert_array_equal(out, ref)


def call_onnx(x, rois, idx, out, mode="avg", oh=2, ow=2, ratio=0, scale=1.0):
    with (
        aclnn_emu.Tensor(x, format="NCHW") as tx,
        aclnn_emu.Tensor(rois, format="ND") as tr,
        aclnn_emu.Tensor(idx, format="ND") as ti,
        aclnn_emu.Tensor(out, format="NCHW") as to,
    ):
        return aclnn_emu.roi_align_get_workspace_size(tx, tr, ti, mode, oh, ow, ratio, scale, to)


I32 = np.zeros(1, np.int32)


@pytest.mark.parametrize(
    "args, kw, message",
    [
        ((f32(1, 1, 4, 4), f32(1, 4), f32(1), f32(1, 1, 2, 2)), {}, "batchIndices dtype must be INT32, got FLOAT"),
        ((f32(1, 1, 4, 4), f32(2, 4), I32, f32(2, 1, 2, 2)), {},
         "batchIndices.shape[0] must equal rois.shape[0] (2), got 1"),
        ((f32(1, 1, 4, 4), f32(1, 5), I32, f32(1, 1, 2, 2)), {}, "rois.shape[1] must equal"),
        ((f32(1, 1, 4, 4), f32(1, 4), I32, f32(1, 1, 2, 2)), {"mode": "sum"}, 'mode must be "avg" or "max", got "sum"'),
        ((f32(1, 1, 4, 4), f32(1, 4), I32, f32(1, 1, 2, 2)), {"scale": -1.0}, "spatialScale must be > 0"),
        ((f32(1, 1, 4, 4), f32(1, 4), I32, f32(1, 1, 2, 2)), {"ratio": -2}, "samplingRatio must be >= 0, got -2"),
    ],
)  # fmt: skip
def test_onnx_checks(args, kw, message):
    with pytest.raises(ParamInvalidError) as e:
        call_onnx(*args, **kw)
    assert e.value.status == 161002
    assert message in e.value.message
    assert e.value.message.startswith("aclnnRoiAlignGetWorkspaceSize: ")


def test_onnx_null_mode_and_order():
    with (
        aclnn_emu.Tensor(f32(1, 1, 4, 4), format="NCHW") as tx,
        aclnn_emu.Tensor(f32(1, 4), format="ND") as tr,
        aclnn_emu.Tensor(I32, format="ND") as ti,
        aclnn_emu.Tensor(f32(1, 1, 2, 2), format="NCHW") as to,
    ):
        ws, ex = ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")
        st = lib.aclnnRoiAlignGetWorkspaceSize(tx.handle, tr.handle, ti.handle, ffi.NULL, 2, 2, 0, 1.0, to.handle,
                                               ws, ex)  # fmt: skip
        assert st == 161002 and "mode is NULL" in aclnn_emu.errors.recent_error_message()
        st = lib.aclnnRoiAlignGetWorkspaceSize(tx.handle, ffi.NULL, ti.handle, b"avg", 2, 2, 0, 1.0, to.handle, ws, ex)
        assert st == 161001 and "rois is NULL" in aclnn_emu.errors.recent_error_message()
    # Shapes (4) before the mode (5).
    with pytest.raises(ParamInvalidError, match="rois.shape"):
        call_onnx(f32(1, 1, 4, 4), f32(1, 3), I32, f32(1, 1, 2, 2), mode="sum")
