#!/usr/bin/env bash
# ThreadSanitizer over the concurrency-heavy C tests (meson suite
# "concurrency": streams from 8 host threads, destroy/finalize with pending
# work, every validation-mode wait). clang, and no OpenMP: libgomp is not
# instrumented, and gcc 12's TSan runtime does not start on this kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${TSAN_BUILD:-build-tsan}
CC=${CLANG:-clang} meson setup "$OUT" -Db_sanitize=thread -Db_lundef=false -Dopenmp=disabled \
  --buildtype=debugoptimized --wipe >/dev/null 2>&1 ||
  CC=${CLANG:-clang} meson setup "$OUT" -Db_sanitize=thread -Db_lundef=false -Dopenmp=disabled --buildtype=debugoptimized
# die_after_fork=0: tests/c/events.c forks while a stream is blocked on an event.
TSAN_OPTIONS=halt_on_error=1:exitcode=66:die_after_fork=0 meson test -C "$OUT" --suite concurrency --print-errorlogs
echo "ThreadSanitizer: no data race reported"
