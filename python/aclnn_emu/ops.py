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
from ._args import c_string
from ._ffi import ffi, from_buffer, lib
from .errors import ACLNN_ERR_PARAM_INVALID, AutogradCutWarning, check
from .runtime import FORMATS, DeviceBuffer, Executor, Stream, Tensor, acl_dtype, ensure_device

# The operators' own functions are generated from their descriptions
# (src/ops/<family>/<name>/<name>.json) into aclnn_emu._operators.
__all__: list[str] = []


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

    Lists, tuples and Python scalars become ``dtype`` (float32 unless the
    operator's other inputs say otherwise), not numpy's default float64; a
    numpy scalar keeps its dtype (a 0-d array). None stays None (a NULL
    tensor: the library's checks report it).
    """
    if x is None:
        return None
    if isinstance(x, np.ndarray):
        a = x
    elif isinstance(x, np.generic):
        a = np.asarray(x)
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


def _c_string_value(value: Any, name: str, api: str) -> bytes | None:
    """A ``const char *`` argument's bytes (None for NULL), for an array-level call's ``call.string``."""
    return None if value is None else c_string(value, name, api)


def _c_string_arg(value: Any, name: str, api: str) -> Any:
    """A ``const char *`` argument (None is NULL: the library reports it)."""
    text = _c_string_value(value, name, api)
    return ffi.NULL if text is None else ffi.new("char[]", text)


def _dim(a: Any, axis: int, rank: int | None = None, missing: int | None = 0) -> int | None:
    """Dimension ``axis`` of an input, for an output's shape.

    ``missing`` when the input lacks it (or is not ``rank``-D): the library's own checks then report the input.
    """
    dims = _dims(a)
    if (rank is not None and len(dims) != rank) or axis >= len(dims):
        return missing
    return dims[axis]


def _spatial_shape(x: Any, sizes: Sequence[int], fmt: str) -> tuple[int, ...]:
    """The shape of a resize of ``x`` to the spatial ``sizes`` in layout ``fmt`` (N, C first or C last).

    When the sizes do not fit the rank, ``x``'s own shape: the library then reports the rank or the sizes'
    length (as it would for a caller's ``out`` of the right rank).
    """
    dims = _dims(x)
    if len(dims) != len(sizes) + 2:
        return tuple(dims)
    if fmt.endswith("C"):  # NHWC, NDHWC, NLC
        return (dims[0], *sizes, dims[-1])
    return (dims[0], dims[1], *sizes)


def _broadcast_shape(a: Any, b: Any) -> tuple[int, ...]:
    """The broadcast (numpy's rule) of two inputs' shapes.

    ``a``'s own when they do not broadcast: the library then reports the shapes, as it would for a caller's
    ``out``.
    """
    try:
        return tuple(np.broadcast_shapes(_dims(a), _dims(b)))
    except ValueError:
        return _dims(a)


# PyTorch's type promotion, as CANN's PromoteType follows it: category, then width (UINT8 with a signed
# integer needs the next signed width; float16 with bfloat16 is float32; float64 with complex64 complex128).
_CATEGORY = {"b": 0, "i": 1, "u": 1, "f": 2, "V": 2, "c": 3}  # "V": ml_dtypes.bfloat16


def _promoted(a: Any, b: Any) -> np.dtype:
    """The dtype CANN computes ``a (op) b`` in, for an output's dtype (``a``'s when they do not promote)."""
    da, db = _dtype_of(a), _dtype_of(b)
    if da == db:
        return da
    ca, cb = _CATEGORY.get(da.kind, -1), _CATEGORY.get(db.kind, -1)
    unsigned = {np.dtype(np.uint16), np.dtype(np.uint32), np.dtype(np.uint64)}
    if ca < 0 or cb < 0 or da in unsigned or db in unsigned:
        return da
    if ca != cb:
        hi, lo = (da, db) if ca > cb else (db, da)
        return np.dtype(np.complex128) if hi == np.complex64 and lo == np.float64 else hi
    if ca == 1 and np.uint8 in (da, db):
        other = db if da == np.uint8 else da
        return np.dtype(np.int16) if other == np.int8 else other
    if ca == 2 and {da.itemsize, db.itemsize} == {2}:
        return np.dtype(np.float32)  # float16 with bfloat16
    return da if da.itemsize > db.itemsize else db


def _scalar_value(value: Any, name: str, api: str) -> np.ndarray | None:
    """An ``aclScalar`` argument's value as a 0-d array of its dtype.

    A numpy scalar keeps its own; a Python bool is BOOL, int INT64, float DOUBLE and complex COMPLEX128. None
    is NULL (the library reports it).
    """
    if value is None:
        return None
    if isinstance(value, np.generic | np.ndarray):
        arr = np.asarray(value)
        if arr.ndim != 0:
            raise TypeError(f"{api}: {name} must be a scalar, got an array of shape {arr.shape}")
        return arr
    if isinstance(value, bool):
        return np.asarray(value, np.bool_)
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise OverflowError(f"{api}: {name}={value} does not fit int64")
        return np.asarray(value, np.int64)
    if isinstance(value, float):
        return np.asarray(value, np.float64)
    if isinstance(value, complex):
        return np.asarray(value, np.complex128)
    raise TypeError(f"{api}: {name} must be a number, got {type(value).__name__}")


def _scaled_shape(x: Any, scales: Sequence[float], fmt: str) -> tuple[int, ...]:
    """The shape of ``x`` resized by ``scales`` (4 factors in layout ``fmt``).

    Each spatial dim d becomes ``int(d * (float32(s) + 1e-5))``, the largest size CANN's check admits (so
    5 x 1.8 gives 9, as 5 * 1.8 means); ``x``'s own shape when the rank or the scales' length is not 4 (the
    library then reports it).
    """
    dims = _dims(x)
    if len(dims) != 4 or len(scales) != 4:
        return tuple(dims)
    spatial = (1, 2) if fmt.endswith("C") else (2, 3)
    scaled = [int(float(d) * (float(np.float32(s)) + 1e-5)) if i in spatial else d for i, (d, s) in
              enumerate(zip(dims, scales))]  # fmt: skip
    return tuple(scaled)


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
        self.memory: list[Any] = []  # what the kernel reads and writes: alive until it is done
        self.nbytes = 0
        self.detached = False
        self.deferred: tuple[_Deferred, Any] | None = None
        self.result: Any = None
        self.fresh = False  # the result is a new array of ours (unwritten elements are filled)

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
            data = ffi.cast(_VOID_P, from_buffer(a))  # faster than __array_interface__
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
        data = ffi.cast(_VOID_P, from_buffer(arr))
        ptr = _memory.register(arr, data, arr.nbytes)
        if ptr is not None:
            self.registered.append(ptr)
        check(lib.aclSetOutputTensorAddr(executor, 0, t, data), "aclSetOutputTensorAddr")

    def int_array(self, values: list[int]) -> Any:
        arr = lib.aclCreateIntArray(values, len(values))
        if arr == ffi.NULL:
            check(ACLNN_ERR_PARAM_INVALID, "aclCreateIntArray")
        self.arrays.append((arr, lib.aclDestroyIntArray))
        return arr

    def scalar(self, value: np.ndarray | None) -> Any:
        if value is None:
            return ffi.NULL
        self.memory.append(value)
        sc = lib.aclCreateScalar(from_buffer(value), acl_dtype(value.dtype))
        if sc == ffi.NULL:
            check(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar")
        self.arrays.append((sc, lib.aclDestroyScalar))
        return sc

    def float_array(self, values: list[float]) -> Any:
        arr = lib.aclCreateFloatArray(values, len(values))
        if arr == ffi.NULL:
            check(ACLNN_ERR_PARAM_INVALID, "aclCreateFloatArray")
        self.arrays.append((arr, lib.aclDestroyFloatArray))
        return arr

    def string(self, value: bytes | None) -> Any:
        if value is None:
            return ffi.NULL
        text = ffi.new("char[]", value)
        self.memory.append(text)
        return text

    def double(self, value: float) -> float:
        return value

    def run(self, op: _Operator, args: list[Any], s: Any, stream: Stream | None, key: Any = None) -> None:
        """Both phases and the wait; a deferred result is allocated once phase one accepted the call.

        With a ``key`` (a small call's :class:`_Signature`), the executor is kept for the next call with that
        key, unless phase one warned (a kept plan would not warn again).
        """
        # Statuses are checked inline (check() only on failure) and warnings
        # are delivered once, after the synchronisation: this path is hot.
        ws, ex = _out_params()
        status = op.phase_one(*args, ws, ex)
        if status:
            check(status, op.name + "GetWorkspaceSize")
        executor, workspace_size = ex[0], ws[0]
        warned = lib.aclnnEmuPendingWarnings()
        workspace = ffi.NULL
        fresh = self.fresh or self.deferred is not None
        try:
            if self.deferred is not None:
                self._bind_result(executor)
            if workspace_size:
                workspace = _cached_workspace(workspace_size)
        except BaseException:
            lib.aclDestroyAclOpExecutor(executor)  # a failure before phase two releases the executor too
            raise
        # Kept: small calls (large ones spend their time in the kernel), with something to write, that did
        # not warn (a kept plan would not warn again).
        keep = key is not None and self.nbytes < _BLOCKING_MAX_BYTES and not warned
        keep = keep and (not fresh or self.result.size) and lib.aclSetAclOpExecutorRepeatable(executor) == 0
        # Small work runs on this thread (no worker wake-up); large work runs
        # on the stream's worker while this thread waits in slices, so that
        # Ctrl-C gets through. A memory-bound operator's work is small up to
        # more bytes: at its speed, a few tens of milliseconds.
        blocking = self.nbytes < (_MEMORY_BOUND_BLOCKING_MAX_BYTES if op.memory_bound else _BLOCKING_MAX_BYTES)
        mode = (_LAUNCH_BLOCKING if blocking else 0) | (_LAUNCH_FILL_UNWRITTEN if fresh else 0)
        if mode:  # for this launch only: the thread's own switches are back after it
            lib.aclnnEmuSetLaunchMode(mode | _LAUNCH_ONCE)
        try:
            status = op.phase_two(workspace, workspace_size, executor, s)
            if status:
                check(status, op.name)
            if not blocking:
                self._wait(s, stream)
            check(lib.aclrtSynchronizeStream(s), "aclrtSynchronizeStream")
        except BaseException:
            if keep:  # a single-use executor is gone with phase two; a repeatable one is released here
                lib.aclDestroyAclOpExecutor(executor)
            raise
        if keep:
            plans = _plans()
            if len(plans) >= _PLANS_MAX:
                del plans[next(iter(plans))]
            result = (self.result.shape, self.result.dtype, self.result.nbytes) if fresh else None
            plans[key] = _Plan(executor, workspace, workspace_size, getattr(_WORKSPACE_CACHE, "buf", None), result)

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
        for a, destroy in self.arrays:
            destroy(a)
        for r in self.registered:
            lib.aclrtHostUnregister(r)
        self.tensors, self.arrays, self.registered, self.memory = [], [], [], []


class _Signature:
    """What phase one sees of an array-level call: shapes, dtypes, formats and attribute values, not addresses.

    Built by the same argument function as :class:`_Call` (``args(signature, target)``), its list is a key
    for the executor phase one made for those arguments: phase one's checks are a function of it (and of
    the library's settings, which the library compares itself), so a call with an equal key runs that
    executor again (``aclnnEmuRunArrays``) instead of planning anew. Arguments the key cannot stand for
    (strided or empty arrays, NaN attributes) make the call ``cacheable = False``. A new result stands in
    the key as ``_FRESH``: its shape and dtype follow from the other arguments, so the kept plan holds them.
    """

    __slots__ = ("cacheable", "pointers", "fresh")

    def __init__(self) -> None:
        self.cacheable = True
        self.pointers: list[Any] = []  # each tensor's data, in the operator's order
        self.fresh = -1  # the index in pointers of a new result (allocated once the key was found)

    def tensor(self, a: Any, fmt: str) -> Any:
        if a is None:
            self.pointers.append(ffi.NULL)
            return None
        if a is _FRESH:
            self.fresh = len(self.pointers)
            self.pointers.append(ffi.NULL)
            return (_FRESH, fmt)
        if not a.flags.c_contiguous or not a.size:
            self.cacheable = False
            return None
        self.pointers.append(from_buffer(a))
        return (a.shape, a.dtype, fmt)

    def int_array(self, values: list[int]) -> tuple[int, ...]:
        return tuple(values)

    def float_array(self, values: list[float]) -> tuple[Any, ...]:
        return tuple(self.double(v) for v in values)

    def scalar(self, value: np.ndarray | None) -> Any:
        return None if value is None else (value.dtype, value.tobytes())

    def string(self, value: bytes | None) -> bytes | None:
        return value

    def double(self, value: float) -> Any:
        if value == 0.0:  # -0.0 == 0.0 in a key; a kernel may divide by it
            return _NEGATIVE_ZERO if math.copysign(1.0, value) < 0 else value
        if value != value:
            self.cacheable = False
        return value


# The key's stand-ins for a result the call allocates and for a -0.0 attribute (see _Signature).
_FRESH: Any = object()
_NEGATIVE_ZERO = object()


class _Plan:
    """An executor kept for the argument signature it was made for, with the workspace it runs with.

    ``result`` is the (shape, dtype, bytes) of the new array a call without ``out`` gets (None for one
    with it), as :func:`_result_array` takes them.
    """

    __slots__ = ("executor", "workspace", "workspace_size", "buffer", "warnings", "result")

    def __init__(self, executor: Any, workspace: Any, workspace_size: int, buffer: Any, result: Any) -> None:
        self.executor = ffi.gc(executor, lib.aclDestroyAclOpExecutor)  # destroyed when the plan is dropped
        self.workspace = workspace
        self.workspace_size = workspace_size
        self.buffer = buffer  # keeps the workspace's memory
        self.warnings = ffi.new(_U64_P)  # how many a run left pending (a plan is one thread's)
        self.result = result


# Executors kept per thread (each thread runs its own: a repeatable executor is not shared); the oldest
# goes first beyond this many.
_PLANS_MAX = 256
_PLANS = threading.local()


def _plans() -> dict[Any, _Plan]:
    try:
        return _PLANS.table  # type: ignore[no-any-return]
    except AttributeError:
        _PLANS.table = table = {}  # type: ignore[var-annotated]
        return table


_LAUNCH_BLOCKING = lib.ACLNN_EMU_LAUNCH_BLOCKING
_LAUNCH_FILL_UNWRITTEN = lib.ACLNN_EMU_LAUNCH_FILL_UNWRITTEN
_LAUNCH_ONCE = lib.ACLNN_EMU_LAUNCH_ONCE
_PLAN_STALE = lib.ACLNN_EMU_PLAN_STALE
_FRESH_FLAGS = _LAUNCH_BLOCKING | _LAUNCH_FILL_UNWRITTEN  # a kept plan's run into a new result
# Calls whose tensors span fewer bytes launch blocking (see _Call.run): any operator's, and a memory-bound
# one's. The hand-off to the stream's worker and back costs a large call 0.1-0.3 ms (two thread wake-ups: U5's
# array API 3.94 -> 3.67 ms on the AMD VM); 256 MiB moved at 5 GB/s keep Ctrl-C waiting 50 ms.
_BLOCKING_MAX_BYTES = 256 << 10
_MEMORY_BOUND_BLOCKING_MAX_BYTES = 256 << 20
# How long a wait lasts before Python gets to handle a signal.
_WAIT_SLICE_MS = 50

_WORKSPACE_CACHE = threading.local()
_OUT_PARAMS = threading.local()


def _out_params() -> tuple[Any, Any]:
    """Phase one's two out-parameters (workspace size, executor), made once per thread.

    Each call reads them before it returns, and nothing in a call can start
    another call on the same thread.
    """
    try:
        return _OUT_PARAMS.pair  # type: ignore[no-any-return]
    except AttributeError:
        _OUT_PARAMS.pair = pair = (ffi.new(_U64_P), ffi.new(_EXECUTOR_P))
        return pair


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

    def __init__(self, name: str, memory_bound: bool = False) -> None:
        self.name = name
        self.memory_bound = memory_bound  # its time follows its tensors' bytes (see _Call.run)
        self.phase_one_name = name + "GetWorkspaceSize"
        self.phase_one = getattr(lib, self.phase_one_name)
        self.phase_two = getattr(lib, name)

    def __call__(
        self,
        args: Callable[[Any, Any], list[Any]],
        out_shape: Sequence[int],
        dtype: np.dtype,
        out: Any,
        stream: Stream | None,
    ) -> np.ndarray:
        """Run at array level: ``args(call, target)`` builds phase one's arguments.

        ``call`` is a :class:`_Call`, or a :class:`_Signature` for the key. A small call whose argument
        signature was seen before on this thread runs the executor kept for it (see :class:`_Signature`); any
        other call plans anew.
        """
        ensure_device()
        s = ffi.NULL if stream is None else _stream_handle(stream, self.name)
        if out is None:
            result = None
            view = target = _FRESH  # made once the call is known: a kept plan knows its shape and dtype
        else:
            result, view, target = _output(out, out_shape, dtype)
        signature = _Signature()
        key: tuple[Any, ...] | None = (self, *args(signature, target))
        if not signature.cacheable:
            key = None
        else:
            plans = _plans()
            plan = plans.get(key)
            if plan is not None:  # inline: this is the path a loop of small calls takes
                pointers = signature.pointers
                if result is None:
                    target = _result_array(*plan.result)
                    pointers[signature.fresh] = from_buffer(target)
                warned = plan.warnings
                status = lib.aclnnEmuRunArrays(plan.executor, pointers, len(pointers), plan.workspace,
                                               plan.workspace_size, s, _FRESH_FLAGS if result is None else
                                               _LAUNCH_BLOCKING, warned)  # fmt: skip
                if status != _PLAN_STALE:
                    if status or warned[0]:
                        check(status, self.name)
                    return target if out is None else self._returned(result, view, target)
                lib.aclGetRecentErrMsg()  # not the caller's error: the executor is gone stale, plan anew
                del plans[key]
        if out is None:
            result, view, target = _output(None, out_shape, dtype)
        call = _Call()
        if result is None and not isinstance(target, _Deferred):  # a small new result, made up front
            call.result, call.fresh = target, True
        try:
            self_args = args(call, target)
            call.run(self, self_args, s, stream, key)
        finally:
            call.close()
        if out is None:
            return call.result
        return self._returned(result, view, target)

    @staticmethod
    def _returned(result: Any, view: np.ndarray, target: np.ndarray) -> Any:
        if target is not view:
            view[...] = target  # out's strides could not be described: the kernel wrote a copy
        return result

    def plan(self, args: list[Any], tensors: Sequence[Tensor]) -> tuple[int, Executor]:
        """Phase one at handle level; the executor keeps the tensors' memory alive."""
        ws, ex = _out_params()
        check(self.phase_one(*args, ws, ex), self.phase_one_name)
        size = ws[0]
        return size, Executor(ex[0], self.phase_two, self.name, size, [t.base for t in tensors])


# Results of at least this many bytes come from the library's block cache (aclnnEmuCacheAlloc).
_CACHE_MIN_BYTES = 64 << 10


def _result_array(shape: tuple[int, ...], dtype: np.dtype, nbytes: int | None = None) -> np.ndarray:
    """A new result array; large ones in a block of the library's cache.

    The cache keeps freed blocks warm for the next call of the same size, so a
    loop of array-level calls reuses pages instead of faulting in fresh ones
    (each fresh page costs a fault and, with transparent huge pages, maybe a
    compaction stall). The array owns its block: when the last view of it is
    gone, the block goes back to the cache (``ACLNN_EMU_CACHE_BYTES`` bounds
    it; 0 keeps none).
    """
    if nbytes is None:
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
        # A small result costs less made now than bound to the executor after phase one (the deferral keeps
        # a refused call from allocating a large one).
        if 0 <= math.prod(shape) * dtype.itemsize < _CACHE_MIN_BYTES:
            try:
                arr = np.empty(shape, dtype=dtype)
                return None, arr, arr
            except ValueError:  # a negative size (its product need not be): the library reports it
                pass
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
