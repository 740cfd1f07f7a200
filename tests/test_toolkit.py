"""CANN's build conventions against the installed toolkit home: set_env.sh, CANN's own build lines, CMake.

Each program is built as CANN's samples build theirs and run with nothing but
what `source set_env.sh` exports (no rpath, no flags from aclnn-emu).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from aclnn_emu import cli

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HOME = cli.TOOLKIT_HOME
PROGRAM = ROOT / "examples" / "upsample_bilinear2d_backward_v2.cpp"


def clean_env():
    """A login-like environment: PATH and HOME only."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}


def in_toolkit_env(command: str, cwd: Path, home: Path = HOME) -> subprocess.CompletedProcess:
    """Run a shell command after `source <home>/set_env.sh`, in a clean environment."""
    script = f'set -eu\nsource "{home}/set_env.sh"\n{command}\n'
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=clean_env(), capture_output=True, text=True,
                          timeout=600)  # fmt: skip


def test_set_env_exports_and_is_idempotent(tmp_path):
    r = in_toolkit_env(
        'first="$LD_LIBRARY_PATH:$PKG_CONFIG_PATH:$CMAKE_PREFIX_PATH"\n'
        f'source "{HOME}/set_env.sh"\n'
        'test "$first" = "$LD_LIBRARY_PATH:$PKG_CONFIG_PATH:$CMAKE_PREFIX_PATH"\n'
        'echo "$ASCEND_TOOLKIT_HOME|$ASCEND_HOME_PATH|$ASCEND_INSTALL_PATH|$LD_LIBRARY_PATH|$CMAKE_PREFIX_PATH"',
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    toolkit, home_path, install, ld, cmake = r.stdout.strip().split("|")
    assert Path(toolkit) == Path(home_path) == Path(install) == HOME
    assert ld == str(HOME / "lib64") and cmake == str(HOME)
    for name in ["include/acl/acl.h", "include/aclnnop", "lib64/libacl_rt.so", "lib64/libascendcl.so"]:
        assert (HOME / name).exists(), name


@pytest.mark.parametrize(
    "name",
    ["ascendcl", "acl_rt", "nnopbase", "opapi", "opapi_cv", "opapi_math", "opapi_nn", "opapi_transformer",
     "c_sec", "runtime", "error_manager", "unified_dlog"],
)  # fmt: skip
def test_cann_library_names(name):
    text = (HOME / "lib64" / f"lib{name}.so").read_text()
    assert "INPUT(-laclnn_emu)" in text


def test_ops_cv_example_build_line(tmp_path):
    # ops-cv's examples are built with g++, CANN's include dirs, -L lib64 and no rpath.
    exe = tmp_path / "test_aclnn"
    r = in_toolkit_env(
        f'g++ "{PROGRAM}" -I "$ASCEND_HOME_PATH/include" -I "$ASCEND_HOME_PATH/include/aclnnop" '
        f'-L "$ASCEND_HOME_PATH/lib64" -lopapi_cv -lascendcl -lnnopbase -o "{exe}"\n"{exe}"',
        tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "MISMATCH" not in r.stdout and "OK" in r.stdout


CANN_RUNTIME_CMAKE = """cmake_minimum_required(VERSION 3.14)
project(acl_sample CXX)
set(CMAKE_CXX_STANDARD 17)
# As CANN's runtime samples do: the package path from the environment, libraries by full path.
set(ASCEND_CANN_PACKAGE_PATH $ENV{ASCEND_HOME_PATH})
include_directories(${ASCEND_CANN_PACKAGE_PATH}/include)
add_executable(sample sample.cpp)
target_compile_options(sample PRIVATE -Wall -Werror)
target_link_libraries(sample
    ${ASCEND_CANN_PACKAGE_PATH}/lib64/libacl_rt.so
    ${ASCEND_CANN_PACKAGE_PATH}/lib64/libnnopbase.so
    ${ASCEND_CANN_PACKAGE_PATH}/lib64/libopapi.so)
set_target_properties(sample PROPERTIES SKIP_BUILD_RPATH TRUE)
"""

FIND_PACKAGE_CMAKE = """cmake_minimum_required(VERSION 3.14)
project(find_package_sample CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(aclnn-emu 0.1 CONFIG REQUIRED)
add_executable(sample sample.cpp)
target_link_libraries(sample PRIVATE aclnn-emu::aclnn-emu)
set_target_properties(sample PROPERTIES SKIP_BUILD_RPATH TRUE)
"""


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
@pytest.mark.parametrize(
    "cmakelists", [CANN_RUNTIME_CMAKE, FIND_PACKAGE_CMAKE], ids=["cann-runtime-style", "find_package"]
)
def test_cmake_projects(cmakelists, tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(cmakelists)
    shutil.copy(PROGRAM, src / "sample.cpp")
    build = tmp_path / "build"
    r = in_toolkit_env(
        f'cmake -S "{src}" -B "{build}" >/dev/null\ncmake --build "{build}" >/dev/null\n"{build}/sample"', tmp_path
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "MISMATCH" not in r.stdout and "OK" in r.stdout


def test_binary_without_rpath_needs_set_env(tmp_path):
    exe = tmp_path / "plain"
    build = f'g++ "{PROGRAM}" -I "$ASCEND_HOME_PATH/include" -L "$ASCEND_HOME_PATH/lib64" -lascendcl -o "{exe}"'
    r = in_toolkit_env(build, tmp_path)
    assert r.returncode == 0, r.stderr
    bare = subprocess.run([str(exe)], env=clean_env(), capture_output=True, text=True)
    assert bare.returncode != 0 and "libaclnn_emu.so" in bare.stderr  # the loader cannot find it without set_env.sh
