#!/bin/bash
# What the runtime's concurrency scheme costs: launches from several host
# threads at once against the same launches from one (concurrency.cpp).
# Times are GPU figures on a GPU only; elsewhere it checks the results.
# Usage: benchmarks/concurrency.sh [BUILD_DIR] [--run-only|--build-only]
# (--run-only: on a GPU machine without clang, run what was built here)
set -euo pipefail
build=${1:-build}
config=$build/bin/weft-config
out=$build/benchmarks
if [ "${2:-}" != --run-only ]; then
  mkdir -p "$out"
  # shellcheck disable=SC2046
  clang++-22 -O2 -pthread $("$config" --cxxflags) benchmarks/concurrency.cpp \
    $("$config" --ldflags) -o "$out/concurrency"
fi
[ "${2:-}" = --build-only ] && exit 0
export WEFT_CACHE_DIR=$out/cache
LD_LIBRARY_PATH=$build/lib "$out/concurrency"
