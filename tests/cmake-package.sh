#!/bin/sh
# Builds a CMake project that uses find_package(weft) and runs its program.
# Usage: cmake-package.sh SOURCE BUILD WEFT_DIR CLANGXX
set -eu
src=$1 build=$2 weft_dir=$3 cxx=$4
rm -rf "$build"
cmake -S "$src" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -Dweft_DIR="$weft_dir" >/dev/null
cmake --build "$build" >/dev/null
out=$("$build/saxpy")
echo "$out"
case $out in
  *"check OK"*) ;;
  *) echo "FAILED: the program's check did not pass"; exit 1 ;;
esac
# The plugin really compiled the loops: their kernels are in the program.
if ! grep -q 'kernel weft_saxpy_L' "$build/saxpy"; then
  echo "FAILED: no weft kernel embedded in the program"; exit 1
fi
