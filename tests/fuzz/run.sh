#!/usr/bin/env bash
# Builds the libFuzzer targets (meson option fuzz, clang, ASan + UBSan +
# coverage; each generated from the operator's description), replays the
# operator's committed seeds (src/ops/<family>/<name>/fuzz/), then fuzzes it
# for SECONDS (default 60). New crashers land in tests/fuzz/crashes/.
#   bash tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-60}
OUT=${FUZZ_BUILD:-build-fuzz}
mkdir -p tests/fuzz/crashes
setup=(-Dfuzz=true -Dtests=false -Db_sanitize=address,undefined -Db_lundef=false -Dopenmp=disabled
       --buildtype=debugoptimized)
CC=${CLANG:-clang} meson setup "$OUT" "${setup[@]}" --wipe >/dev/null 2>&1 || CC=${CLANG:-clang} meson setup "$OUT" "${setup[@]}"
ninja -C "$OUT" >/dev/null
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for target in "$OUT"/tests/fuzz_*; do
  [[ -f $target && -x $target ]] || continue
  op=${target##*/fuzz_}
  corpus=$(echo src/ops/*/"$op")/fuzz
  mkdir -p "$corpus" "$OUT/corpus-$op"
  echo "== replay $op ($(ls "$corpus" | wc -l) committed inputs)"
  "$target" -runs=0 "$corpus"
  echo "== fuzz $op for ${SECONDS_EACH}s"
  # The fuzzer's own status decides (a crash, a timeout, a leak fails the run); grep only trims the output.
  # A unit may take 30 s: the heaviest committed RoIAlign input runs 15 s here under ASan + UBSan +
  # coverage without OpenMP on a slow day of a 2-core VM (10 s on a faster one); a hang still fails.
  set +e
  "$target" -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=4096 -max_len=512 \
    -artifact_prefix=tests/fuzz/crashes/ -print_final_stats=1 "$OUT/corpus-$op" "$corpus" 2>&1 |
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY)"
  status=${PIPESTATUS[0]}
  set -e
  if ((status != 0)); then
    echo "fuzz_$op failed (status $status): the input is in tests/fuzz/crashes/" >&2
    exit "$status"
  fi
done
