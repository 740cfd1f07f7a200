"""Fails on an include that goes against the layering of src/ (see src/README.md).

Layers, lowest first: kernel (views, half floats, rows) and core (status,
log, options, diagnostics) depend on nothing; runtime builds on core (and kernel's
conversions, for its built-in tasks); meta on
runtime and kernel. Operators come in families, src/ops/<family>/: the
family's plan header, reference kernel and fast paths are kernel-side (they
include kernel support and their family's headers only); its op-side steps
(``<family>_op.c`` and ``.h``: the run step, what phase one does alike) and
each operator's op file, src/ops/<family>/<name>/<name>.c, are op-side
(meta and below, plus their family's headers). Families and operators
never include each other. Run as a script (exit 1 with one line
per violation) or through tests/test_layers.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
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
    "runtime": {"core", "kernel"},  # the built-in tasks (tasks.c) convert half floats
    "meta": {"runtime", "core", "kernel"},
    "op": {"meta", "runtime", "core", "kernel"},
    "op-kernel": {"kernel"},
}


def layer_of(path: Path) -> tuple[str, str]:
    """(layer, "family" or "family/operator", "" outside src/ops) of a file under src/."""
    parts = path.relative_to(SRC).parts
    if parts[0] == "ops" and len(parts) == 3:  # a family's own file
        is_op_side = path.stem == f"{parts[1]}_op"  # <family>_op.c, <family>_op.h
        return ("op" if is_op_side else "op-kernel"), parts[1]
    if parts[0] == "ops" and len(parts) == 4:  # an operator's folder
        return "op", f"{parts[1]}/{parts[2]}"
    if parts[0] == "ops":
        return "misplaced", ""
    return parts[0], ""


def violations(src: Path = SRC) -> list[str]:
    """One line per include that breaks the layering."""
    found = []
    for path in sorted(src.rglob("*.[ch]")):
        layer, op = layer_of(path)
        if layer not in ALLOWED:
            found.append(
                f"{path.relative_to(ROOT)}: not in a layer directory ({', '.join(ALLOWED)}) "
                "or an operator folder src/ops/<family>/<name>/"
            )
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
            family, t_family = op.split("/")[0], t_op.split("/")[0]
            if t_op and t_family != family:
                found.append(f"{path.relative_to(ROOT)}: includes another family's {name}")
            elif t_op and "/" in t_op and t_op != op:
                found.append(f"{path.relative_to(ROOT)}: includes another operator's {name}")
            elif t_layer.startswith("op") and layer.startswith("op"):
                if layer == "op-kernel" and t_layer == "op" and target.suffix == ".c":
                    found.append(f"{path.relative_to(ROOT)}: a kernel includes its op file {name}")
            elif t_layer != layer and t_layer not in ALLOWED[layer]:
                where = f"{path.relative_to(ROOT)} ({layer})"
                found.append(f"{where}: includes {name} ({t_layer}), an upward or sideways include")
    return found


# Inside a layer, files form a line (src/README.md): a file calls only those before it.
LINES = {
    "core": ["config.c", "diag.c", "error.c", "options.c"],
    "runtime": ["registry.c", "stream.c", "device.c", "event.c", "memory.c", "process.c"],
}


def _symbols(obj: str) -> tuple[set[str], set[str]]:
    """(defined, undefined) global symbols of an object file."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            (undefined if parts[1] == "U" else defined if parts[1].isupper() else set()).add(parts[0])
    return defined, undefined


ALLOCATORS = {"malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc", "mmap", "munmap"}


def link_violations(build: Path) -> list[str]:
    """One line per call between the library's objects that goes against the layering.

    Reads the objects meson compiled for libaclnn_emu.so (``compile_commands.json`` of
    ``build``): a call is its undefined symbol defined in another object.
    """
    objects = {}
    for entry in json.loads((build / "compile_commands.json").read_text()):
        if "libaclnn_emu.so.p" in entry["output"]:
            objects[(build / entry["file"]).resolve()] = str(build / entry["output"])
    owner, calls = {}, {}
    for src, obj in objects.items():
        defined, undefined = _symbols(obj)
        for name in defined:
            owner.setdefault(name, src)
        calls[src] = undefined
    found = []
    for src, undefined in sorted(calls.items()):
        layer, op = layer_of(src)
        if layer in ("kernel", "op-kernel"):
            # Kernels take the scratch their plan booked (the run step grants it): they never allocate.
            found += [f"{src.relative_to(ROOT)} (a kernel) calls {name}" for name in sorted(undefined & ALLOCATORS)]
        for name in sorted(undefined):
            target = owner.get(name)
            if target is None or target == src:
                continue
            t_layer, t_op = layer_of(target)
            rel, t_rel = src.relative_to(ROOT), target.relative_to(ROOT)
            line = LINES.get(layer)
            if t_layer == layer and line and src.name in line and target.name in line:
                if line.index(target.name) > line.index(src.name):
                    found.append(f"{rel} calls {name} of {t_rel}, later in the {layer} layer's line")
            elif t_op and t_op.split("/")[0] != op.split("/")[0]:
                found.append(f"{rel} calls {name} of another family's {t_rel}")
            elif layer == "op-kernel" and t_layer == "op":
                found.append(f"{rel} (kernel side) calls {name} of the op side's {t_rel}")
            elif t_layer != layer and not t_layer.startswith("op") and t_layer not in ALLOWED.get(layer, set()):
                found.append(f"{rel} ({layer}) calls {name} of {t_rel} ({t_layer}), up or across the layers")
    return found


if __name__ == "__main__":
    # check_layers.py [BUILD_DIR]: also the link-time call graph of a meson build.
    bad = violations()
    if len(sys.argv) > 1 and shutil.which("nm"):
        bad += link_violations(Path(sys.argv[1]).resolve())
    for line in bad:
        print(line)
    sys.exit(1 if bad else 0)
