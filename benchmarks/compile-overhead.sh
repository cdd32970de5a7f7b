#!/bin/bash
# What the plugin adds to compile time: compiles one source REPEAT times with
# and without the plugin, alternating, and prints the ratio of the medians.
# Usage: benchmarks/compile-overhead.sh [BUILD_DIR] [SOURCE] [REPEAT]
set -euo pipefail
build=${1:-build}
src=${2:-tests/e2e/contexts.cpp}
repeat=${3:-7}
config=$build/bin/weft-config
for ver in 22 19; do
  cxx=clang++-$ver
  flags=$("$config" --clang=$cxx --cxxflags)
  plain=()
  weft=()
  for _ in $(seq "$repeat"); do
    # shellcheck disable=SC2046
    t0=$(date +%s%N); $cxx -O1 -Wno-unknown-attributes -Wno-unknown-pragmas $(printf '%s' "$flags" | sed 's/-fplugin=[^ ]*//') -c "$src" -o /dev/null
    t1=$(date +%s%N); $cxx -O1 $flags -c "$src" -o /dev/null
    t2=$(date +%s%N)
    plain+=($(( (t1 - t0) / 1000000 ))); weft+=($(( (t2 - t1) / 1000000 )))
  done
  median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
  p=$(median "${plain[@]}"); w=$(median "${weft[@]}")
  echo "clang-$ver $(basename "$src"): without plugin ${p} ms, with plugin ${w} ms, ratio $(awk "BEGIN{printf \"%.3f\", $w/$p}") (median of $repeat)"
done
