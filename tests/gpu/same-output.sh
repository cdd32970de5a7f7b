#!/bin/bash
# Compares a program's output on the GPU with the simulator's: the same
# words, numbers within a relative tolerance (default 1e-5 of the larger
# magnitude, at least 1). GPUs contract a * b + c into one rounding and
# their exp, log, ... differ from the host's by an ulp or two, so the last
# printed digits of floating-point results may differ; anything else is a
# failure. Exit 0 when the outputs agree; else prints the first difference.
# Usage: tests/gpu/same-output.sh EXPECTED ACTUAL [TOLERANCE]
set -u
awk -v tol="${3:-1e-5}" '
  function isnum(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?[,;:)]?$/ }
  function num(s) { sub(/[,;:)]$/, "", s); return s + 0 }
  function abs(x) { return x < 0 ? -x : x }
  NR == FNR { want[FNR] = $0; lines = FNR; next }
  {
    if (FNR > lines) { print "extra line " FNR ": " $0; bad = 1; exit }
    n = split(want[FNR], a, /[ \t]+/); m = split($0, b, /[ \t]+/)
    if (n != m) { print "line " FNR ": " want[FNR] " | " $0; bad = 1; exit }
    for (i = 1; i <= n; ++i) {
      if (a[i] == b[i]) continue
      if (isnum(a[i]) && isnum(b[i])) {
        x = num(a[i]); y = num(b[i])
        scale = abs(x) > abs(y) ? abs(x) : abs(y)
        if (scale < 1) scale = 1
        if (abs(x - y) <= tol * scale) continue
      }
      print "line " FNR ": " want[FNR] " | " $0; bad = 1; exit
    }
  }
  END {
    if (!bad && FNR < lines) { print "missing lines after " FNR; bad = 1 }
    exit bad
  }' "$1" "$2"
