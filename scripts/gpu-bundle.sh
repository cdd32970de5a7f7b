#!/bin/bash
# Copies what scripts/gpu-check.sh runs from a tested build directory into
# a small one (a few MB, within what a GPU machine's session can carry):
# the runtime library, the end-to-end programs, the programs the lit tests
# built with the simulator's outputs, and the GPU benchmarks (built here):
# launch overhead, concurrency, and the nested loops with clang 19's OpenMP
# runtime packed (about 40 MB).
# Usage: scripts/gpu-bundle.sh BUILD_DIR [DEST] (default DEST: gpu-bundle)
set -euo pipefail
build=$1 dest=${2:-gpu-bundle}
rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/bin" "$dest/benchmarks"
cp -a "$build"/lib/libweft.so* "$dest/lib/"
cp -a "$build/bin/weft-config" "$dest/bin/"
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
# The GPU benchmarks, built here (they need clang and the plugin).
for bench in launch-overhead concurrency nested; do
  benchmarks/$bench.sh "$build" --build-only
done
cp -a "$build/benchmarks/launch-overhead" "$build/benchmarks/launch-overhead-kernels" \
  "$build/benchmarks/concurrency" "$dest/benchmarks/"
nested=$build/benchmarks/nested
mkdir -p "$dest/benchmarks/nested"
cp -a "$nested/nested" "$dest/benchmarks/nested/"
if readelf -d "$nested/nested" | grep -q libomptarget; then
  # libomptarget and what it needs that a machine without LLVM 19 may lack;
  # nested.sh --run-only unpacks it and takes only what is missing.
  pack=$(mktemp -d)
  mkdir -p "$pack/lib" "$pack/fallback"
  cp -L "$nested/openmp/lib/libomp.so.5" "$nested/openmp/lib/libomptarget.so.19.1" "$pack/lib/"
  LD_LIBRARY_PATH=$nested/openmp/lib ldd "$nested/nested" |
    awk '$3 ~ /^\// {print $3}' |
    grep -v -E 'lib(c|m|dl|pthread|rt|gcc_s|stdc\+\+)\.so|ld-linux|libweft|libomp' |
    while read -r lib; do cp -L "$lib" "$pack/fallback/"; done
  tar -C "$pack" -cf - lib fallback | xz -T0 -6 >"$dest/benchmarks/nested/openmp-runtime.tar.xz"
  rm -rf "$pack"
fi
du -sh "$dest"
