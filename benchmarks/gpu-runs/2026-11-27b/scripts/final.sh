#!/bin/bash
# Stop 46's closing GPU run (as run there, goals came first and used up
# the command's 10 minutes; reordered after, for the next run): why the
# sum cases' wall times in unroll-ab.sh were longer in this build than in
# 3cb58a2's (gpu-bundle/old), the hand-written kernels' too: the kernels
# alone under Nsight Compute, per launch with its grid (ncu-sums-*.csv),
# the mappings each build chose (WEFT_VERBOSE), and this build's wall
# times with its OpenMP and OpenACC peers kept off the GPU (3cb58a2's ran
# on the host there); lud at 2048 kernel by kernel;
# the six clang-19 lit programs that segfaulted in stop 45; then the open
# issues' goals (scripts/gpu-check.sh goals).
set -u
b=gpu-bundle
out=${OUT:-/tmp/final-out}
mkdir -p "$out"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
omp=$b/benchmarks/nested/openmp
old() {
  env WEFT_TUNE=off WEFT_CACHE_DIR=/tmp/old-cache WEFT_BENCH_HOST_PEERS=0 \
    LD_LIBRARY_PATH=$b/old/lib:$omp/lib:$omp/missing:$b/benchmarks/nested/cuda-link \
    "$@"
}
new_kernels='^(weft_loops_L(20|31)_|sumRows|sumCols)'
old_kernels='^(weft_loops_L18_(17a974b38ecf|87994ba9c097|87d5c2b99eb7|92b83fd29ec7|c01663f8be7d)|weft_loops_L29_dd3f878fc28a|sumRows|sumCols)'
echo "== sums, wall: this build, its peers kept off the GPU"
env WEFT_TUNE=off OMP_TARGET_OFFLOAD=DISABLED ACC_DEVICE_TYPE=host \
  benchmarks/nested.sh $b --run-only --rounds=10 --cases=sum 2>&1 | grep -E ' weft |cuda '
echo "== sums, wall: 3cb58a2's build"
old timeout 150 $b/old/nested --rounds 10 $b/old/hand-written.cu 2>&1 | grep -E '^sum.*( weft |cuda )'
echo "== sums, wall: this build, its peers on the GPU"
env WEFT_TUNE=off benchmarks/nested.sh $b --run-only --rounds=10 --cases=sum 2>&1 | grep -E ' weft |cuda '
echo "== mappings chosen (WEFT_VERBOSE=1): this build, then 3cb58a2's"
env WEFT_TUNE=off WEFT_VERBOSE=1 benchmarks/nested.sh $b --run-only --rounds=1 --cases=sum 2>&1 |
  grep -E 'loops.cpp:(20|31).*sizes' | sort -u
old env WEFT_VERBOSE=1 timeout 150 $b/old/nested --rounds 1 $b/old/hand-written.cu 2>&1 |
  grep -E 'loops.cpp:(18|29).*sizes' | sort -u
if [ -n "$ncu" ]; then
  echo "== the sum kernels alone, per launch (ncu, real clocks): files ncu-sums-*.csv"
  env WEFT_TUNE=off timeout 200 "$ncu" --csv --clock-control none --cache-control none \
    --metrics gpu__time_duration.sum -k "regex:$new_kernels" \
    benchmarks/nested.sh $b --run-only --rounds=3 --cases=sum > "$out/ncu-sums-new.csv" 2>&1
  old timeout 200 "$ncu" --csv --clock-control none --cache-control none \
    --metrics gpu__time_duration.sum -k "regex:$old_kernels" \
    $b/old/nested --rounds 3 $b/old/hand-written.cu > "$out/ncu-sums-old.csv" 2>&1
  wc -l "$out"/ncu-sums-*.csv
fi
echo "== lud at 2048, one decomposition's kernels summed (ncu, real clocks):"
echo "   weft's (253 launches), then the hand-tuned ones (190)"
for side in 'regex:weft_lud --launch-skip 253 --launch-count 253' 'regex:^lud --launch-count 190'; do
  # shellcheck disable=SC2086
  env LD_LIBRARY_PATH=$b/lib WEFT_TUNE=off WEFT_CACHE_DIR=/tmp/l2048 timeout 150 "$ncu" \
    --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    -k $side --print-summary per-kernel $b/benchmarks/lud benchmarks/lud/hand-tuned.cu 2048 2>&1 |
    awk '/ (weft_lud|lud[A-Z])[A-Za-z0-9_]* \(/ { name = $1; n = $NF }
      /gpu__time_duration/ { t[name] += $NF * n; all += $NF * n }
      END { for (k in t) printf "  %-32s %9.1f us\n", k, t[k];
            printf "  all kernels                      %9.1f us\n", all }'
done
echo "== the six clang-19 lit programs that segfaulted on 2026-11-27 (stop 45):"
echo "   on cuda against the simulator, tuned (the default) and WEFT_TUNE=off"
for t in emit/record-tiles emit/thread-slices recognize/array-reductions \
    recognize/descending-loops recognize/inferred-reductions runtime/tuning-coarsened; do
  exe=$b/tests/lit-19/$(dirname $t)/Output/$(basename $t).cpp.tmp.exe
  [ -x "$exe" ] || { echo "SKIPPED: $t: not built"; continue; }
  for tune in on off; do
    env LD_LIBRARY_PATH=$b/lib WEFT_BACKEND=cuda WEFT_TUNE=$tune WEFT_CACHE_DIR=/tmp/p19-$tune \
      timeout 60 "$exe" > /tmp/out.cuda 2> /tmp/err.cuda
    rc=$?
    if [ $rc = 0 ] && diff -q "${exe%.exe}.sim" /tmp/out.cuda > /dev/null; then
      echo "PASS: $t (clang-19, WEFT_TUNE=$tune)"
    else
      echo "FAIL: $t (clang-19, WEFT_TUNE=$tune): exit $rc"; head -c 600 /tmp/err.cuda
    fi
  done
done
# Last: it takes some 4 minutes, and its verbose lud step did not end here.
bash scripts/gpu-check.sh $b "$out" goals
