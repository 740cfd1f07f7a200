"""aclnn-emu: Huawei CANN's aclnn operators and AscendCL runtime, emulated on the CPU.

Array level::

    import aclnn_emu
    grad_input = aclnn_emu.roi_align_v2_backward(grad_output, boxes, (B, C, H, W), spatial_scale=0.25)

Handle level (a C call sequence, step by step): :class:`Device`,
:class:`Context`, :class:`Stream`, :class:`Event`, :class:`DeviceBuffer`, :class:`Tensor`,
:class:`IntArray`, :class:`FloatArray`, :class:`Executor` and the ``*_get_workspace_size`` functions. ``lib`` and
``ffi`` expose the raw C API.
"""

# The operators' functions, generated at build time from their descriptions.
from . import _operators
from ._ffi import INCLUDE_DIR, LIB_DIR, TOOLKIT_HOME, ffi, lib, library_path
from ._operators import *  # noqa: F403
from .errors import (
    AclError,
    AclnnError,
    AclnnRuntimeError,
    AclnnWarning,
    AutogradCutWarning,
    HandleClosedError,
    InnerError,
    ParamInvalidError,
    ParamNullptrError,
    RtError,
    check,
)
from .runtime import (
    Context,
    Device,
    DeviceBuffer,
    Event,
    Executor,
    FloatArray,
    IntArray,
    Scalar,
    Stream,
    Tensor,
    TensorList,
    acl_dtype,
    ensure_device,
    get_option,
    report,
    set_option,
    set_soc,
    soc_name,
    synchronize_device,
)

__version__: str = ffi.string(lib.aclnnEmuVersion()).decode()

__all__ = [
    "INCLUDE_DIR",
    "LIB_DIR",
    "TOOLKIT_HOME",
    "AclError",
    "AclnnError",
    "AclnnRuntimeError",
    "AclnnWarning",
    "AutogradCutWarning",
    "Context",
    "Device",
    "DeviceBuffer",
    "Event",
    "Executor",
    "HandleClosedError",
    "InnerError",
    "FloatArray",
    "IntArray",
    "ParamInvalidError",
    "ParamNullptrError",
    "RtError",
    "Scalar",
    "Stream",
    "Tensor",
    "TensorList",
    "__version__",
    "acl_dtype",
    "check",
    "ensure_device",
    "ffi",
    "get_option",
    "lib",
    "library_path",
    "report",
    "set_option",
    "set_soc",
    "soc_name",
    "synchronize_device",
    *_operators.__all__,
]
