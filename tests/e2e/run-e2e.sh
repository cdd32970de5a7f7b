#!/bin/bash
# End-to-end tests: each program in SRC_DIR is built with and without the
# plugin, run, and its output compared. Runs with WEFT_BACKEND=host (the
# fallback path), auto, sim (the generated kernels executed on the CPU, with
# the checker on), cuda and hip; the cuda (hip) run must launch real kernels
# when an NVIDIA (AMD) GPU is present, else it is reported SKIPPED.
#
# Usage: run-e2e.sh CLANGXX WEFT_CONFIG WORK_DIR KERNEL_DIR SRC_DIR
# With WEFT_E2E_RUN_ONLY=1 it runs the programs already built in WORK_DIR
# (on a GPU machine without clang).
set -u
cxx=$1 config=$2 work=$3 kernels=$4 src=$5
mkdir -p "$work" "$kernels"
export WEFT_CACHE_DIR=${WEFT_CACHE_DIR:-$work/cache}
passed=0 failed=0 skipped=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "SKIPPED: $*"; skipped=$((skipped + 1)); }

have_gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then
  have_gpu=1
fi
have_amd=0
[ -e /dev/kfd ] && have_amd=1

# A GPU backend's run: with the GPU present it must not fall back; without
# it, exactly one warning line (then the run is reported SKIPPED as a GPU
# run, its output having been checked as a fallback).
# Usage: gpu_run_ok HAVE_GPU "a GPU's name"; uses $name, $backend, $warnings.
gpu_run_ok() {
  if [ "$1" = 1 ] && [ "$warnings" -ne 0 ]; then
    fail "$name ($backend): fell back on $2"; cat "$work/$name.$backend.err"
    return 1
  elif [ "$1" = 0 ] && [ "$warnings" -ne 1 ]; then
    fail "$name ($backend): expected one warning line without $2, got $warnings"
    return 1
  fi
  [ "$1" = 1 ] || skip "$name ($backend): no ${2#a* } here; checked the fallback instead"
}

for file in "$src"/*.cpp; do
  name=$(basename "$file" .cpp)
  plain=$work/$name.plain weft=$work/$name.weft kdir=$work/kernels-$name
  if [ "${WEFT_E2E_RUN_ONLY:-0}" != 1 ]; then
    cxxflags=$("$config" --clang="$cxx" --cxxflags) || { fail "$name: weft-config"; continue; }
    ldflags=$("$config" --ldflags)
    rm -rf "$kdir"
    # shellcheck disable=SC2086
    if ! "$cxx" -O1 $(printf '%s' "$cxxflags" | sed 's/-fplugin=[^ ]*//') "$file" -o "$plain" 2>"$work/$name.plain.log"; then
      fail "$name: plain build"; cat "$work/$name.plain.log"; continue
    fi
    # shellcheck disable=SC2086
    if ! "$cxx" -O1 $cxxflags -fplugin-arg-weft-emit-dir="$kdir" "$file" $ldflags -o "$weft" 2>"$work/$name.weft.log"; then
      fail "$name: build with the plugin"; cat "$work/$name.weft.log"; continue
    fi
    count=$(ls "$kdir"/*.cu 2>/dev/null | wc -l)
    missing=0
    for k in "$kdir"/*.cu; do
      [ -e "$k" ] || continue
      cp "$k" "$kernels/"
      grep -q "kernel $(basename "$k" .cu)" "$weft" || missing=$((missing + 1))
    done
    # A program may say how many of its kernels never reach the binary
    # (a consteval function's, say): "// e2e-unemitted: N".
    unemitted=$(sed -n 's|^// e2e-unemitted: \([0-9]*\).*|\1|p' "$file")
    if [ "$count" -gt 0 ] && [ "$missing" -eq "${unemitted:-0}" ]; then
      pass "$name: $count kernels generated and embedded in the program"
    else
      fail "$name: $count kernels generated, $missing missing from the program"
    fi
  fi
  "$plain" >"$work/$name.expected" 2>&1 || { fail "$name: plain run"; continue; }
  for backend in host auto sim cuda hip; do
    WEFT_BACKEND=$backend WEFT_SIM_CHECK=1 "$weft" >"$work/$name.$backend.out" 2>"$work/$name.$backend.err"
    if ! diff -u "$work/$name.expected" "$work/$name.$backend.out"; then
      fail "$name ($backend): output differs from the build without the plugin"
      continue
    fi
    warnings=$(grep -c 'weft: warning' "$work/$name.$backend.err")
    case $backend in
      cuda) gpu_run_ok "$have_gpu" "an NVIDIA GPU" || continue ;;
      hip) gpu_run_ok "$have_amd" "an AMD GPU" || continue ;;
      sim)
        # The kernels must have run: a fallback would warn.
        if [ "$warnings" -ne 0 ] || grep -q 'error' "$work/$name.$backend.err"; then
          fail "$name (sim): the simulator did not run every kernel cleanly"
          cat "$work/$name.$backend.err"; continue
        fi
        ;;
      *)
        if [ "$warnings" -ne 0 ]; then
          fail "$name ($backend): unexpected warnings"; cat "$work/$name.$backend.err"; continue
        fi
        ;;
    esac
    pass "$name ($backend): same output as without the plugin"
  done
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
