#!/bin/bash
# End-to-end tests: each program in SRC_DIR is built with and without the
# plugin, run, and its output compared. Runs with WEFT_BACKEND=host (the
# fallback path), auto, sim (the generated kernels executed on the CPU, with
# the checker on, a block's threads last first; sim64 with 64-wide warps, as
# AMD's wavefronts, first first), cuda and hip; the cuda (hip) run must
# launch real kernels when an NVIDIA (AMD) GPU is present, else it is
# reported SKIPPED after checking the fault policies: the explicit backend
# stops the program with one error line, and with WEFT_ON_FAULT=fallback the
# host loop runs after one warning line.
#
# A program may also be built another way, as a program of its own: a line
# "// e2e also: NAME FLAGS" builds NAME-of-the-program with FLAGS after
# weft-config's (-std=c++17: the same program as a C++17 build).
#
# Usage: run-e2e.sh CLANGXX WEFT_CONFIG WORK_DIR KERNEL_DIR SRC_DIR
# With WEFT_E2E_RUN_ONLY=1 it runs the programs already built in WORK_DIR
# (on a GPU machine without clang); WEFT_E2E_BACKENDS="host cuda" runs
# those backends only.
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

# A GPU backend's run. With the GPU present it must not fall back. Without
# it the explicitly named backend is an error: exit status 1 and one error
# line; with WEFT_ON_FAULT=fallback, one warning line and the host's output
# (then the run is reported SKIPPED as a GPU run). True when the GPU ran it
# and its output remains to be checked.
# Usage: gpu_run_ok HAVE_GPU "a GPU's name"; uses $name, $backend, $status,
# $warnings.
gpu_run_ok() {
  local err=$work/$name.$backend.err
  if [ "$1" = 1 ]; then
    if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
      fail "$name ($backend): failed or fell back on $2"; cat "$err"
      return 1
    fi
    return 0
  fi
  if [ "$status" -ne 1 ] || [ "$(grep -c '^weft: error' "$err")" -ne 1 ] ||
     [ "$(wc -l <"$err")" -ne 1 ]; then
    fail "$name ($backend): expected exit status 1 and one error line without $2"
    cat "$err"; return 1
  fi
  WEFT_BACKEND=$backend WEFT_ON_FAULT=fallback "$weft" >"$work/$name.$backend.out" 2>"$err"
  if ! diff -u "$work/$name.expected" "$work/$name.$backend.out"; then
    fail "$name ($backend, fallback): output differs from the build without the plugin"
    return 1
  fi
  if [ "$(grep -c 'weft: warning' "$err")" -ne 1 ]; then
    fail "$name ($backend, fallback): expected one warning line without $2"
    cat "$err"; return 1
  fi
  skip "$name ($backend): no ${2#a* } here; checked the error and the fallback instead"
  return 1
}

# Each program, and each other way it is built: "FILE NAME FLAGS..." lines.
builds() {
  local file name
  for file in "$src"/*.cpp; do
    name=$(basename "$file" .cpp)
    echo "$file $name"
    sed -n 's|^// e2e also: \([A-Za-z0-9_+-]*\) \(.*\)|\1 \2|p' "$file" |
      while read -r variant flags; do echo "$file $name-$variant $flags"; done
  done
}

while read -r file name extra <&3; do
  plain=$work/$name.plain weft=$work/$name.weft kdir=$work/kernels-$name
  if [ "${WEFT_E2E_RUN_ONLY:-0}" != 1 ]; then
    cxxflags=$("$config" --clang="$cxx" --cxxflags) || { fail "$name: weft-config"; continue; }
    ldflags=$("$config" --ldflags)
    rm -rf "$kdir"
    # shellcheck disable=SC2086
    if ! "$cxx" -O1 $(printf '%s' "$cxxflags" | sed 's/-fplugin=[^ ]*//') $extra "$file" -o "$plain" 2>"$work/$name.plain.log"; then
      fail "$name: plain build"; cat "$work/$name.plain.log"; continue
    fi
    # shellcheck disable=SC2086
    if ! "$cxx" -O1 $cxxflags $extra -fplugin-arg-weft-emit-dir="$kdir" "$file" $ldflags -o "$weft" 2>"$work/$name.weft.log"; then
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
  for backend in ${WEFT_E2E_BACKENDS:-host auto sim sim64 cuda hip}; do
    # sim64: the simulator with AMD's 64-wide wavefronts, and its threads in
    # the other order (a missing barrier shows in one order or the other).
    WEFT_BACKEND=${backend%64} WEFT_SIM_WARP=$([ "$backend" = sim64 ] && echo 64 || echo 32) \
      WEFT_SIM_ORDER=$([ "$backend" = sim64 ] && echo forward || echo reverse) \
      WEFT_SIM_CHECK=1 "$weft" >"$work/$name.$backend.out" 2>"$work/$name.$backend.err"
    status=$?
    warnings=$(grep -c 'weft: warning' "$work/$name.$backend.err")
    case $backend in
      cuda) gpu_run_ok "$have_gpu" "an NVIDIA GPU" || continue ;;
      hip) gpu_run_ok "$have_amd" "an AMD GPU" || continue ;;
    esac
    if [ "$status" -ne 0 ]; then
      fail "$name ($backend): exit status $status"; cat "$work/$name.$backend.err"
      continue
    fi
    if ! diff -u "$work/$name.expected" "$work/$name.$backend.out"; then
      fail "$name ($backend): output differs from the build without the plugin"
      continue
    fi
    case $backend in
      sim | sim64)
        # The kernels must have run: a fallback would warn.
        if [ "$warnings" -ne 0 ] || grep -q 'error' "$work/$name.$backend.err"; then
          fail "$name ($backend): the simulator did not run every kernel cleanly"
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
done 3< <(builds)
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
