#!/usr/bin/env bash
# Cache misses of one upsample backward (bench/upsample_once.c) under
# valgrind's cache simulator, for the two cache geometries the project's
# machines have, whichever machine this runs on. The simulator models two
# levels (D1 and LL); LL is given the size of the core's own L2, the level
# the kernels' row reuse has to hit, then the size of the shared L3. Only
# the kernel is counted (callgrind's --toggle-collect of CG_FUNCTION, default
# upsample_linear_fast_backward), not the set-up. Prefetch instructions are
# not simulated: the counts show reuse and capacity, not latency.
#
#   bash bench/cachegrind.sh [LIBDIR] [N C H W OH OW [ALIGN]]   (default: U1)
#   AB_DTYPE=float16 bash bench/cachegrind.sh ...                 (U5: float16 tensors)
set -euo pipefail
cd "$(dirname "$0")/.."
libdir=${1:-$(python -c 'import aclnn_emu, pathlib; print(pathlib.Path(aclnn_emu.__file__).parent / "lib")' 2>/dev/null || true)}
shift || true
args=("$@")
((${#args[@]})) || args=(8 64 128 128 256 256)
bin=$(mktemp -d)/upsample_once
trap 'rm -rf "$(dirname "$bin")"' EXIT
cc -O2 bench/upsample_once.c -Iinclude -L"$libdir" -laclnn_emu -Wl,-rpath,"$libdir" -o "$bin"
declare -A geometry=(
  ["Intel Xeon VM, L2"]="--D1=49152,12,64 --LL=2097152,16,64"
  ["AMD EPYC VM, L2"]="--D1=32768,8,64 --LL=1048576,8,64"
  ["Intel Xeon VM, L3 32 MiB"]="--D1=49152,12,64 --LL=33554432,16,64"
  ["AMD EPYC VM, L3 32 MiB"]="--D1=32768,8,64 --LL=33554432,16,64"
)
printf '%-26s %14s %14s %14s %14s\n' geometry "D refs" "D1 misses" "LL misses" "LL miss/ref"
for name in "Intel Xeon VM, L2" "AMD EPYC VM, L2" "Intel Xeon VM, L3 32 MiB" "AMD EPYC VM, L3 32 MiB"; do
  # shellcheck disable=SC2086
  out=$(ACLNN_EMU_THREADS=1 valgrind --tool=callgrind --cache-sim=yes ${geometry[$name]} \
    --toggle-collect="${CG_FUNCTION:-upsample_linear_fast_backward}" --callgrind-out-file=/dev/null "$bin" "${args[@]}" 2>&1)
  num() { grep -E "$1" <<<"$out" | head -1 | sed -E 's/.*: *([0-9,]+).*/\1/; s/,//g'; }
  refs=$(num "D *refs:") d1=$(num "D1 *misses:") ll=$(num "LLd misses:")
  printf '%-26s %14s %14s %14s %14.4f\n' "$name" "$refs" "$d1" "$ll" "$(echo "$ll / $refs" | bc -l)"
done
