"""Loads ``libaclnn_emu.so`` with cffi in ABI mode (no compiler needed at import)."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import _cffi_backend
import cffi

from ._cdef import CDEF

PACKAGE_DIR = Path(__file__).resolve().parent
#: The CANN-toolkit-like tree shipped inside the package: ``include/`` and ``lib64/``.
TOOLKIT_HOME = PACKAGE_DIR
INCLUDE_DIR = PACKAGE_DIR / "include"
LIB_DIR = PACKAGE_DIR / "lib64"


def library_path() -> Path:
    """Path of the shared library in use.

    ``ACLNN_EMU_LIBRARY`` overrides the bundled one (e.g. a sanitizer build).
    """
    override = os.environ.get("ACLNN_EMU_LIBRARY")
    return Path(override) if override else LIB_DIR / "libaclnn_emu.so"


ffi = cffi.FFI()
ffi.cdef(CDEF)
lib: Any = ffi.dlopen(str(library_path()))

#: ``ffi.from_buffer(obj)`` (a ``char[]`` over obj's buffer) without the Python frame of cffi's
#: wrapper: the array calls take two per call.
from_buffer: Any = functools.partial(_cffi_backend.from_buffer, ffi.typeof("char[]"))

# Failures reach Python users as exceptions that carry the message, so the
# library's own [ERROR] lines would only repeat them on stderr: log nothing
# unless the user asked for a level (CANN's variable) explicitly.
if "ASCEND_GLOBAL_LOG_LEVEL" not in os.environ:
    lib.aclnnEmuSetOption(b"ASCEND_GLOBAL_LOG_LEVEL", 4)
