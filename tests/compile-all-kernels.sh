#!/bin/sh
# Compiles every kernel the test suite generated with a runtime compiler, as
# a GPU backend would, and any further kernel files named.
# Usage: compile-all-kernels.sh TOOL KERNEL_DIR ARCH [FILE...]
# (TOOL is weft-nvrtc or weft-hiprtc). Exit 77 (skipped) without the compiler.
tool=$1
dir=$2
arch=$3
shift 3
if [ ! -e "$(ls "$dir"/*.cu 2>/dev/null | head -1)" ]; then
  echo "FAILED: no kernels in $dir: the lit and e2e tests should have written them"
  exit 1
fi
set -- "$dir"/*.cu "$@"
echo "compiling $# kernels from $dir for $arch"
exec "$tool" --arch="$arch" "$@"
