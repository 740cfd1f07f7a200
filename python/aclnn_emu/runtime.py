"""Handle-owning classes for replaying a CANN call sequence step by step.

Every class owns one C handle, releases it in ``close()`` (or when garbage
collected if forgotten), works as a context manager, and raises
:class:`~aclnn_emu.errors.HandleClosedError` when used after ``close()``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _memory
from ._args import INT32, UINT64, c_int, c_string, float_list, int_list
from ._ffi import ffi, lib
from .errors import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_REPEAT_INITIALIZE,
    ACLNN_ERR_PARAM_INVALID,
    HandleClosedError,
    check,
)

__all__ = [
    "Device",
    "DeviceBuffer",
    "Executor",
    "IntArray",
    "Scalar",
    "Stream",
    "Tensor",
    "TensorList",
    "acl_dtype",
    "ensure_device",
    "get_option",
    "report",
    "set_option",
    "set_soc",
    "soc_name",
    "synchronize_device",
]

FORMATS = {
    "UNDEFINED": -1, "NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "NC1HWC0_C04": 12,
    "HWCN": 16, "NDHWC": 27, "FRACTAL_NZ": 29, "NCDHW": 30, "NDC1HWC0": 32, "FRACTAL_Z_3D": 33, "NC": 35,
    "NCL": 47, "FRACTAL_NZ_C0_16": 50, "FRACTAL_NZ_C0_32": 51, "FRACTAL_NZ_C0_2": 52, "FRACTAL_NZ_C0_4": 53,
    "FRACTAL_NZ_C0_8": 54,
}  # fmt: skip
_FORMAT_NAMES = {v: k for k, v in FORMATS.items()}

_NUMPY_TO_ACL = {
    "float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6, "uint16": 7, "uint32": 8,
    "int64": 9, "uint64": 10, "float64": 11, "bool": 12, "complex64": 16, "complex128": 17, "bfloat16": 27,
}  # fmt: skip


_DTYPE_CACHE: dict[Any, int] = {}


def acl_dtype(dtype: Any) -> int:
    """The ``aclDataType`` value of a numpy dtype (``ml_dtypes.bfloat16`` is ACL_BF16).

    Raises
    ------
    TypeError
        If CANN has no matching data type.
    """
    try:
        return _DTYPE_CACHE[dtype]
    except (KeyError, TypeError):
        pass
    name = np.dtype(dtype).name
    if name not in _NUMPY_TO_ACL:
        raise TypeError(f"numpy dtype {name} has no aclDataType")
    try:
        _DTYPE_CACHE[dtype] = _NUMPY_TO_ACL[name]
    except TypeError:  # unhashable dtype-like
        pass
    return _NUMPY_TO_ACL[name]


# ---- process and thread state -------------------------------------------

_lock = threading.Lock()
_initialized = False
_epoch = 0  # bumped when a Device is reset, so implicit thread bindings are renewed
_tls = threading.local()


def _after_fork_in_child() -> None:
    # Another thread may have held the lock at fork(); that thread is gone.
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


def _ensure_init(config_path: str | None = None) -> None:
    global _initialized
    with _lock:
        if _initialized:
            return
        status = lib.aclInit(config_path.encode() if config_path else ffi.NULL)
        if status != ACL_ERROR_REPEAT_INITIALIZE:  # another user in this process initialised already
            check(status, "aclInit")
        # No aclFinalize at exit: the process is ending, and C handles that
        # Python still owns are released by their finalizers after it.
        _initialized = True


def ensure_device(device_id: int = 0) -> None:
    """Initialise the library once and bind ``device_id`` to the calling thread.

    CANN binds devices per host thread; the array-level functions call this
    so that they work from any thread.
    """
    if getattr(_tls, "bound", None) == (device_id, _epoch):
        return
    _ensure_init()
    check(lib.aclrtSetDevice(device_id), "aclrtSetDevice")
    _tls.bound = (device_id, _epoch)


def synchronize_device() -> None:
    """Wait for every stream of the calling thread's device (``aclrtSynchronizeDevice``)."""
    check(lib.aclrtSynchronizeDevice(), "aclrtSynchronizeDevice")


def set_option(name: str, value: int) -> None:
    """Set a validation switch by its environment-variable name.

    Parameters
    ----------
    name : str
        ``"ACLNN_EMU_STRICT"``, ``"ACLNN_EMU_THREADS"``, ``"ACLNN_EMU_DEVICE_COUNT"``,
        ``"ACLNN_EMU_CACHE_BYTES"``, ``"ASCEND_GLOBAL_LOG_LEVEL"`` or ``"ASCEND_SLOG_PRINT_TO_STDOUT"``.
    value : int
        The new value.

    Raises
    ------
    AclError
        An unknown name (one with a NUL character included) or a value out of range (100000).

    Examples
    --------
    >>> import aclnn_emu
    >>> aclnn_emu.set_option("ACLNN_EMU_THREADS", 1)
    >>> aclnn_emu.get_option("ACLNN_EMU_THREADS")
    1
    >>> aclnn_emu.set_option("ACLNN_EMU_THREADS", 0)  # back to all cores
    """
    api = "aclnnEmuSetOption"
    check(lib.aclnnEmuSetOption(c_string(name, "name", api, ACL_ERROR_INVALID_PARAM), c_int(value, "value", api,
                                status=ACL_ERROR_INVALID_PARAM)), api)  # fmt: skip


def get_option(name: str) -> int:
    """Read a validation switch (see :func:`set_option`)."""
    out = ffi.new("int64_t *")
    check(lib.aclnnEmuGetOption(c_string(name, "name", "aclnnEmuGetOption", ACL_ERROR_INVALID_PARAM), out),
          "aclnnEmuGetOption")  # fmt: skip
    return int(out[0])


def set_soc(name: str) -> None:
    """Choose the emulated SoC (``ACLNN_EMU_SOC``), before the library is initialised.

    Parameters
    ----------
    name : str
        ``"Ascend910B1"`` (the default) to ``"Ascend910B4"``, ``"Ascend910_9391"``,
        ``"Ascend910_9392"`` or ``"Ascend950"``.

    Raises
    ------
    AclError
        For an unknown name, or once ``aclInit`` has run in this process.
    """
    check(lib.aclnnEmuSetSoc(name.encode()), "aclnnEmuSetSoc")


def soc_name() -> str:
    """The emulated SoC (``aclrtGetSocName``).

    Examples
    --------
    >>> import aclnn_emu
    >>> aclnn_emu.soc_name().startswith("Ascend")
    True
    """
    return str(ffi.string(lib.aclrtGetSocName()).decode())


def report() -> str:
    """The diagnostics report: APIs called, operators run with times, warnings, live resources."""
    need = lib.aclnnEmuReport(ffi.NULL, 0)
    buf = ffi.new("char[]", need + 1)
    lib.aclnnEmuReport(buf, need + 1)
    return ffi.string(buf).decode("utf-8", "replace")


# ---- handle base class ----------------------------------------------------


class _Handle:
    """Owns one C handle released by a destructor (see the module docstring)."""

    _kind = "handle"

    def __init__(self) -> None:
        self._cdata: Any = None

    def _own(self, raw: Any, destructor: Any) -> None:
        self._cdata = ffi.gc(raw, destructor)

    @property
    def handle(self) -> Any:
        """The C handle (a cffi pointer) for calls through ``aclnn_emu.lib``."""
        if self._cdata is None:
            raise HandleClosedError(f"{type(self).__name__} is closed")
        return self._cdata

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._cdata is None

    def close(self) -> None:
        """Release the C handle now (idempotent)."""
        cdata, self._cdata = self._cdata, None
        if cdata is not None:
            ffi.release(cdata)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else hex(int(ffi.cast("uintptr_t", self._cdata)))
        return f"<{type(self).__name__} {state}>"


class Device:
    """An emulated device bound to the calling thread (``aclrtSetDevice``).

    Initialises the library (``aclInit``) on first use; ``close()`` calls
    ``aclrtResetDevice``.

    Parameters
    ----------
    device_id : int
        Which device (``0 <= device_id < aclrtGetDeviceCount``).
    config_path : str, optional
        JSON configuration passed to ``aclInit`` if this is the first use.
    """

    def __init__(self, device_id: int = 0, config_path: str | None = None) -> None:
        _ensure_init(config_path)
        check(lib.aclrtSetDevice(device_id), "aclrtSetDevice")
        self.device_id = device_id
        self._open = True

    @staticmethod
    def count() -> int:
        """Number of emulated devices (``aclrtGetDeviceCount``)."""
        _ensure_init()
        out = ffi.new("uint32_t *")
        check(lib.aclrtGetDeviceCount(out), "aclrtGetDeviceCount")
        return int(out[0])

    def synchronize(self) -> None:
        """Wait for all streams of this device (``aclrtSynchronizeDevice``)."""
        if not self._open:
            raise HandleClosedError("Device is closed")
        synchronize_device()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return not self._open

    def close(self) -> None:
        """Drop this object's reference to the device (``aclrtResetDevice``)."""
        global _epoch
        if self._open:
            self._open = False
            with _lock:
                _epoch += 1
            check(lib.aclrtResetDevice(self.device_id), "aclrtResetDevice")

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Stream(_Handle):
    """A stream: work runs on it in order, asynchronously (``aclrtCreateStream``).

    Examples
    --------
    >>> import aclnn_emu
    >>> with aclnn_emu.Stream() as s:
    ...     s.synchronize()
    """

    def __init__(self, device_id: int = 0) -> None:
        super().__init__()
        ensure_device(device_id)
        out = ffi.new("aclrtStream *")
        check(lib.aclrtCreateStream(out), "aclrtCreateStream")
        self._own(out[0], lib.aclrtDestroyStream)

    def synchronize(self, timeout_ms: int | None = None) -> None:
        """Wait for everything enqueued so far (``aclrtSynchronizeStream``).

        Parameters
        ----------
        timeout_ms : int, optional
            Give up after this many milliseconds (``aclrtSynchronizeStreamWithTimeout``);
            None waits as long as it takes.

        Raises
        ------
        AclError
            ACL_ERROR_RT_STREAM_SYNC_TIMEOUT when the time runs out, or the
            status of a task that failed.
        """
        if timeout_ms is None:
            check(lib.aclrtSynchronizeStream(self.handle), "aclrtSynchronizeStream")
        else:
            check(lib.aclrtSynchronizeStreamWithTimeout(self.handle, timeout_ms), "aclrtSynchronizeStreamWithTimeout")

    def wait_event(self, event: Event) -> None:
        """Make later work on this stream wait for ``event``'s latest record (``aclrtStreamWaitEvent``)."""
        check(lib.aclrtStreamWaitEvent(self.handle, event.handle), "aclrtStreamWaitEvent")


class Context(_Handle):
    """A context on a device, current for the calling thread (``aclrtCreateContext``).

    While it is current, NULL-stream work (the array-level functions' default)
    runs on the context's own stream. Closing it (``aclrtDestroyContext``)
    leaves the thread without a context until the next call binds the device
    again.

    Examples
    --------
    >>> import aclnn_emu
    >>> with aclnn_emu.Context(0) as ctx:
    ...     ctx.make_current()
    """

    def __init__(self, device_id: int = 0) -> None:
        super().__init__()
        _ensure_init()
        out = ffi.new("aclrtContext *")
        check(lib.aclrtCreateContext(out, device_id), "aclrtCreateContext")
        self._own(out[0], lib.aclrtDestroyContext)
        self.device_id = device_id
        _tls.bound = (device_id, _epoch)

    def make_current(self) -> None:
        """Make this the calling thread's context (``aclrtSetCurrentContext``)."""
        check(lib.aclrtSetCurrentContext(self.handle), "aclrtSetCurrentContext")
        _tls.bound = (self.device_id, _epoch)

    def close(self) -> None:
        """Destroy the context (waits for its stream); idempotent."""
        if not self.closed:
            _tls.bound = None
        super().close()


class Event(_Handle):
    """A marker in a stream's order (``aclrtCreateEventWithFlag``).

    Parameters
    ----------
    flags : int
        ``ACL_EVENT_*`` flags (default ACL_EVENT_SYNC = 1).

    Examples
    --------
    >>> import aclnn_emu
    >>> with aclnn_emu.Stream() as s, aclnn_emu.Event() as start, aclnn_emu.Event() as end:
    ...     start.record(s)
    ...     end.record(s)
    ...     end.synchronize()
    ...     start.elapsed_time(end) >= 0.0
    True
    """

    def __init__(self, flags: int = 1) -> None:
        super().__init__()
        ensure_device()
        out = ffi.new("aclrtEvent *")
        check(lib.aclrtCreateEventWithFlag(out, flags), "aclrtCreateEventWithFlag")
        self._own(out[0], lib.aclrtDestroyEvent)

    def record(self, stream: Stream | None = None) -> None:
        """Record the event on ``stream`` (None: the default stream); it completes when the stream gets there."""
        check(lib.aclrtRecordEvent(self.handle, stream.handle if stream else ffi.NULL), "aclrtRecordEvent")

    def query(self) -> bool:
        """True when the latest record has completed (``aclrtQueryEvent``)."""
        status = ffi.new("aclrtEventStatus *")
        check(lib.aclrtQueryEvent(self.handle, status), "aclrtQueryEvent")
        return bool(status[0] == lib.ACL_EVENT_STATUS_COMPLETE)

    def synchronize(self, timeout_ms: int | None = None) -> None:
        """Block until the latest record has completed (``aclrtSynchronizeEvent[WithTimeout]``).

        Raises
        ------
        AclError
            ACL_ERROR_RT_EVENT_SYNC_TIMEOUT when ``timeout_ms`` runs out.
        """
        if timeout_ms is None:
            check(lib.aclrtSynchronizeEvent(self.handle), "aclrtSynchronizeEvent")
        else:
            check(lib.aclrtSynchronizeEventWithTimeout(self.handle, timeout_ms), "aclrtSynchronizeEventWithTimeout")

    def elapsed_time(self, end: Event) -> float:
        """Milliseconds from this event's completion to ``end``'s (``aclrtEventElapsedTime``).

        Raises
        ------
        AclError
            ACL_ERROR_RT_EVENT_NOT_COMPLETE unless both have a completed record.
        """
        ms = ffi.new("float *")
        check(lib.aclrtEventElapsedTime(ms, self.handle, end.handle), "aclrtEventElapsedTime")
        return float(ms[0])


class DeviceBuffer(_Handle):
    """Device memory from ``aclrtMalloc``.

    The memory stays valid while numpy views made by :meth:`numpy` exist,
    even after ``close()`` (it is freed when the last of them goes).

    Parameters
    ----------
    nbytes : int
        Size in bytes (> 0).
    policy : int
        An ``aclrtMemMallocPolicy`` (default ACL_MEM_MALLOC_HUGE_FIRST).
    reserved : bool
        Address space only (``aclnnEmuMallocReserved``): pages are committed
        only where written, never filled in strict mode. For workspaces the
        kernels do not touch.
    """

    def __init__(self, nbytes: int, policy: int = 0, *, reserved: bool = False) -> None:
        super().__init__()
        api = "aclnnEmuMallocReserved" if reserved else "aclrtMalloc"
        nbytes = c_int(nbytes, "nbytes", api, UINT64, ACL_ERROR_INVALID_PARAM)
        policy = c_int(policy, "policy", api, INT32, ACL_ERROR_INVALID_PARAM)
        ensure_device()
        out = ffi.new("void **")
        if reserved:  # address space only: for workspaces the kernels never touch
            check(lib.aclnnEmuMallocReserved(out, nbytes), "aclnnEmuMallocReserved")
        else:
            check(lib.aclrtMalloc(out, nbytes, policy), "aclrtMalloc")
        self._own(out[0], lib.aclrtFree)
        self.nbytes = int(nbytes)

    @property
    def address(self) -> int:
        """The device address as an integer."""
        return int(ffi.cast("uintptr_t", self.handle))

    def close(self) -> None:
        """Drop this object's reference; the block is freed once no view uses it."""
        self._cdata = None

    def numpy(self, dtype: Any = np.uint8, shape: Sequence[int] | None = None, offset: int = 0) -> np.ndarray:
        """A numpy view of the memory (no copy; call after synchronising the stream that writes it)."""
        dt = np.dtype(dtype)
        count = (self.nbytes - offset) // dt.itemsize if shape is None else int(np.prod(shape, dtype=np.int64))
        arr = np.frombuffer(ffi.buffer(self.handle, self.nbytes), dtype=dt, count=count, offset=offset)
        return arr.reshape(shape) if shape is not None else arr

    def copy_from_host(self, array: Any) -> None:
        """``aclrtMemcpy`` HOST_TO_DEVICE of a C-contiguous array's bytes."""
        src = np.ascontiguousarray(array)
        check(
            lib.aclrtMemcpy(self.handle, self.nbytes, ffi.from_buffer(src), src.nbytes, lib.ACL_MEMCPY_HOST_TO_DEVICE),
            "aclrtMemcpy",
        )

    def copy_to_host(self, dtype: Any = np.uint8, shape: Sequence[int] | None = None) -> np.ndarray:
        """``aclrtMemcpy`` DEVICE_TO_HOST into a new array (checks pending operator writes)."""
        dt = np.dtype(dtype)
        out = np.empty(shape if shape is not None else self.nbytes // dt.itemsize, dtype=dt)
        kind = lib.ACL_MEMCPY_DEVICE_TO_HOST
        check(lib.aclrtMemcpy(ffi.from_buffer(out), out.nbytes, self.handle, out.nbytes, kind), "aclrtMemcpy")
        return out


class Tensor(_Handle):
    """An ``aclTensor`` over a numpy array or a :class:`DeviceBuffer`.

    Parameters
    ----------
    data : numpy.ndarray or DeviceBuffer
        Arrays are used in place (strides and all); their memory is registered
        with ``aclrtHostRegister`` while the tensor lives.
    shape, strides : sequence of int, optional
        View shape and strides in elements; required with a DeviceBuffer
        (strides default to contiguous).
    dtype : numpy dtype, optional
        Element type; required with a DeviceBuffer.
    offset : int
        Offset of element 0, in elements.
    format : str
        ``"ND"``, ``"NCHW"``, ``"NHWC"``, ...
    storage_shape : sequence of int, optional
        Shape of the allocation (default: the view's reach as 1-D).

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> a = np.zeros((2, 3, 4, 5), np.float32)[:, :, ::2]
    >>> with aclnn_emu.Tensor(a, format="NCHW") as t:
    ...     t.shape, t.strides
    ((2, 3, 2, 5), (60, 20, 10, 1))
    """

    def __init__(
        self,
        data: Any,
        *,
        shape: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
        dtype: Any = None,
        offset: int = 0,
        format: str = "ND",
        storage_shape: Sequence[int] | None = None,
    ) -> None:
        super().__init__()
        ensure_device()
        # What keeps the memory alive while the tensor may be used: the array,
        # or the buffer's own cdata (so closing the DeviceBuffer cannot free it).
        self._base: Any = data.handle if isinstance(data, DeviceBuffer) else data
        self._registration: Any = None
        if isinstance(data, DeviceBuffer):
            if shape is None or dtype is None:
                raise TypeError("a Tensor over a DeviceBuffer needs shape and dtype")
            address = data.handle
            item = np.dtype(dtype).itemsize
            shape = tuple(int(d) for d in shape)
            dt = np.dtype(dtype)
        else:
            a = data
            if not isinstance(a, np.ndarray):
                raise TypeError(f"Tensor data must be a numpy array or DeviceBuffer, got {type(a).__name__}")
            _memory.check_in_place(a, "Tensor data")
            dt = a.dtype
            item = dt.itemsize
            elem_strides = _memory.element_strides(a)
            shape = a.shape if shape is None else tuple(int(d) for d in shape)
            strides = elem_strides if strides is None else strides
            address = ffi.cast("void *", a.ctypes.data)
            self._registration = _memory.register_owned(a)
        if strides is None:
            strides = _memory.contiguous_strides(shape)
        strides = [int(s) for s in strides]
        if storage_shape is None:
            storage_shape = [_memory.reach(shape, strides, offset)]
        fmt = FORMATS[format.upper()] if isinstance(format, str) else int(format)
        raw = lib.aclCreateTensor(
            list(shape), len(shape), acl_dtype(dt), strides, int(offset), fmt,
            list(storage_shape), len(storage_shape), address,
        )  # fmt: skip
        if raw == ffi.NULL:
            _memory.release(self._registration)
            check(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor")
        self._own(raw, lib.aclDestroyTensor)
        self._item = item

    def close(self) -> None:
        """Destroy the tensor (unless a list owns it) and release the host-memory registration."""
        if getattr(self, "_owner", None) is not None:
            self._cdata = None  # the owning list destroys it
        super().close()
        _memory.release(self._registration)
        self._registration = None
        self._base = None

    def _owned_by(self, owner: Any) -> None:
        """The C handle now belongs to owner (a list): it destroys it, not this object."""
        ffi.gc(self.handle, None)  # no destructor any more; the handle stays usable
        self._owner = owner

    @property
    def base(self) -> Any:
        """The object whose memory the tensor uses (an array, or a DeviceBuffer's handle); None once closed."""
        return self._base

    def _query(self, fn: Any, api: str) -> tuple[int, ...]:
        values = ffi.new("int64_t **")
        n = ffi.new("uint64_t *")
        check(fn(self.handle, values, n), api)
        try:
            return tuple(int(values[0][i]) for i in range(n[0]))
        finally:
            lib.free(values[0])

    @property
    def shape(self) -> tuple[int, ...]:
        """View shape (``aclGetViewShape``)."""
        return self._query(lib.aclGetViewShape, "aclGetViewShape")

    @property
    def strides(self) -> tuple[int, ...]:
        """View strides in elements (``aclGetViewStrides``)."""
        return self._query(lib.aclGetViewStrides, "aclGetViewStrides")

    @property
    def storage_shape(self) -> tuple[int, ...]:
        """Storage shape (``aclGetStorageShape``)."""
        return self._query(lib.aclGetStorageShape, "aclGetStorageShape")

    @property
    def offset(self) -> int:
        """View offset in elements (``aclGetViewOffset``)."""
        out = ffi.new("int64_t *")
        check(lib.aclGetViewOffset(self.handle, out), "aclGetViewOffset")
        return int(out[0])

    @property
    def format(self) -> str:
        """Format label (``aclGetFormat``)."""
        out = ffi.new("aclFormat *")
        check(lib.aclGetFormat(self.handle, out), "aclGetFormat")
        return _FORMAT_NAMES.get(int(out[0]), str(int(out[0])))

    @property
    def acl_dtype(self) -> int:
        """The ``aclDataType`` value (``aclGetDataType``)."""
        out = ffi.new("aclDataType *")
        check(lib.aclGetDataType(self.handle, out), "aclGetDataType")
        return int(out[0])


class _HostArray(_Handle):
    """A host array handle of one CANN kind (the values are copied at creation)."""

    _kind = ""  # "Int" or "Float": the C functions acl{Create,Destroy}<kind>Array, aclGet<kind>ArraySize

    def __init__(self, values: Sequence[Any]) -> None:
        super().__init__()
        create = f"aclCreate{self._kind}Array"
        vals = (int_list if self._kind == "Int" else float_list)(values, "values", create)
        raw = getattr(lib, create)(vals, len(vals))
        if raw == ffi.NULL:
            check(ACLNN_ERR_PARAM_INVALID, create)
        self._own(raw, getattr(lib, f"aclDestroy{self._kind}Array"))

    def __len__(self) -> int:
        out = ffi.new("uint64_t *")
        name = f"aclGet{self._kind}ArraySize"
        check(getattr(lib, name)(self.handle, out), name)
        return int(out[0])


class IntArray(_HostArray):
    """A host ``aclIntArray`` (values are copied).

    Examples
    --------
    >>> import aclnn_emu
    >>> with aclnn_emu.IntArray([1, 2, 3]) as a:
    ...     len(a)
    3
    """

    _kind = "Int"


class FloatArray(_HostArray):
    """A host ``aclFloatArray`` (values are copied, as float32).

    Examples
    --------
    >>> import aclnn_emu
    >>> with aclnn_emu.FloatArray([1.0, 2.5]) as a:
    ...     len(a)
    2
    """

    _kind = "Float"


class Scalar(_Handle):
    """A host ``aclScalar`` (``aclCreateScalar``); the value is copied.

    Parameters
    ----------
    value : scalar
        The value.
    dtype : numpy dtype
        Its ``aclDataType`` (default float32).

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> with aclnn_emu.Scalar(1.5, np.float16) as s:
    ...     float(s.value)
    1.5
    """

    def __init__(self, value: Any, dtype: Any = np.float32) -> None:
        super().__init__()
        self.value = np.asarray(value, dtype=dtype)
        raw = lib.aclCreateScalar(ffi.from_buffer(self.value), acl_dtype(self.value.dtype))
        if raw == ffi.NULL:
            check(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar")
        self._own(raw, lib.aclDestroyScalar)


class TensorList(_Handle):
    """An ``aclTensorList`` (``aclCreateTensorList``) that owns its tensors, as in CANN.

    The tensors handed to it are destroyed with the list (``aclDestroyTensorList``);
    their Python objects stay usable until then and do not destroy them again.

    Examples
    --------
    >>> import numpy as np, aclnn_emu
    >>> with aclnn_emu.TensorList([aclnn_emu.Tensor(np.zeros(4, np.float32))]) as tl:
    ...     len(tl)
    1
    """

    def __init__(self, tensors: Sequence[Tensor]) -> None:
        super().__init__()
        handles = [t.handle for t in tensors]
        raw = lib.aclCreateTensorList(handles, len(handles))
        if raw == ffi.NULL:
            check(ACLNN_ERR_PARAM_INVALID, "aclCreateTensorList")
        for t in tensors:
            t._owned_by(self)
        self.tensors = list(tensors)
        self._own(raw, lib.aclDestroyTensorList)

    def __len__(self) -> int:
        out = ffi.new("uint64_t *")
        check(lib.aclGetTensorListSize(self.handle, out), "aclGetTensorListSize")
        return int(out[0])


class Executor(_Handle):
    """The executor phase one returns; :meth:`run` is phase two.

    A normal executor runs once (the library releases it); after
    :meth:`set_repeatable` it runs any number of times until ``close()``.
    """

    def __init__(self, raw: Any, launch: Any, api: str, workspace_size: int, keep: list[Any]) -> None:
        super().__init__()
        self._own(raw, lib.aclDestroyAclOpExecutor)
        self._launch = launch
        self._api = api
        self._keep = keep
        self.workspace_size = workspace_size
        self.repeatable = False

    def set_repeatable(self) -> None:
        """``aclSetAclOpExecutorRepeatable``."""
        check(lib.aclSetAclOpExecutorRepeatable(self.handle), "aclSetAclOpExecutorRepeatable")
        self.repeatable = True

    def set_input_address(self, index: int, data: DeviceBuffer | int) -> None:
        """Rebind input ``index`` (signature order) to new memory (``aclSetInputTensorAddr``)."""
        check(lib.aclSetInputTensorAddr(self.handle, index, ffi.NULL, _address(data)), "aclSetInputTensorAddr")

    def set_output_address(self, index: int, data: DeviceBuffer | int) -> None:
        """Rebind output ``index`` to new memory (``aclSetOutputTensorAddr``)."""
        check(lib.aclSetOutputTensorAddr(self.handle, index, ffi.NULL, _address(data)), "aclSetOutputTensorAddr")

    def run(self, workspace: DeviceBuffer | None = None, stream: Stream | None = None) -> None:
        """Phase two: enqueue the operator on ``stream`` (default stream if None) and return."""
        handle = self.handle
        ws = workspace.handle if workspace is not None else ffi.NULL
        size = workspace.nbytes if workspace is not None else 0
        status = self._launch(ws, size, handle, stream.handle if stream is not None else ffi.NULL)
        if not self.repeatable:
            # Phase two releases a single-use executor whether it succeeds or
            # fails (CANN's rule): forget it without calling the destructor.
            ffi.gc(handle, None)
            self._cdata = None
        check(status, self._api)


def _address(data: DeviceBuffer | int) -> Any:
    return data.handle if isinstance(data, DeviceBuffer) else ffi.cast("void *", int(data))
