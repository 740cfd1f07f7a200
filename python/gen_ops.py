"""Write aclnn_emu/_operators.py from the operators' descriptions (run by meson at build time).

Usage: gen_ops.py OUTPUT DESCRIPTION.json...

Each operator's folder, src/ops/<family>/<name>/, holds <name>.json: its
CANN name, its parameters in the C signature's order (kind, role, Python
name, default, the numpy-style text of both levels) and the rule for its
output's shape and dtype. From each this writes the two Python functions of
the operator, typed and documented:

- ``<name>(...)``, the array-level call (numpy, torch, DLPack or buffer
  arrays in, the result array out), and
- ``<name>_get_workspace_size(...)``, phase one at handle level, as the C call,

plus ``__all__``. The machinery they call is aclnn_emu.ops.

Parameter kinds: ``tensor`` (an input), ``out`` (the output tensor),
``int_array``, ``float_array``, ``bool``, ``double``, ``int`` (``"range": "int32"`` narrows
it), ``string`` and ``scalar`` (an ``aclScalar``: a number of its own
dtype). A tensor's ``layout`` is a format name or ``"format"``
(the call's ``format=`` keyword, from the description's ``formats``); its
``dtype`` is what a list becomes: a numpy name or ``like:<param>``. An
``out``'s ``shape`` is a Python expression over the converted arguments
(``fmt`` is the format) and its ``dtype`` names the input it follows, or is an expression (with a
call, e.g. ``_promoted(input, other)``). ``"memory_bound": true`` marks an operator whose time follows
the bytes of its tensors (nearest, linear, their backward, elementwise): its array-level calls run on the
calling thread up to a larger size (see aclnn_emu.ops._Call.run).
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

ARRAY_TYPES = {"tensor": "Any", "int_array": "Sequence[int]", "float_array": "Sequence[float]", "bool": "bool",
               "double": "float", "int": "int", "string": "str", "scalar": "Any"}  # fmt: skip
HANDLE_TYPES = {"tensor": "Tensor", "out": "Tensor", "int_array": "IntArray", "float_array": "FloatArray",
                "bool": "bool", "double": "float", "int": "int", "string": "str", "scalar": "Scalar"}  # fmt: skip
STREAM_DOC = "Stream to run on (default stream if None); the call waits for it."
HANDLE_RETURNS = """workspace_size : int
    Bytes of device workspace phase two needs (CANN's estimate).
executor : Executor
    The planned call; it keeps the tensors' memory alive."""


def _snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() else ch for ch in name).lstrip("_")


def _names(p: dict[str, Any]) -> tuple[str, str]:
    """(array-level, handle-level) Python name of a parameter."""
    handle = _snake(p["c"])
    return ("out" if p["kind"] == "out" else p.get("name", handle)), handle


def _out_dtype(rule: str) -> str:
    """The output dtype's expression: the dtype of the input named, or an expression (one with a call)."""
    return rule if "(" in rule else f"_dtype_of({rule})"


def _section(title: str, body: str) -> str:
    return f"{title}\n{'-' * len(title)}\n{body.strip()}\n"


def _param_section(entries: list[tuple[str, str, str]]) -> str:
    """numpy-style entries; neighbours with the same type and text share one."""
    merged: list[list[str]] = []
    for name, typ, doc in entries:
        if merged and merged[-1][1] == typ and merged[-1][2] == doc and doc:
            merged[-1][0] += ", " + name
        else:
            merged.append([name, typ, doc])
    lines = []
    for name, typ, doc in merged:
        lines.append(f"{name} : {typ}" if typ else name)
        for line in doc.strip().splitlines():  # wrapped to fit the docstring's indentation in 120 columns
            lines.extend(["    " + part for part in textwrap.wrap(line, 108)] if line else [""])
    return _section("Parameters", "\n".join(lines))


def _docstring(parts: list[str]) -> str:
    text = "\n".join(part.rstrip() + "\n" for part in parts if part.strip()).rstrip()
    return textwrap.indent('"""' + text + '\n"""', "    ").lstrip() + "\n"


def _array_function(d: dict[str, Any], op: str) -> str:
    params = d["params"]
    formats = d.get("formats")
    sig, conv, entries = [], [], []
    for p in params:
        name, _ = _names(p)
        if p["kind"] == "out":
            continue
        typ = ARRAY_TYPES[p["kind"]]
        default = p.get("default")
        if default == "None":
            typ += " | None"
        sig.append(f"{name}: {typ}" + (f" = {default}" if default is not None else ""))
        entries.append((name, p.get("type", ""), p.get("doc", "")))
    sig.append("*")
    if formats:
        sig.append(f'format: str = "{formats[0]}"')
        choices = ", ".join(f'"{f}"' for f in formats)
        entries.append(("format", "{" + choices + "}", d.get("format_doc", "")))
    out = next(p for p in params if p["kind"] == "out")
    sig += ["out: Any = None", "stream: Stream | None = None"]
    entries.append(("out", "array, optional", out.get("doc", "")))
    entries.append(("stream", "Stream, optional", STREAM_DOC))
    # conversions, in the C signature's order (the format after the first tensor that uses it)
    for p in params:
        name, _ = _names(p)
        kind = p["kind"]
        if kind == "tensor":
            dt = p.get("dtype")
            like = dt[5:] if dt and dt.startswith("like:") else None
            arg = f", _dtype_of({like})" if like else f", np.{dt}" if dt else ""
            conv.append(f"{name} = _as_array({name}{arg})")
            if p.get("layout") == "format" and not any(c.startswith("fmt = ") for c in conv):
                conv.append('fmt = format_name(format, FORMATS, "format", api)')
        elif kind == "int_array":
            conv.append(f'{name} = int_list({name}, "{name}", api)')
        elif kind == "float_array":
            conv.append(f'{name} = float_list({name}, "{name}", api)')
        elif kind == "bool":
            conv.append(f'{name} = c_bool({name}, "{name}", api)')
        elif kind == "double":
            conv.append(f'{name} = c_float({name}, "{name}", api)')
        elif kind == "int":
            if "derive" in p:
                conv.append(f"if {name} is None:\n    {name} = {p['derive']}")
                conv.append(f'if {name} is None:\n    raise TypeError(f"{{api}}: {name} is required here: it cannot be '
                            f'read from the arguments")')  # fmt: skip
            bound = ", INT32" if p.get("range") == "int32" else ""
            conv.append(f'{name} = c_int({name}, "{name}", api{bound})')
        elif kind == "string":
            conv.append(f'{name} = _c_string_value({name}, "{name}", api)')
        elif kind == "scalar":
            conv.append(f'{name} = _scalar_value({name}, "{name}", api)')
    call_args = []
    for p in params:
        name, _ = _names(p)
        layout = p.get("layout", "ND")
        fmt = "fmt" if layout == "format" else f'"{layout}"'
        if p["kind"] == "tensor":
            call_args.append(f"call.tensor({name}, {fmt})")
        elif p["kind"] == "out":
            call_args.append(f"call.tensor(target, {fmt})")
        elif p["kind"] in ("int_array", "float_array", "scalar", "string", "double"):
            call_args.append(f"call.{p['kind']}({name})")
        else:
            call_args.append(name)
    doc = [d["summary"], _param_section(entries)]
    for key, title in (("returns", "Returns"), ("raises", "Raises"), ("warns", "Warns"), ("examples", "Examples")):
        if key in d:
            doc.append(_section(title, d[key]))
    uses_api = any("api" in c for c in conv)
    body = [*([f"api = {op}.phase_one_name"] if uses_api else []), *conv, f"shape = {out['shape']}", f"return {op}(",
            "    lambda call, target: [", *(f"        {a}," for a in call_args), "    ],",
            "    shape,", f"    {_out_dtype(out['dtype'])},", "    out,", "    stream,", ")"]  # fmt: skip
    return (f"def {d['function']}(\n    " + ",\n    ".join(sig) + ",\n) -> Any:\n    " + _docstring(doc)
            + textwrap.indent("\n".join(body), "    ") + "\n")  # fmt: skip


def _handle_function(d: dict[str, Any], op: str) -> str:
    params = d["params"]
    sig, entries, args, tensors = [], [], [], []
    for p in params:
        _, name = _names(p)
        kind = p["kind"]
        sig.append(f"{name}: {HANDLE_TYPES[kind]}")
        entries.append((name, p.get("handle_type", HANDLE_TYPES[kind]), p.get("handle_doc", "")))
        if kind in ("tensor", "out"):
            args.append(f'_handle({name}, Tensor, "{name}", api)')
            tensors.append(name)
        elif kind in ("int_array", "float_array", "scalar"):
            args.append(f'_handle({name}, {HANDLE_TYPES[kind]}, "{name}", api)')
        elif kind == "bool":
            args.append(f'c_bool({name}, "{name}", api)')
        elif kind == "double":
            args.append(f'c_float({name}, "{name}", api)')
        elif kind == "int":
            bound = ", INT32" if p.get("range") == "int32" else ""
            args.append(f'c_int({name}, "{name}", api{bound})')
        elif kind == "string":
            args.append(f'_c_string_arg({name}, "{name}", api)')
    doc = [f"Phase one of ``{d['api']}`` (handle level), as the C call.", d.get("handle_notes", ""),
           _param_section(entries), _section("Returns", d.get("handle_returns", HANDLE_RETURNS))]  # fmt: skip
    if "handle_raises" in d:
        doc.append(_section("Raises", d["handle_raises"]))
    body = [f"api = {op}.phase_one_name", "args = [", *(f"    {a}," for a in args), "]",
            f"return {op}.plan(args, ({', '.join(tensors)}{',' if len(tensors) == 1 else ''}))"]  # fmt: skip
    return (f"def {d['function']}_get_workspace_size(\n    " + ",\n    ".join(sig) + ",\n) -> tuple[int, Executor]:\n"
            "    " + _docstring(doc) + textwrap.indent("\n".join(body), "    ") + "\n")  # fmt: skip


def module(descriptions: list[dict[str, Any]]) -> str:
    """The source of _operators.py (as ruff formats it)."""
    for d in descriptions:  # a docstring's first line must fit in 120 columns, indented
        first = d["summary"].split("\n")[0]
        if len(first) > 113:
            raise SystemExit(f"gen_ops.py: {d['function']}: the summary's first line is {len(first)} > 113 chars")
    header = "\n".join([
        '"""The operators, one array-level and one handle-level function each.\n\n'
        "Generated at build time from src/ops/<family>/<name>/<name>.json by gen_ops.py; do not edit.\n"
        '"""\n',
        "from __future__ import annotations\n",
        "from collections.abc import Sequence",
        "from typing import Any\n",
        "import numpy as np  # noqa: F401 (used by some descriptions)\n",
        "from ._args import INT32, c_bool, c_float, c_int, float_list, format_name, int_list  # noqa: F401",
        "from .ops import (  # noqa: F401",
        *(f"    {name}," for name in ("_as_array", "_broadcast_shape", "_c_string_arg", "_c_string_value", "_dim",
                                      "_dtype_of", "_handle", "_Operator", "_promoted", "_scalar_value",
                                      "_scaled_shape", "_spatial_shape")),
        ")",
        "from .runtime import FORMATS, Executor, FloatArray, IntArray, Scalar, Stream, Tensor  # noqa: F401",
    ])  # fmt: skip
    table, blocks, names = [], [], []
    for d in sorted(descriptions, key=lambda d: d["function"]):
        op = "_" + d["function"].upper()
        bound = ", memory_bound=True" if d.get("memory_bound") else ""
        table.append(f'{op} = _Operator("{d["api"]}"{bound})')
        blocks += [_array_function(d, op), _handle_function(d, op)]
        names += [d["function"], d["function"] + "_get_workspace_size"]
    blocks.append("__all__ = [\n" + "".join(f'    "{n}",\n' for n in sorted(names)) + "]")
    head = header + "\n\n" + "\n".join(table)
    return "\n\n\n".join(block.strip() for block in [head, *blocks]) + "\n"


def main(argv: list[str]) -> int:
    """Write the module from the descriptions named on the command line."""
    descriptions = [json.loads(Path(p).read_text()) for p in argv[2:]]
    Path(argv[1]).write_text(module(descriptions))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
