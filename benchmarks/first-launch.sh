#!/bin/bash
# First-launch compile cost with and without the disk cache, for every
# kernel the test suite generated (run the tests first), with NVRTC (sm_90)
# and hipRTC (gfx90a). Usage: benchmarks/first-launch.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
kernels=("$build"/tests/kernels/*.cu)
[ -e "${kernels[0]}" ] || { echo "no kernels in $build/tests/kernels: run the tests first"; exit 1; }
export WEFT_CACHE_DIR=$(mktemp -d)
trap 'rm -rf "$WEFT_CACHE_DIR"' EXIT
for tool in nvrtc hiprtc; do
  "$build/bin/weft-first-launch-bench" "$tool" "${kernels[@]}" || [ $? -eq 77 ]
done
