"""Fails on an include that goes against the layering of src/ (see src/README.md).

Layers, lowest first: kernel (views, threads, half floats) and core (status,
log, options, diagnostics) depend on nothing; runtime builds on core; meta on
runtime and kernel; an operator's op file on meta; an operator's kernel (and
the plan header it shares with its op file) on kernel only. Operators never
include each other. Run as a script (exit 1 with one line per violation) or
through tests/test_layers.py.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PUBLIC = ROOT / "include"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# layer -> layers it may include (itself always allowed)
ALLOWED = {
    "kernel": set(),
    "core": set(),
    "runtime": {"core"},
    "meta": {"runtime", "core", "kernel"},
    "op": {"meta", "runtime", "core", "kernel"},
    "op-kernel": {"kernel"},
}


def layer_of(path: Path) -> tuple[str, str]:
    """(layer, operator name or "") of a file under src/."""
    parts = path.relative_to(SRC).parts
    if parts[0] == "ops" and len(parts) == 3:
        op = parts[1]
        is_kernel_side = path.name.endswith("_kernel.c") or path.suffix == ".h"
        return ("op-kernel" if is_kernel_side else "op"), op
    return parts[0], ""


def violations(src: Path = SRC) -> list[str]:
    """One line per include that breaks the layering."""
    found = []
    for path in sorted(src.rglob("*.[ch]")):
        layer, op = layer_of(path)
        if layer not in ALLOWED:
            found.append(f"{path.relative_to(ROOT)}: not in a layer directory ({', '.join(ALLOWED)})")
            continue
        for name in INCLUDE.findall(path.read_text()):
            target = (path.parent / name).resolve()
            if not target.exists() and (PUBLIC / name).exists():
                continue  # a public CANN header: any layer may use it
            if not target.exists():
                found.append(f"{path.relative_to(ROOT)}: includes {name}, which does not exist")
                continue
            if SRC not in target.parents:
                found.append(f"{path.relative_to(ROOT)}: includes {name} from outside src/")
                continue
            t_layer, t_op = layer_of(target)
            if t_op and t_op != op:
                found.append(f"{path.relative_to(ROOT)}: includes another operator's {name}")
            elif t_layer.startswith("op") and layer.startswith("op"):
                if layer == "op-kernel" and t_layer == "op" and target.suffix == ".c":
                    found.append(f"{path.relative_to(ROOT)}: a kernel includes its op file {name}")
            elif t_layer != layer and t_layer not in ALLOWED[layer]:
                where = f"{path.relative_to(ROOT)} ({layer})"
                found.append(f"{where}: includes {name} ({t_layer}), an upward or sideways include")
    return found


if __name__ == "__main__":
    bad = violations()
    for line in bad:
        print(line)
    sys.exit(1 if bad else 0)
