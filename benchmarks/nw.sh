#!/bin/bash
# The nw sample (a launch an anti-diagonal, in a region) beside the same
# loop over anti-diagonals marked `#pragma weft sequential for` (one launch,
# one block), side by side in one run (benchmarks/nw/main.cpp), results
# compared. Runs on the backend weft picks (WEFT_BACKEND chooses).
# Usage: benchmarks/nw.sh [BUILD_DIR] [--run-only|--build-only] [N ...]
# (--run-only: on a GPU machine without clang, run what was built here)
set -euo pipefail
build=${1:-build}
mode=${2:-}
case $mode in --run-only|--build-only) shift 2 ;; *) mode=""; shift || true ;; esac
config=$build/bin/weft-config
out=$build/benchmarks
if [ "$mode" != --run-only ]; then
  mkdir -p "$out"
  # shellcheck disable=SC2046
  clang++-22 -O2 $("$config" --cxxflags) -Isamples/common \
    benchmarks/nw/main.cpp $("$config" --ldflags) -o "$out/nw"
fi
[ "$mode" = --build-only ] && exit 0
export WEFT_CACHE_DIR=$out/cache
LD_LIBRARY_PATH=$build/lib "$out/nw" "$@"
