# ruff: noqa: E501  (one row a CANN test case reads best unwrapped)
"""The expectations of ops-cv's L2 unit tests (op_host/op_api/test_aclnn_*_l2.cpp), replayed.

Each row is one of CANN's test cases: the tensors and attributes it passes to
phase one and the status it expects. Where a CANN test expects nothing (its
EXPECT is commented out), the row says what CANN's source gives.
"""

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import ffi, lib

OK, NULLPTR, INVALID = 0, 161001, 161002
F32, F16, BF16 = np.float32, np.float16, "bfloat16"


def _array(shape, dtype):
    if dtype == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes")
        dtype = ml_dtypes.bfloat16
    return np.zeros(shape, dtype)


def _phase_one(fn, tensors, arrays, attrs, order):
    """Phase one with the tensors (None: NULL) in the op's parameter order; returns the status."""
    keep, handles = [], {}
    for name, spec in {**tensors, **arrays}.items():
        if spec is None:
            handles[name] = ffi.NULL
            continue
        if name in tensors:
            shape, dtype, fmt = spec
            t = aclnn_emu.Tensor(_array(shape, dtype), format=fmt)
            keep.append(t)
            handles[name] = t.handle
        else:
            a = aclnn_emu.IntArray(spec)
            keep.append(a)
            handles[name] = a.handle
    ws, ex = ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")
    args = [handles[k] if k in handles else attrs[k] for k in order]
    status = fn(*args, ws, ex)
    if status == 0:
        lib.aclDestroyAclOpExecutor(ex[0])
    else:
        aclnn_emu.errors.recent_error_message()
    for h in keep:
        h.close()
    return status


# test id: (gradOut, outputSize, inputSize, out, alignCorners, scales, expected)
UPSAMPLE_V2 = {
    "001 float32 (EXPECT commented out in CANN)": ((1, 1, 6, 6), F32, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 2.0, OK),
    "002 float16": ((1, 1, 6, 6), F16, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F16, "NCHW"), False, 2.0, OK),
    "003 double": ((1, 1, 6, 6), np.float64, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.float64, "NCHW"), False, 2.0, INVALID),
    "004 int8": ((1, 1, 3, 3), np.int8, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.int8, "NCHW"), False, 2.0, INVALID),
    "005 uint8": ((1, 1, 6, 6), np.uint8, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.uint8, "NCHW"), False, 2.0, INVALID),
    "006 int32": ((1, 1, 6, 6), np.int32, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.int32, "NCHW"), False, 2.0, INVALID),
    "007 int64": ((1, 1, 6, 6), np.int64, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.int64, "NCHW"), False, 2.0, INVALID),
    "008 int16": ((1, 1, 6, 6), np.int16, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.int16, "NCHW"), False, 2.0, INVALID),
    "010 bool": ((1, 1, 6, 6), np.bool_, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.bool_, "NCHW"), False, 2.0, INVALID),
    "011 complex64": ((1, 1, 6, 6), np.complex64, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.complex64, "NCHW"), False, 2.0, INVALID),
    "012 complex128": ((1, 1, 6, 6), np.complex128, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), np.complex128, "NCHW"), False, 2.0, INVALID),
    "013 empty": ((0, 1, 6, 6), F32, "NCHW", [6, 6], [0, 1, 3, 3], ((0, 1, 3, 3), F32, "NCHW"), False, 2.0, OK),
    "014 2-D gradOut": ((6, 6), F32, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 2.0, INVALID),
    "015 5-D gradOut": ((1, 1, 1, 6, 6), F32, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 2.0, INVALID),
    "016 gradOut NULL": (None, None, None, [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 2.0, NULLPTR),
    "017 out dtype differs": ((1, 1, 6, 6), F32, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F16, "NCHW"), False, 2.0, INVALID),
    "018 outputSize of 3": ((1, 1, 6, 6), F32, "NCHW", [2, 6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 2.0, INVALID),
    "019 outputSize 0": ((1, 1, 2, 2), F32, "NCHW", [0, 2], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 2.0, INVALID),
    "020 inputSize of 5": ((1, 1, 6, 6), F32, "NCHW", [6, 6], [1, 1, 3, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 2.0, INVALID),
    "021 inputSize N 0": ((1, 1, 6, 6), F32, "NCHW", [6, 6], [0, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 2.0, INVALID),
    "022 alignCorners, inputSize N 0": ((1, 1, 6, 6), F32, "NCHW", [6, 6], [0, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), True, 2.0, INVALID),
    "023 N differs": ((1, 1, 6, 6), F32, "NCHW", [6, 6], [2, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), True, 2.0, INVALID),
    "024 HW differ": ((1, 1, 2, 2), F32, "NCHW", [2, 4], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), True, 2.0, INVALID),
    "025 float16 x120": ((1, 1, 360, 360), F16, "NCHW", [360, 360], [1, 1, 3, 3], ((1, 1, 3, 3), F16, "NCHW"), False, 120.0, OK),
    "026 float16": ((1, 1, 6, 6), F16, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F16, "NCHW"), False, 2.0, OK),
    "027 NHWC float16": ((1, 6, 6, 1), F16, "NHWC", [6, 6], [1, 3, 3, 1], ((1, 3, 3, 1), F16, "NHWC"), False, 0.0, OK),
    "028 out NULL": ((1, 1, 6, 6), F32, "NCHW", [6, 6], [1, 1, 3, 3], None, False, 2.0, NULLPTR),
    "029 out NULL x120": ((1, 1, 360, 360), F32, "NCHW", [360, 360], [1, 1, 3, 3], None, False, 120.0, NULLPTR),
    "030 gradOut NULL x120": (None, None, None, [360, 360], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "NCHW"), False, 120.0, NULLPTR),
    "031 bfloat16": ((1, 1, 6, 6), BF16, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), BF16, "NCHW"), False, 2.0, OK),
    "032 out ND": ((1, 1, 6, 6), F32, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F32, "ND"), True, 2.0, INVALID),
    "033 NCHW scales inconsistent": ((1, 1, 5, 5), F16, "NCHW", [5, 5], [1, 1, 3, 3], ((1, 1, 3, 3), F16, "NCHW"), False, 4.0, OK),
    "034 NCHW scales_w inconsistent": ((1, 1, 6, 6), F16, "NCHW", [6, 6], [1, 1, 3, 3], ((1, 1, 3, 3), F16, "NCHW"), False, (2.0, 4.0), OK),
    "035 NHWC scales_w inconsistent": ((1, 6, 6, 1), F16, "NHWC", [6, 6], [1, 3, 3, 1], ((1, 3, 3, 1), F16, "NHWC"), False, (2.0, 5.0), OK),
    "036 NHWC scales inconsistent": ((1, 8, 8, 1), F16, "NHWC", [8, 8], [1, 3, 3, 1], ((1, 3, 3, 1), F16, "NHWC"), False, 4.0, OK),
}  # fmt: skip


@pytest.mark.parametrize("case", list(UPSAMPLE_V2))
def test_upsample_bilinear2d_backward_v2_l2(case):
    g_shape, g_dtype, g_fmt, output_size, input_size, out, align, scales, expected = UPSAMPLE_V2[case]
    sh, sw = scales if isinstance(scales, tuple) else (scales, scales)
    status = _phase_one(
        lib.aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize,
        {"gradOut": None if g_shape is None else (g_shape, g_dtype, g_fmt), "out": out},
        {"outputSize": output_size, "inputSize": input_size},
        {"alignCorners": align, "scalesH": sh, "scalesW": sw},
        ["gradOut", "outputSize", "inputSize", "alignCorners", "scalesH", "scalesW", "out"],
    )
    assert status == expected


def _roi(grad_output=((1, 1, 3, 3), F32, "NCHW"), boxes=((1, 5), F32, "ND"), input_shape=(1, 1, 6, 6),
         grad_input=((1, 1, 6, 6), F32, "NCHW"), ph=3, pw=3, scale=0.25, ratio=2, aligned=False):  # fmt: skip
    return (
        grad_output,
        boxes,
        list(input_shape) if input_shape is not None else None,
        grad_input,
        ph,
        pw,
        scale,
        ratio,
        aligned,
    )


# test name: (arguments, expected) from test_aclnn_roi_align_v2_backward_l2.cpp
ROI_V2_BACKWARD = {
    "temp_case": (_roi(((524, 256, 7, 7), F32, "NCHW"), ((524, 5), F32, "ND"), (1, 256, 40, 40), ((1, 256, 40, 40), F32, "NCHW"), 7, 7), OK),
    "case_nullptr gradOutput": (_roi(grad_output=None), NULLPTR),
    "case_nullptr boxes": (_roi(boxes=None), NULLPTR),
    "case_nullptr inputShape": (_roi(input_shape=None), NULLPTR),
    "case_nullptr gradInput": (_roi(grad_input=None), NULLPTR),
    "case_dtype_invalid_0 bf16": (_roi(((1, 1, 3, 3), BF16, "NCHW"), ((1, 5), BF16, "ND"), grad_input=((1, 1, 6, 6), BF16, "NCHW")), INVALID),
    "case_dtype_invalid_1 fp16": (_roi(((1, 1, 3, 3), F16, "NCHW"), ((1, 5), F16, "ND"), grad_input=((1, 1, 6, 6), F16, "NCHW")), INVALID),
    "case_dtype_invalid_2 gradInput fp16": (_roi(grad_input=((1, 1, 6, 6), F16, "NCHW")), INVALID),
    "case_format_invalid_0 gradOutput ND": (_roi(((1, 1, 3, 3), F32, "ND")), INVALID),
    "case_format_invalid_1 boxes FRACTAL_NZ": (_roi(boxes=((1, 5), F32, "FRACTAL_NZ")), INVALID),
    "case_format_invalid_2 gradInput ND": (_roi(grad_input=((1, 1, 6, 6), F32, "ND")), INVALID),
    "case_shape_invalid_0 5-D gradOutput": (_roi(((1, 1, 1, 3, 3), F32, "NCHW")), INVALID),
    "case_shape_invalid_1 3-D boxes": (_roi(boxes=((1, 5, 4), F32, "ND")), INVALID),
    "case_shape_invalid_2 5-D gradInput": (_roi(grad_input=((1, 1, 6, 6, 6), F32, "NCHW")), INVALID),
    "case_shape_invalid_3 boxes of 4": (_roi(boxes=((1, 4), F32, "ND")), INVALID),
    "case_shape_invalid_4 two boxes": (_roi(boxes=((2, 5), F32, "ND")), INVALID),
    "case_shape_invalid_5 gradInput C": (_roi(grad_input=((1, 2, 6, 6), F32, "NCHW")), INVALID),
    "case_shape_invalid_6 inputShape W": (_roi(input_shape=(1, 1, 6, 7)), INVALID),
    "case_shape_invalid_7 pooledHeight": (_roi(ph=4), INVALID),
    "case_shape_invalid_8 pooledWidth": (_roi(pw=4), INVALID),
    "case_attr_invalid_0 samplingRatio -2": (_roi(ratio=-2), INVALID),
    "case_attr_invalid_1 spatialScale 0": (_roi(scale=0.0), INVALID),
    "case_empty_tensor": (_roi(((1, 1, 0, 3), F32, "NCHW"), ph=0, aligned=True), OK),
}  # fmt: skip


@pytest.mark.parametrize("case", list(ROI_V2_BACKWARD))
def test_roi_align_v2_backward_l2(case):
    (go, bx, shape, gi, ph, pw, scale, ratio, aligned), expected = ROI_V2_BACKWARD[case]
    status = _phase_one(
        lib.aclnnRoiAlignV2BackwardGetWorkspaceSize,
        {"gradOutput": go, "boxes": bx, "gradInput": gi},
        {"inputShape": shape},
        {"pooledHeight": ph, "pooledWidth": pw, "spatialScale": scale, "samplingRatio": ratio, "aligned": aligned},
        ["gradOutput", "boxes", "inputShape", "pooledHeight", "pooledWidth", "spatialScale", "samplingRatio",
         "aligned", "gradInput"],
    )  # fmt: skip
    assert status == expected
