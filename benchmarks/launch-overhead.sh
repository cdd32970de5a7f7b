#!/bin/bash
# Host-side cost of a weft launch with resident data against a raw driver
# launch of the same kernel (launch-overhead.cpp). Needs an NVIDIA GPU to
# measure; elsewhere it reports SKIPPED.
# Usage: benchmarks/launch-overhead.sh [BUILD_DIR] [--run-only|--build-only]
# (--run-only: on a GPU machine without clang, run what was built here)
set -euo pipefail
build=${1:-build}
config=$build/bin/weft-config
out=$build/benchmarks
if [ "${2:-}" != --run-only ]; then
  mkdir -p "$out"
  rm -rf "$out/launch-overhead-kernels"
  # shellcheck disable=SC2046
  clang++-22 -O2 $("$config" --cxxflags) -Iruntime -Iruntime/backends -Ibenchmarks \
    -fplugin-arg-weft-emit-dir="$out/launch-overhead-kernels" \
    benchmarks/launch-overhead.cpp $("$config" --ldflags) -o "$out/launch-overhead"
fi
[ "${2:-}" = --build-only ] && exit 0
export WEFT_CACHE_DIR=$out/cache
# The mapped geometry, as the raw launch has it: tuning would start this
# small grid (64 blocks) in smaller blocks, a kernel the raw side does not run.
export WEFT_TUNE=off
LD_LIBRARY_PATH=$build/lib "$out/launch-overhead" "$out"/launch-overhead-kernels/*.cu
