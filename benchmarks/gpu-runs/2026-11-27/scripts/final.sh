#!/bin/bash
# Stop 45's GPU questions, in priority order: lud as ported now (the
# perimeter's dot products marked reductions) against the sample as it was
# (lud-before, same plugin), side by side; their kernels summed at 1024;
# the new lit programs on the GPU against the simulator and under
# compute-sanitizer (the warp fences); then every lit program.
set -u
export LD_LIBRARY_PATH=gpu-bundle/lib
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
for tune in off on; do
  for v in lud lud-before; do
    echo "== $v, WEFT_TUNE=$tune"
    env WEFT_TUNE=$tune WEFT_CACHE_DIR=/tmp/c-$v-$tune timeout 100 \
      gpu-bundle/benchmarks/$v benchmarks/lud/hand-tuned.cu 2>&1 | grep -v '^mapping'
  done
done
sums() {
  awk '/ (weft_lud|lud[A-Z])[A-Za-z0-9_]* \(/ { name = $1; n = $NF }
    /gpu__time_duration/ { t[name] += $NF * n; all += $NF * n }
    END { for (k in t) printf "  %-32s %9.1f us\n", k, t[k];
          printf "  all kernels                      %9.1f us\n", all }'
}
for v in lud lud-before; do
  echo "== $v 1024: one decomposition's kernels, summed (ncu, real clocks)"
  env WEFT_TUNE=off WEFT_CACHE_DIR=/tmp/n-$v timeout 120 $ncu --clock-control none \
    --cache-control none --metrics gpu__time_duration.sum -k regex:weft_lud \
    --launch-skip 125 --launch-count 125 --print-summary per-kernel \
    gpu-bundle/benchmarks/$v benchmarks/lud/hand-tuned.cu 1024 2>&1 | sums
done
echo "== the new lit programs on cuda against the simulator, then under compute-sanitizer"
for t in emit/leader-writes emit/sequential-reductions recognize/captured-constants; do
  for ver in 22 19; do
    exe=gpu-bundle/tests/lit-$ver/$(dirname $t)/Output/$(basename $t).cpp.tmp.exe
    [ -x "$exe" ] || { echo "SKIPPED: $exe not built"; continue; }
    WEFT_BACKEND=cuda WEFT_CACHE_DIR=/tmp/p $exe > /tmp/out.cuda 2>/tmp/err.cuda
    if diff -q ${exe%.exe}.sim /tmp/out.cuda > /dev/null && [ ! -s /tmp/err.cuda ]; then
      echo "PASS: $t (clang-$ver)"; else echo "FAIL: $t (clang-$ver)"; diff ${exe%.exe}.sim /tmp/out.cuda | head -5; cat /tmp/err.cuda | head -5; fi
  done
  exe=gpu-bundle/tests/lit-22/$(dirname $t)/Output/$(basename $t).cpp.tmp.exe
  for tool in memcheck racecheck synccheck; do
    echo "-- $t: $tool: $(WEFT_BACKEND=cuda WEFT_CACHE_DIR=/tmp/p timeout 60 $san --tool $tool $exe 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' | head -2 | tr '\n' ' ')"
  done
done
echo "== every lit program on cuda against the simulator"
timeout 150 tests/gpu/run-built-programs.sh gpu-bundle cuda > $OUT/programs.log 2>&1
grep -v '^PASS' $OUT/programs.log | tail -n 20
