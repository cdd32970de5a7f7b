#!/bin/bash
# Stop 46's first GPU questions: does unrolling lud's few-step loops whole
# (WEFT_UNROLL_STEPS, on by default) speed its diagonal block and
# perimeters, kernel by kernel and as a whole; and are the sum cases of the
# nested benchmark as fast as before issue 14's work (3cb58a2's build,
# gpu-bundle/old) in one run, taking turns.
set -u
b=gpu-bundle
export LD_LIBRARY_PATH=$b/lib
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
sums() {
  awk '/ (weft_lud|lud[A-Z])[A-Za-z0-9_]* \(/ { name = $1; n = $NF }
    /gpu__time_duration/ { t[name] += $NF * n; all += $NF * n }
    END { for (k in t) printf "  %-32s %9.1f us\n", k, t[k];
          printf "  all kernels                      %9.1f us\n", all }'
}
for unroll in 1 0; do
  echo "== lud 1024, WEFT_UNROLL_STEPS=$unroll: one decomposition's kernels, summed (ncu, real clocks)"
  env WEFT_TUNE=off WEFT_KERNEL_DEFINES="WEFT_UNROLL_STEPS=$unroll" WEFT_CACHE_DIR=/tmp/n-$unroll \
    timeout 120 $ncu --clock-control none --cache-control none \
    --metrics gpu__time_duration.sum -k regex:weft_lud --launch-skip 125 \
    --launch-count 125 --print-summary per-kernel \
    $b/benchmarks/lud benchmarks/lud/hand-tuned.cu 1024 2>&1 | sums
done
for round in 1; do
  for unroll in 1 0; do
    echo "== lud, untuned, WEFT_UNROLL_STEPS=$unroll (round $round)"
    env WEFT_TUNE=off WEFT_KERNEL_DEFINES="WEFT_UNROLL_STEPS=$unroll" WEFT_CACHE_DIR=/tmp/c-$unroll \
      timeout 100 $b/benchmarks/lud benchmarks/lud/hand-tuned.cu 2>&1 | grep -v '^mapping'
  done
done
echo "== lud tuned (the tuner may choose WEFT_UNROLL_STEPS)"
env WEFT_CACHE_DIR=/tmp/c-tuned timeout 100 $b/benchmarks/lud benchmarks/lud/hand-tuned.cu 2>&1 | grep -v '^mapping'
if [ -x $b/old/nested ]; then
  omp=$b/benchmarks/nested/openmp
  new_sums() {
    echo "== nested sums, this build ($1)"
    env WEFT_TUNE=off benchmarks/nested.sh $b --run-only --rounds=10 --cases=sum 2>&1 |
      grep -E ' weft |cuda '
  }
  new_sums before
  echo "== nested, 3cb58a2's build (all its cases)"
  env WEFT_TUNE=off WEFT_CACHE_DIR=/tmp/old-cache WEFT_BENCH_HOST_PEERS=0 \
    LD_LIBRARY_PATH=$b/old/lib:$omp/lib:$omp/missing:$b/benchmarks/nested/cuda-link \
    timeout 150 $b/old/nested --rounds 10 $b/old/hand-written.cu 2>&1 |
    grep -E ' weft |cuda |SKIPPED|rror'
  new_sums after
fi
