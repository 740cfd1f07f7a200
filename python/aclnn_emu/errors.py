"""Exceptions carrying CANN status codes, and the one function that raises them."""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any, ClassVar

from ._ffi import ffi, lib

# aclnnStatus (aclnn/aclnn_base.h)
ACLNN_SUCCESS: int = lib.ACLNN_SUCCESS
ACLNN_ERR_PARAM_NULLPTR: int = lib.ACLNN_ERR_PARAM_NULLPTR
ACLNN_ERR_PARAM_INVALID: int = lib.ACLNN_ERR_PARAM_INVALID
ACLNN_ERR_RUNTIME_ERROR: int = lib.ACLNN_ERR_RUNTIME_ERROR
ACLNN_ERR_INNER: int = lib.ACLNN_ERR_INNER
ACLNN_ERR_INNER_CREATE_EXECUTOR: int = lib.ACLNN_ERR_INNER_CREATE_EXECUTOR
ACLNN_ERR_INNER_NULLPTR: int = lib.ACLNN_ERR_INNER_NULLPTR
# aclError (acl/acl_base.h)
ACL_SUCCESS: int = lib.ACL_SUCCESS
ACL_ERROR_INVALID_PARAM: int = lib.ACL_ERROR_INVALID_PARAM
ACL_ERROR_UNINITIALIZE: int = lib.ACL_ERROR_UNINITIALIZE
ACL_ERROR_REPEAT_INITIALIZE: int = lib.ACL_ERROR_REPEAT_INITIALIZE
ACL_ERROR_REPEAT_FINALIZE: int = lib.ACL_ERROR_REPEAT_FINALIZE
ACL_ERROR_BAD_ALLOC: int = lib.ACL_ERROR_BAD_ALLOC
ACL_ERROR_API_NOT_SUPPORT: int = lib.ACL_ERROR_API_NOT_SUPPORT
ACL_ERROR_INVALID_DEVICE: int = lib.ACL_ERROR_INVALID_DEVICE
ACL_ERROR_MEMORY_ADDRESS_UNALIGNED: int = lib.ACL_ERROR_MEMORY_ADDRESS_UNALIGNED
ACL_ERROR_INVALID_RESOURCE_HANDLE: int = lib.ACL_ERROR_INVALID_RESOURCE_HANDLE
ACL_ERROR_FEATURE_UNSUPPORTED: int = lib.ACL_ERROR_FEATURE_UNSUPPORTED
ACL_ERROR_STORAGE_OVER_LIMIT: int = lib.ACL_ERROR_STORAGE_OVER_LIMIT
ACL_ERROR_INTERNAL_ERROR: int = lib.ACL_ERROR_INTERNAL_ERROR
ACL_ERROR_FAILURE: int = lib.ACL_ERROR_FAILURE
ACL_ERROR_RT_FAILURE: int = lib.ACL_ERROR_RT_FAILURE
ACL_ERROR_INVALID_MODEL_ID: int = lib.ACL_ERROR_INVALID_MODEL_ID
ACL_ERROR_PROF_ALREADY_RUN: int = lib.ACL_ERROR_PROF_ALREADY_RUN
ACL_ERROR_PROF_REPEAT_SUBSCRIBE: int = lib.ACL_ERROR_PROF_REPEAT_SUBSCRIBE
ACL_ERROR_PROF_API_CONFLICT: int = lib.ACL_ERROR_PROF_API_CONFLICT
ACL_ERROR_PROFILING_FAILURE: int = lib.ACL_ERROR_PROFILING_FAILURE
# aclError runtime codes (acl/error_codes/rt_error_codes.h)
ACL_ERROR_RT_PARAM_INVALID: int = lib.ACL_ERROR_RT_PARAM_INVALID
ACL_ERROR_RT_INVALID_DEVICEID: int = lib.ACL_ERROR_RT_INVALID_DEVICEID
ACL_ERROR_RT_CONTEXT_NULL: int = lib.ACL_ERROR_RT_CONTEXT_NULL
ACL_ERROR_RT_STREAM_CONTEXT: int = lib.ACL_ERROR_RT_STREAM_CONTEXT
ACL_ERROR_RT_STREAM_SUBSCRIBE: int = lib.ACL_ERROR_RT_STREAM_SUBSCRIBE
ACL_ERROR_RT_THREAD_SUBSCRIBE: int = lib.ACL_ERROR_RT_THREAD_SUBSCRIBE
ACL_ERROR_RT_INVALID_MEMORY_TYPE: int = lib.ACL_ERROR_RT_INVALID_MEMORY_TYPE
ACL_ERROR_RT_INVALID_HANDLE: int = lib.ACL_ERROR_RT_INVALID_HANDLE
ACL_ERROR_RT_WAIT_TIMEOUT: int = lib.ACL_ERROR_RT_WAIT_TIMEOUT
ACL_ERROR_RT_FEATURE_NOT_SUPPORT: int = lib.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
ACL_ERROR_RT_MEMORY_ALLOCATION: int = lib.ACL_ERROR_RT_MEMORY_ALLOCATION
ACL_ERROR_RT_MEMORY_FREE: int = lib.ACL_ERROR_RT_MEMORY_FREE
ACL_ERROR_RT_QUEUE_EMPTY: int = lib.ACL_ERROR_RT_QUEUE_EMPTY
ACL_ERROR_RT_QUEUE_FULL: int = lib.ACL_ERROR_RT_QUEUE_FULL
ACL_ERROR_RT_REPEATED_INIT: int = lib.ACL_ERROR_RT_REPEATED_INIT
ACL_ERROR_RT_INTERNAL_ERROR: int = lib.ACL_ERROR_RT_INTERNAL_ERROR
ACL_ERROR_RT_EVENT_NOT_COMPLETE: int = lib.ACL_ERROR_RT_EVENT_NOT_COMPLETE
ACL_ERROR_RT_REPORT_TIMEOUT: int = lib.ACL_ERROR_RT_REPORT_TIMEOUT
ACL_ERROR_RT_STREAM_SYNC_TIMEOUT: int = lib.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
ACL_ERROR_RT_EVENT_SYNC_TIMEOUT: int = lib.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
ACL_ERROR_RT_MODEL_CONTEXT: int = lib.ACL_ERROR_RT_MODEL_CONTEXT
ACL_ERROR_RT_STREAM_MODEL: int = lib.ACL_ERROR_RT_STREAM_MODEL
ACL_ERROR_RT_CAPTURE_DEPENDENCY: int = lib.ACL_ERROR_RT_CAPTURE_DEPENDENCY
ACL_ERROR_RT_STREAM_UNJOINED: int = lib.ACL_ERROR_RT_STREAM_UNJOINED
ACL_ERROR_RT_MODEL_CAPTURED: int = lib.ACL_ERROR_RT_MODEL_CAPTURED
ACL_ERROR_RT_STREAM_CAPTURED: int = lib.ACL_ERROR_RT_STREAM_CAPTURED
ACL_ERROR_RT_STREAM_NOT_CAPTURED: int = lib.ACL_ERROR_RT_STREAM_NOT_CAPTURED
ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT: int = lib.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
ACL_ERROR_STREAM_TASK_GROUP_STATUS: int = lib.ACL_ERROR_STREAM_TASK_GROUP_STATUS
ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED: int = lib.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED
ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD: int = lib.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD
ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT: int = lib.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
ACL_ERROR_RT_MODEL_EXECUTE: int = lib.ACL_ERROR_RT_MODEL_EXECUTE
ACL_ERROR_RT_LABEL_CONTEXT: int = lib.ACL_ERROR_RT_LABEL_CONTEXT
ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED: int = lib.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED


class AclnnError(RuntimeError):
    """A failing aclnn-emu call.

    Attributes
    ----------
    status : int
        The CANN status code (``aclnnStatus`` or ``aclError``).
    message : str
        The library's message (``aclGetRecentErrMsg``): function, parameter,
        what was expected and what was given.
    api : str
        The C function that failed.
    """

    codes: ClassVar[tuple[int, ...]] = ()

    def __init__(self, status: int, message: str, api: str) -> None:
        super().__init__(f"{api} failed with status {status}: {message}")
        self.status = status
        self.message = message
        self.api = api


class ParamNullptrError(AclnnError):
    """ACLNN_ERR_PARAM_NULLPTR (161001): a required argument was NULL."""

    codes = (ACLNN_ERR_PARAM_NULLPTR,)


class ParamInvalidError(AclnnError, ValueError):
    """ACLNN_ERR_PARAM_INVALID (161002): a dtype, format, shape or attribute is wrong."""

    codes = (ACLNN_ERR_PARAM_INVALID,)


class AclnnRuntimeError(AclnnError):
    """ACLNN_ERR_RUNTIME_ERROR (361001): phase two could not reach the runtime."""

    codes = (ACLNN_ERR_RUNTIME_ERROR,)


class InnerError(AclnnError):
    """ACLNN_ERR_INNER* (5610xx): an internal failure, e.g. out of memory."""

    codes = (ACLNN_ERR_INNER, ACLNN_ERR_INNER_CREATE_EXECUTOR, ACLNN_ERR_INNER_NULLPTR)


class AclError(AclnnError):
    """An ``ACL_ERROR_*`` status of the AscendCL runtime (1000xx-5000xx)."""

    codes = (
        ACL_ERROR_INVALID_PARAM,
        ACL_ERROR_UNINITIALIZE,
        ACL_ERROR_REPEAT_INITIALIZE,
        ACL_ERROR_REPEAT_FINALIZE,
        ACL_ERROR_BAD_ALLOC,
        ACL_ERROR_API_NOT_SUPPORT,
        ACL_ERROR_INVALID_DEVICE,
        ACL_ERROR_MEMORY_ADDRESS_UNALIGNED,
        ACL_ERROR_INVALID_RESOURCE_HANDLE,
        ACL_ERROR_FEATURE_UNSUPPORTED,
        ACL_ERROR_STORAGE_OVER_LIMIT,
        ACL_ERROR_INTERNAL_ERROR,
        ACL_ERROR_FAILURE,
        ACL_ERROR_RT_FAILURE,
        ACL_ERROR_INVALID_MODEL_ID,
        ACL_ERROR_PROF_ALREADY_RUN,
        ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
        ACL_ERROR_PROF_API_CONFLICT,
        ACL_ERROR_PROFILING_FAILURE,
    )


class RtError(AclnnError):
    """An ``ACL_ERROR_RT_*`` status of the runtime (1070xx, 2070xx, 5070xx)."""

    codes = (
        ACL_ERROR_RT_PARAM_INVALID,
        ACL_ERROR_RT_INVALID_DEVICEID,
        ACL_ERROR_RT_CONTEXT_NULL,
        ACL_ERROR_RT_STREAM_CONTEXT,
        ACL_ERROR_RT_STREAM_SUBSCRIBE,
        ACL_ERROR_RT_THREAD_SUBSCRIBE,
        ACL_ERROR_RT_INVALID_MEMORY_TYPE,
        ACL_ERROR_RT_INVALID_HANDLE,
        ACL_ERROR_RT_WAIT_TIMEOUT,
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        ACL_ERROR_RT_MEMORY_ALLOCATION,
        ACL_ERROR_RT_MEMORY_FREE,
        ACL_ERROR_RT_QUEUE_EMPTY,
        ACL_ERROR_RT_QUEUE_FULL,
        ACL_ERROR_RT_REPEATED_INIT,
        ACL_ERROR_RT_INTERNAL_ERROR,
        ACL_ERROR_RT_EVENT_NOT_COMPLETE,
        ACL_ERROR_RT_REPORT_TIMEOUT,
        ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
        ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
        ACL_ERROR_RT_MODEL_CONTEXT,
        ACL_ERROR_RT_STREAM_MODEL,
        ACL_ERROR_RT_CAPTURE_DEPENDENCY,
        ACL_ERROR_RT_STREAM_UNJOINED,
        ACL_ERROR_RT_MODEL_CAPTURED,
        ACL_ERROR_RT_STREAM_CAPTURED,
        ACL_ERROR_RT_STREAM_NOT_CAPTURED,
        ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
        ACL_ERROR_STREAM_TASK_GROUP_STATUS,
        ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
        ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
        ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
        ACL_ERROR_RT_MODEL_EXECUTE,
        ACL_ERROR_RT_LABEL_CONTEXT,
        ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
    )


class AclnnWarning(UserWarning):
    """A misuse the library detected and, in normal mode, tolerated (validation mode).

    In strict mode (``ACLNN_EMU_STRICT=1``) the same misuse raises an
    :class:`AclnnError` instead. The message is the library's, starting with
    the C function that raised it. A warning raised by work on a stream
    arrives at the call that synchronises with that stream.
    """


class AutogradCutWarning(UserWarning):
    """A torch tensor that requires grad went through the array API (once per process).

    The array API returns numpy arrays, so autograd does not follow it; :mod:`aclnn_emu.torch`
    has the operators as torch ops whose gradients are CANN's backward operators.
    """


class HandleClosedError(ValueError):
    """A Python handle object was used after ``close()``."""


_BY_CODE: dict[int, type[AclnnError]] = {
    code: cls
    for cls in (ParamNullptrError, ParamInvalidError, AclnnRuntimeError, InnerError, AclError, RtError)
    for code in cls.codes
}


def recent_error_message() -> str:
    """This thread's recent error message (reading it clears it, as in CANN)."""
    return ffi.string(lib.aclGetRecentErrMsg()).decode("utf-8", "replace")


_WARNING_BUF = 2048


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first caller outside this package."""
    frame: Any = sys._getframe(1)
    level = 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame, level = frame.f_back, level + 1
    return level


def deliver_warnings() -> None:
    """Issue this thread's pending library warnings as :class:`AclnnWarning`."""
    while lib.aclnnEmuPendingWarnings():
        buf = ffi.new("char[]", _WARNING_BUF)
        if not lib.aclnnEmuTakeWarning(buf, _WARNING_BUF):
            break
        warnings.warn(ffi.string(buf).decode("utf-8", "replace"), AclnnWarning, stacklevel=_user_stacklevel())


def check(status: int, api: str) -> None:
    """Raise the :class:`AclnnError` subclass for ``status`` unless it is 0.

    Warnings the call raised (validation mode, normal mode) are issued first
    as :class:`AclnnWarning`.

    Parameters
    ----------
    status : int
        What the C function returned.
    api : str
        Its name, for the exception.
    """
    if lib.aclnnEmuPendingWarnings():
        deliver_warnings()
    if status != 0:
        raise _BY_CODE.get(status, AclnnError)(status, recent_error_message(), api)
