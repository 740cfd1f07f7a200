"""Write an operator's libFuzzer target from its description (run by meson with -Dfuzz=true).

Usage: gen_fuzz.py OUTPUT.c DESCRIPTION.json

The description's ``fuzz`` section says how to draw the arguments so that
most draws are consistent enough to reach the kernel and the rest probe the
checks:

- ``sizes``: named sizes and their ranges, drawn once per input
  (``{"n": [0, 3], "h": [0, 20]}``);
- ``dtypes`` and ``formats``: the pools the main dtype and format are drawn
  from (repeat an entry to weigh it); a tensor whose ``layout`` is
  ``"format"`` takes the drawn format, others their own;
- ``args``: per C parameter: a tensor's ``dims`` (size names or integers;
  ``dims_nhwc`` when the format drawn is NHWC) and ``scale`` of its values;
  an int array's ``values``; a number's ``choices`` or the ``value`` of a
  size; a string's ``choices`` (``null`` is NULL); a scalar's ``dtypes`` and
  value ``choices``.

Then every tensor gets a random view (padding, transposition, broadcast,
offset, a storage sometimes too small), a dim off by one, a rank off by one
or a NULL now and then; outputs are filled with a guard byte. Any status is
fine; a crash, a sanitizer report, a hang (-timeout), a write outside an
output's view (the guard band) or a leaked handle is a bug.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

C_TYPE = {"bool": "bool", "double": "double", "int": "int64_t", "string": "const char *"}


def _num(v: Any) -> str:
    """A C literal; JSON has no NaN or infinity, so "nan", "inf" and "-inf" stand for them."""
    special = {"nan": "NAN", "inf": "INFINITY", "-inf": "-INFINITY"}
    if isinstance(v, str):
        return special[v]
    if isinstance(v, float):
        return repr(v)
    return f"INT64_C({v})"


def _dims(spec: list[Any]) -> str:
    return ", ".join(str(d) if isinstance(d, int) else f"s_{d}" for d in spec)


def harness(d: dict[str, Any], header: str) -> str:
    """The C source of the fuzz target."""
    fz = d["fuzz"]
    dtypes, formats = fz["dtypes"], fz.get("formats", ["ND"])
    lines = [
        f"/* libFuzzer target for {d['api']}, generated from its description by tests/fuzz/gen_fuzz.py. */",
        f'#include "aclnnop/{header}"',
        '#include "fuzz_common.h"',
        "",
        "int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)",
        "{",
        "    init_runtime_once();",
        "    const uint64_t live = aclnnEmuLiveHandles();",
        "    reader r = {data, size};",
        f"    static const aclDataType dtypes[] = {{{', '.join('ACL_' + t for t in dtypes)}}};",
        f"    static const aclFormat formats[] = {{{', '.join('ACL_FORMAT_' + f for f in formats)}}};",
        f"    const aclDataType dt = dtypes[take(&r, 1) % {len(dtypes)}];",
        f"    const aclFormat fmt = formats[take(&r, 1) % {len(formats)}];",
        "    const int nhwc = fmt == ACL_FORMAT_NHWC;",
        "    (void)nhwc;",
    ]
    for name, (lo, hi) in fz["sizes"].items():
        lines.append(f"    const int64_t s_{name} = take_range(&r, {lo}, {hi});")
    args, cleanup, outs = [], [], []
    for k, p in enumerate(d["params"]):
        c, kind, a = p["c"], p["kind"], fz["args"].get(p["c"], {})
        var = f"a{k}_{c}"
        if kind in ("tensor", "out"):
            dims = a["dims"]
            nd = len(dims)
            if "dims_nhwc" in a:
                lines.append(f"    int64_t {var}_dims[9] = {{{_dims(dims)}}};")
                lines.append(f"    if (nhwc) memcpy({var}_dims, (int64_t[]){{{_dims(a['dims_nhwc'])}}}, "
                             f"{nd} * sizeof(int64_t));")  # fmt: skip
            else:
                lines.append(f"    int64_t {var}_dims[9] = {{{_dims(dims)}}};")
            lines += [
                "    if (take(&r, 1) % 10 == 0) /* one dim off by one */",
                f"        {var}_dims[take(&r, 1) % {nd}] += 1;",
                f"    const uint64_t {var}_rank = take(&r, 1) % 12 == 0 ? (uint64_t)take_range(&r, "
                f"{max(nd - 1, 0)}, {nd + 1}) : {nd};",
            ]
            layout = p.get("layout", "ND")
            main_fmt = "fmt" if layout == "format" else f"ACL_FORMAT_{layout}"
            fill = 1 if kind == "out" else 0
            lines += [
                f"    const aclDataType {var}_dt = take(&r, 1) % 10 == 0 ? dtypes[take(&r, 1) % {len(dtypes)}] : "
                f"{a.get('dtype', 'dt') if a.get('dtype', 'dt') == 'dt' else 'ACL_' + a['dtype']};",
                f"    const aclFormat {var}_fmt = take(&r, 1) % 8 == 0 ? formats[take(&r, 1) % {len(formats)}] : "
                f"{main_fmt};",
                f"    ftensor {var};",
                f"    make_tensor(&r, &{var}, {var}_dims, {var}_rank, {var}_dt, {var}_fmt, {fill}, "
                f"{float(a.get('scale', 1.0))}f);",
                f"    aclTensor *{var}_t = take(&r, 1) % 40 == 0 ? NULL : {var}.t;",
            ]
            args.append(f"{var}_t")
            cleanup.append(f"    free_tensor(&{var});")
            if kind == "out":
                outs.append(var)
        elif kind == "int_array":
            vals = a["values"]
            n = len(vals)
            lines += [
                f"    int64_t {var}_v[9] = {{{_dims(vals)}}};",
                f"    const uint64_t {var}_n = take(&r, 1) % 10 == 0 ? (uint64_t)take_range(&r, 0, {n + 1}) : {n};",
                f"    aclIntArray *{var} = take(&r, 1) % 16 == 0 ? NULL : aclCreateIntArray({var}_v, {var}_n);",
            ]
            args.append(var)
            cleanup.append(f"    if ({var})\n        aclDestroyIntArray({var});")
        elif kind == "float_array":  # values: a list of choices per entry
            vals = a["values"]
            n = len(vals)
            for i, ch in enumerate(vals):
                items = ", ".join(f"(float){_num(v if isinstance(v, str) else float(v))}" for v in ch)
                lines.append(f"    static const float {var}_c{i}[] = {{{items}}};")
            picks = ", ".join(f"{var}_c{i}[take(&r, 1) % {len(ch)}]" for i, ch in enumerate(vals))
            lines += [
                f"    float {var}_v[9] = {{{picks}}};",
                f"    const uint64_t {var}_n = take(&r, 1) % 10 == 0 ? (uint64_t)take_range(&r, 0, {n + 1}) : {n};",
                f"    aclFloatArray *{var} = take(&r, 1) % 16 == 0 ? NULL : aclCreateFloatArray({var}_v, {var}_n);",
            ]
            args.append(var)
            cleanup.append(f"    if ({var})\n        aclDestroyFloatArray({var});")
        elif kind == "bool":
            lines.append(f"    const bool {var} = take(&r, 1) & 1;")
            args.append(var)
        elif kind == "scalar":  # a dtype from `dtypes`, a value from `choices`
            dts, ch = a["dtypes"], a["choices"]
            values = ", ".join(_num(v if isinstance(v, str) else float(v)) for v in ch)
            lines += [
                f"    static const aclDataType {var}_dts[] = {{{', '.join('ACL_' + t for t in dts)}}};",
                f"    static const double {var}_c[] = {{{values}}};",
                f"    aclScalar *{var} = take(&r, 1) % 16 == 0 ? NULL\n"
                f"        : make_scalar({var}_dts[take(&r, 1) % {len(dts)}], {var}_c[take(&r, 1) % {len(ch)}]);",
            ]
            args.append(var)
            cleanup.append(f"    if ({var})\n        aclDestroyScalar({var});")
        else:
            ctype = C_TYPE[kind]
            decl = ctype if kind == "string" else f"const {ctype}"
            if "value" in a:
                lines.append(f"    {decl} {var} = ({ctype})s_{a['value']};")
            else:
                ch = a["choices"]
                if kind == "string":
                    items = ", ".join("NULL" if v is None else json.dumps(v) for v in ch)
                    lines.append(f"    static const char *const {var}_c[] = {{{items}}};")
                else:
                    lines.append(f"    static const {ctype} {var}_c[] = {{{', '.join(_num(v) for v in ch)}}};")
                lines.append(f"    {decl} {var} = {var}_c[take(&r, 1) % {len(ch)}];")
            args.append(var)
    api = d["api"]
    lines += [
        "    uint64_t ws = 0;",
        "    aclOpExecutor *ex = NULL;",
        f"    aclnnStatus st = {api}GetWorkspaceSize({', '.join(args)}, &ws, &ex);",
        "    if (st == ACLNN_SUCCESS) {",
        "        void *own;",
        f"        st = {api}(fuzz_workspace(ws, &own), ws, ex, NULL);",
        "        aclrtSynchronizeStream(NULL);",
        "        if (own)",
        "            aclrtFree(own);",
        "    }",
        *(f"    if (!guard_intact(&{v}))\n        abort(); /* a write outside the output's view */" for v in outs),
        "    aclGetRecentErrMsg();",
        *cleanup,
        "    if (aclnnEmuLiveHandles() != live)",
        "        abort(); /* a leaked handle */",
        "    return 0;",
        "}",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write the target."""
    d = json.loads(Path(argv[2]).read_text())
    Path(argv[1]).write_text(harness(d, d["header"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
