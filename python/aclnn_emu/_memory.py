"""Host memory as the C library sees it: strides in elements, byte spans, registration.

One place for the arithmetic the handle classes and the array API share, so
that a zero-size dimension or a view into a larger buffer means the same
thing everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._ffi import ffi, lib
from .errors import ACLNN_ERR_PARAM_INVALID, ParamInvalidError

_STRIDES_CACHE: dict[tuple[int, ...], list[int]] = {}


def contiguous_strides(shape: Sequence[int]) -> list[int]:
    """Row-major strides in elements (a zero-size dimension counts as 1, as numpy does)."""
    key = tuple(shape)
    strides = _STRIDES_CACHE.get(key)
    if strides is None:
        strides, acc = [], 1
        for d in reversed(key):
            strides.append(acc)
            acc *= max(d, 1)
        strides.reverse()
        if len(_STRIDES_CACHE) < 1024:
            _STRIDES_CACHE[key] = strides
    return list(strides)


def element_strides(a: np.ndarray) -> list[int]:
    """``a``'s strides in elements.

    Raises
    ------
    ValueError
        For negative strides or strides that are not a whole number of elements
        (an ``aclTensor`` cannot describe them).
    """
    item = a.itemsize
    if any(s < 0 or s % item for s in a.strides):
        raise ValueError("negative or misaligned strides cannot be described by an aclTensor")
    return [s // item for s in a.strides]


def describable(a: np.ndarray) -> np.ndarray:
    """``a`` itself when an ``aclTensor`` can describe it, else a C-contiguous native copy.

    A copy is made for strides the tensor cannot express, for non-native byte
    order (the kernels read native values) and for elements not aligned to
    their size (the kernels load whole elements).
    """
    flags = a.flags  # a new object at each access
    if not a.dtype.isnative or not flags.aligned:
        return a.astype(a.dtype.newbyteorder("="), order="C", copy=True)  # a new, aligned buffer
    if flags.c_contiguous or all(s >= 0 and s % a.itemsize == 0 for s in a.strides):
        return a
    return np.ascontiguousarray(a)


def check_in_place(a: np.ndarray, what: str) -> None:
    """Refuse an array the C library cannot use in place (a handle-level tensor has no copy to fall back on).

    Raises
    ------
    ParamInvalidError
        For non-native byte order or elements not aligned to their size: the
        kernels would read the bytes as native, aligned values.
    """
    if not a.dtype.isnative:
        raise ParamInvalidError(
            ACLNN_ERR_PARAM_INVALID,
            f"{what} has non-native byte order ({a.dtype.str}); the kernels read native values: pass "
            f"a.astype(a.dtype.newbyteorder('='))",
            "aclCreateTensor",
        )
    if not a.flags.aligned:
        raise ParamInvalidError(
            ACLNN_ERR_PARAM_INVALID,
            f"{what} data at {a.ctypes.data:#x} is not aligned to its {a.itemsize}-byte elements; pass a copy "
            f"(np.ascontiguousarray)",
            "aclCreateTensor",
        )


def reach(shape: Sequence[int], strides: Sequence[int], offset: int = 0) -> int:
    """Elements from the storage start to one past the view's furthest element (0 when empty)."""
    if any(d == 0 for d in shape):
        return 0
    return offset + 1 + sum((d - 1) * s for d, s in zip(shape, strides))


def span(a: np.ndarray) -> tuple[int, int]:
    """Address of ``a``'s first element and the bytes up to one past its last (strides >= 0)."""
    address = int(a.__array_interface__["data"][0])
    if a.flags.c_contiguous:
        return address, int(a.nbytes)
    return address, reach(a.shape, element_strides(a)) * a.itemsize


def buffer_range(a: np.ndarray) -> tuple[int, int]:
    """Address and size of the whole buffer behind ``a`` (views of one buffer share it)."""
    base: Any = a
    while isinstance(base.base, np.ndarray):
        base = base.base
    if base is not a and (base.flags.c_contiguous or base.flags.f_contiguous):
        return int(base.__array_interface__["data"][0]), int(base.nbytes)
    return span(a)


_SCRATCH = ffi.new("void **")


def register(a: np.ndarray, data: Any = None, span_bytes: int | None = None) -> Any:
    """``aclrtHostRegister`` the buffer behind ``a``, so kernels use it in place.

    ``data`` (a ``void *`` to ``a``'s first element) and ``span_bytes`` (of
    ``a``'s own elements) save recomputing them when the caller has them.
    Views register the whole buffer they are part of, so that several views
    of one buffer share a registration. Returns the registered pointer (pass
    it to :func:`unregister`), or None when there is nothing to register or
    the buffer overlaps one registered already (then the library treats it as
    host memory: a warning in validation mode at most, never a copy).
    """
    if data is None or span_bytes is None or isinstance(a.base, np.ndarray):
        address, size = buffer_range(a)
        ptr = ffi.cast("void *", address)
    else:
        ptr, size = data, span_bytes
    if size == 0:
        return None
    if lib.aclrtHostRegister(ptr, size, 0, _SCRATCH) == 0:
        return ptr
    lib.aclGetRecentErrMsg()  # overlapping registration: run unregistered
    return None


def unregister(ptr: Any) -> None:
    """Undo :func:`register` (None is ignored)."""
    if ptr is not None:
        lib.aclrtHostUnregister(ptr)


def register_owned(a: np.ndarray) -> Any:
    """Like :func:`register`, but unregistered when the result is garbage collected.

    For objects a user may forget to close; :func:`release` unregisters at once.
    """
    ptr = register(a)
    return ffi.gc(ptr, lib.aclrtHostUnregister) if ptr is not None else None


def release(owned: Any) -> None:
    """Unregister what :func:`register_owned` returned, now (None is ignored)."""
    if owned is not None:
        ffi.release(owned)
