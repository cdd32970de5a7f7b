#!/bin/bash
# The nw sample (a launch an anti-diagonal, in a region) beside the same
# loop over anti-diagonals marked `#pragma weft sequential for` (one launch,
# one block), side by side in one run (benchmarks/nw/main.cpp), results
# compared. Runs on the backend weft picks (WEFT_BACKEND chooses).
# Usage: benchmarks/nw.sh [BUILD_DIR] [--run-only|--build-only] [N ...]
# (--run-only: on a GPU machine without clang, run what was built here)
set -euo pipefail
# shellcheck source=benchmarks/build-one.sh
source "$(dirname "$0")/build-one.sh"
build_one nw -Isamples/common benchmarks/nw/main.cpp
export WEFT_CACHE_DIR=$out/cache
LD_LIBRARY_PATH=$build/lib "$out/nw" "$@"
