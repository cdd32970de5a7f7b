#!/bin/bash
# weft's lud (samples/lud.cpp, and the same with its diagonal block on the
# host) against hand-tuned blocked CUDA kernels
# (benchmarks/lud/hand-tuned.cu), side by side in one run (benchmarks/lud/
# main.cpp). Needs an NVIDIA GPU to measure the hand-tuned side; elsewhere
# it reports SKIPPED after compiling those kernels with NVRTC.
# Usage: benchmarks/lud.sh [BUILD_DIR] [--run-only|--build-only] [N ...]
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
  clang++-22 -O2 $("$config" --cxxflags) -Iruntime -Ibenchmarks -Isamples/common \
    benchmarks/lud/main.cpp $("$config" --ldflags) -o "$out/lud"
fi
[ "$mode" = --build-only ] && exit 0
export WEFT_CACHE_DIR=$out/cache
LD_LIBRARY_PATH=$build/lib "$out/lud" benchmarks/lud/hand-tuned.cu "$@"
