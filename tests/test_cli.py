"""The aclnn-emu command: run (bundled examples, a broken program, strict mode), config, info."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def aclnn_emu(*args, **kw):
    return subprocess.run([sys.executable, "-m", "aclnn_emu", *args], capture_output=True, text=True, timeout=600, **kw)


def test_run_bundled_examples():
    r = aclnn_emu("run")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("== aclnn-emu run") == 2
    assert "aclnnRoiAlignV2Backward" in r.stdout and "aclnnUpsampleBilinear2dBackwardV2" in r.stdout
    assert r.stdout.count("exit status: 0") == 2 and "MISMATCH" not in r.stdout
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
    if (st == 0) st = aclnnUpsampleBilinear2dBackwardV2(NULL, ws, ex, NULL);
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


def test_run_reports_compile_failure(tmp_path):
    src = tmp_path / "bad.cpp"
    src.write_text("int main() { return undeclared; }\n")
    r = aclnn_emu("run", str(src))
    assert r.returncode != 0 and "compilation of" in r.stdout


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
