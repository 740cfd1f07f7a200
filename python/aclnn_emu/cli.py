"""The ``aclnn-emu`` command: ``run``, ``config`` and ``info``."""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ._ffi import INCLUDE_DIR, LIB_DIR, PACKAGE_DIR, TOOLKIT_HOME, ffi, lib, library_path
from .errors import AclnnError

EXAMPLES_DIR = PACKAGE_DIR / "examples"
PKGCONFIG_DIR = LIB_DIR / "pkgconfig"
LINK_LIBS = ["-lascendcl", "-lnnopbase", "-lopapi"]
# As gcc decides: ".c" is C; ".C" and these (any case) are C++.
_CXX_SUFFIXES = {".cc", ".cp", ".cxx", ".cpp", ".c++"}


class UsageError(Exception):
    """A mistake in how the command was called: one line on stderr, exit status 2."""


def source_language(path: Path) -> str | None:
    """``"c"`` or ``"c++"`` for a C/C++ source file name, else None."""
    if path.suffix == ".c":
        return "c"
    if path.suffix == ".C" or path.suffix.lower() in _CXX_SUFFIXES:
        return "c++"
    return None


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
    print(f"aclnn-emu {_version()}")
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
    UsageError
        If the compiler is not installed.
    """
    if source_language(source) == "c":
        compiler, lang, std = os.environ.get("CC", "cc"), "c", "-std=c11"
    else:
        compiler, lang, std = os.environ.get("CXX", "c++"), "c++", "-std=c++17"
    cmd = [compiler, std, "-O1", "-g", *cflags(), "-x", lang, str(source), "-x", "none", "-o", str(output)]
    cmd += [*libs(), "-lm"]
    try:
        subprocess.run(cmd, check=True)
    except FileNotFoundError:
        raise UsageError(f"the compiler {compiler!r} is not installed (set CC/CXX, or install gcc/g++)") from None


class CompileError(Exception):
    """The compiler refused a source: its exit status is the command's."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


# Exit statuses of ``run`` beyond the program's own (timeout(1)'s for a timeout).
TIMEOUT_STATUS = 124
STRICT_STATUS = 3
_KILL_GRACE_SECONDS = 2.0


def _signal_name(status: int) -> str:
    try:
        return signal.Signals(-status).name
    except ValueError:
        return f"signal {-status}"


def _missing_libraries(exe: Path) -> list[str]:
    """The shared libraries the loader cannot find for ``exe`` (``ldd``'s "not found" lines)."""
    try:
        out = subprocess.run(["ldd", str(exe)], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.split("=>")[0].strip() for line in out.splitlines() if "not found" in line]


def _run_one(
    target: Path,
    argv: Sequence[str],
    env: dict[str, str],
    workdir: Path,
    timeout: float | None,
    trace: Path | None = None,
) -> tuple[int, str]:
    """Build (if source) and run one program; returns its exit status and the report.

    Raises
    ------
    CompileError
        If the source does not compile.
    """
    if source_language(target):
        exe = workdir / target.stem
        try:
            build(target, exe)
        except subprocess.CalledProcessError as e:
            raise CompileError(e.returncode) from None
    else:
        exe = target.resolve()
    report = workdir / f"{target.stem}.report"
    env = dict(env, ACLNN_EMU_REPORT_FILE=str(report))
    if trace is not None:
        env["ACLNN_EMU_TRACE_FILE"] = str(trace)
    note = ""
    try:
        proc = subprocess.Popen([str(exe), *argv], env=env)
    except OSError as e:  # not an executable after all (wrong format, no permission)
        raise UsageError(f"{target}: cannot run it: {e.strerror or e}") from None
    try:
        status = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.terminate()  # the library writes its report on SIGTERM
        try:
            proc.wait(timeout=_KILL_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        note = f"(the program ran longer than --timeout {timeout:g} s and was stopped)\n"
        status = TIMEOUT_STATUS
    if status < 0 and not note:
        note = f"(the program was killed by {_signal_name(status)}; the report is what was known then)\n"
    if report.exists():
        return status, report.read_text() + note
    if status == 127:
        missing = _missing_libraries(exe)
        if missing:
            return status, (
                f"the loader cannot find {', '.join(missing)} for {target}: build it with the emulator's "
                f"flags ('aclnn-emu config --cflags --libs' sets an rpath) or, for CANN's build scripts, "
                f"'source {TOOLKIT_HOME}/set_env.sh' first\n"
            )
    if status < 0:
        return status, note.replace("; the report is what was known then", " before it wrote a report")
    return status, note or "(no report: the program made no ACL call, or it left through _exit)\n"


def _strict_findings(report: str) -> tuple[int, int]:
    """(misuse, leaks) a report lists: in strict mode either fails the run."""
    misuse = leaks = 0
    for line in report.splitlines():
        if line.startswith("warnings:"):
            misuse = int(line.split(":", 1)[1])
        elif line.strip().startswith("leaked "):
            leaks += 1
    return misuse, leaks


def _check_target(target: Path) -> None:
    """A user's SOURCE or EXECUTABLE argument must exist and be one of the two."""
    if not target.exists():
        raise UsageError(f"{target}: no such file")
    if target.is_dir():
        raise UsageError(f"{target}: is a directory, not a C/C++ source or an executable")
    if source_language(target) is None and not os.access(target, os.X_OK):
        raise UsageError(f"{target}: neither a C/C++ source (.c; .cpp, .cc, .cxx, .C, ...) nor an executable file")


def _cmd_run(args: argparse.Namespace) -> int:
    env = dict(os.environ)
    if args.strict:
        env["ACLNN_EMU_STRICT"] = "1"
    if args.log_level is not None:
        env["ASCEND_GLOBAL_LOG_LEVEL"] = str(args.log_level)
    if args.program:
        _check_target(Path(args.program))
        targets = [(Path(args.program), list(args.args))]
    else:
        targets = [(p, []) for p in sorted(EXAMPLES_DIR.glob("*.c*"))]
        if not targets:
            print(f"aclnn-emu run: no bundled examples in {EXAMPLES_DIR}", file=sys.stderr)
            return 2
    if any(shutil.which(c) is None for c in ("cc", "c++")) and any(source_language(t) for t, _ in targets):
        print("aclnn-emu run: a C/C++ compiler (cc, c++) is needed to build sources", file=sys.stderr)
    if args.timeout is not None and not args.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    trace_dir = Path(args.trace) if args.trace else None
    if trace_dir is not None:
        trace_dir.mkdir(parents=True, exist_ok=True)
    worst = 0
    with tempfile.TemporaryDirectory(prefix="aclnn-emu-run-") as tmp:
        for target, argv in targets:
            print(f"== aclnn-emu run {target.name}{' (strict)' if args.strict else ''}", flush=True)
            trace = trace_dir / f"{target.stem}.trace.json" if trace_dir is not None else None
            try:
                status, report = _run_one(target, argv, env, Path(tmp), args.timeout, trace)
            except CompileError as e:
                print(f"compilation failed: {target} (the compiler's exit status {e.status})", flush=True)
                worst = worst or e.status
                continue
            print(report, end="")
            if trace_dir is not None:
                (trace_dir / f"{target.stem}.report").write_text(report)
                if trace is not None and trace.exists():
                    print(f"trace: {trace} (Chrome trace event JSON: open it in Perfetto)", flush=True)
            if args.strict and status == 0:
                misuse, leaks = _strict_findings(report)
                if misuse or leaks:
                    print(f"strict mode: {misuse} misuse(s) and {leaks} leaked resource(s) reported", flush=True)
                    status = STRICT_STATUS
            print(f"exit status: {status}", flush=True)
            worst = worst or status
    return worst if worst >= 0 else 128 - worst  # a signal: the shell's convention


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``aclnn-emu`` command."""
    parser = argparse.ArgumentParser(prog="aclnn-emu", description="CANN aclnn emulator on the CPU")
    parser.add_argument("--version", action="version", version=f"aclnn-emu {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser(
        "run",
        help="build and run a CANN host program (default: the bundled examples) and report",
        description="Compile SOURCE (.c/.cpp) against the emulator, or take EXECUTABLE, run it, and "
        "print the diagnostics report (APIs called, operators and times, warnings, leaks), also when the "
        "program crashes or is stopped by --timeout. The exit status is the program's (128+N for signal N), "
        f"the compiler's when a source does not compile, {STRICT_STATUS} when --strict finds misuse or leaks "
        f"in a program that exited 0, {TIMEOUT_STATUS} on a timeout.",
    )
    run.add_argument("--strict", action="store_true", help="turn detectable misuse into errors")
    run.add_argument("--log-level", type=int, choices=range(5), help="ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error)")
    run.add_argument(
        "--timeout", type=float, metavar="SECONDS",
        help=f"stop a program running longer (SIGTERM, then SIGKILL); its report is still printed, exit status "
        f"{TIMEOUT_STATUS}",
    )  # fmt: skip
    run.add_argument(
        "--trace", metavar="DIR",
        help="write each program's timeline (operators per stream, model runs, msproftx and mstx marks and "
        "ranges, steps) to DIR/<name>.trace.json, Chrome trace event JSON that Perfetto opens, with its report "
        "beside it as DIR/<name>.report",
    )  # fmt: skip
    run.add_argument("program", nargs="?", help="SOURCE.c, SOURCE.cpp or EXECUTABLE")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the program")
    run.set_defaults(func=_cmd_run)

    cfg = sub.add_parser(
        "config",
        help="print build flags and directories",
        description="Print what building against the emulator needs, like pkg-config; several options print "
        "their values on one line, in the order given below.",
    )
    cfg.add_argument("--cflags", action="store_true", help="compiler flags (-I of the CANN headers)")
    cfg.add_argument("--libs", action="store_true", help="linker flags (-L, rpath, -lascendcl -lnnopbase -lopapi)")
    cfg.add_argument("--includedir", action="store_true", help="directory holding acl/, aclnn/, aclnnop/")
    cfg.add_argument("--libdir", action="store_true", help="directory holding libaclnn_emu.so and CANN's names")
    cfg.add_argument("--pkgconfigdir", action="store_true", help="directory holding aclnn-emu.pc")
    cfg.add_argument("--toolkit-home", action="store_true", help="a CANN-toolkit-like tree (include/, lib64/)")
    cfg.set_defaults(func=_cmd_config)

    info = sub.add_parser("info", help="version, library, threads, CPU")
    info.set_defaults(func=_cmd_info)

    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except UsageError as e:
        print(f"aclnn-emu {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except (OSError, AclnnError) as e:
        print(f"aclnn-emu {args.command}: {e}", file=sys.stderr)
        return 1


def _version() -> str:
    return str(ffi.string(lib.aclnnEmuVersion()).decode())


if __name__ == "__main__":
    sys.exit(main())
