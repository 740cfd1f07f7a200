"""C and C++ programs built against the installed package, as a CANN user builds them."""

import os
import subprocess
from pathlib import Path

import pytest

from aclnn_emu import cli

HERE = Path(__file__).parent
ROOT = HERE.parent
# Every public header, as installed (a new operator's header is found, not listed).
HEADERS = sorted(str(p.relative_to(cli.INCLUDE_DIR)) for p in cli.INCLUDE_DIR.rglob("*.h"))
MODES = [("cc", "c", "c99"), ("cc", "c", "c11"), ("c++", "c++", "c++11"), ("c++", "c++", "c++17")]


@pytest.mark.parametrize("compiler, lang, std", MODES, ids=[m[2] for m in MODES])
def test_headers_compile(compiler, lang, std, tmp_path):
    # Each header on its own (self-contained), then all together, warnings as errors.
    for header in HEADERS + ["all"]:
        text = "".join(f'#include "{h}"\n' for h in HEADERS) if header == "all" else f'#include "{header}"\n'
        src = tmp_path / f"t.{'c' if lang == 'c' else 'cpp'}"
        src.write_text(text + "int main(void) { return 0; }\n")
        cmd = [compiler, f"-std={std}", "-Wall", "-Wextra", "-Werror", "-pedantic", *cli.cflags(), "-c", str(src),
               "-o", str(tmp_path / "t.o")]  # fmt: skip
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, f"{header} ({std}):\n{r.stderr}"


def build_and_run(source: Path, tmp_path: Path, env_extra=None, lang_flags=()):
    exe = tmp_path / source.stem
    compiler = "cc" if source.suffix == ".c" else "c++"
    std = "-std=c11" if source.suffix == ".c" else "-std=c++17"
    cmd = [compiler, std, "-Wall", "-Wextra", "-Werror", *lang_flags, *cli.cflags(), str(source), "-o", str(exe),
           *cli.libs(), "-lm", "-lpthread"]  # fmt: skip
    assert "-lascendcl" in cmd and "-lnnopbase" in cmd and "-lopapi" in cmd
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=300)


def test_c_sample_program(tmp_path):
    r = build_and_run(HERE / "c" / "sample_c.c", tmp_path, lang_flags=("-pedantic",))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "upsample seed example: OK" in r.stdout and "roi align centre sample: OK" in r.stdout


def test_threads_and_stream_lifecycle(tmp_path):
    r = build_and_run(HERE / "c" / "threads_streams.c", tmp_path, {"ASCEND_GLOBAL_LOG_LEVEL": "2"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all OK" in r.stdout
    # The program leaves six device blocks (five buffers and its workspace) to aclFinalize on purpose.
    assert "6 resource(s) still alive at aclFinalize (6 memory block(s))" in r.stderr
    assert r.stderr.count("created by aclrtMalloc") == 6


@pytest.mark.parametrize("example", sorted((ROOT / "examples").glob("*.cpp")), ids=lambda p: p.stem)
def test_cpp_examples(example, tmp_path):
    r = build_and_run(example, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "MISMATCH" not in r.stdout and r.stdout.count(" OK\n") >= 1  # every example checks its own results


@pytest.mark.parametrize("strict", ["0", "1"])
@pytest.mark.parametrize("program", sorted((HERE / "cpp").glob("*.cpp")), ids=lambda p: p.stem)
def test_cann_style_runtime_programs(program, strict, tmp_path):
    """Our own CANN-style C++ programs (contexts, events, threads), in both validation modes."""
    r = build_and_run(program, tmp_path, {"ACLNN_EMU_STRICT": strict})
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{program.stem}: OK" in r.stdout
    assert "still alive at aclFinalize" not in r.stderr


def test_meson_install_layout(tmp_path):
    """`meson install` lays out the same toolkit tree as the wheel: set_env.sh, include/, lib64/."""
    if subprocess.run(["meson", "--version"], capture_output=True).returncode != 0:
        pytest.skip("meson is not installed")
    build, prefix = tmp_path / "build", tmp_path / "prefix"
    subprocess.run(["meson", "setup", str(build), str(ROOT), f"--prefix={prefix}", "-Dtests=false"], check=True,
                   capture_output=True)  # fmt: skip
    subprocess.run(["meson", "install", "-C", str(build)], check=True, capture_output=True)
    lib = prefix / "lib64"
    for name in ["libaclnn_emu.so", "libascendcl.so", "libacl_rt.so", "libnnopbase.so", "libopapi.so",
                 "pkgconfig/aclnn-emu.pc", "../lib/cmake/aclnn-emu/aclnn-emuConfig.cmake"]:  # fmt: skip
        assert (lib / name).exists(), name
    assert (prefix / "set_env.sh").exists()
    for h in HEADERS:
        assert (prefix / "include" / h).exists(), h
    # A CANN build line against the installed prefix, run with set_env.sh's environment only.
    exe = tmp_path / "cann_style"
    script = (f'set -eu\nsource "{prefix}/set_env.sh"\n'
              f'g++ "{ROOT / "examples" / "roi_align_v2_backward.cpp"}" -I "$ASCEND_HOME_PATH/include" '
              f'-L "$ASCEND_HOME_PATH/lib64" -lopapi -lascendcl -lnnopbase -o "{exe}"\n"{exe}"')  # fmt: skip
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    r = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "MISMATCH" not in r.stdout, r.stdout + r.stderr
    env = dict(os.environ, PKG_CONFIG_PATH=str(lib / "pkgconfig"))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "aclnn-emu"], env=env, capture_output=True,
                           text=True)  # fmt: skip
    if flags.returncode != 0:
        pytest.skip("pkg-config is not installed")
    exe = tmp_path / "sample"
    subprocess.run(["cc", "-std=c11", str(HERE / "c" / "sample_c.c"), "-o", str(exe), *flags.stdout.split(), "-lm"],
                   check=True)  # fmt: skip
    assert subprocess.run([str(exe)], capture_output=True).returncode == 0


def test_bench_ab_builds_alternates_two_copies_of_the_library(tmp_path):
    # bench/ab_builds.c: the in-process A/B BENCHMARKS.md's kernel rows come from. Two copies of the
    # installed library (two files: two dlopen instances, each with its own runtime) on a small 1-D, 2-D
    # and 3-D backward, a resize and a nearest backward; a usage error says so.
    from aclnn_emu._ffi import library_path

    exe = tmp_path / "ab_builds"
    cmd = ["cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", *cli.cflags(), str(ROOT / "bench" / "ab_builds.c"),
           "-o", str(exe), "-ldl"]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    copy = tmp_path / "copy.so"
    copy.write_bytes(library_path().read_bytes())
    for shape in (
        ["1d", "1", "3", "8", "16"],
        ["2d", "1", "3", "8", "8", "16", "16"],
        ["3d", "1", "2", "4", "8", "8", "8", "16", "16"],
        ["resize", "1", "3", "8", "8", "16", "24"],
        ["nearest", "1", "3", "8", "8", "16", "24"],
    ):
        r = subprocess.run([str(exe), *shape, "0", "3", str(library_path()), str(copy)], capture_output=True,
                           text=True, timeout=120)  # fmt: skip
        assert r.returncode == 0, r.stdout + r.stderr
        lines = r.stdout.splitlines()
        assert [line.split()[0] for line in lines] == [str(library_path()), str(copy)]
        assert all("median" in line for line in lines)
    # gradOut 16 bytes past a cache line, as large numpy arrays are.
    env = {**os.environ, "AB_GRAD_OFFSET": "16"}
    r = subprocess.run([str(exe), "2d", "1", "3", "8", "8", "16", "16", "1", "3", str(library_path())],
                       capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    assert r.returncode == 0 and "median" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([str(exe), "4d"], capture_output=True, text=True)
    assert r.returncode == 2 and "usage:" in r.stderr
