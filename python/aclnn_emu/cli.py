"""The ``aclnn-emu`` command: ``run``, ``config`` and ``info``."""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ._ffi import INCLUDE_DIR, LIB_DIR, PACKAGE_DIR, TOOLKIT_HOME, ffi, lib, library_path

EXAMPLES_DIR = PACKAGE_DIR / "examples"
PKGCONFIG_DIR = LIB_DIR / "pkgconfig"
C_SUFFIXES = {".c"}
CXX_SUFFIXES = {".cc", ".cpp", ".cxx", ".C"}
LINK_LIBS = ["-lascendcl", "-lnnopbase", "-lopapi"]


def cflags() -> list[str]:
    """Compiler flags to build a CANN host program against the emulator."""
    return [f"-I{INCLUDE_DIR}"]


def libs() -> list[str]:
    """Linker flags: CANN's library names, resolved to the emulator, with an rpath."""
    return [f"-L{LIB_DIR}", f"-Wl,-rpath,{LIB_DIR}", *LINK_LIBS]


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo where there is one)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _cmd_info(_: argparse.Namespace) -> int:
    from .runtime import get_option

    threads = get_option("ACLNN_EMU_THREADS") or os.cpu_count()
    print(f"aclnn-emu {ffi.string(lib.aclnnEmuVersion()).decode()}")
    print(f"library:       {library_path()}")
    print(f"toolkit home:  {TOOLKIT_HOME}")
    print(f"OpenMP threads: {threads}")
    print(f"CPU:           {cpu_model()} ({os.cpu_count()} logical cores)")
    print(f"strict mode:   {get_option('ACLNN_EMU_STRICT')}")
    return 0


def _cmd_config(args: argparse.Namespace) -> int:
    out: list[str] = []
    if args.cflags:
        out += cflags()
    if args.libs:
        out += libs()
    if args.includedir:
        out.append(str(INCLUDE_DIR))
    if args.libdir:
        out.append(str(LIB_DIR))
    if args.pkgconfigdir:
        out.append(str(PKGCONFIG_DIR))
    if args.toolkit_home:
        out.append(str(TOOLKIT_HOME))
    if not out:
        print("aclnn-emu config: say what to print (--cflags, --libs, ...)", file=sys.stderr)
        return 2
    print(" ".join(out))
    return 0


def build(source: Path, output: Path) -> None:
    """Compile and link one C or C++ host program against the emulator.

    Raises
    ------
    subprocess.CalledProcessError
        If the compiler fails (its diagnostics are on stderr).
    """
    if source.suffix in C_SUFFIXES:
        compiler, std = os.environ.get("CC", "cc"), "-std=c11"
    else:
        compiler, std = os.environ.get("CXX", "c++"), "-std=c++17"
    cmd = [compiler, std, "-O1", "-g", *cflags(), str(source), "-o", str(output), *libs(), "-lm"]
    subprocess.run(cmd, check=True)


def _run_one(target: Path, argv: Sequence[str], env: dict[str, str], workdir: Path) -> tuple[int, str]:
    """Build (if source) and run one program; returns its exit status and the report."""
    if target.suffix in C_SUFFIXES | CXX_SUFFIXES:
        exe = workdir / target.stem
        try:
            build(target, exe)
        except subprocess.CalledProcessError as e:
            return 127, f"compilation of {target} failed (exit {e.returncode})\n"
    else:
        exe = target.resolve()
    report = workdir / f"{target.stem}.report"
    env = dict(env, ACLNN_EMU_REPORT_FILE=str(report))
    status = subprocess.run([str(exe), *argv], env=env).returncode
    text = report.read_text() if report.exists() else "(no report: the program did not exit normally)\n"
    return status, text


def _cmd_run(args: argparse.Namespace) -> int:
    env = dict(os.environ)
    if args.strict:
        env["ACLNN_EMU_STRICT"] = "1"
    if args.log_level is not None:
        env["ASCEND_GLOBAL_LOG_LEVEL"] = str(args.log_level)
    if args.program:
        targets = [(Path(args.program), list(args.args))]
    else:
        targets = [(p, []) for p in sorted(EXAMPLES_DIR.glob("*.c*"))]
        if not targets:
            print(f"aclnn-emu run: no bundled examples in {EXAMPLES_DIR}", file=sys.stderr)
            return 2
    if any(shutil.which(c) is None for c in ("cc", "c++")) and any(
        t.suffix in C_SUFFIXES | CXX_SUFFIXES for t, _ in targets
    ):
        print("aclnn-emu run: a C/C++ compiler (cc, c++) is needed to build sources", file=sys.stderr)
    worst = 0
    with tempfile.TemporaryDirectory(prefix="aclnn-emu-run-") as tmp:
        for target, argv in targets:
            print(f"== aclnn-emu run {target.name}{' (strict)' if args.strict else ''}", flush=True)
            status, report = _run_one(target, argv, env, Path(tmp))
            print(report, end="")
            print(f"exit status: {status}", flush=True)
            worst = worst or status
    return worst


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``aclnn-emu`` command."""
    parser = argparse.ArgumentParser(prog="aclnn-emu", description="CANN aclnn emulator on the CPU")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser(
        "run",
        help="build and run a CANN host program (default: the bundled examples) and report",
        description="Compile SOURCE (.c/.cpp) against the emulator, or take EXECUTABLE, run it, and "
        "print the diagnostics report (APIs called, operators and times, warnings, leaks).",
    )
    run.add_argument("--strict", action="store_true", help="turn detectable misuse into errors")
    run.add_argument("--log-level", type=int, choices=range(5), help="ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error)")
    run.add_argument("program", nargs="?", help="SOURCE.c, SOURCE.cpp or EXECUTABLE")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the program")
    run.set_defaults(func=_cmd_run)

    cfg = sub.add_parser("config", help="print build flags and directories")
    cfg.add_argument("--cflags", action="store_true")
    cfg.add_argument("--libs", action="store_true")
    cfg.add_argument("--includedir", action="store_true")
    cfg.add_argument("--libdir", action="store_true")
    cfg.add_argument("--pkgconfigdir", action="store_true")
    cfg.add_argument("--toolkit-home", action="store_true", help="a CANN-toolkit-like tree (include/, lib64/)")
    cfg.set_defaults(func=_cmd_config)

    info = sub.add_parser("info", help="version, library, threads, CPU")
    info.set_defaults(func=_cmd_info)

    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
