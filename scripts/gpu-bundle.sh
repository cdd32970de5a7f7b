#!/bin/bash
# Copies what scripts/gpu-check.sh runs from a tested build directory into
# a small one (a few MB, within what a GPU machine's session can carry):
# the runtime library, the end-to-end programs, the programs the lit tests
# built with the simulator's outputs, and the launch-overhead benchmark.
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
if [ -e "$build/benchmarks/launch-overhead" ]; then
  cp -a "$build/benchmarks/launch-overhead" "$build/benchmarks/launch-overhead-kernels" "$dest/benchmarks/"
fi
du -sh "$dest"
