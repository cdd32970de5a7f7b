#!/bin/sh
# Compiles every kernel the test suite generated as CUDA with clang into
# PTX, against tests/prelude/cuda-device-api.h instead of NVRTC's built-in
# declarations: the CUDA dialect of weft/device.h and the kernels written
# against it checked where no NVRTC is installed (weft-nvrtc checks them
# where one is).
# Usage: compile-kernels-cuda-clang.sh CLANGXX INCLUDE_DIR KERNEL_DIR ARCH
#        [FILE...] (further kernel files; with KERNEL_DIR "-", those alone)
cxx=$1 include=$2 dir=$3 arch=$4
shift 4
api=$(dirname "$0")/prelude/cuda-device-api.h
if [ "$dir" != - ]; then
  if [ ! -e "$(ls "$dir"/*.cu 2>/dev/null | head -1)" ]; then
    echo "FAILED: no kernels in $dir: the lit and e2e tests should have written them"
    exit 1
  fi
  set -- "$dir"/*.cu "$@"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0 total=$#
for k in "$@"; do
  ptx=$out/$(basename "$k" .cu).ptx
  for staging in 1 0; do
    # Staging and tiling off, too: the text's other branch.
    [ $staging = 0 ] && ! grep -q '^#define WEFT_STAGING' "$k" && continue
    set -- -x cuda --cuda-device-only -nocudainc -nocudalib \
      --cuda-gpu-arch="$arch" -Wno-unknown-cuda-version -std=c++17 -O1 \
      -include "$api" -I"$include" -Werror=uninitialized \
      -fno-caret-diagnostics -S "$k" -o "$ptx"
    [ $staging = 0 ] && set -- "$@" -DWEFT_STAGING=0
    if ! "$cxx" "$@" 2>"$ptx.log"; then
      echo "FAILED: $k (WEFT_STAGING=$staging)"; cat "$ptx.log"
      failed=$((failed + 1)); break
    fi
  done
done
echo "$((total - failed)) of $total kernels compiled as CUDA into $arch PTX"
[ "$failed" -eq 0 ]
