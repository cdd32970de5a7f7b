#!/bin/sh
# Compiles every kernel the test suite generated with NVRTC for sm_90.
# Usage: nvrtc-all.sh WEFT_NVRTC KERNEL_DIR. Exit 77 (skipped) without NVRTC.
nvrtc=$1
dir=$2
set -- "$dir"/*.cu
if [ ! -e "$1" ]; then
  echo "FAILED: no kernels in $dir: the lit and e2e tests should have written them"
  exit 1
fi
echo "compiling $# kernels from $dir"
exec "$nvrtc" --arch=sm_90 "$@"
