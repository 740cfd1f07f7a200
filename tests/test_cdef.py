"""The cffi declarations (generated from the public headers) match them; the library exports them all."""

import re
import subprocess
from pathlib import Path

import pytest

from aclnn_emu import _cdef, cli, ffi, lib

pycparser = pytest.importorskip("pycparser")
from pycparser import c_ast, c_generator  # noqa: E402

INCLUDE = Path(cli.cflags()[0][2:])
# Every public header (new operators' included, as installed).
HEADERS = sorted(str(p.relative_to(INCLUDE)) for p in INCLUDE.rglob("*.h"))
DEFINE = re.compile(r"^#define\s+(ACL\w*)\s+(-?\d+)\s*$", re.M)
# pycparser has no libc: plain typedefs stand in for <stdint.h>, <stddef.h>, <stdbool.h>.
PRELUDE = """
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;
typedef unsigned long uint64_t; typedef unsigned long size_t; typedef unsigned long uintptr_t; typedef _Bool bool;
"""


def strip_comments(text):
    return subprocess.run(["cc", "-E", "-P", "-x", "c", "-"], input=text, check=True, capture_output=True,
                          text=True).stdout  # fmt: skip


def declarations(text):
    """{name: normalised C text} of the functions, enums and typedefs in a translation unit."""
    ast = pycparser.CParser().parse(PRELUDE + strip_comments(text))
    gen = c_generator.CGenerator()
    out = {}
    for node in ast.ext:
        if isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.FuncDecl):
            out["function " + node.name] = " ".join(gen.visit(node).split())
        elif isinstance(node, c_ast.Typedef):
            out["typedef " + node.name] = " ".join(gen.visit(node).split())
    return out


def header_text(tmp_path):
    (tmp_path / "stub").mkdir()
    for name in ["stdint.h", "stddef.h", "stdbool.h"]:
        (tmp_path / "stub" / name).write_text("")
    src = tmp_path / "all.h"
    src.write_text("".join(f'#include "{h}"\n' for h in HEADERS))
    cmd = ["cc", "-E", "-P", "-nostdinc", f"-I{tmp_path / 'stub'}", *cli.cflags(), "-D__attribute__(x)=",
           "-D__extension__=", str(src)]  # fmt: skip
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def test_cdef_matches_headers(tmp_path):
    from_headers = declarations(header_text(tmp_path))
    cdef_text = _cdef.CDEF.replace("void free(void *ptr);", "")
    from_cdef = declarations(cdef_text)
    assert len(from_headers) > 60
    missing = sorted(set(from_headers) - set(from_cdef))
    extra = sorted(set(from_cdef) - set(from_headers))
    assert not missing, f"declared in the headers but not in the cdef: {missing}"
    assert not extra, f"declared in the cdef but not in the headers: {extra}"
    for key, text in from_headers.items():
        assert from_cdef[key] == text, key


def test_every_function_is_exported():
    names = [k.split()[1] for k in declarations(_cdef.CDEF) if k.startswith("function ")]
    for name in names:
        assert ffi.typeof(getattr(lib, name)).kind == "function", name


def test_status_defines_match_headers():
    from_headers = {}
    for h in HEADERS:
        from_headers.update(DEFINE.findall((INCLUDE / h).read_text()))
    from_cdef = dict(DEFINE.findall(_cdef.CDEF))
    assert len(from_headers) > 30
    assert from_cdef == from_headers
    for name, value in from_headers.items():
        assert getattr(lib, name) == int(value), name
