#!/bin/bash
# weft on nested loops (Lee et al.'s sumRows/sumCols at their three shapes, a
# matrix product, a Jacobi step, n-body, Coulomb 3-D, batches of small
# products, a 5 x 5 convolution) against hand-written CUDA, the paper's fixed mappings, clang
# 19's OpenMP offload and GCC 12's OpenACC, side by side in one run
# (nested/main.cpp); every result checked against the loops
# built without the plugin. Times need an NVIDIA GPU; elsewhere weft runs where
# WEFT_BACKEND says, the baselines report SKIPPED, and --small checks the
# results at small sizes (a test does so on the simulator).
# Usage: benchmarks/nested.sh [BUILD_DIR] [--small] [--run-only|--build-only]
#          [--rounds=N] [--tune-calls=N] [--cases=LIST]
# (--run-only: on a GPU machine without clang, run what was built here;
# BUILD_DIR may be a bundle of scripts/gpu-bundle.sh; --tune-calls: calls of
# weft's own mapping before the warm-up, for WEFT_TUNE=record; --cases: a
# comma-separated subset of sum,matmul,jacobi,nbody,coulomb,batched,conv)
# (WEFT_BENCH_HOST_PEERS=0: a peer whose regions would run on the host is
# reported SKIPPED without running, where a GPU run cannot spare the time)
set -euo pipefail
build=${1:-build}
shift || true
small="" run_only=0 build_only=0 rounds=()
for arg in "$@"; do
  case $arg in
    --small) small=--small ;;
    --rounds=*) rounds+=(--rounds "${arg#--rounds=}") ;;
    --tune-calls=*) rounds+=(--tune-calls "${arg#--tune-calls=}") ;;
    --cases=*) rounds+=(--cases "${arg#--cases=}") ;;
    --run-only) run_only=1 ;;
    --build-only) build_only=1 ;;
    *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
config=$build/bin/weft-config
out=$build/benchmarks/nested
omp=$out/openmp
if [ $run_only = 0 ]; then
  mkdir -p "$out"
  flags=$("$config" --cxxflags)
  src=benchmarks/nested
  pids=()
  # auto's kernel files are kept: the run prints what each one uses.
  rm -rf "$out/kernels"
  for s in auto 1d thread_block warp; do
    emit=()
    [ $s = auto ] && emit=(-fplugin-arg-weft-emit-dir="$out/kernels")
    # shellcheck disable=SC2086
    clang++-22 -O2 $flags "${emit[@]}" -DWEFT_BENCH_STRATEGY="\"strategy($s)\"" \
      -DWEFT_BENCH_SUFFIX=_$s -c $src/loops.cpp -o "$out/loops_$s.o" &
    pids+=($!)
  done
  # The reference: the same loops without the plugin.
  clang++-22 -std=c++20 -O2 -Iinclude -Wno-unknown-attributes -DWEFT_BENCH_STRATEGY='""' \
    -DWEFT_BENCH_SUFFIX=_host -c $src/loops.cpp -o "$out/loops_host.o"
  # shellcheck disable=SC2086
  clang++-22 -O2 $flags -Iruntime -Iruntime/backends -Ibenchmarks -c $src/main.cpp -o "$out/main.o"
  for p in "${pids[@]}"; do wait "$p"; done
  # The OpenMP peer: clang 19's offload for sm_90; without what it needs,
  # the benchmark reports it SKIPPED. The device code is embedded as LLVM IR
  # that the offload runtime compiles at the first launch
  # (-fopenmp-target-jit): a cubin from CUDA 13's ptxas carries the new ELF
  # flags that LLVM 19's runtime cannot read ("No images found compatible
  # with the installed hardware"; fixed in LLVM 21, llvm-project#149534),
  # and Debian's LLVM 22 ships no NVPTX device runtime to build with.
  link=(clang++-22)
  cuda=${CUDA_HOME:-/usr/local/cuda}
  offload=(-fopenmp --offload-arch=sm_90 -fopenmp-target-jit "--cuda-path=$cuda"
           "--libomptarget-nvptx-bc-path=$omp/lib")
  if command -v clang-offload-packager-19 >/dev/null && [ -x "$cuda/bin/ptxas" ] &&
     benchmarks/fetch-openmp.sh "$omp" >/dev/null &&
     clang++-19 -std=c++20 -O2 "${offload[@]}" -isystem "$omp/lib/clang/19/include" \
       -c $src/openmp.cpp -o "$out/openmp.o"; then
    link=(clang++-19 "${offload[@]}" -L"$omp/lib" -Wl,-rpath,"$omp/lib")
  else
    echo "nested: OpenMP offload not built (needs clang-tools-19, the CUDA toolkit's ptxas and benchmarks/fetch-openmp.sh)"
    clang++-22 -std=c++20 -O2 -c $src/openmp.cpp -o "$out/openmp.o"
  fi
  # The OpenACC peer: GCC 12's offload to nvptx (gcc-12-offload-nvptx), in
  # a shared library (GCC's link step embeds the device code); without it,
  # the benchmark reports it SKIPPED.
  if ! g++-12 -std=c++20 -O2 -fPIC -shared -fopenacc -foffload=nvptx-none \
       "-foffload-options=nvptx-none=-misa=sm_80 -lm" $src/openacc.cpp \
       -o "$out/libweft-bench-acc.so" 2>"$out/openacc.log"; then
    echo "nested: OpenACC offload not built (needs gcc-12-offload-nvptx; see $out/openacc.log)"
    clang++-22 -std=c++20 -O2 -fPIC -shared $src/openacc.cpp -o "$out/libweft-bench-acc.so"
  fi
  # shellcheck disable=SC2046
  "${link[@]}" "$out"/loops_*.o "$out/main.o" "$out/openmp.o" \
    -L"$out" -lweft-bench-acc -Wl,-rpath,"$out" \
    $("$config" --ldflags) -o "$out/nested"
fi
[ $build_only = 1 ] && exit 0
export WEFT_CACHE_DIR=$out/cache
libs=$build/lib:$out
# A carried bundle brings the OpenMP runtime packed (scripts/gpu-bundle.sh):
# libomptarget, and in fallback/ what it needs that this machine may lack.
if [ -e "$out/openmp-runtime.tar.xz" ] && [ ! -e "$omp/lib/libomptarget.so.19.1" ]; then
  mkdir -p "$omp" && tar -C "$omp" -xJf "$out/openmp-runtime.tar.xz"
fi
[ -d "$omp/lib" ] && libs=$libs:$omp/lib
if [ -d "$omp/fallback" ]; then
  mkdir -p "$omp/missing"
  for _ in 1 2 3 4 5; do
    missing=$(LD_LIBRARY_PATH=$libs:$omp/missing ldd "$out/nested" | awk '/not found/ {print $1}')
    [ -z "$missing" ] && break
    for lib in $missing; do
      [ -e "$omp/fallback/$lib" ] && ln -sf "$(cd "$omp/fallback" && pwd)/$lib" "$omp/missing/$lib"
    done
  done
  libs=$libs:$omp/missing
fi
# libomptarget opens "libcuda.so", which a driver-only machine may lack.
cuda1=$({ ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null || true; } |
  awk '/libcuda\.so\.1 /{print $NF; exit}')
if [ -n "$cuda1" ]; then
  mkdir -p "$out/cuda-link" && ln -sf "$cuda1" "$out/cuda-link/libcuda.so"
  libs=$libs:$out/cuda-link
fi
# cuBLAS, the products' anchor: the CUDA toolkit's, or a Python wheel's.
if [ -z "${WEFT_BENCH_CUBLAS:-}" ]; then
  WEFT_BENCH_CUBLAS=$(find "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda*/lib64 \
    /usr/lib/x86_64-linux-gnu /opt -name 'libcublas.so.1[23]*' 2>/dev/null | sort | head -n 1)
  export WEFT_BENCH_CUBLAS
fi
# What each of weft's kernels (the auto mapping's) uses, as NVRTC compiles
# it for this GPU: registers and shared memory decide how many blocks share
# an SM; spills would mean a register tile too large.
if [ -z "$small" ] && [ -x "$build/bin/weft-nvrtc" ] && [ -d "$out/kernels" ]; then
  cc=$({ nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null || true; } | head -n 1 | tr -d .)
  echo "nested: what weft's kernels use (NVRTC, sm_${cc:-90}; kernel names carry the line in loops.cpp):"
  "$build/bin/weft-nvrtc" --arch="sm_${cc:-90}" "$out"/kernels/*.cu | grep -v '^ok: ' || true
fi
# The OpenMP runtime may run the toolkit's ptxas on the code it compiles.
PATH=$PATH:${CUDA_HOME:-/usr/local/cuda}/bin \
LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
  "$out/nested" $small "${rounds[@]}" benchmarks/nested/hand-written.cu
