"""src/ keeps its layering: no upward include, kernels see only the kernel header (tests/check_layers.py)."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent / "check_layers.py"


def _checker():
    spec = importlib.util.spec_from_file_location("check_layers", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_upward_include():
    checker = _checker()
    if not checker.SRC.is_dir():
        pytest.skip("run from a source checkout")
    assert checker.violations() == []


def test_checker_catches_an_upward_include(tmp_path):
    checker = _checker()
    (tmp_path / "core").mkdir()
    (tmp_path / "runtime").mkdir()
    (tmp_path / "runtime" / "runtime.h").write_text("")
    (tmp_path / "core" / "bad.c").write_text('#include "../runtime/runtime.h"\n')
    checker.SRC, checker.ROOT = tmp_path, tmp_path
    assert any("upward" in v for v in checker.violations(tmp_path))
