#!/bin/bash
# weft's lud (samples/lud.cpp, and the same with its diagonal block on the
# host) against hand-tuned blocked CUDA kernels
# (benchmarks/lud/hand-tuned.cu), side by side in one run (benchmarks/lud/
# main.cpp). Needs an NVIDIA GPU to measure the hand-tuned side; elsewhere
# it reports SKIPPED after compiling those kernels with NVRTC.
# Usage: benchmarks/lud.sh [BUILD_DIR] [--run-only|--build-only] [N ...]
# (--run-only: on a GPU machine without clang, run what was built here)
set -euo pipefail
# shellcheck source=benchmarks/build-one.sh
source "$(dirname "$0")/build-one.sh"
build_one lud -Iruntime -Iruntime/backends -Ibenchmarks -Isamples/common benchmarks/lud/main.cpp
export WEFT_CACHE_DIR=$out/cache
LD_LIBRARY_PATH=$build/lib "$out/lud" benchmarks/lud/hand-tuned.cu "$@"
