"""The operators' Python functions, generated at build time from their descriptions (python/gen_ops.py)."""

import inspect
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import aclnn_emu
from aclnn_emu import _cdef, _operators

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
