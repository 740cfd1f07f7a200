#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan + coverage) from the
# library sources, replays the committed corpus, then fuzzes each operator
# for SECONDS (default 60). New crashers land in tests/fuzz/crashes/.
#   bash tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-60}
OUT=${FUZZ_BUILD:-build-fuzz}
mkdir -p "$OUT" tests/fuzz/crashes
CLANG=${CLANG:-clang}
FLAGS=(-std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L -DACLNN_EMU_VERSION='"fuzz"' -DACLNN_EMU_NO_CLONES
       -Wno-unknown-pragmas -pthread)
SOURCES=(src/*.c src/ops/*.c)
for op in upsample_bilinear2d_backward_v2 roi_align_v2_backward; do
  "$CLANG" "${FLAGS[@]}" "tests/fuzz/fuzz_$op.c" "${SOURCES[@]}" -lm -o "$OUT/fuzz_$op"
done
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1
for op in upsample_bilinear2d_backward_v2 roi_align_v2_backward; do
  corpus=tests/fuzz/corpus/$op
  mkdir -p "$corpus" "$OUT/corpus-$op"
  echo "== replay $op ($(ls "$corpus" | wc -l) committed inputs)"
  "$OUT/fuzz_$op" -runs=0 "$corpus"
  echo "== fuzz $op for ${SECONDS_EACH}s"
  "$OUT/fuzz_$op" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=4096 -max_len=512 \
    -artifact_prefix=tests/fuzz/crashes/ -print_final_stats=1 "$OUT/corpus-$op" "$corpus" 2>&1 |
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY)" || true
  test "${PIPESTATUS[0]}" -eq 0
done
