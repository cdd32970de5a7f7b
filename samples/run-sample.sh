#!/bin/bash
# samples/run-sample.sh: builds a sample with and without the plugin, runs
# both, checks weft's result against the plugin-free build's and prints the
# two times and the mapping the plugin chose for each marked loop.
#   samples/run-sample.sh NAME [--build-only|--run-only] [--small] [--repeat N]
# NAME is a file samples/NAME.cpp (hotspot, lud, nw, pathfinder, srad, kmeans,
# backprop, spmv, pagerank, nbody, dft, polybench, heat: an OpenMP program,
# built with -fopenmp both ways). The marked loops run on
# the backend weft picks (WEFT_BACKEND chooses: cuda, hip, sim, host). Uses
# $WEFT_BUILD_DIR (default build) and $CLANGXX (default clang++-22); the
# binaries, results and remarks go to $WEFT_BUILD_DIR/samples. --run-only
# runs what was built there (on a GPU machine without clang).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
  -h|--help|"") sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ]; exit ;;
esac
name=$1; shift
mode=""
case "${1:-}" in --build-only|--run-only) mode=$1; shift ;; esac
src=$here/$name.cpp
[ -f "$src" ] || { echo "run-sample: no sample $src" >&2; exit 2; }
build=$(cd "$here/.." && cd "${WEFT_BUILD_DIR:-build}" && pwd)
cxx=${CLANGXX:-clang++-22}
work=$build/samples
mkdir -p "$work"
config=$build/bin/weft-config
if [ "$mode" != --run-only ]; then
  cxxflags=$("$config" --clang="$cxx" --cxxflags)
  plainflags=$(printf '%s' "$cxxflags" | sed 's/-fplugin=[^ ]*//')
  # A sample built as its program is (`// sample flags: -fopenmp`), both
  # ways; OpenMP's runtime is LLVM's (libomp-22-dev).
  flags=$(sed -n 's|^// sample flags: ||p' "$src")
  case " $flags " in
    *" -fopenmp "*) flags="$flags -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib" ;;
  esac
  # shellcheck disable=SC2086
  "$cxx" -O2 $plainflags $flags -I"$here/common" "$src" -o "$work/$name.plain"
  # shellcheck disable=SC2086
  "$cxx" -O2 $cxxflags $flags -I"$here/common" -fplugin-arg-weft-remarks "$src" \
    $("$config" --ldflags) -o "$work/$name.weft" 2>"$work/$name.remarks"
  if grep -q 'warning:' "$work/$name.remarks"; then
    grep -A3 'warning:' "$work/$name.remarks" >&2
  fi
fi
[ "$mode" = --build-only ] && exit 0
export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

"$work/$name.plain" "$@" --save "$work/$name.expected" | tee "$work/$name.plain.out"
status=0
"$work/$name.weft" "$@" --check "$work/$name.expected" | tee "$work/$name.weft.out" || status=$?

time_of() { sed -n 's/^[^:]*: \([0-9.]*\) ms, .*/\1/p' "$1" | head -1; }
host=$(time_of "$work/$name.plain.out") weft=$(time_of "$work/$name.weft.out")
if [ -n "$host" ] && [ -n "$weft" ]; then
  awk -v h="$host" -v w="$weft" 'BEGIN {
    if (w > 0) printf "speed: weft %.2fx the host loops\n", h / w }'
fi
# One line a level: "file:line: level 0 (I): dim x, block 256, Span(1)".
sed -n 's|^.*/\([^/:]*:[0-9]*\):[0-9]*: remark: weft: \(level [^;]*\);.*|mapping: \1: \2|p' \
  "$work/$name.remarks"
exit $status
