#!/bin/bash
# On a GPU machine (which has no clang): runs the programs the lit tests
# built on the build machine with WEFT_BACKEND=cuda (or hip) and compares
# each output with the simulator's, which the lit run checked against the
# host's: equal, or floating-point numbers within tests/gpu/same-output.sh's
# tolerance. Every generated kernel of those tests then runs on the GPU.
# Usage: tests/gpu/run-built-programs.sh BUILD_DIR [cuda|hip]
set -u
build=$1 backend=${2:-cuda}
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export WEFT_CACHE_DIR=${WEFT_CACHE_DIR:-$(mktemp -d)}
passed=0 failed=0
shopt -s nullglob
for exe in "$build"/tests/lit-*/*/Output/*.tmp.exe; do
  base=${exe%.exe} name=${exe#"$build"/tests/}
  [ -f "$base.sim" ] || continue # its output depends on the backend
  # A test whose program falls back on purpose (arguments over the same
  # memory) says so in its source; there a warning is expected, not an error.
  src=tests/lit/$(basename "$(dirname "$(dirname "$name")")")/$(basename "$name" .tmp.exe)
  falls_back=0
  grep -q '^// GPU run: falls back' "$src" 2>/dev/null && falls_back=1
  if [ $falls_back = 1 ]; then
    WEFT_ON_FAULT=fallback WEFT_BACKEND=$backend "$exe" >"$base.$backend" 2>"$base.$backend.err"
  else
    WEFT_BACKEND=$backend "$exe" >"$base.$backend" 2>"$base.$backend.err"
  fi
  code=$?
  if [ $code -ne 0 ]; then
    echo "FAIL: $name: exit status $code"; cat "$base.$backend.err"; failed=$((failed + 1))
    if [ $code -gt 128 ]; then
      # A crash: whether it needs the tuner (its compiles in the background
      # at exit), and where it happens where gdb is installed.
      if WEFT_TUNE=off WEFT_BACKEND=$backend "$exe" >/dev/null 2>&1; then
        echo "  with WEFT_TUNE=off it runs"
      else
        echo "  with WEFT_TUNE=off it fails too"
      fi
      if command -v gdb >/dev/null; then
        WEFT_BACKEND=$backend timeout 120 gdb -q -batch -ex run -ex bt "$exe" 2>&1 |
          grep -E '^#|signal' | head -n 16 | sed 's/^/  /'
      fi
    fi
    continue
  fi
  note=""
  if ! diff -q "$base.sim" "$base.$backend" >/dev/null; then
    # Floating-point results may differ in the last digits (tests/gpu/
    # same-output.sh says why); beyond its tolerance it is a failure.
    if ! why=$("$here/same-output.sh" "$base.sim" "$base.$backend"); then
      echo "FAIL: $name: output differs from the simulator's: $why"
      failed=$((failed + 1)); continue
    fi
    note=" (within the floating-point tolerance: $(diff "$base.sim" "$base.$backend" | grep -c '^>') line(s) differ in the last digits)"
  fi
  if [ $falls_back = 1 ]; then
    if ! grep -q 'weft: warning' "$base.$backend.err"; then
      echo "FAIL: $name: did not fall back as on the simulator"; failed=$((failed + 1)); continue
    fi
  elif grep -q 'weft: warning' "$base.$backend.err"; then
    echo "FAIL: $name: fell back"; cat "$base.$backend.err"; failed=$((failed + 1)); continue
  fi
  echo "PASS: $name$note"; passed=$((passed + 1))
done
echo "$passed passed, $failed failed on $backend"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
