#!/bin/bash
# Clang 19's OpenMP offload runtime (libomp-19-dev, libomp5-19), unpacked
# into DEST instead of installed: the package conflicts with Debian's
# default libomp-dev. With clang-tools-19 (clang-linker-wrapper,
# clang-offload-packager; scripts/setup.sh installs it) clang++-19 then
# builds `#pragma omp target` code for NVIDIA GPUs: the peer that
# benchmarks/nested.sh measures weft against.
# Usage: benchmarks/fetch-openmp.sh DEST   (exit 0 when DEST/lib is ready)
set -euo pipefail
dest=$1
lib=$dest/lib
[ -e "$lib/libomptarget.so.19.1" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fetch() { (cd "$work" && apt-get download libomp-19-dev libomp5-19) >/dev/null 2>&1; }
if ! fetch; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq >/dev/null 2>&1 || true
  fetch || { echo "fetch-openmp: apt-get download libomp-19-dev libomp5-19 failed" >&2; exit 1; }
fi
for deb in "$work"/*.deb; do
  dpkg-deb -x "$deb" "$work/root"
done
mkdir -p "$lib"
cp -a "$work"/root/usr/lib/llvm-19/lib/. "$lib/"
echo "fetch-openmp: clang 19's offload runtime in $lib"
