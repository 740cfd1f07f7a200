"""The operators: array-level functions, and the two phases as handle-level calls.

Array-level functions take anything numpy can view without a copy (arrays,
strided views, ``__array__`` and ``__dlpack__`` objects), hand the memory to
the C library in place, run the operator and return the result array.
Checks, status codes and messages are the C library's (CANN's).
"""

from __future__ import annotations

import math
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _memory
from ._args import INT32, c_bool, c_float, c_int, c_string, format_name, int_list
from ._ffi import ffi, lib
from .errors import ACLNN_ERR_PARAM_INVALID, AutogradCutWarning, check
from .runtime import FORMATS, DeviceBuffer, Executor, IntArray, Stream, Tensor, acl_dtype, ensure_device

__all__ = [
    "roi_align",
    "roi_align_get_workspace_size",
    "roi_align_v2",
    "roi_align_v2_backward",
    "roi_align_v2_backward_get_workspace_size",
    "roi_align_v2_get_workspace_size",
    "upsample_bilinear2d",
    "upsample_bilinear2d_backward",
    "upsample_bilinear2d_backward_get_workspace_size",
    "upsample_bilinear2d_backward_v2",
    "upsample_bilinear2d_backward_v2_get_workspace_size",
    "upsample_bilinear2d_get_workspace_size",
]


_AUTOGRAD_WARNED = False


def _from_dlpack(x: Any) -> np.ndarray:
    """A numpy view of a DLPack producer (a torch tensor, a JAX or CuPy-on-host array).

    Tensors that require grad are read without autograd (``detach()``, still
    no copy); bfloat16, which numpy's DLPack import lacks, goes through an
    int16 view and comes out as ``ml_dtypes.bfloat16``.
    """
    if getattr(x, "requires_grad", False) and hasattr(x, "detach"):
        global _AUTOGRAD_WARNED
        if not _AUTOGRAD_WARNED:
            _AUTOGRAD_WARNED = True
            warnings.warn(
                "a tensor that requires grad was passed to aclnn_emu's array API, which returns numpy arrays: "
                "autograd stops here (aclnn_emu.torch has the operators as torch ops with CANN's gradients)",
                AutogradCutWarning,
                stacklevel=4,
            )
        x = x.detach()
    try:
        return np.from_dlpack(x)
    except (TypeError, BufferError, RuntimeError) as err:
        torch = sys.modules.get("torch")
        if torch is not None and getattr(x, "dtype", None) == torch.bfloat16:
            import ml_dtypes

            return np.from_dlpack(x.view(torch.int16)).view(ml_dtypes.bfloat16)
        try:
            return np.asarray(x)
        except Exception:
            raise TypeError(f"cannot view a {type(x).__name__} as an array: {err}") from err


def _as_array(x: Any, dtype: Any = np.float32) -> Any:
    """A numpy view of ``x`` without a copy where one exists, usable as an aclTensor.

    Lists, tuples and scalars become ``dtype`` (float32 unless the operator's
    other inputs say otherwise), not numpy's default float64. None stays None
    (a NULL tensor: the library's checks report it).
    """
    if x is None:
        return None
    if isinstance(x, np.ndarray):
        a = x
    elif isinstance(x, (list, tuple)) or np.isscalar(x):
        a = np.asarray(x, dtype=dtype)
    elif hasattr(x, "__dlpack__") and not hasattr(x, "__array_interface__"):
        a = _from_dlpack(x)
    else:
        a = np.asarray(x)
    return _memory.describable(a)


def _dims(a: Any) -> tuple[int, ...]:
    """The shape of an input (none for a NULL one)."""
    return () if a is None else tuple(a.shape)


def _dtype_of(a: Any) -> np.dtype:
    """The result dtype an input implies (float32 for a NULL one: the library refuses it first)."""
    return np.dtype(np.float32) if a is None else a.dtype


def _handle(obj: Any, cls: Any, name: str, api: str) -> Any:
    """A handle-level argument: the object's C handle, or NULL for None (the library reports it)."""
    if obj is None:
        return ffi.NULL
    if not isinstance(obj, cls):
        raise TypeError(f"{api}: {name} must be a {cls.__name__} or None, got {type(obj).__name__}")
    return obj.handle


def _c_mode(mode: Any, api: str) -> Any:
    """The ``mode`` string of aclnnRoiAlign (None is NULL: the library reports it)."""
    return ffi.NULL if mode is None else ffi.new("char[]", c_string(mode, "mode", api))


def _stream_handle(stream: Any, api: str) -> Any:
    if stream is None:
        return ffi.NULL
    if not isinstance(stream, Stream):
        raise TypeError(f"{api}: stream must be an aclnn_emu.Stream or None, got {type(stream).__name__}")
    return stream.handle  # HandleClosedError for a closed one, before anything is created


class _Deferred:
    """A result not allocated yet: its tensor has no data until phase one accepted the call."""

    def __init__(self, shape: Sequence[int], dtype: np.dtype) -> None:
        # Negative sizes are the library's to report (through the operator's
        # own size checks): the placeholder tensor takes them as 0.
        self.shape = tuple(d if d > 0 else 0 for d in shape)
        self.dtype = np.dtype(dtype)


_INT64_MAX = 2**63 - 1

# C types looked up once (the hot path would parse their names on every call).
_VOID_P = ffi.typeof("void *")
_U64_P = ffi.typeof("uint64_t *")
_EXECUTOR_P = ffi.typeof("aclOpExecutor **")


class _Call:
    """C handles of one array-level call, created directly and released in ``close``.

    The handle classes of :mod:`aclnn_emu.runtime` are for replaying call
    sequences; this lean path keeps a whole call to a few microseconds.
    """

    def __init__(self) -> None:
        self.tensors: list[Any] = []
        self.arrays: list[Any] = []
        self.registered: list[Any] = []
        self.memory: list[np.ndarray] = []  # what the kernel reads and writes: alive until it is done
        self.nbytes = 0
        self.detached = False
        self.deferred: tuple[_Deferred, Any] | None = None
        self.result: Any = None

    def tensor(self, a: Any, fmt: str) -> Any:
        if a is None:
            return ffi.NULL
        if isinstance(a, _Deferred):
            # Storage dims = the shape: the library checks that the byte size fits int64.
            strides = _memory.contiguous_strides(a.shape)
            if strides and strides[0] > _INT64_MAX:  # the library reports the size; cffi must not overflow first
                strides = [min(st, _INT64_MAX) for st in strides]
            t = lib.aclCreateTensor(a.shape, len(a.shape), acl_dtype(a.dtype), strides, 0, FORMATS[fmt], a.shape,
                                    len(a.shape), ffi.NULL)  # fmt: skip
            if t == ffi.NULL:
                check(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor")
            self.tensors.append(t)
            self.deferred = (a, t)
            return t
        shape = a.shape
        if a.flags.c_contiguous and a.size:
            strides, extent = _memory.contiguous_strides(shape), a.size
            data = ffi.cast(_VOID_P, ffi.from_buffer(a))  # faster than __array_interface__
        else:
            strides = _memory.element_strides(a)
            extent = _memory.reach(shape, strides)
            data = ffi.cast(_VOID_P, a.__array_interface__["data"][0])
        ptr = _memory.register(a, data, extent * a.itemsize)
        if ptr is not None:
            self.registered.append(ptr)
        self.memory.append(a)
        self.nbytes += extent * a.itemsize
        t = lib.aclCreateTensor(shape, len(shape), acl_dtype(a.dtype), strides, 0, FORMATS[fmt], [extent], 1, data)
        if t == ffi.NULL:
            check(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor")
        self.tensors.append(t)
        return t

    def _bind_result(self, executor: Any) -> None:
        """Allocate the deferred result phase one accepted and give the executor its address."""
        assert self.deferred is not None
        spec, t = self.deferred
        arr = _result_array(spec.shape, spec.dtype)
        self.result = arr
        self.memory.append(arr)
        self.nbytes += arr.nbytes
        if arr.size == 0:
            return
        data = ffi.cast(_VOID_P, ffi.from_buffer(arr))
        ptr = _memory.register(arr, data, arr.nbytes)
        if ptr is not None:
            self.registered.append(ptr)
        check(lib.aclSetOutputTensorAddr(executor, 0, t, data), "aclSetOutputTensorAddr")

    def int_array(self, values: list[int]) -> Any:
        arr = lib.aclCreateIntArray(values, len(values))
        if arr == ffi.NULL:
            check(ACLNN_ERR_PARAM_INVALID, "aclCreateIntArray")
        self.arrays.append(arr)
        return arr

    def run(self, op: _Operator, args: list[Any], s: Any, stream: Stream | None) -> None:
        """Both phases and the wait; a deferred result is allocated once phase one accepted the call."""
        # Statuses are checked inline (check() only on failure) and warnings
        # are delivered once, after the synchronisation: this path is hot.
        ws, ex = ffi.new(_U64_P), ffi.new(_EXECUTOR_P)
        status = op.phase_one(*args, ws, ex)
        if status:
            check(status, op.name + "GetWorkspaceSize")
        workspace = ffi.NULL
        fresh = self.deferred is not None
        try:
            if fresh:
                self._bind_result(ex[0])
            if ws[0]:
                workspace = _cached_workspace(ws[0])
        except BaseException:
            lib.aclDestroyAclOpExecutor(ex[0])  # a failure before phase two releases the executor too
            raise
        # Small work runs on this thread (no worker wake-up); large work runs
        # on the stream's worker while this thread waits in slices, so that
        # Ctrl-C gets through.
        blocking = self.nbytes < _BLOCKING_MAX_BYTES
        mode = (_LAUNCH_BLOCKING if blocking else 0) | (_LAUNCH_FILL_UNWRITTEN if fresh else 0)
        if mode:
            lib.aclnnEmuSetLaunchMode(mode)
        try:
            status = op.phase_two(workspace, ws[0], ex[0], s)
        finally:
            if mode:
                lib.aclnnEmuSetLaunchMode(0)
        if status:
            check(status, op.name)
        if not blocking:
            self._wait(s, stream)
        check(lib.aclrtSynchronizeStream(s), "aclrtSynchronizeStream")

    def _wait(self, s: Any, stream: Stream | None) -> None:
        done = ffi.new("int32_t *")
        try:
            while not done[0]:
                check(lib.aclnnEmuStreamWait(s, _WAIT_SLICE_MS, done), "aclnnEmuStreamWait")
        except KeyboardInterrupt:
            # The work goes on: what it reads and writes stays alive until it is done.
            self.detached = True
            keep = (stream, _take_workspace())
            threading.Thread(target=self._finish_detached, args=(s, keep), daemon=True).start()
            raise

    def _finish_detached(self, s: Any, keep: tuple[Any, ...]) -> None:
        ensure_device()  # the default stream is the device's, whichever thread waits
        done = ffi.new("int32_t *")
        while not done[0] and lib.aclnnEmuStreamWait(s, 1000, done) == 0:
            pass
        self.detached = False
        self.close()
        del keep

    def close(self) -> None:
        if self.detached:
            return  # the thread waiting for the interrupted work closes it
        for t in self.tensors:
            lib.aclDestroyTensor(t)
        for a in self.arrays:
            lib.aclDestroyIntArray(a)
        for r in self.registered:
            lib.aclrtHostUnregister(r)
        self.tensors, self.arrays, self.registered, self.memory = [], [], [], []


_LAUNCH_BLOCKING = lib.ACLNN_EMU_LAUNCH_BLOCKING
_LAUNCH_FILL_UNWRITTEN = lib.ACLNN_EMU_LAUNCH_FILL_UNWRITTEN
# Calls whose tensors span fewer bytes launch blocking (see _Call.run).
_BLOCKING_MAX_BYTES = 256 << 10
# How long a wait lasts before Python gets to handle a signal.
_WAIT_SLICE_MS = 50

_WORKSPACE_CACHE = threading.local()


def _cached_workspace(nbytes: int) -> Any:
    """Device memory for a workspace of nbytes, kept per thread for the next call.

    Array-level calls synchronise before they return, so one buffer serves
    them all. The kernels never touch a workspace, and CANN's estimates run to
    hundreds of MiB: the buffer is address space only (``reserved``), so it
    costs no memory however large.
    """
    buf = getattr(_WORKSPACE_CACHE, "buf", None)
    if buf is not None and buf.nbytes >= nbytes and lib.aclnnEmuIsDeviceMemory(buf.handle, buf.nbytes):
        return buf.handle
    _WORKSPACE_CACHE.buf = buf = DeviceBuffer(nbytes, reserved=True)
    return buf.handle


def _take_workspace() -> Any:
    """The thread's workspace buffer, no longer its cache's (interrupted work still has it)."""
    buf = getattr(_WORKSPACE_CACHE, "buf", None)
    _WORKSPACE_CACHE.buf = None
    return buf


class _Operator:
    """One operator's two C phases, at array level and at handle level."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.phase_one_name = name + "GetWorkspaceSize"
        self.phase_one = getattr(lib, self.phase_one_name)
        self.phase_two = getattr(lib, name)

    def __call__(
        self,
        args: Callable[[_Call, np.ndarray], list[Any]],
        out_shape: Sequence[int],
        dtype: np.dtype,
        out: Any,
        stream: Stream | None,
    ) -> np.ndarray:
        """Run at array level: ``args(call, target)`` builds phase one's arguments."""
        ensure_device()
        s = _stream_handle(stream, self.name)
        result, view, target = _output(out, out_shape, dtype)
        call = _Call()
        try:
            self_args = args(call, target)
            call.run(self, self_args, s, stream)
        finally:
            call.close()
        if out is None:
            return call.result
        if target is not view:
            view[...] = target  # out's strides could not be described: the kernel wrote a copy
        return result

    def plan(self, args: list[Any], tensors: Sequence[Tensor]) -> tuple[int, Executor]:
        """Phase one at handle level; the executor keeps the tensors' memory alive."""
        ws = ffi.new("uint64_t *")
        ex = ffi.new("aclOpExecutor **")
        check(self.phase_one(*args, ws, ex), self.name + "GetWorkspaceSize")
        keep = tuple(t.base for t in tensors)
        return int(ws[0]), Executor(ex[0], self.phase_two, self.name, int(ws[0]), keep)


# The operator table: one entry per operator.
_ROI_ALIGN_V2_BACKWARD = _Operator("aclnnRoiAlignV2Backward")
_UPSAMPLE_BILINEAR2D_BACKWARD_V2 = _Operator("aclnnUpsampleBilinear2dBackwardV2")
_UPSAMPLE_BILINEAR2D = _Operator("aclnnUpsampleBilinear2d")
_UPSAMPLE_BILINEAR2D_BACKWARD = _Operator("aclnnUpsampleBilinear2dBackward")
_ROI_ALIGN_V2 = _Operator("aclnnRoiAlignV2")
_ROI_ALIGN = _Operator("aclnnRoiAlign")


# Results of at least this many bytes come from the library's block cache (aclnnEmuCacheAlloc).
_CACHE_MIN_BYTES = 64 << 10


def _result_array(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """A new result array; large ones in a block of the library's cache.

    The cache keeps freed blocks warm for the next call of the same size, so a
    loop of array-level calls reuses pages instead of faulting in fresh ones
    (each fresh page costs a fault and, with transparent huge pages, maybe a
    compaction stall). The array owns its block: when the last view of it is
    gone, the block goes back to the cache (``ACLNN_EMU_CACHE_BYTES`` bounds
    it; 0 keeps none).
    """
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes < _CACHE_MIN_BYTES:
        return np.empty(shape, dtype=dtype)
    block = lib.aclnnEmuCacheAlloc(nbytes)
    if block == ffi.NULL:
        raise MemoryError(f"cannot allocate {nbytes} bytes for the result")
    owner = ffi.gc(ffi.cast("char *", block), lib.aclnnEmuCacheFree, size=nbytes)
    return np.frombuffer(ffi.buffer(owner, nbytes), dtype=dtype).reshape(shape)


def _output(out: Any, shape: Sequence[int], dtype: np.dtype) -> tuple[Any, np.ndarray, np.ndarray]:
    """(object returned to the caller, numpy view of it, array the kernel writes).

    ``out`` may be any writable array numpy can view without a copy: a numpy
    array, a DLPack producer (a torch tensor), a buffer-protocol object.
    """
    if out is None:
        spec = _Deferred(shape, dtype)
        return None, spec, spec  # type: ignore[return-value]
    if isinstance(out, np.ndarray):
        view = out
    elif hasattr(out, "__dlpack__") and not hasattr(out, "__array_interface__"):
        view = _from_dlpack(out)
    else:
        try:
            view = np.asarray(memoryview(out))
        except TypeError:
            kind = type(out).__name__
            raise TypeError(f"out must be a writable array (numpy, DLPack or buffer protocol), got {kind}") from None
    if not view.flags.writeable:
        raise TypeError(f"out must be writable; this {type(out).__name__} is read-only")
    return out, view, _memory.describable(view)


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
    """Phase one of ``aclnnRoiAlignV2Backward`` (handle level), as the C call.

    Parameters
    ----------
    grad_output : Tensor
        FLOAT, NCHW, ``(K, C, pooled_height, pooled_width)``.
    boxes : Tensor
        FLOAT, ND, ``(K, 5)``: ``(image_id, x1, y1, x2, y2)`` per row.
    input_shape : IntArray
        ``(B, C, H, W)`` of the forward input.
    pooled_height, pooled_width : int
        Must equal ``grad_output``'s last two dims.
    spatial_scale : float
        Feature-map scale (> FLT_MIN; NaN is accepted as CANN does, with a warning).
    sampling_ratio : int
        Samples per bin and axis (>= 0; 0 is adaptive; cast to int32 as CANN's tiling does).
    aligned : bool
        Half-pixel shift of the boxes (torchvision ``aligned=True``).
    grad_input : Tensor
        FLOAT, NCHW, shape ``input_shape``: the output.

    Returns
    -------
    workspace_size : int
        Bytes of device workspace phase two needs (CANN's estimate: allocate
        it, e.g. ``DeviceBuffer(workspace_size)``, and pass it to :meth:`Executor.run`).
    executor : Executor
        The planned call; it keeps the tensors' memory alive.

    Raises
    ------
    ParamNullptrError
        A NULL argument (161001).
    ParamInvalidError
        A dtype, format, shape or attribute CANN refuses (161002), in CANN's check order.
    InnerError
        An empty ``grad_input`` with non-empty ``grad_output`` and boxes (561103, as CANN).
    """
    api = _ROI_ALIGN_V2_BACKWARD.phase_one_name
    args = [
        _handle(grad_output, Tensor, "grad_output", api), _handle(boxes, Tensor, "boxes", api),
        _handle(input_shape, IntArray, "input_shape", api), c_int(pooled_height, "pooled_height", api),
        c_int(pooled_width, "pooled_width", api), c_float(spatial_scale, "spatial_scale", api),
        c_int(sampling_ratio, "sampling_ratio", api), c_bool(aligned, "aligned", api),
        _handle(grad_input, Tensor, "grad_input", api),
    ]  # fmt: skip
    return _ROI_ALIGN_V2_BACKWARD.plan(args, (grad_output, boxes, grad_input))


def upsample_bilinear2d_backward_v2_get_workspace_size(
    grad_out: Tensor,
    output_size: IntArray,
    input_size: IntArray,
    align_corners: bool,
    scales_h: float,
    scales_w: float,
    out: Tensor,
) -> tuple[int, Executor]:
    """Phase one of ``aclnnUpsampleBilinear2dBackwardV2`` (handle level), as the C call.

    Parameters
    ----------
    grad_out : Tensor
        ``(N, C, outH, outW)`` (NCHW) or ``(N, outH, outW, C)`` (NHWC): its
        storage format decides the layout. FLOAT, FLOAT16 or BF16 (any dtype
        when its shape equals ``input_size``).
    output_size : IntArray
        ``(outH, outW)``.
    input_size : IntArray
        The forward input's shape, in ``grad_out``'s layout.
    align_corners : bool
        Corner-pixel-centre alignment.
    scales_h, scales_w : float
        Forward scales; used by CANN's kernel when they reproduce the sizes
        (or when ``grad_out``'s shape equals ``input_size``), else the sizes' ratio.
    out : Tensor
        NCHW or NHWC, shape ``input_size``, ``grad_out``'s dtype: the output.

    Returns
    -------
    workspace_size : int
        Bytes of device workspace phase two needs (CANN's estimate, tens of
        MiB: the kernel's tiling alone asks for 32 MiB); 0 for empty tensors.
    executor : Executor
        The planned call; it keeps the tensors' memory alive.

    Raises
    ------
    ParamNullptrError
        A NULL argument (161001).
    ParamInvalidError
        A rank, size, format, shape or dtype CANN refuses (161002), in CANN's check order.
    InnerError
        A dtype the emulator cannot cast to FLOAT on the equal-size path (561103).
    """
    return _plan_upsample_backward(_UPSAMPLE_BILINEAR2D_BACKWARD_V2, grad_out, output_size, input_size, align_corners,
                                   scales_h, scales_w, out)  # fmt: skip


def _plan_upsample_backward(
    op: _Operator,
    grad_out: Tensor,
    output_size: IntArray,
    input_size: IntArray,
    align_corners: bool,
    scales_h: float,
    scales_w: float,
    out: Tensor,
) -> tuple[int, Executor]:
    api = op.phase_one_name
    args = [
        _handle(grad_out, Tensor, "grad_out", api), _handle(output_size, IntArray, "output_size", api),
        _handle(input_size, IntArray, "input_size", api), c_bool(align_corners, "align_corners", api),
        c_float(scales_h, "scales_h", api), c_float(scales_w, "scales_w", api), _handle(out, Tensor, "out", api),
    ]  # fmt: skip
    return op.plan(args, (grad_out, out))


def upsample_bilinear2d_backward_get_workspace_size(
    grad_out: Tensor,
    output_size: IntArray,
    input_size: IntArray,
    align_corners: bool,
    scales_h: float,
    scales_w: float,
    out: Tensor,
) -> tuple[int, Executor]:
    """Phase one of ``aclnnUpsampleBilinear2dBackward`` (V1, handle level), as the C call.

    Parameters and returns as :func:`upsample_bilinear2d_backward_v2_get_workspace_size`,
    except: on Atlas A2 the scales are not used (the sizes' ratio always),
    ``grad_out`` must be FLOAT or FLOAT16 when its shape differs from
    ``input_size``, and with equal shapes ``out`` is ``grad_out`` copied unchanged.

    Raises
    ------
    ParamNullptrError
        A NULL argument (161001).
    ParamInvalidError
        A rank, size, shape, dtype or format CANN refuses (161002), in CANN's V1 check order.
    """
    return _plan_upsample_backward(_UPSAMPLE_BILINEAR2D_BACKWARD, grad_out, output_size, input_size, align_corners,
                                   scales_h, scales_w, out)  # fmt: skip


def upsample_bilinear2d_get_workspace_size(
    self: Tensor,
    output_size: IntArray,
    align_corners: bool,
    scales_h: float,
    scales_w: float,
    out: Tensor,
) -> tuple[int, Executor]:
    """Phase one of ``aclnnUpsampleBilinear2d`` (handle level), as the C call.

    Parameters
    ----------
    self : Tensor
        ``(N, C, H, W)`` (NCHW) or ``(N, H, W, C)`` (NHWC); FLOAT, FLOAT16,
        BF16, or DOUBLE in NHWC.
    output_size : IntArray
        ``(outH, outW)``; must equal ``out``'s H and W.
    align_corners : bool
        Corner-pixel-centre alignment.
    scales_h, scales_w : float
        Scale factors (0: unset); CANN's kernel uses ``1 / scale`` only when
        ``int(H * scales_h) == outH`` (likewise W), else the sizes' ratio.
    out : Tensor
        ``self``'s dtype and format, shape ``(N, C, outH, outW)`` or ``(N, outH, outW, C)``.

    Returns
    -------
    workspace_size : int
        Bytes of device workspace phase two needs (CANN's estimate); 0 for empty tensors.
    executor : Executor
        The planned call; it keeps the tensors' memory alive.

    Raises
    ------
    InnerError
        A NULL ``self`` or ``out`` (561103, CANN's status for it).
    ParamInvalidError
        A dtype, format, shape, scale or ``output_size`` CANN refuses (161002), in CANN's check order.
    """
    api = _UPSAMPLE_BILINEAR2D.phase_one_name
    args = [
        _handle(self, Tensor, "self", api), _handle(output_size, IntArray, "output_size", api),
        c_bool(align_corners, "align_corners", api), c_float(scales_h, "scales_h", api),
        c_float(scales_w, "scales_w", api), _handle(out, Tensor, "out", api),
    ]  # fmt: skip
    return _UPSAMPLE_BILINEAR2D.plan(args, (self, out))


def upsample_bilinear2d(
    input: Any,
    output_size: Sequence[int],
    align_corners: bool = False,
    scales_h: float = 0.0,
    scales_w: float = 0.0,
    *,
    format: str = "NCHW",
    out: Any = None,
    stream: Stream | None = None,
) -> Any:
    """2-D bilinear resize (``aclnnUpsampleBilinear2d``), as ``F.interpolate(mode="bilinear")``.

    Parameters
    ----------
    input : array_like, float32, float16, bfloat16 (or float64 in NHWC)
        ``(N, C, H, W)`` for NCHW, ``(N, H, W, C)`` for NHWC (numpy, a torch
        tensor, any DLPack or buffer-protocol array; lists become float32).
    output_size : sequence of 2 ints
        ``(outH, outW)``.
    align_corners : bool
        Corner-pixel-centre alignment.
    scales_h, scales_w : float
        Scale factors; 0 derives them from the sizes. CANN uses them only when
        ``int(H * scales_h) == outH`` and likewise for W (and the shrink is at
        most 50x); otherwise the sizes' ratio, unlike PyTorch.
    format : {"NCHW", "NHWC"}
        Layout of ``input`` and of the result.
    out : array, optional
        Writable array of the result's shape and ``input``'s dtype to write
        (numpy, a torch tensor or any DLPack / buffer-protocol array); it is returned.
    stream : Stream, optional
        Stream to run on (default stream if None); the call waits for it.

    Returns
    -------
    numpy.ndarray
        The resized input, ``(N, C, outH, outW)`` or ``(N, outH, outW, C)`` (``out`` if given).

    Raises
    ------
    ParamInvalidError
        A dtype, format, shape or scale CANN refuses (status 161002), with CANN's message order.
    TypeError
        ``input`` or ``out`` is not an array numpy can view, or ``out`` is read-only.

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> x = np.array([[[[0.0, 1.0], [2.0, 3.0]]]], np.float32)
    >>> aclnn_emu.upsample_bilinear2d(x, (3, 3), align_corners=True)[0, 0]
    array([[0. , 0.5, 1. ],
           [1. , 1.5, 2. ],
           [2. , 2.5, 3. ]], dtype=float32)
    """
    api = _UPSAMPLE_BILINEAR2D.phase_one_name
    x = _as_array(input)
    fmt = format_name(format, FORMATS, "format", api)
    osize = int_list(output_size, "output_size", api)
    flags = (c_bool(align_corners, "align_corners", api), c_float(scales_h, "scales_h", api),
             c_float(scales_w, "scales_w", api))  # fmt: skip
    dims = _dims(x)
    if len(dims) != 4 or len(osize) != 2:
        shape: tuple[int, ...] = tuple(osize)  # the C checks report the rank or the size's length
    else:
        oh, ow = osize
        shape = (dims[0], oh, ow, dims[3]) if fmt == "NHWC" else (dims[0], dims[1], oh, ow)
    return _UPSAMPLE_BILINEAR2D(
        lambda c, target: [c.tensor(x, fmt), c.int_array(osize), *flags, c.tensor(target, fmt)],
        shape, _dtype_of(x), out, stream,
    )  # fmt: skip


def roi_align_v2_get_workspace_size(
    self: Tensor,
    boxes: Tensor,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
    sampling_ratio: int,
    aligned: bool,
    out: Tensor,
) -> tuple[int, Executor]:
    """Phase one of ``aclnnRoiAlignV2`` (handle level), as the C call.

    Parameters
    ----------
    self : Tensor
        FLOAT or FLOAT16, NCHW, ``(N, C, H, W)`` with N, H, W > 0.
    boxes : Tensor
        ``self``'s dtype, ND, ``(K, 5)``: ``(image_id, x1, y1, x2, y2)`` per row.
    pooled_height, pooled_width : int
        Must equal ``out``'s last two dims.
    spatial_scale : float
        Feature-map scale (> FLT_MIN).
    sampling_ratio : int
        Samples per bin and axis (>= 0; 0 is adaptive).
    aligned : bool
        Half-pixel shift of the boxes (torchvision ``aligned=True``).
    out : Tensor
        ``self``'s dtype, NCHW, ``(K, C, pooled_height, pooled_width)``.

    Returns
    -------
    workspace_size : int
        Bytes of device workspace phase two needs (CANN's estimate).
    executor : Executor
        The planned call; it keeps the tensors' memory alive.

    Raises
    ------
    ParamNullptrError
        A NULL argument (161001).
    ParamInvalidError
        A dtype, format, shape or attribute CANN refuses (161002), in CANN's check order.
    """
    api = _ROI_ALIGN_V2.phase_one_name
    args = [
        _handle(self, Tensor, "self", api), _handle(boxes, Tensor, "boxes", api),
        c_int(pooled_height, "pooled_height", api), c_int(pooled_width, "pooled_width", api),
        c_float(spatial_scale, "spatial_scale", api), c_int(sampling_ratio, "sampling_ratio", api),
        c_bool(aligned, "aligned", api), _handle(out, Tensor, "out", api),
    ]  # fmt: skip
    return _ROI_ALIGN_V2.plan(args, (self, boxes, out))


def roi_align_get_workspace_size(
    self: Tensor,
    rois: Tensor,
    batch_indices: Tensor,
    mode: str,
    output_height: int,
    output_width: int,
    sampling_ratio: int,
    spatial_scale: float,
    out: Tensor,
) -> tuple[int, Executor]:
    """Phase one of ``aclnnRoiAlign`` (ONNX-style, handle level), as the C call.

    Parameters
    ----------
    self : Tensor
        FLOAT or FLOAT16, NCHW, ``(N, C, H, W)``.
    rois : Tensor
        ``self``'s dtype, ND, ``(K, 4)``: ``(x1, y1, x2, y2)`` per row.
    batch_indices : Tensor
        INT32, ND, ``(K,)``: the image of each box.
    mode : str
        ``"avg"`` or ``"max"`` (anything else is refused by the C checks).
    output_height, output_width : int
        Must equal ``out``'s last two dims.
    sampling_ratio : int
        Samples per bin and axis (>= 0; 0 is adaptive).
    spatial_scale : float
        Feature-map scale (> 0).
    out : Tensor
        ``self``'s dtype, NCHW, ``(K, C, output_height, output_width)``.

    Returns
    -------
    workspace_size : int
        Bytes of device workspace phase two needs (CANN's estimate).
    executor : Executor
        The planned call; it keeps the tensors' memory alive.

    Raises
    ------
    ParamNullptrError
        A NULL tensor (161001).
    ParamInvalidError
        A dtype, format, shape, mode or attribute CANN refuses (161002), in CANN's check order.
    """
    api = _ROI_ALIGN.phase_one_name
    c_mode = _c_mode(mode, api)
    args = [
        _handle(self, Tensor, "self", api), _handle(rois, Tensor, "rois", api),
        _handle(batch_indices, Tensor, "batch_indices", api), c_mode,
        c_int(output_height, "output_height", api, INT32), c_int(output_width, "output_width", api, INT32),
        c_int(sampling_ratio, "sampling_ratio", api, INT32), c_float(spatial_scale, "spatial_scale", api),
        _handle(out, Tensor, "out", api),
    ]  # fmt: skip
    return _ROI_ALIGN.plan(args, (self, rois, batch_indices, out))


def roi_align_v2(
    input: Any,
    boxes: Any,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float = 1.0,
    sampling_ratio: int = 0,
    aligned: bool = False,
    *,
    out: Any = None,
    stream: Stream | None = None,
) -> Any:
    """RoIAlign (``aclnnRoiAlignV2``), as ``torchvision.ops.roi_align`` with CANN's numerics.

    Parameters
    ----------
    input : array_like, float32 or float16, shape (N, C, H, W)
        Feature map (numpy, a torch tensor, any DLPack or buffer-protocol array).
    boxes : array_like, shape (K, 5)
        Rows ``(image_id, x1, y1, x2, y2)`` in image coordinates, ``input``'s dtype
        (lists take it).
    pooled_height, pooled_width : int
        Output grid per box.
    spatial_scale : float
        Feature-map scale relative to the image (> 0).
    sampling_ratio : int
        Samples per bin and axis; 0 is adaptive (``ceil`` of the bin size, computed
        as ``size * float32(1 / pooled)``: 4 samples where torchvision takes 3 for
        a 21-pixel box over 7 bins).
    aligned : bool
        Shift boxes by -0.5 pixel (torchvision ``aligned=True``); otherwise boxes
        are at least one pixel wide.
    out : array, optional
        Writable array of shape ``(K, C, pooled_height, pooled_width)`` and
        ``input``'s dtype; it is returned.
    stream : Stream, optional
        Stream to run on (default stream if None); the call waits for it.

    Returns
    -------
    numpy.ndarray
        ``(K, C, pooled_height, pooled_width)``.

    Raises
    ------
    ParamInvalidError
        Wrong dtype, format, shape or attribute (CANN status 161002).

    Warns
    -----
    AclnnWarning
        Boxes whose image id is outside ``[0, N)`` or that have no sample (CANN
        leaves their output unwritten; here it is zero), or non-finite boxes.

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> boxes = np.array([[0, 0, 0, 4, 4]], np.float32)
    >>> aclnn_emu.roi_align_v2(x, boxes, 2, 2, sampling_ratio=1, aligned=True)[0, 0]
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
    """
    api = _ROI_ALIGN_V2.phase_one_name
    x = _as_array(input)
    b = _as_array(boxes, _dtype_of(x))
    ph, pw = c_int(pooled_height, "pooled_height", api), c_int(pooled_width, "pooled_width", api)
    attrs = (c_float(spatial_scale, "spatial_scale", api), c_int(sampling_ratio, "sampling_ratio", api),
             c_bool(aligned, "aligned", api))  # fmt: skip
    k = _dims(b)[0] if _dims(b) else 0
    c = _dims(x)[1] if len(_dims(x)) == 4 else 0
    return _ROI_ALIGN_V2(
        lambda c_, target: [c_.tensor(x, "NCHW"), c_.tensor(b, "ND"), ph, pw, *attrs, c_.tensor(target, "NCHW")],
        (k, c, ph, pw), _dtype_of(x), out, stream,
    )  # fmt: skip


def roi_align(
    input: Any,
    rois: Any,
    batch_indices: Any,
    mode: str = "avg",
    output_height: int = 1,
    output_width: int = 1,
    sampling_ratio: int = 0,
    spatial_scale: float = 1.0,
    *,
    out: Any = None,
    stream: Stream | None = None,
) -> Any:
    """ONNX-style RoIAlign (``aclnnRoiAlign``): boxes and their image indices apart, ``"avg"`` or ``"max"``.

    CANN runs it with ``roi_end_mode`` 0: boxes as given (no half-pixel shift)
    and at least one pixel wide; ``"max"`` takes the largest bilinear sample of
    a bin (not ONNX's maximum over weighted corners).

    Parameters
    ----------
    input : array_like, float32 or float16, shape (N, C, H, W)
        Feature map.
    rois : array_like, shape (K, 4)
        Rows ``(x1, y1, x2, y2)`` in image coordinates, ``input``'s dtype.
    batch_indices : array_like of int32, shape (K,)
        The image of each box (lists become int32).
    mode : {"avg", "max"}
        Pooling of the samples of a bin.
    output_height, output_width : int
        Output grid per box.
    sampling_ratio : int
        Samples per bin and axis; 0 is adaptive.
    spatial_scale : float
        Feature-map scale relative to the image (> 0).
    out : array, optional
        Writable array of shape ``(K, C, output_height, output_width)``; it is returned.
    stream : Stream, optional
        Stream to run on (default stream if None); the call waits for it.

    Returns
    -------
    numpy.ndarray
        ``(K, C, output_height, output_width)``.

    Raises
    ------
    ParamInvalidError
        Wrong dtype, format, shape, mode or attribute (CANN status 161002).

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> aclnn_emu.roi_align(x, [[0, 0, 3, 3]], [0], "max", 1, 1, sampling_ratio=2)[0, 0]
    array([[11.25]], dtype=float32)
    """
    api = _ROI_ALIGN.phase_one_name
    x = _as_array(input)
    r = _as_array(rois, _dtype_of(x))
    idx = _as_array(batch_indices, np.int32)
    c_mode = _c_mode(mode, api)
    oh, ow = c_int(output_height, "output_height", api, INT32), c_int(output_width, "output_width", api, INT32)
    attrs = (c_int(sampling_ratio, "sampling_ratio", api, INT32), c_float(spatial_scale, "spatial_scale", api))
    k = _dims(r)[0] if _dims(r) else 0
    c = _dims(x)[1] if len(_dims(x)) == 4 else 0
    return _ROI_ALIGN(
        lambda call, target: [
            call.tensor(x, "NCHW"), call.tensor(r, "ND"), call.tensor(idx, "ND"), c_mode, oh, ow, *attrs,
            call.tensor(target, "NCHW"),
        ],
        (k, c, oh, ow), _dtype_of(x), out, stream,
    )  # fmt: skip


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
    out: Any = None,
    stream: Stream | None = None,
) -> Any:
    """Gradient of RoIAlign with respect to its input (``aclnnRoiAlignV2Backward``).

    Parameters
    ----------
    grad_output : array_like, float32, shape (K, C, pooled_height, pooled_width)
        Gradient of the RoIAlign output (numpy, a torch tensor (also one that
        requires grad), any DLPack or buffer-protocol array; lists become float32).
    boxes : array_like, float32, shape (K, 5)
        Rows ``(image_id, x1, y1, x2, y2)`` in image coordinates (lists take
        ``grad_output``'s dtype).
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
    out : array, optional
        Writable float32 array of ``input_shape`` to write (any strides; numpy,
        a torch tensor or any DLPack / buffer-protocol array); it is returned.
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
    api = _ROI_ALIGN_V2_BACKWARD.phase_one_name
    g = _as_array(grad_output)
    b = _as_array(boxes, _dtype_of(g))
    gdims = _dims(g)
    ph = gdims[2] if pooled_height is None and len(gdims) == 4 else pooled_height
    pw = gdims[3] if pooled_width is None and len(gdims) == 4 else pooled_width
    if ph is None or pw is None:
        raise TypeError(f"{api}: pooled_height and pooled_width are required when grad_output is not 4-D")
    ph, pw = c_int(ph, "pooled_height", api), c_int(pw, "pooled_width", api)
    shape = int_list(input_shape, "input_shape", api)
    attrs = (c_float(spatial_scale, "spatial_scale", api), c_int(sampling_ratio, "sampling_ratio", api),
             c_bool(aligned, "aligned", api))  # fmt: skip
    return _ROI_ALIGN_V2_BACKWARD(
        lambda c, target: [
            c.tensor(g, "NCHW"), c.tensor(b, "ND"), c.int_array(shape), ph, pw, *attrs, c.tensor(target, "NCHW"),
        ],
        shape, _dtype_of(g), out, stream,
    )  # fmt: skip


def upsample_bilinear2d_backward_v2(
    grad_out: Any,
    output_size: Sequence[int],
    input_size: Sequence[int],
    align_corners: bool = False,
    scales_h: float = 0.0,
    scales_w: float = 0.0,
    *,
    format: str = "NCHW",
    out: Any = None,
    stream: Stream | None = None,
) -> Any:
    """Gradient of 2-D bilinear upsampling (``aclnnUpsampleBilinear2dBackwardV2``).

    Parameters
    ----------
    grad_out : array_like, float32, float16 or bfloat16
        ``(N, C, outH, outW)`` for NCHW, ``(N, outH, outW, C)`` for NHWC
        (numpy, a torch tensor (also bfloat16 or one that requires grad), any
        DLPack or buffer-protocol array; lists become float32).
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
    out : array, optional
        Writable array of ``input_size`` and ``grad_out``'s dtype to write
        (numpy, a torch tensor or any DLPack / buffer-protocol array); it is
        returned.
    stream : Stream, optional
        Stream to run on (default stream if None); the call waits for it.

    Returns
    -------
    numpy.ndarray
        The gradient of the forward input, shape ``input_size`` (``out`` if given).

    Raises
    ------
    ParamInvalidError
        A size, shape, format or dtype CANN refuses (status 161002), with CANN's
        message order; e.g. float64 when the sizes differ.
    ParamNullptrError
        A workspace that could not be provided (161001).
    TypeError
        ``grad_out`` or ``out`` is not an array numpy can view, or ``out`` is read-only.

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> g = np.ones((1, 1, 6, 6), np.float32)
    >>> gi = aclnn_emu.upsample_bilinear2d_backward_v2(g, (6, 6), (1, 1, 3, 3), True, 2.0, 2.0)
    >>> round(float(gi.sum()), 4)
    36.0
    """
    return _run_upsample_backward(_UPSAMPLE_BILINEAR2D_BACKWARD_V2, grad_out, output_size, input_size, align_corners,
                                  scales_h, scales_w, format, out, stream)  # fmt: skip


def _run_upsample_backward(
    op: _Operator,
    grad_out: Any,
    output_size: Sequence[int],
    input_size: Sequence[int],
    align_corners: bool,
    scales_h: float,
    scales_w: float,
    format: str,
    out: Any,
    stream: Stream | None,
) -> Any:
    api = op.phase_one_name
    g = _as_array(grad_out)
    fmt = format_name(format, FORMATS, "format", api)
    osize, isize = int_list(output_size, "output_size", api), int_list(input_size, "input_size", api)
    flags = (c_bool(align_corners, "align_corners", api), c_float(scales_h, "scales_h", api),
             c_float(scales_w, "scales_w", api))  # fmt: skip
    return op(
        lambda c, target: [c.tensor(g, fmt), c.int_array(osize), c.int_array(isize), *flags, c.tensor(target, fmt)],
        isize, _dtype_of(g), out, stream,
    )  # fmt: skip


def upsample_bilinear2d_backward(
    grad_out: Any,
    output_size: Sequence[int],
    input_size: Sequence[int],
    align_corners: bool = False,
    scales_h: float = 0.0,
    scales_w: float = 0.0,
    *,
    format: str = "NCHW",
    out: Any = None,
    stream: Stream | None = None,
) -> Any:
    """Gradient of 2-D bilinear upsampling, CANN's V1 API (``aclnnUpsampleBilinear2dBackward``).

    Parameters, returns and errors as :func:`upsample_bilinear2d_backward_v2`,
    with V1's rules: on Atlas A2 the scales are not used (the sizes' ratio,
    CANN's ResizeBilinearV2Grad), ``grad_out`` must be float32 or float16
    when the sizes differ, and equal sizes copy ``grad_out`` unchanged.

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> g = np.ones((1, 1, 6, 6), np.float32)
    >>> gi = aclnn_emu.upsample_bilinear2d_backward(g, (6, 6), (1, 1, 3, 3), True)
    >>> round(float(gi.sum()), 4)
    36.0
    """
    return _run_upsample_backward(_UPSAMPLE_BILINEAR2D_BACKWARD, grad_out, output_size, input_size, align_corners,
                                  scales_h, scales_w, format, out, stream)  # fmt: skip
