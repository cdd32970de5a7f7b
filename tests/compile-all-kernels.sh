#!/bin/sh
# Compiles every kernel the test suite generated with a runtime compiler, as
# a GPU backend would. Usage: compile-all-kernels.sh TOOL KERNEL_DIR ARCH
# (TOOL is weft-nvrtc or weft-hiprtc). Exit 77 (skipped) without the compiler.
tool=$1
dir=$2
arch=$3
set -- "$dir"/*.cu
if [ ! -e "$1" ]; then
  echo "FAILED: no kernels in $dir: the lit and e2e tests should have written them"
  exit 1
fi
echo "compiling $# kernels from $dir for $arch"
exec "$tool" --arch="$arch" "$@"
