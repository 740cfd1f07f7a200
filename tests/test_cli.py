"""The aclnn-emu command: run (bundled examples, a broken program, strict mode), config, info."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import aclnn_emu as aclnn_emu_pkg

HERE = Path(__file__).parent


def aclnn_emu(*args, **kw):
    return subprocess.run([sys.executable, "-m", "aclnn_emu", *args], capture_output=True, text=True, timeout=600, **kw)


def test_run_bundled_examples():
    r = aclnn_emu("run")
    assert r.returncode == 0, r.stdout + r.stderr
    examples = sorted((Path(aclnn_emu_pkg.__file__).parent / "examples").glob("*.cpp"))
    assert len(examples) >= 4
    assert r.stdout.count("== aclnn-emu run") == len(examples)
    for api in ["aclnnRoiAlignV2Backward", "aclnnUpsampleBilinear2dBackwardV2", "aclnnUpsampleBilinear2d ",
                "aclnnUpsampleBilinear2dBackward "]:  # fmt: skip
        assert api in r.stdout, api
    assert r.stdout.count("exit status: 0") == len(examples) and "MISMATCH" not in r.stdout
    assert "live resources:\n  none" in r.stdout


def test_run_examples_clean_in_strict_mode():
    r = aclnn_emu("run", "--strict")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warnings: 0" in r.stdout


BROKEN = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward_v2.h"
int main(void) {
    aclInit(NULL);
    aclrtSetDevice(0);
    float host[16] = {0};
    int64_t shape[4] = {1, 1, 4, 4}, out_shape[4] = {1, 1, 2, 2}, osize[2] = {4, 4};
    void *dev = NULL;
    aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST);
    /* bug 1: host memory passed as tensor data */
    aclTensor *g = aclCreateTensor(shape, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, shape, 4, host);
    aclTensor *o = aclCreateTensor(out_shape, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, out_shape, 4, dev);
    aclIntArray *os = aclCreateIntArray(osize, 2), *is = aclCreateIntArray(out_shape, 4);
    uint64_t ws; aclOpExecutor *ex;
    int st = aclnnUpsampleBilinear2dBackwardV2GetWorkspaceSize(g, os, is, false, 0, 0, o, &ws, &ex);
    void *wsp = NULL;
    if (st == 0 && ws > 0) st = aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    if (st == 0) st = aclnnUpsampleBilinear2dBackwardV2(wsp, ws, ex, NULL);
    if (st != 0) { printf("launch failed: %d %s\n", st, aclGetRecentErrMsg()); return 3; }
    /* bug 2: no aclrtSynchronizeStream before reading the result */
    float result[4];
    st = aclrtMemcpy(result, sizeof result, dev, sizeof result, ACL_MEMCPY_DEVICE_TO_HOST);
    if (st != 0) { printf("copy failed: %d %s\n", st, aclGetRecentErrMsg()); return 4; }
    /* bug 3: nothing is released */
    aclFinalize();
    return 0;
}
"""


def test_run_broken_program_normal_and_strict(tmp_path):
    src = tmp_path / "broken.c"
    src.write_text(BROKEN)
    r = aclnn_emu("run", "--log-level", "2", str(src))
    assert r.returncode == 0, r.stdout + r.stderr  # normal mode: CANN's behaviour plus warnings
    assert "host memory passed as device memory" in r.stderr
    assert "missing aclrtSynchronizeStream" in r.stderr
    assert "still alive at aclFinalize" in r.stderr
    assert "leaked at aclFinalize:" in r.stdout and "created by aclCreateTensor" in r.stdout
    assert "warnings: 3" in r.stdout

    r = aclnn_emu("run", "--strict", str(src))
    assert r.returncode == 3, r.stdout + r.stderr
    assert "launch failed: 161002" in r.stdout and "is not inside memory from aclrtMalloc" in r.stdout
    assert "exit status: 3" in r.stdout


def test_run_reports_compile_failure_with_the_compilers_status(tmp_path):
    src = tmp_path / "bad.cpp"
    src.write_text("int main() { return undeclared; }\n")
    r = aclnn_emu("run", str(src))
    compiler = subprocess.run(["c++", "-x", "c++", "-c", str(src), "-o", str(tmp_path / "bad.o")], capture_output=True)
    assert compiler.returncode not in (0, 127)
    assert r.returncode == compiler.returncode, r.stdout
    # the compiler's own status, not 127 (command not found); the path may hold any digits (pytest-127/)
    assert f"compilation failed: {src} (the compiler's exit status {compiler.returncode})" in r.stdout


CRASH = r"""
#include <stdio.h>
#include "acl/acl.h"
int main(void) {
    aclInit(NULL);
    aclrtSetDevice(0);
    void *p = NULL;
    aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    fflush(stdout);
    *(volatile int *)16 = 1; /* SIGSEGV */
    return 0;
}
"""


# Under AddressSanitizer (the CI's sanitized run preloads it into every child) ASan's own handler ends a
# crashing program: the emulator's report handler is not the one that runs.
asan_preloaded = pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""), reason="ASan handles the signal")


@asan_preloaded
def test_report_survives_a_crash(tmp_path):
    src = tmp_path / "crash.c"
    src.write_text(CRASH)
    r = aclnn_emu("run", str(src))
    assert r.returncode == 128 + 11, r.stdout + r.stderr
    assert "aclnn-emu report" in r.stdout and "aclrtMalloc" in r.stdout  # what was known when it crashed
    assert "leaked device memory" in r.stdout and "killed by SIGSEGV" in r.stdout


def test_timeout_stops_a_hanging_program_and_prints_the_report(tmp_path):
    src = tmp_path / "hang.c"
    src.write_text('#include <unistd.h>\n#include "acl/acl.h"\nint main(void) { aclInit(0); for (;;) pause(); }\n')
    r = aclnn_emu("run", "--timeout", "1", str(src))
    assert r.returncode == 124, r.stdout + r.stderr
    assert "aclnn-emu report" in r.stdout and "aclInit" in r.stdout and "--timeout 1 s" in r.stdout


def test_strict_run_fails_a_program_that_leaks(tmp_path):
    src = tmp_path / "leak.c"
    src.write_text(
        '#include "acl/acl.h"\nint main(void) { aclInit(0); aclrtSetDevice(0); void *p = 0;'
        " aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST); return 0; }\n"
    )
    assert aclnn_emu("run", str(src)).returncode == 0  # normal mode: reported, not failed
    r = aclnn_emu("run", "--strict", str(src))
    assert r.returncode == 3, r.stdout + r.stderr
    assert "strict mode: 0 misuse(s) and 1 leaked resource(s) reported" in r.stdout


def test_prebuilt_program_that_cannot_load_the_library_says_how_to_fix_it(tmp_path):
    src = tmp_path / "noload.c"
    src.write_text('#include "acl/acl.h"\nint main(void) { return aclInit(0); }\n')
    exe = tmp_path / "noload"
    flags = aclnn_emu("config", "--cflags").stdout.split()
    libdir = aclnn_emu("config", "--libdir").stdout.strip()
    # Linked without an rpath: the loader cannot find libascendcl.so at run time.
    subprocess.run(["cc", *flags, str(src), f"-L{libdir}", "-lascendcl", "-o", str(exe)], check=True)
    r = aclnn_emu("run", str(exe))
    assert r.returncode == 127
    assert "the loader cannot find libaclnn_emu.so" in r.stdout and "set_env.sh" in r.stdout
    assert "error while loading shared libraries" in r.stderr  # the loader's own words, first


def test_run_prebuilt_executable_with_arguments(tmp_path):
    src = tmp_path / "args.c"
    src.write_text(
        '#include <string.h>\n#include "acl/acl.h"\nint main(int c, char **v) {'
        ' aclInit(0); aclFinalize(); return c == 3 && !strcmp(v[2], "x") ? 0 : 5; }\n'
    )
    exe = tmp_path / "args"
    cfg = aclnn_emu("config", "--cflags", "--libs").stdout.split()
    subprocess.run(["cc", str(src), "-o", str(exe), *cfg], check=True)
    r = aclnn_emu("run", "--", str(exe), "a", "x")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "aclInit" in r.stdout


def test_config_and_info():
    r = aclnn_emu("config", "--cflags", "--libs")
    assert r.returncode == 0 and "-lascendcl" in r.stdout and "-I" in r.stdout
    home = Path(aclnn_emu("config", "--toolkit-home").stdout.strip())
    assert (home / "include" / "acl" / "acl.h").exists() and (home / "lib64" / "libascendcl.so").exists()
    pc = Path(aclnn_emu("config", "--pkgconfigdir").stdout.strip()) / "aclnn-emu.pc"
    assert pc.exists()
    assert aclnn_emu("config").returncode == 2
    r = aclnn_emu("info")
    assert r.returncode == 0 and "aclnn-emu 0.1.0" in r.stdout and "OpenMP threads" in r.stdout


BAD_INVOCATIONS = [
    ("run", "no_such_program.c"),
    ("run", "no_such_executable"),
    ("run", "README.md"),
    ("run", "tests"),
    ("config", "--no-such-option"),
    ("no-such-command",),
]


@pytest.mark.parametrize("argv", BAD_INVOCATIONS, ids=["-".join(a) for a in BAD_INVOCATIONS])
def test_user_errors_are_one_line_without_traceback(argv):
    r = aclnn_emu(*argv, cwd=HERE.parent)
    assert r.returncode != 0
    assert "Traceback" not in r.stderr + r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines and lines[-1].startswith("aclnn-emu"), r.stderr


def test_upper_case_suffix_is_a_cxx_source(tmp_path):
    src = tmp_path / "EXAMPLE.CPP"
    src.write_text('#include <cstdio>\n#include "acl/acl.h"\nint main() { aclInit(nullptr); aclFinalize(); }\n')
    r = aclnn_emu("run", str(src))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "aclInit" in r.stdout and "Traceback" not in r.stderr


def test_program_without_acl_calls_reports_its_exit_status(tmp_path):
    src = tmp_path / "three.c"
    src.write_text("int main(void) { return 3; }\n")
    r = aclnn_emu("run", str(src))
    assert r.returncode == 3
    assert "made no ACL call" in r.stdout and "exit status: 3" in r.stdout
    assert "did not exit normally" not in r.stdout


def test_program_killed_by_a_signal(tmp_path):
    src = tmp_path / "abort.c"
    src.write_text('#include <stdlib.h>\n#include "acl/acl.h"\nint main(void) { aclInit(0); abort(); }\n')
    r = aclnn_emu("run", str(src))
    assert r.returncode == 128 + 6 and "killed by SIGABRT" in r.stdout
    assert "aclnn-emu report" in r.stdout and "aclInit" in r.stdout


def test_version():
    r = aclnn_emu("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"aclnn-emu {aclnn_emu_pkg.__version__}"


def test_config_options_have_help():
    r = aclnn_emu("config", "--help")
    for opt in ("--cflags", "--libs", "--includedir", "--libdir", "--pkgconfigdir", "--toolkit-home"):
        line = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith(opt))
        assert len(line.split()) > 1, f"{opt} has no help text"


def test_leak_report_without_finalize_lists_device_memory(tmp_path):
    src = tmp_path / "leak.c"
    src.write_text(
        '#include "acl/acl.h"\nint main(void) { void *p; aclInit(0); aclrtSetDevice(0);'
        " aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST); return 0; }\n"
    )
    r = aclnn_emu("run", str(src))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "leaked device memory" in r.stdout and "(1024 bytes) created by aclrtMalloc" in r.stdout
    assert "aclrtStream" not in r.stdout  # the default stream is the library's own


def test_leak_report_counts_one_warning_per_finalize(tmp_path):
    src = tmp_path / "leak_stream.c"
    src.write_text(
        '#include "acl/acl.h"\nint main(void) { aclrtStream s; aclInit(0); aclrtSetDevice(0);'
        " aclrtCreateStream(&s); aclFinalize(); return 0; }\n"
    )
    r = aclnn_emu("run", str(src))
    assert "warnings: 1" in r.stdout
    section = r.stdout[r.stdout.index("leaked at aclFinalize:") :]
    assert "leaked aclrtStream" in section and "created by aclrtCreateStream" in section
