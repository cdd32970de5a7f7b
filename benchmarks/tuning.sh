#!/bin/bash
# Online tuning's cost and gain (benchmarks/tuning/main.cpp: a register-tiled
# matrix product and a two-axis stencil, CALLS calls each), side by side in
# one run of this script: untuned (WEFT_TUNE=off), tuned online from nothing
# (the default budget; as paced by default and eagerly), a second run
# started from what the first stored, and one from the best of the whole
# space (a WEFT_TUNE=record run first times every configuration and stores
# the best). Needs a GPU for times that mean anything; on the simulator it
# runs at a small size.
# Usage: benchmarks/tuning.sh [BUILD_DIR] [--run-only|--build-only] [N [CALLS]]
set -euo pipefail
# shellcheck source=benchmarks/build-one.sh
source "$(dirname "$0")/build-one.sh"
build_one tuning benchmarks/tuning/main.cpp
run() { LD_LIBRARY_PATH=$build/lib "$out/tuning" "$@"; }
rm -rf "$out/tuning-cache" "$out/tuning-eager" "$out/tuning-best" "$out/tuning-recordings"
mkdir -p "$out/tuning-recordings"
echo "== untuned"
WEFT_CACHE_DIR=$out/tuning-cache WEFT_TUNE=off run "$@"
echo "== tuned online from nothing (WEFT_TUNE=on: a variant compiled once the loop has run as long as those before took)"
WEFT_CACHE_DIR=$out/tuning-cache WEFT_TUNE=on WEFT_VERBOSE=1 run "$@" 2>&1 |
  grep -v ': kernel \|^weft: backend'
echo "== tuned online from nothing, eagerly (WEFT_TUNE=on,eager: every variant compiled when picked)"
WEFT_CACHE_DIR=$out/tuning-eager WEFT_TUNE=on,eager WEFT_VERBOSE=1 run "$@" 2>&1 |
  grep -v ': kernel \|^weft: backend'
echo "== a second run: started from what the first stored"
WEFT_CACHE_DIR=$out/tuning-cache WEFT_TUNE=on run "$@"
echo "== the whole space timed (WEFT_TUNE=record), the best stored"
WEFT_CACHE_DIR=$out/tuning-best WEFT_TUNE=record=$out/tuning-recordings WEFT_VERBOSE=1 \
  run "$@" 2>&1 | grep 'tuned:\|^product\|^smooth'
"$build/bin/weft-tune" replay "$out"/tuning-recordings/*.txt
echo "== started from the best of the whole space"
WEFT_CACHE_DIR=$out/tuning-best WEFT_TUNE=on run "$@"
