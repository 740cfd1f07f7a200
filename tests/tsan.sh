#!/usr/bin/env bash
# ThreadSanitizer over the concurrency-heavy C tests (streams from 8 host
# threads, destroy/finalize with pending work, every validation-mode wait).
# Built with clang from the library sources and without OpenMP (libgomp is
# not instrumented, and gcc 12's TSan runtime does not start on this kernel).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${TSAN_BUILD:-build-tsan-clang}
mkdir -p "$OUT"
FLAGS=(-std=c11 -O1 -g -fsanitize=thread -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L -DACLNN_EMU_VERSION='"tsan"'
       -DACLNN_EMU_NO_CLONES -Wno-unknown-pragmas -Wno-implicit-const-int-float-conversion -pthread)
for t in threads_streams misuse; do
  "${CLANG:-clang}" "${FLAGS[@]}" "tests/c/$t.c" src/*.c src/ops/*.c -lm -o "$OUT/$t"
done
export TSAN_OPTIONS=halt_on_error=1:exitcode=66
"$OUT/threads_streams"
for scenario in host_memory_as_device view_past_block missing_sync free_in_use executor_reuse bad_boxes leak; do
  for strict in 0 1; do
    ACLNN_EMU_STRICT=$strict ASCEND_GLOBAL_LOG_LEVEL=4 "$OUT/misuse" "$scenario" >/dev/null
  done
done
echo "ThreadSanitizer: no data race reported"
