#!/bin/bash
# Copies what scripts/gpu-check.sh runs from a tested build directory into
# a small one (a few MB, within what a GPU machine's session can carry):
# the runtime library, the end-to-end programs, the programs the lit tests
# built with the simulator's outputs, the samples (with and without the
# plugin), and the GPU benchmarks (built here): launch overhead,
# concurrency, lud against hand-tuned kernels, nw's two ways of launching
# its wavefront, and the nested loops with
# the runtimes of their OpenMP and OpenACC peers packed (about 45 MB).
# Usage: scripts/gpu-bundle.sh BUILD_DIR [DEST] (default DEST: gpu-bundle)
set -euo pipefail
build=$1 dest=${2:-gpu-bundle}
rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/bin" "$dest/benchmarks"
cp -a "$build"/lib/libweft.so* "$dest/lib/"
cp -a "$build/bin/weft-config" "$build/bin/weft-nvrtc" "$build/bin/weft-tune" "$dest/bin/"
shopt -s nullglob
for dir in "$build"/tests/e2e-*; do
  mkdir -p "$dest/tests/$(basename "$dir")"
  cp -a "$dir"/*.weft "$dir"/*.plain "$dest/tests/$(basename "$dir")/"
done
for exe in "$build"/tests/lit-*/*/Output/*.tmp.exe; do
  base=${exe%.exe}
  [ -f "$base.sim" ] || continue
  rel=${exe#"$build"/}
  mkdir -p "$dest/$(dirname "$rel")"
  cp -a "$exe" "$base.sim" "$dest/$(dirname "$rel")/"
done
# The samples, with and without the plugin, and their remarks.
mkdir -p "$dest/samples"
for source in samples/*.cpp; do
  grep -q '#include "Harness.h"' "$source" || continue
  name=$(basename "$source" .cpp)
  WEFT_BUILD_DIR=$build samples/run-sample.sh "$name" --build-only
  cp -a "$build/samples/$name".{plain,weft,remarks} "$dest/samples/"
done
# hotspot with its kernels built for sm_90 (the H100's and H200's) with the
# program, for gpu-check's first-run and no-compiler runs.
# shellcheck disable=SC2046
/usr/lib/llvm-22/bin/clang++ -O2 \
  $("$build/bin/weft-config" --clang=/usr/lib/llvm-22/bin/clang++ --cxxflags --offload-arch=sm_90) \
  -Isamples/common samples/hotspot.cpp $("$build/bin/weft-config" --ldflags) \
  -o "$dest/samples/hotspot.aot"
# The MPI sample, where Open MPI is here (the GPU machine needs its own
# Open MPI 4 to run it: scripts/gpu-check.sh says SKIPPED otherwise).
if command -v mpicxx >/dev/null; then
  # shellcheck disable=SC2046
  /usr/lib/llvm-22/bin/clang++ -O2 \
    $("$build/bin/weft-config" --clang=/usr/lib/llvm-22/bin/clang++ --cxxflags) \
    $(mpicxx --showme:compile) samples/heat-mpi.cpp $(mpicxx --showme:link) \
    $("$build/bin/weft-config" --ldflags) -o "$dest/samples/heat-mpi"
fi
# LLVM's C++ library, for the programs built with -stdlib=libc++ (the GPU
# machine has GCC's only), and its OpenMP runtime, for those built with
# -fopenmp.
for exe in "$dest"/tests/lit-*/*/Output/*.tmp.exe "$dest"/samples/*.{plain,weft}; do
  ldd "$exe" | awk '$1 ~ /^lib(c\+\+|c\+\+abi|unwind|omp)\.so/ && $3 ~ /^\// {print $3}'
done | sort -u | while read -r lib; do cp -L "$lib" "$dest/lib/"; done
# The GPU benchmarks, built here (they need clang and the plugin).
for bench in launch-overhead concurrency nested lud nw tuning; do
  benchmarks/$bench.sh "$build" --build-only
done
cp -a "$build/benchmarks/launch-overhead" "$build/benchmarks/launch-overhead-kernels" \
  "$build/benchmarks/concurrency" "$build/benchmarks/lud" "$build/benchmarks/nw" \
  "$build/benchmarks/tuning" \
  "$dest/benchmarks/"
nested=$build/benchmarks/nested
mkdir -p "$dest/benchmarks/nested"
cp -a "$nested/nested" "$nested/libweft-bench-acc.so" "$nested/kernels" "$dest/benchmarks/nested/"
# The peers' runtimes, for a machine without LLVM 19 or Debian's GCC 12:
# lib/ goes first on the loader's path (libomptarget; GCC 12's libgomp and
# its nvptx plugin, which must match each other), fallback/ only for what
# the machine lacks (nested.sh --run-only sorts it out).
pack=$(mktemp -d)
mkdir -p "$pack/lib" "$pack/fallback"
if readelf -d "$nested/nested" | grep libomptarget >/dev/null; then
  cp -L "$nested/openmp/lib/libomp.so.5" "$nested/openmp/lib/libomptarget.so.19.1" "$pack/lib/"
  LD_LIBRARY_PATH=$nested/openmp/lib ldd "$nested/nested" |
    awk '$3 ~ /^\// {print $3}' |
    grep -v -E 'lib(c|m|dl|pthread|rt|gcc_s|stdc\+\+|gomp)\.so|ld-linux|libweft|libomp' |
    while read -r lib; do cp -L "$lib" "$pack/fallback/"; done
fi
if readelf -S "$nested/libweft-bench-acc.so" | grep gnu.offload >/dev/null; then
  gomp=$(ldd "$nested/libweft-bench-acc.so" | awk '/libgomp\.so\.1/ {print $3}')
  cp -L "$gomp" "$(dirname "$gomp")/libgomp-plugin-nvptx.so.1" "$pack/lib/" 2>/dev/null ||
    cp -L "$gomp" /usr/lib/x86_64-linux-gnu/libgomp-plugin-nvptx.so.1 "$pack/lib/"
fi
if [ -n "$(ls "$pack/lib")" ]; then
  tar -C "$pack" -cf - lib fallback | xz -T0 -6 >"$dest/benchmarks/nested/openmp-runtime.tar.xz"
fi
rm -rf "$pack"
# Without their debug information the libraries and tools are a quarter
# of their size, which keeps the bundle within what a session carries.
strip --strip-debug "$dest"/lib/libweft.so.*.* "$dest"/bin/weft-nvrtc "$dest"/bin/weft-tune
du -sh "$dest"
