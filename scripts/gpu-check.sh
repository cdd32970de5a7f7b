#!/bin/bash
# Everything that needs an NVIDIA GPU, in one command, for a GPU machine
# without clang: build and test here first (scripts/setup.sh test, or
# cmake + ctest in BUILD_DIR), carry BUILD_DIR there, then run this from
# the repository root. Runs the end-to-end programs with WEFT_BACKEND=cuda,
# every program the lit tests built (their kernels on the GPU against the
# simulator's results), the samples at full size, the GPU benchmarks, and
# the tuning of the benchmarked loops (recorded, replayed, then measured).
# BUILD_DIR may be a bundle made by scripts/gpu-bundle.sh (to carry where
# the whole build directory is too large). Each part's output also goes to
# LOG_DIR (default: $OUT when set, as on the device machine) as
# gpu-check-{e2e,programs,sanitizer,samples,benchmarks,compute,tuning,goals}.log, whole,
# whatever the console keeps, and the tuning recordings in
# LOG_DIR/tuning-recordings. PARTS (default all): a comma-separated list of
# e2e, programs, sanitizer (the tiled kernels under compute-sanitizer's
# memcheck, racecheck and synccheck), samples, benchmarks, compute (the compute-bound
# nests), tuning, to run the check as several commands where one may run
# only so long (each part takes minutes; tuning the longest); or goals:
# the open issues' measurements alone, 10 rounds each (the products
# against cuBLAS, every nested case against its hand-written kernel, lud
# untuned and tuned, lud tuned at 1024 with its compiles in the background
# and its waits counted, lud's first kernels under Nsight Compute, and one
# decomposition's kernels at 1024 summed per kernel at real clocks, also
# with WEFT_UNROLL_STEPS=0: register slices against shared ones; the
# convolution also without its window tile, WEFT_RM=1), some
# 4-6 minutes on an H100 or H200 (3.5 on the H200 of 2026-11-27), which
# fits one command of a session's 15 minutes of device time; or ab: issue
# 14's A/B, benchmarks/nested now against the build in BUILD_DIR/old
# (scripts/ab-old-build.sh build puts 3cb58a2's there), some 3 minutes.
# Usage: scripts/gpu-check.sh [BUILD_DIR] [LOG_DIR] [PARTS]
set -u
build=${1:-build}
logs=${2:-${OUT:-}}
parts=,${3:-e2e,programs,sanitizer,samples,benchmarks,compute,tuning},
status=0
# Whether the part named is to run.
want() { [[ $parts == *,$1,* ]]; }
# Runs a part of the check, its output on the console and in its log.
part() {
  local name=$1
  shift
  # When it started: a step that runs past the session's limit shows where.
  local step="[$(date +%T)] $*"
  echo "${step:0:120}" >&2
  if [ -n "$logs" ]; then
    mkdir -p "$logs"
    echo "${step:0:120}" >>"$logs/gpu-check-$name.log"
    "$@" 2>&1 | tee -a "$logs/gpu-check-$name.log"
    return "${PIPESTATUS[0]}"
  fi
  "$@"
}
nvidia-smi -L || { echo "no NVIDIA GPU here"; exit 77; }
# A peer whose regions fall back to the host is not run: a 4096^3 product
# on the host takes minutes a GPU session cannot spare.
export WEFT_BENCH_HOST_PEERS=${WEFT_BENCH_HOST_PEERS:-0}
for ver in 22 19; do
  want e2e || break
  [ -d "$build/tests/e2e-$ver" ] || continue
  echo "== e2e (clang-$ver builds) with WEFT_BACKEND=cuda"
  part e2e env LD_LIBRARY_PATH="$build/lib" WEFT_E2E_RUN_ONLY=1 \
    WEFT_E2E_BACKENDS="host auto cuda" tests/e2e/run-e2e.sh \
    clang++-$ver "$build/bin/weft-config" "$build/tests/e2e-$ver" \
    "$build/tests/kernels" tests/e2e || status=1
done
if want programs; then
echo "== programs built by the lit tests, on the GPU"
part programs tests/gpu/run-built-programs.sh "$build" cuda || status=1
echo "== what a register-tiled kernel uses, as the driver reports it (WEFT_VERBOSE)"
exe=$build/tests/lit-22/emit/Output/register-tiles.cpp.tmp.exe
fi
if want programs && [ -x "$exe" ]; then
  notes=$(env LD_LIBRARY_PATH="$build/lib" WEFT_BACKEND=cuda WEFT_VERBOSE=1 "$exe" 2>&1 >/dev/null)
  echo "$notes" | grep -E 'registers|warning|error' || { echo "$notes" | tail -n 5; status=1; }
fi
if want sanitizer; then
  echo "== tiled kernels and array reductions under compute-sanitizer: memcheck"
  echo "   (the 128-bit loads, guards, atomics), racecheck and synccheck (shared"
  echo "   tiles, double buffers, barriers)"
  san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
  if [ -z "$san" ]; then
    echo "SKIPPED: compute-sanitizer not found"
  else
    for t in emit/register-tiles emit/whole-block-tiles emit/batched-tiles \
        emit/tiling emit/written-tiles emit/staging emit/halo-windows \
        recognize/array-reductions; do
      exe=$build/tests/lit-22/$(dirname "$t")/Output/$(basename "$t").cpp.tmp.exe
      [ -x "$exe" ] || { echo "SKIPPED: $t: not built"; continue; }
      for tool in memcheck racecheck synccheck; do
        out=$(mktemp)
        if part sanitizer env LD_LIBRARY_PATH="$build/lib" WEFT_BACKEND=cuda \
            "$san" --tool "$tool" --error-exitcode 3 "$exe" >"$out" &&
          ! grep -q 'weft: warning' "$out"; then
          echo "PASS: $t under $tool"
        else
          echo "FAIL: $t under $tool"; tail -n 20 "$out"; status=1
        fi
        rm -f "$out"
      done
    done
  fi
fi
want samples && echo "== samples at their full sizes: weft on the GPU against the host loops"
for weft in "$build"/samples/*.weft; do
  want samples || break
  [ -e "$weft" ] || continue
  part samples env WEFT_BUILD_DIR="$build" WEFT_BACKEND=cuda \
    samples/run-sample.sh "$(basename "$weft" .weft)" --run-only || status=1
done
# Nsight Compute, for the parts that profile lud
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
# lud at 2048, untuned, under Nsight Compute: each kernel's time on the GPU,
# into part $1's log; the rest are ncu's arguments (which kernels).
profile_lud() {
  local name=$1
  shift
  part "$name" env WEFT_TUNE=off "$ncu" --metrics gpu__time_duration.sum \
    "$@" --print-summary per-kernel benchmarks/lud.sh "$build" --run-only 2048
}
# lud at 1024, untuned, one whole decomposition's kernels (after the first
# run's) under Nsight Compute at the run's own clocks and caches, summed
# per kernel: weft's diagonal, perimeters and trailing update against the
# hand-tuned kernels, in us.
lud_kernel_sums() {
  local name=$1
  shift
  part "$name" bash -c "env WEFT_TUNE=off '$ncu' --clock-control none \
    --cache-control none --metrics gpu__time_duration.sum $* \
    --print-summary per-kernel benchmarks/lud.sh '$build' --run-only 1024 |
    awk '/ (weft_lud|lud[A-Z])[A-Za-z0-9_]* \\(/ { name = \$1; n = \$NF }
      /gpu__time_duration/ { t[name] += \$NF * n; all += \$NF * n }
      END { for (k in t) printf \"  %-32s %9.1f us\\n\", k, t[k];
            printf \"  all kernels                      %9.1f us\\n\", all }'"
}
if want goals; then
  echo "== the open issues' goals: nested loops against hand-written kernels and cuBLAS"
  part goals nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  part goals env WEFT_TUNE=off benchmarks/nested.sh "$build" --run-only --rounds=10 ||
    status=1
  echo "== the convolution without its window tile (WEFT_RM=1, one row a thread)"
  part goals env WEFT_TUNE=off WEFT_KERNEL_DEFINES=WEFT_RM=1 \
    benchmarks/nested.sh "$build" --run-only --rounds=10 --cases=conv || status=1
  echo "== lud untuned, then tuned as it runs (the default)"
  part goals env WEFT_TUNE=off benchmarks/lud.sh "$build" --run-only || status=1
  part goals benchmarks/lud.sh "$build" --run-only || status=1
  echo "== lud at 1024, untuned, with WEFT_PROFILE=1,nohost: each loop's calls"
  echo "   (host clock), its kernels' times (CUDA events) and bandwidth, and"
  echo "   bytes, against the benchmark's own kernel times printed beside them"
  part goals env WEFT_TUNE=off WEFT_PROFILE=1,nohost benchmarks/lud.sh "$build" \
    --run-only 1024 || status=1
  echo "== lud at 1024, tuned, every launch said: variants compiled in the"
  echo "   background and launches timed between events, so the host should"
  echo "   wait only where the benchmark synchronizes (a few times a run)"
  echo "   (on the H200 of 2026-11-27, stop 46, this step did not end within"
  echo "   the 6 minutes left: a 3-minute limit here, and the log's last lines)"
  part goals bash -c "WEFT_VERBOSE=2 timeout 180 benchmarks/lud.sh '$build' --run-only 1024 \
    > /tmp/weft-lud-verbose.log 2>&1; rc=\$?
    [ \$rc = 0 ] || { echo \"lud with WEFT_VERBOSE=2 ended with \$rc (124: the limit); its last lines:\"
      tail -n 15 /tmp/weft-lud-verbose.log; }
    grep '^lud 1024' /tmp/weft-lud-verbose.log
    echo \"compiles in the background: \$(grep -c 'in the background' /tmp/weft-lud-verbose.log)\"
    echo \"waits for launches in flight: \$(grep -c 'synchronized' /tmp/weft-lud-verbose.log)\"
    echo \"launches: \$(grep -c ': kernel weft_' /tmp/weft-lud-verbose.log)\"
    grep 'loop at .*sizes' /tmp/weft-lud-verbose.log | head -30" || status=1
  echo "== heat-mpi, 4096 x 4096, 200 steps: one rank, then two ranks sharing"
  echo "   the one GPU (each takes device 0: local rank modulo one device); the"
  echo "   plate's hash must be the same, and each rank's time is printed"
  if [ -x "$build/samples/heat-mpi" ] && command -v mpirun >/dev/null; then
    for ranks in 1 2; do
      part goals env WEFT_VERBOSE=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        mpirun --oversubscribe -np $ranks "$build/samples/heat-mpi" --size 4096 --steps 200 ||
        status=1
    done
  else
    echo "SKIPPED: no mpirun here, or no samples/heat-mpi in the bundle (built where Open MPI is)"
  fi
  echo "== kernels built with the program (issue 59): hotspot built with"
  echo "   offload-arch=sm_90 against the same compiled when it runs, each from an"
  echo "   empty kernel cache (the first run's time), then with no runtime"
  echo "   compiler (WEFT_RTC=off): the images alone must serve"
  if [ -x "$build/samples/hotspot.aot" ]; then
    expected=$(mktemp)
    part goals "$build/samples/hotspot.plain" --save "$expected" >/dev/null
    for run in "weft:" "aot:" "aot:WEFT_RTC=off"; do
      exe=${run%%:*} extra=${run#*:}
      part goals env WEFT_BACKEND=cuda WEFT_VERBOSE=1 WEFT_CACHE_DIR="$(mktemp -d)" $extra \
        bash -c "'$build/samples/hotspot.$exe' --repeat 1 --check '$expected' 2> /tmp/weft-aot.err;
          rc=\$?; echo \"($exe $extra) images: \$(grep -c 'built with the program' /tmp/weft-aot.err),\
 compiled: \$(grep -c 'compiled by NVRTC' /tmp/weft-aot.err), warnings: \$(grep -c 'weft: warning' /tmp/weft-aot.err)\"; exit \$rc" ||
        status=1
    done
  else
    echo "SKIPPED: no samples/hotspot.aot in the bundle (built where NVRTC is)"
  fi
  echo "== lud at 2048, its first kernels under Nsight Compute (untuned): weft's"
  echo "   diagonal block (one warp), perimeters and trailing update, then the"
  echo "   hand-tuned kernels; 41, ~36, ~31 and 24-30 us on the H200 of 2026-11-26"
  if [ -z "$ncu" ]; then
    echo "SKIPPED: ncu (Nsight Compute) not found"
  else
    profile_lud goals -k regex:weft_lud --launch-count 40 || status=1
    profile_lud goals -k regex:^lud --launch-count 30 || status=1
    echo "== lud at 1024, one decomposition's kernels summed (real clocks):"
    echo "   weft's (125 launches), then the hand-tuned ones (94)"
    lud_kernel_sums goals -k regex:weft_lud --launch-skip 125 \
      --launch-count 125 || status=1
    lud_kernel_sums goals -k regex:^lud --launch-count 94 || status=1
    echo "== the same of weft's with WEFT_UNROLL_STEPS=0: the perimeters' slices"
    echo "   in shared memory and written through, the few-step loops rolled"
    (
      export WEFT_KERNEL_DEFINES=WEFT_UNROLL_STEPS=0
      lud_kernel_sums goals -k regex:weft_lud --launch-skip 125 \
        --launch-count 125
    ) || status=1
  fi
fi
if want benchmarks; then
echo "== benchmarks"
part benchmarks nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
part benchmarks benchmarks/launch-overhead.sh "$build" --run-only || status=1
part benchmarks benchmarks/concurrency.sh "$build" --run-only || status=1
# Untuned, as every earlier run measured it; tuned below.
part benchmarks env WEFT_TUNE=off benchmarks/nested.sh "$build" --run-only \
  --cases=sum,matmul,jacobi || status=1
echo "== the Jacobi steps with their windows staged in shared memory"
echo "   (WEFT_STAGED_RANGES=1; off by default since the H200 run of 2026-11-26)"
part benchmarks env WEFT_TUNE=off WEFT_KERNEL_DEFINES=WEFT_STAGED_RANGES=1 \
  benchmarks/nested.sh "$build" --run-only --cases=jacobi || status=1
part benchmarks env WEFT_TUNE=off benchmarks/lud.sh "$build" --run-only || status=1
echo "== lud again, tuned as it runs (the default): small grids start with smaller"
echo "   blocks (the notes say which), then each loop is tuned"
part benchmarks env WEFT_VERBOSE=1 benchmarks/lud.sh "$build" --run-only || status=1
echo "== lud at 2048 under Nsight Compute: each kernel's time on the GPU (weft's"
echo "   perimeter and trailing kernels, the hand-tuned ones); their sum against"
echo "   the run's time tells kernels from copies and host work"
if [ -z "$ncu" ]; then
  echo "SKIPPED: ncu (Nsight Compute) not found"
else
  profile_lud benchmarks || status=1
  # Not tuned under the profiler: the tuner would time its launches as
  # the profiler replays them (on 2026-11-26 it kept a configuration 13
  # times slower than the best it had tried).
fi
echo "== nw: a launch an anti-diagonal (the sample) against one sequential launch"
echo "   (one block, a barrier a diagonal): which the sample should take"
part benchmarks benchmarks/nw.sh "$build" --run-only || status=1
echo "== lud with its perimeter's thread slices off (WEFT_STAGING=0: each column's"
echo "   and row's chain of reads after writes through L2, as before the slices;"
echo "   the trailing update's register tiles do not read the macro)"
part benchmarks env WEFT_TUNE=off WEFT_KERNEL_DEFINES=WEFT_STAGING=0 \
  benchmarks/lud.sh "$build" --run-only 2048 || status=1
# Last, so that a part cut short by the time limit keeps the runs above.
# (The products' kernels take 127 registers either way since their full
# tiles load unguarded and alpha is staged with its tile: not compared.)
echo "== lud without two blocks an SM (its register-tiled trailing update"
echo "   uncapped: 129 registers, one 256-thread block an SM; 127 capped)"
part benchmarks env WEFT_TUNE=off WEFT_KERNEL_DEFINES=WEFT_TWO_BLOCKS=0 \
  benchmarks/lud.sh "$build" --run-only 2048 || status=1
fi
if want ab; then
  echo "== issue 14: every nested case now against the build in $build/old"
  part ab scripts/ab-old-build.sh run "$build" 10 "${logs:-/tmp}" || status=1
fi
if want compute; then
echo "== compute-bound nests: n-body, Coulomb 3-D, batched small products, 5x5 convolution"
part compute env WEFT_TUNE=off benchmarks/nested.sh "$build" --run-only \
  --cases=nbody,coulomb,batched,conv || status=1
echo "== the convolution one row a thread (WEFT_RM=1: no window tile)"
part compute env WEFT_TUNE=off WEFT_KERNEL_DEFINES=WEFT_RM=1 \
  benchmarks/nested.sh "$build" --run-only --cases=conv || status=1
fi
if want tuning; then
echo "== tuning: every configuration of each benchmarked loop timed (recordings for"
echo "   benchmarks/tuning/recordings), the searchers replayed on them, and the"
echo "   benchmark again, started tuned from what the recording run stored"
rec=${logs:-$build/benchmarks}/tuning-recordings
mkdir -p "$rec"
part tuning env WEFT_TUNE=record="$rec" benchmarks/nested.sh "$build" --run-only \
  --rounds=3 --tune-calls=600 --cases=sum,matmul,jacobi || status=1
part tuning "$build/bin/weft-tune" replay "$rec"/*.txt || status=1
part tuning env WEFT_CACHE_DIR="$build/benchmarks/nested/cache" "$build/bin/weft-tune" list || status=1
part tuning env WEFT_TUNE=on benchmarks/nested.sh "$build" --run-only \
  --cases=sum,matmul,jacobi || status=1
echo "== tuning's cost: 1000 calls untuned, tuned online, from the best of the space"
part tuning benchmarks/tuning.sh "$build" --run-only 2048 1000 || status=1
fi
exit $status
