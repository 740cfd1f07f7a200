"""The operators as PyTorch custom ops with CANN's numerics and CANN's gradients.

Imported only when PyTorch is installed (``import aclnn_emu.torch``; torch
stays an optional dependency). Each operator is a ``torch.library`` custom op
in the ``aclnn_emu`` namespace (``torch.ops.aclnn_emu.upsample_bilinear2d``,
...), torch tensors in and out through the same buffers (DLPack, no copy
where the layout allows), with a fake implementation so shapes propagate
under ``torch.compile`` and ``torch.export``, and an autograd formula that is
CANN's backward operator: gradients are what an NPU would compute.

Pairs: ``roi_align_v2`` with ``roi_align_v2_backward`` (aclnnRoiAlignV2 /
aclnnRoiAlignV2Backward), ``upsample_bilinear2d`` with
``upsample_bilinear2d_backward_v2`` (aclnnUpsampleBilinear2d /
aclnnUpsampleBilinear2dBackwardV2).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import torch
from torch import Tensor

from . import _operators as _ops
from .runtime import Stream

__all__ = [
    "RoIAlign",
    "cann_numerics",
    "interpolate",
    "roi_align",
    "roi_align_onnx",
    "roi_align_v2",
    "roi_align_v2_backward",
    "upsample_bilinear2d",
    "upsample_bilinear2d_backward",
    "upsample_bilinear2d_backward_v2",
    "use_stream",
]


_STREAM = threading.local()


@contextlib.contextmanager
def use_stream(stream: Stream | None) -> Iterator[None]:
    """Run this thread's aclnn_emu torch ops on ``stream`` (an :class:`aclnn_emu.Stream`) inside the block."""
    old = getattr(_STREAM, "stream", None)
    _STREAM.stream = stream
    try:
        yield
    finally:
        _STREAM.stream = old


def _run(fn, *args, out: Tensor, **kwargs) -> Tensor:  # type: ignore[no-untyped-def]
    # Inside a custom op autograd is the op's business: the array API sees plain tensors.
    plain = [a.detach() if isinstance(a, Tensor) else a for a in args]
    fn(*plain, out=out, stream=getattr(_STREAM, "stream", None), **kwargs)
    return out


# ---- upsample_bilinear2d ----------------------------------------------------------


@torch.library.custom_op("aclnn_emu::upsample_bilinear2d", mutates_args=())
def upsample_bilinear2d(
    input: Tensor, output_size: Sequence[int], align_corners: bool, scales_h: float, scales_w: float
) -> Tensor:
    """aclnnUpsampleBilinear2d on an NCHW tensor (any strides, channels_last included: read in place)."""
    oh, ow = (int(v) for v in output_size)
    out = torch.empty((input.shape[0], input.shape[1], oh, ow), dtype=input.dtype)
    return _run(_ops.upsample_bilinear2d, input, (oh, ow), align_corners, scales_h, scales_w, out=out)


@upsample_bilinear2d.register_fake
def _(input: Tensor, output_size: Sequence[int], align_corners: bool, scales_h: float, scales_w: float) -> Tensor:
    return input.new_empty((input.shape[0], input.shape[1], int(output_size[0]), int(output_size[1])))


def _upsample_backward_op(name: str, array_fn: Any, doc: str) -> Any:
    """The custom op (and its fake) of one upsample backward API: V2 and V1 take the same arguments."""

    def impl(grad_out: Tensor, output_size: Sequence[int], input_size: Sequence[int], align_corners: bool,
             scales_h: float, scales_w: float) -> Tensor:  # fmt: skip
        out = torch.empty(tuple(int(v) for v in input_size), dtype=grad_out.dtype)
        return _run(array_fn, grad_out, tuple(output_size), tuple(input_size), align_corners, scales_h,
                    scales_w, out=out)  # fmt: skip

    impl.__doc__ = doc
    op = torch.library.custom_op(f"aclnn_emu::{name}", impl, mutates_args=())

    @op.register_fake
    def _(grad_out: Tensor, output_size: Sequence[int], input_size: Sequence[int], align_corners: bool,
          scales_h: float, scales_w: float) -> Tensor:  # fmt: skip
        return grad_out.new_empty(tuple(int(v) for v in input_size))

    return op


upsample_bilinear2d_backward_v2 = _upsample_backward_op(
    "upsample_bilinear2d_backward_v2", _ops.upsample_bilinear2d_backward_v2,
    "aclnnUpsampleBilinear2dBackwardV2: the gradient of the forward input, NCHW.",
)  # fmt: skip
upsample_bilinear2d_backward = _upsample_backward_op(
    "upsample_bilinear2d_backward", _ops.upsample_bilinear2d_backward,
    "aclnnUpsampleBilinear2dBackward (V1: on Atlas A2 the sizes' ratio, scales unused).",
)  # fmt: skip


def _upsample_setup(ctx, inputs, output) -> None:  # type: ignore[no-untyped-def]
    x, ctx.output_size, ctx.align_corners, ctx.scales_h, ctx.scales_w = inputs
    ctx.input_size = tuple(x.shape)


def _upsample_backward(ctx, grad: Tensor):  # type: ignore[no-untyped-def]
    gi = upsample_bilinear2d_backward_v2(grad, ctx.output_size, ctx.input_size, ctx.align_corners, ctx.scales_h,
                                         ctx.scales_w)  # fmt: skip
    return gi, None, None, None, None


upsample_bilinear2d.register_autograd(_upsample_backward, setup_context=_upsample_setup)


# ---- roi_align_v2 -------------------------------------------------------------------


@torch.library.custom_op("aclnn_emu::roi_align_v2", mutates_args=())
def roi_align_v2(
    input: Tensor, boxes: Tensor, pooled_height: int, pooled_width: int, spatial_scale: float, sampling_ratio: int,
    aligned: bool,
) -> Tensor:  # fmt: skip
    """aclnnRoiAlignV2: boxes (K, 5) rows (image id, x1, y1, x2, y2)."""
    out = torch.empty((boxes.shape[0], input.shape[1], pooled_height, pooled_width), dtype=input.dtype)
    return _run(_ops.roi_align_v2, input, boxes, pooled_height, pooled_width, spatial_scale,
                sampling_ratio, aligned, out=out)  # fmt: skip


@roi_align_v2.register_fake
def _(input: Tensor, boxes: Tensor, pooled_height: int, pooled_width: int, spatial_scale: float, sampling_ratio: int,
      aligned: bool) -> Tensor:  # fmt: skip
    return input.new_empty((boxes.shape[0], input.shape[1], pooled_height, pooled_width))


@torch.library.custom_op("aclnn_emu::roi_align_v2_backward", mutates_args=())
def roi_align_v2_backward(
    grad_output: Tensor, boxes: Tensor, input_shape: Sequence[int], pooled_height: int, pooled_width: int,
    spatial_scale: float, sampling_ratio: int, aligned: bool,
) -> Tensor:  # fmt: skip
    """aclnnRoiAlignV2Backward: the gradient of the feature map."""
    out = torch.empty(tuple(int(v) for v in input_shape), dtype=grad_output.dtype)
    return _run(_ops.roi_align_v2_backward, grad_output, boxes, tuple(input_shape),
                pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned, out=out)  # fmt: skip


@roi_align_v2_backward.register_fake
def _(grad_output: Tensor, boxes: Tensor, input_shape: Sequence[int], pooled_height: int, pooled_width: int,
      spatial_scale: float, sampling_ratio: int, aligned: bool) -> Tensor:  # fmt: skip
    return grad_output.new_empty(tuple(int(v) for v in input_shape))


def _roi_setup(ctx, inputs, output) -> None:  # type: ignore[no-untyped-def]
    x, boxes, ctx.pooled_height, ctx.pooled_width, ctx.spatial_scale, ctx.sampling_ratio, ctx.aligned = inputs
    ctx.input_shape = tuple(x.shape)
    ctx.save_for_backward(boxes)


def _roi_backward(ctx, grad: Tensor):  # type: ignore[no-untyped-def]
    (boxes,) = ctx.saved_tensors
    gi = roi_align_v2_backward(grad, boxes, ctx.input_shape, ctx.pooled_height, ctx.pooled_width, ctx.spatial_scale,
                               ctx.sampling_ratio, ctx.aligned)  # fmt: skip
    return gi, None, None, None, None, None, None


roi_align_v2.register_autograd(_roi_backward, setup_context=_roi_setup)


@torch.library.custom_op("aclnn_emu::roi_align_onnx", mutates_args=())
def roi_align_onnx(
    input: Tensor, rois: Tensor, batch_indices: Tensor, mode: str, output_height: int, output_width: int,
    sampling_ratio: int, spatial_scale: float,
) -> Tensor:  # fmt: skip
    """AclnnRoiAlign (ONNX RoiAlign: boxes and their image indices apart, "avg" or "max"); CANN has no backward."""
    out = torch.empty((rois.shape[0], input.shape[1], output_height, output_width), dtype=input.dtype)
    return _run(_ops.roi_align, input, rois, batch_indices, mode, output_height,
                output_width, sampling_ratio, spatial_scale, out=out)  # fmt: skip


roi_align_onnx.register_fake(
    lambda input, rois, batch_indices, mode, output_height, output_width, sampling_ratio, spatial_scale: (
        input.new_empty((rois.shape[0], input.shape[1], output_height, output_width))
    )
)


def roi_align(
    input: Tensor,
    boxes: Tensor | Sequence[Tensor],
    output_size: int | Sequence[int],
    spatial_scale: float = 1.0,
    sampling_ratio: int = -1,
    aligned: bool = False,
) -> Tensor:
    """``torchvision.ops.roi_align``'s signature on CANN's aclnnRoiAlignV2 (and its backward).

    ``boxes`` is a (K, 5) tensor of (image id, x1, y1, x2, y2) rows or, as torchvision also takes,
    a list of (L, 4) tensors, one per image; torchvision's ``sampling_ratio=-1`` (adaptive) is CANN's 0.
    """
    if not isinstance(boxes, Tensor):
        boxes = torch.cat([torch.cat([torch.full((len(b), 1), i, dtype=b.dtype), b], 1) for i, b in enumerate(boxes)])
    oh, ow = (output_size, output_size) if isinstance(output_size, int) else (int(output_size[0]), int(output_size[1]))
    ratio = 0 if sampling_ratio < 0 else int(sampling_ratio)
    return roi_align_v2(input, boxes, oh, ow, float(spatial_scale), ratio, bool(aligned))


class RoIAlign(torch.nn.Module):
    """``torchvision.ops.RoIAlign`` on CANN's aclnnRoiAlignV2 (forward and backward)."""

    def __init__(
        self, output_size: int | Sequence[int], spatial_scale: float, sampling_ratio: int, aligned: bool = False
    ) -> None:
        super().__init__()
        self.output_size, self.spatial_scale = output_size, spatial_scale
        self.sampling_ratio, self.aligned = sampling_ratio, aligned

    def forward(self, input: Tensor, rois: Tensor) -> Tensor:
        """RoIAlign of ``rois`` ((K, 5) rows of image id and corners) over ``input``."""
        return roi_align(input, rois, self.output_size, self.spatial_scale, self.sampling_ratio, self.aligned)

    def extra_repr(self) -> str:
        """The module's settings, as torchvision prints them."""
        return (f"output_size={self.output_size}, spatial_scale={self.spatial_scale}, "
                f"sampling_ratio={self.sampling_ratio}, aligned={self.aligned}")  # fmt: skip


_F_INTERPOLATE = torch.nn.functional.interpolate


def interpolate(
    input: Tensor,
    size: int | Sequence[int] | None = None,
    scale_factor: float | Sequence[float] | None = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """``torch.nn.functional.interpolate`` with CANN's bilinear resize.

    4-D "bilinear" (no antialias) runs aclnnUpsampleBilinear2d with its CANN gradient; every other
    mode and rank is PyTorch's own.
    """
    if mode != "bilinear" or input.dim() != 4 or antialias:
        return _F_INTERPOLATE(input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias)
    h, w = input.shape[2], input.shape[3]
    sh = sw = 0.0
    if size is not None:
        oh, ow = (size, size) if isinstance(size, int) else (int(size[0]), int(size[1]))
    else:
        if scale_factor is None:
            raise ValueError("either size or scale_factor should be defined")
        fh, fw = (scale_factor, scale_factor) if isinstance(scale_factor, (int, float)) else scale_factor
        oh, ow = int(h * fh), int(w * fw)
        if not recompute_scale_factor:
            sh, sw = float(fh), float(fw)
    return upsample_bilinear2d(input, [oh, ow], bool(align_corners), sh, sw)


@contextlib.contextmanager
def cann_numerics() -> Iterator[None]:
    """Route a model's RoIAlign and bilinear interpolation to CANN's operators inside the block.

    ``torchvision.ops.roi_align`` (so ``torchvision.ops.RoIAlign``) and bilinear
    ``torch.nn.functional.interpolate`` run CANN's operators and gradients, so an existing model runs
    unchanged with an NPU's numerics. Not thread-safe: it swaps module attributes.
    """
    saved: list[tuple[Any, str, Any]] = []

    def swap(owner: Any, name: str, value: Any) -> None:
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    swap(torch.nn.functional, "interpolate", interpolate)
    try:
        import sys

        import torchvision.ops

        tv_roi_align = sys.modules["torchvision.ops.roi_align"]  # the module (its name is also the function's)

        swap(torchvision.ops, "roi_align", roi_align)
        swap(tv_roi_align, "roi_align", roi_align)
    except ImportError:
        pass
    try:
        yield
    finally:
        for owner, name, value in reversed(saved):
            setattr(owner, name, value)
