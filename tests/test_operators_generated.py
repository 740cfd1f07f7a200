"""The operators' Python functions, generated at build time from their descriptions (python/gen_ops.py)."""

import ast
import inspect
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import aclnn_emu
from aclnn_emu import _cdef, _operators, ffi, lib

ROOT = Path(__file__).resolve().parent.parent


def test_every_operator_api_has_its_functions():
    apis = sorted(set(re.findall(r"\b(aclnn(?!Emu)\w+)GetWorkspaceSize\(", _cdef.CDEF)))
    assert len(apis) >= 6
    generated = {getattr(_operators, n).__doc__.split("``")[1] for n in _operators.__all__ if n.endswith("_size")}
    assert generated == set(apis)
    for name in _operators.__all__:
        assert getattr(aclnn_emu, name) is getattr(_operators, name)
        assert name in aclnn_emu.__all__


def test_functions_are_typed_and_documented():
    for name in _operators.__all__:
        fn = getattr(_operators, name)
        sig = inspect.signature(fn)
        assert all(p.annotation is not inspect.Parameter.empty for p in sig.parameters.values()), name
        doc = inspect.getdoc(fn)
        for section in ("Parameters", "Returns"):
            assert f"{section}\n----" in doc, (name, section)
        documented = set(re.findall(r"^(\w+(?:, \w+)*) :", doc, re.M))
        names = {n for entry in documented for n in entry.split(", ")}
        assert set(sig.parameters) <= names, (name, set(sig.parameters) - names)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
def test_generated_module_is_lint_clean():
    path = _operators.__file__
    config = ROOT / "pyproject.toml"
    if not config.is_file():
        pytest.skip("run from a source checkout")
    for cmd in (["ruff", "check", "--config", str(config), path], ["ruff", "format", "--check", "--config", str(config),
                                                                     path]):  # fmt: skip
        result = subprocess.run(cmd, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


# ---- every operator's NULL arguments, from its description ----

DESCRIPTIONS = sorted((ROOT / "src" / "ops").glob("*/*/*.json")) if (ROOT / "src" / "ops").is_dir() else []
NULL_STATUS = 161001  # ACLNN_ERR_PARAM_NULLPTR; a description's "null_status" names the exceptions


def _valid_call(desc: dict) -> tuple[list, list]:
    """Arguments of a call phase one accepts (every named size 2) and the handles that own them."""
    fuzz = desc["fuzz"]
    fmt = (fuzz.get("formats") or ["ND"])[0]
    args, owners = [], []
    for p in desc["params"]:
        spec = fuzz["args"].get(p["c"], {})
        if p["kind"] in ("tensor", "out"):
            dims = [2 if isinstance(d, str) else d for d in spec["dims"]]
            dtype = np.int32 if spec.get("dtype") == "INT32" else np.float32
            layout = fmt if len(dims) >= 3 and fmt != "ND" else "ND"
            if len(dims) == 4 and layout == "ND":
                layout = "NCHW"
            owners.append(aclnn_emu.Tensor(np.zeros(dims, dtype), format=layout))
            args.append(owners[-1].handle)
        elif p["kind"] == "int_array":
            owners.append(aclnn_emu.IntArray([2 if isinstance(v, str) else v for v in spec["values"]]))
            args.append(owners[-1].handle)
        elif p["kind"] == "float_array":  # the first choice of each entry
            owners.append(aclnn_emu.FloatArray([float(choices[0]) for choices in spec["values"]]))
            args.append(owners[-1].handle)
        elif p["kind"] == "string":
            owners.append(ffi.new("char[]", spec["choices"][0].encode()))
            args.append(owners[-1])
        elif p["kind"] == "scalar":
            owners.append(aclnn_emu.Scalar(1.0))
            args.append(owners[-1].handle)
        elif "value" in spec:
            args.append(2)
        elif p.get("default") is not None:
            args.append(ast.literal_eval(p["default"]))
        else:
            args.append(spec["choices"][0])
    args += [ffi.new("uint64_t *"), ffi.new("aclOpExecutor **")]
    return args, owners


def _null_cases() -> list:
    cases = []
    for path in DESCRIPTIONS:
        desc = json.loads(path.read_text())
        handles = ("tensor", "out", "int_array", "float_array", "string", "scalar")
        names = [p["c"] for p in desc["params"] if p["kind"] in handles]
        cases += [
            pytest.param(desc, name, id=f"{desc['api']}-{name}") for name in names + ["workspaceSize", "executor"]
        ]
    return cases


@pytest.mark.parametrize("desc, name", _null_cases())
def test_a_null_argument_gets_cann_status_and_names_itself(desc, name):
    phase_one = getattr(lib, desc["api"] + "GetWorkspaceSize")
    args, owners = _valid_call(desc)
    assert phase_one(*args) == 0, aclnn_emu.errors.recent_error_message()  # the call is valid
    lib.aclDestroyAclOpExecutor(args[-1][0])
    names = [p["c"] for p in desc["params"]] + ["workspaceSize", "executor"]
    args[names.index(name)] = ffi.NULL
    want = desc.get("null_status", {}).get(name, [NULL_STATUS, f"{name} is NULL"])
    assert phase_one(*args) == want[0]
    assert want[1] in aclnn_emu.errors.recent_error_message()
    for owner in owners:
        if hasattr(owner, "close"):
            owner.close()
