#!/bin/sh
# Installs weft to a fresh prefix and builds the sample against the install,
# with weft-config and with find_package(weft).
# Usage: install-tree.sh BUILD_DIR WORK_DIR SAMPLES_DIR
set -eu
build=$1 work=$2 samples=$3
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
config=$work/prefix/bin/weft-config
# shellcheck disable=SC2046
clang++-22 -O1 $("$config" --cxxflags) "$samples/saxpy.cpp" $("$config" --ldflags) -o "$work/saxpy"
"$work/saxpy"
cmake -S "$samples/cmake-consumer" -B "$work/consumer" -DCMAKE_CXX_COMPILER=clang++-19 \
  -Dweft_DIR="$work/prefix/lib/cmake/weft" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/saxpy"
