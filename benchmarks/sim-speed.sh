#!/bin/bash
# Runs benchmarks/sim-speed.cpp on the simulator, unchecked and checked.
# Usage: benchmarks/sim-speed.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
config=$build/bin/weft-config
out=$build/benchmarks
mkdir -p "$out"
# shellcheck disable=SC2046
clang++-22 -O2 $("$config" --cxxflags) benchmarks/sim-speed.cpp $("$config" --ldflags) -o "$out/sim-speed"
export WEFT_CACHE_DIR=$out/cache
WEFT_BACKEND=sim "$out/sim-speed"
WEFT_BACKEND=sim WEFT_SIM_CHECK=1 "$out/sim-speed"
