#!/bin/bash
# Everything that needs an NVIDIA GPU, in one command, for a GPU machine
# without clang: build and test here first (scripts/setup.sh test, or
# cmake + ctest in BUILD_DIR), carry BUILD_DIR there, then run this from
# the repository root. Runs the end-to-end programs with WEFT_BACKEND=cuda,
# every program the lit tests built (their kernels on the GPU against the
# simulator's results), and the GPU benchmarks.
# BUILD_DIR may be a bundle made by scripts/gpu-bundle.sh (a few MB, to
# carry where the whole build directory is too large).
# Usage: scripts/gpu-check.sh [BUILD_DIR]
set -u
build=${1:-build}
status=0
nvidia-smi -L || { echo "no NVIDIA GPU here"; exit 77; }
for ver in 22 19; do
  [ -d "$build/tests/e2e-$ver" ] || continue
  echo "== e2e (clang-$ver builds) with WEFT_BACKEND=cuda"
  LD_LIBRARY_PATH=$build/lib WEFT_E2E_RUN_ONLY=1 \
    WEFT_E2E_BACKENDS="host auto cuda" tests/e2e/run-e2e.sh \
    clang++-$ver "$build/bin/weft-config" "$build/tests/e2e-$ver" \
    "$build/tests/kernels" tests/e2e || status=1
done
echo "== programs built by the lit tests, on the GPU"
tests/gpu/run-built-programs.sh "$build" cuda || status=1
echo "== benchmarks"
benchmarks/launch-overhead.sh "$build" --run-only || status=1
benchmarks/concurrency.sh "$build" --run-only || status=1
benchmarks/nested.sh "$build" --run-only || status=1
exit $status
