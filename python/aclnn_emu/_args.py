"""Python arguments to the C types of CANN's signatures, checked before any C call.

A value of the right kind goes to the library unchanged, so that its checks
(CANN's order, status and message) decide. A value the C type cannot hold
at all (an int beyond int32 for an ``int`` parameter, a negative size for a
``size_t``, a format name CANN does not have) is refused here with the
status the library gives for a bad value of that parameter and a message
naming the parameter and its range. A value of the wrong Python type is a
``TypeError`` naming the parameter: nothing is silently reinterpreted (no
``'yes'`` taken as true, no ``'3'`` as 3).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from .errors import _BY_CODE, ACLNN_ERR_PARAM_INVALID, AclnnError

INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
UINT64 = (0, 2**64 - 1)
_RANGE_NAMES = {INT32: "int32", INT64: "int64", UINT64: "uint64 (size_t)"}


def _kind(value: Any) -> str:
    return f"{type(value).__name__} {value!r}" if isinstance(value, (str, bytes)) else type(value).__name__


def out_of_range(name: str, value: Any, lo: int, hi: int, api: str, status: int = ACLNN_ERR_PARAM_INVALID) -> None:
    """Raise the library's exception for ``status``: ``name`` is outside [lo, hi]."""
    ctype = _RANGE_NAMES.get((lo, hi), "")
    where = f" (a C {ctype})" if ctype else ""
    raise _BY_CODE.get(status, AclnnError)(status, f"{api}: {name} must be in [{lo}, {hi}]{where}, got {value}", api)


def c_int(
    value: Any, name: str, api: str, bounds: tuple[int, int] = INT64, status: int = ACLNN_ERR_PARAM_INVALID
) -> int:
    """An integer argument (Python or numpy int; bool is refused), within ``bounds``."""
    if type(value) is int:  # the common case first: the ABC checks below cost microseconds
        v = value
    elif isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: {name} must be an int, got {_kind(value)}")
    else:
        v = int(value)
    if not bounds[0] <= v <= bounds[1]:
        out_of_range(name, v, bounds[0], bounds[1], api, status)
    return v


def c_bool(value: Any, name: str, api: str) -> bool:
    """A ``bool`` argument: True/False (numpy's too) or the ints 0 and 1."""
    if value is True or value is False:
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    raise TypeError(f"{api}: {name} must be a bool, got {_kind(value)}")


def c_float(value: Any, name: str, api: str) -> float:
    """A ``float``/``double`` argument: any real number (not a string, not a bool)."""
    if type(value) is float:
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: {name} must be a float, got {_kind(value)}")
    return float(value)


def int_list(values: Any, name: str, api: str) -> tuple[int, ...]:
    """The values of an ``aclIntArray`` (int64 each); any length: the library checks it."""
    if type(values) is tuple or type(values) is list:  # the common case, checked at once (a loop: no generator)
        lo, hi = INT64
        for v in values:
            if type(v) is not int or not lo <= v <= hi:
                break
        else:
            return values if type(values) is tuple else tuple(values)
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise TypeError(f"{api}: {name} must be a sequence of ints, got {_kind(values)}")
    return tuple(c_int(v, f"{name}[{i}]", api) for i, v in enumerate(values))


def float_list(values: Any, name: str, api: str) -> list[float]:
    """The values of an ``aclFloatArray`` (float32 each, as C converts them); any length: the library checks it."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise TypeError(f"{api}: {name} must be a sequence of floats, got {_kind(values)}")
    return [c_float(v, f"{name}[{i}]", api) for i, v in enumerate(values)]


def c_string(value: Any, name: str, api: str, status: int = ACLNN_ERR_PARAM_INVALID) -> bytes:
    """A ``const char *`` argument (no embedded NUL: C would see a shorter string)."""
    if not isinstance(value, str):
        raise TypeError(f"{api}: {name} must be a str, got {_kind(value)}")
    if "\0" in value:
        raise _BY_CODE.get(status, AclnnError)(status, f"{api}: {name} contains a NUL character: {value!r}", api)
    return value.encode()


def format_name(value: Any, allowed: dict[str, int], name: str, api: str) -> str:
    """An ``aclFormat`` given by name (case-insensitive)."""
    if type(value) is str and value in allowed:  # the common case: a name as the library spells it
        return value
    if not isinstance(value, str):
        raise TypeError(f"{api}: {name} must be a format name (str), got {_kind(value)}")
    key = value.upper()
    if key not in allowed:
        raise _BY_CODE[ACLNN_ERR_PARAM_INVALID](
            ACLNN_ERR_PARAM_INVALID, f"{api}: {name} must be one of {', '.join(allowed)}, got {value!r}", api
        )
    return key
