"""The operators: array-level functions, and the two phases as handle-level calls.

Array-level functions take anything numpy can view without a copy (arrays,
strided views, ``__array__`` and ``__dlpack__`` objects), hand the memory to
the C library in place, run the operator and return the result array.
Checks, status codes and messages are the C library's (CANN's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._ffi import ffi, lib
from .errors import check
from .runtime import Executor, IntArray, Stream, Tensor, ensure_device

__all__ = [
    "roi_align_v2_backward",
    "roi_align_v2_backward_get_workspace_size",
    "upsample_bilinear2d_backward_v2",
    "upsample_bilinear2d_backward_v2_get_workspace_size",
]


def _as_array(x: Any) -> np.ndarray:
    """A numpy view of ``x`` without a copy where numpy can make one."""
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__dlpack__") and not hasattr(x, "__array_interface__"):
        try:
            return np.from_dlpack(x)
        except (TypeError, BufferError, RuntimeError):
            pass
    return np.asarray(x)


def _describable(a: np.ndarray) -> np.ndarray:
    """``a`` itself when an aclTensor can describe it, else a contiguous copy."""
    item = a.dtype.itemsize
    if any(s < 0 or s % item for s in a.strides):
        return np.ascontiguousarray(a)
    return a


def _phase_one(fn: Any, api: str, launch: Any, args: list[Any], keep: tuple[Any, ...]) -> tuple[int, Executor]:
    ws = ffi.new("uint64_t *")
    ex = ffi.new("aclOpExecutor **")
    check(fn(*args, ws, ex), api)
    return int(ws[0]), Executor(ex[0], launch, api.replace("GetWorkspaceSize", ""), int(ws[0]), keep)


def roi_align_v2_backward_get_workspace_size(
    grad_output: Tensor,
    boxes: Tensor,
    input_shape: IntArray,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
    sampling_ratio: int,
    aligned: bool,
    grad_input: Tensor,
) -> tuple[int, Executor]:
    """Phase one of ``aclnnRoiAlignV2Backward`` (handle level).

    Returns
    -------
    workspace_size : int
        Bytes of workspace phase two needs.
    executor : Executor
        Run it with :meth:`Executor.run`.
    """
    args = [
        grad_output.handle, boxes.handle, input_shape.handle, int(pooled_height), int(pooled_width),
        float(spatial_scale), int(sampling_ratio), bool(aligned), grad_input.handle,
    ]  # fmt: skip
    keep = (grad_output._keep, boxes._keep, grad_input._keep)
    return _phase_one(
        lib.aclnnRoiAlignV2BackwardGetWorkspaceSize,
        "aclnnRoiAlignV2BackwardGetWorkspaceSize",
        lib.aclnnRoiAlignV2Backward,
        args,
        keep,
    )


def upsample_bilinear2d_backward_v2_get_workspace_size(
    grad_out: Tensor,
    output_size: IntArray,
    input_size: IntArray,
    align_corners: bool,
    scales_h: float,
    scales_w: float,
    out: Tensor,
) -> tuple[int, Executor]:
    """Phase one of ``aclnnUpsampleBilinear2dBackwardV2`` (handle level); see the roi variant."""
    args = [
        grad_out.handle, output_size.handle, input_size.handle, bool(align_corners), float(scales_h),
        float(scales_w), out.handle,
    ]  # fmt: skip
    keep = (grad_out._keep, out._keep)
    return _phase_one(
        lib.aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize,
        "aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize",
        lib.aclnnUpsampleBilinear2dBackwardV2,
        args,
        keep,
    )


def _run(
    phase_one: Any,
    arrays: list[tuple[np.ndarray, str]],
    attrs: tuple[Any, ...],
    returned: np.ndarray,
    written: np.ndarray,
    stream: Stream | None,
) -> np.ndarray:
    """Create tensors for ``arrays``, run both phases, synchronise, release everything.

    ``written`` is the array the kernel writes; it differs from ``returned``
    only when the caller's ``out`` had strides an aclTensor cannot describe.
    """
    tensors = [Tensor(a, format=f) for a, f in arrays]
    try:
        ws_size, executor = phase_one(tensors, *attrs)
        try:
            if ws_size:
                raise RuntimeError("operators needing a workspace are not wired into the array API")
            executor.run(stream=stream)
        finally:
            executor.close()
        check(lib.aclrtSynchronizeStream(stream.handle if stream is not None else ffi.NULL), "aclrtSynchronizeStream")
    finally:
        for t in tensors:
            t.close()
    if written is not returned:
        returned[...] = written
    return returned


def _output(out: np.ndarray | None, shape: Sequence[int], dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """(array returned to the caller, array the kernel writes)."""
    if out is None:
        arr = np.empty(tuple(int(d) for d in shape), dtype=dtype)
        return arr, arr
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array, got {type(out).__name__}")
    return out, _describable(out)


def roi_align_v2_backward(
    grad_output: Any,
    boxes: Any,
    input_shape: Sequence[int],
    pooled_height: int | None = None,
    pooled_width: int | None = None,
    spatial_scale: float = 1.0,
    sampling_ratio: int = 0,
    aligned: bool = False,
    *,
    out: np.ndarray | None = None,
    stream: Stream | None = None,
) -> np.ndarray:
    """Gradient of RoIAlign with respect to its input (``aclnnRoiAlignV2Backward``).

    Parameters
    ----------
    grad_output : array_like, float32, shape (K, C, pooled_height, pooled_width)
        Gradient of the RoIAlign output.
    boxes : array_like, float32, shape (K, 5)
        Rows ``(image_id, x1, y1, x2, y2)`` in image coordinates.
    input_shape : sequence of 4 ints
        ``(B, C, H, W)`` of the forward input.
    pooled_height, pooled_width : int, optional
        Forward output grid; default ``grad_output``'s last two dims.
    spatial_scale : float
        Feature-map scale relative to the image (> 0).
    sampling_ratio : int
        Samples per bin per axis; 0 is adaptive (``ceil(bin size)``).
    aligned : bool
        Shift boxes by -0.5 pixel (torchvision ``aligned=True``).
    out : numpy.ndarray, optional
        float32 array of ``input_shape`` to write (any strides).
    stream : Stream, optional
        Stream to run on (default stream if None); the call waits for it.

    Returns
    -------
    numpy.ndarray
        ``grad_input``, shape ``input_shape``.

    Raises
    ------
    ParamInvalidError
        Wrong dtype, format, shape or attribute (CANN status 161002).

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> g = np.ones((1, 1, 2, 2), np.float32)
    >>> boxes = np.array([[0, 0, 0, 4, 4]], np.float32)
    >>> gi = aclnn_emu.roi_align_v2_backward(g, boxes, (1, 1, 4, 4), sampling_ratio=1, aligned=True)
    >>> float(gi.sum())
    4.0
    """
    g = _describable(_as_array(grad_output))
    b = _describable(_as_array(boxes))
    ph = g.shape[2] if pooled_height is None and g.ndim == 4 else pooled_height
    pw = g.shape[3] if pooled_width is None and g.ndim == 4 else pooled_width
    if ph is None or pw is None:
        raise ValueError("pooled_height and pooled_width are required when grad_output is not 4-D")
    ensure_device()
    result, target = _output(out, input_shape, g.dtype)
    with IntArray(input_shape) as shape_arr:

        def phase_one(t: list[Tensor], *rest: Any) -> tuple[int, Executor]:
            return roi_align_v2_backward_get_workspace_size(t[0], t[1], shape_arr, *rest, t[2])

        return _run(
            phase_one,
            [(g, "NCHW"), (b, "ND"), (target, "NCHW")],
            (ph, pw, spatial_scale, sampling_ratio, aligned),
            result,
            target,
            stream,
        )


def upsample_bilinear2d_backward_v2(
    grad_out: Any,
    output_size: Sequence[int],
    input_size: Sequence[int],
    align_corners: bool = False,
    scales_h: float = 0.0,
    scales_w: float = 0.0,
    *,
    format: str = "NCHW",
    out: np.ndarray | None = None,
    stream: Stream | None = None,
) -> np.ndarray:
    """Gradient of 2-D bilinear upsampling (``aclnnUpsampleBilinear2dBackwardV2``).

    Parameters
    ----------
    grad_out : array_like, float32, float16 or bfloat16
        ``(N, C, outH, outW)`` for NCHW, ``(N, outH, outW, C)`` for NHWC.
    output_size : sequence of 2 ints
        ``(outH, outW)``.
    input_size : sequence of 4 ints
        Forward input shape, ``(N, C, H, W)`` or ``(N, H, W, C)``.
    align_corners : bool
        Corner-pixel-centre alignment.
    scales_h, scales_w : float
        Forward scale factors; <= 0 derives them from the sizes. CANN uses
        them only when ``outH == floor(H * scales_h)`` and likewise for W.
    format : {"NCHW", "NHWC"}
        Layout of ``grad_out`` and of the result.
    out : numpy.ndarray, optional
        Array of ``input_size`` and ``grad_out``'s dtype to write.
    stream : Stream, optional
        Stream to run on (default stream if None); the call waits for it.

    Returns
    -------
    numpy.ndarray
        The gradient of the forward input, shape ``input_size``.

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> g = np.ones((1, 1, 6, 6), np.float32)
    >>> gi = aclnn_emu.upsample_bilinear2d_backward_v2(g, (6, 6), (1, 1, 3, 3), True, 2.0, 2.0)
    >>> round(float(gi.sum()), 4)
    36.0
    """
    g = _describable(_as_array(grad_out))
    ensure_device()
    result, target = _output(out, input_size, g.dtype)
    with IntArray(output_size) as out_arr, IntArray(input_size) as in_arr:

        def phase_one(t: list[Tensor], *rest: Any) -> tuple[int, Executor]:
            return upsample_bilinear2d_backward_v2_get_workspace_size(t[0], out_arr, in_arr, *rest, t[1])

        return _run(
            phase_one,
            [(g, format), (target, format)],
            (align_corners, scales_h, scales_w),
            result,
            target,
            stream,
        )
