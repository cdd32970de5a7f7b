#!/bin/bash
# issue 14's "no case of the suite slower than before": benchmarks/nested as
# built at an older commit (3cb58a2, where the issue was filed) beside this
# build, on one GPU in one command, each case's weft time against the old
# one's and against its hand-written kernel's in the same process (the
# hand-written kernels are the same text in both, so their ratio shows what
# the process itself adds: 2026-11-27b found 40-60 us a call of it). Both
# builds' OpenMP and OpenACC peers stay off the GPU (LLVM's offload runtime
# sets blocking waits on the context it finds).
# Usage: scripts/ab-old-build.sh build [REV] [BUNDLE]
#          here, after scripts/gpu-bundle.sh: clones this repository at REV
#          (default 3cb58a2), builds its benchmark (some 15 minutes on two
#          cores) and puts it in BUNDLE/old (default gpu-bundle)
#        scripts/ab-old-build.sh run [BUNDLE] [ROUNDS] [LOG_DIR]
#          on the GPU machine, from the repository root (some 3 minutes)
set -euo pipefail
mode=${1:-}
case $mode in
build)
  rev=${2:-3cb58a2} bundle=${3:-gpu-bundle}
  src=$(mktemp -d)/weft
  git clone -q "$(git rev-parse --show-toplevel)" "$src"
  git -C "$src" checkout -q "$rev"
  (cd "$src" &&
    cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DWEFT_BUILD_TESTS=OFF -DWEFT_CLANG_VERSIONS=22 >/dev/null &&
    ninja -C build >/dev/null && benchmarks/nested.sh build --build-only)
  mkdir -p "$bundle/old/lib"
  # Its libraries where LD_LIBRARY_PATH finds them first (its rpath names
  # the build directory, relative).
  cp -a "$src"/build/lib/libweft.so* \
    "$src/build/benchmarks/nested/libweft-bench-acc.so" "$bundle/old/lib/"
  cp -a "$src/build/benchmarks/nested/nested" \
    "$src/benchmarks/nested/hand-written.cu" "$bundle/old/"
  echo "$rev" >"$bundle/old/REVISION"
  rm -rf "$(dirname "$src")"
  echo "benchmarks/nested at $rev in $bundle/old"
  ;;
run)
  b=${2:-gpu-bundle} rounds=${3:-10} logs=${4:-${OUT:-/tmp}}
  [ -x "$b/old/nested" ] || {
    echo "ab-old-build: no $b/old/nested: run 'build' first" >&2
    exit 2
  }
  omp=$b/benchmarks/nested/openmp
  off=(WEFT_TUNE=off WEFT_BENCH_HOST_PEERS=0 OMP_TARGET_OFFLOAD=DISABLED
    ACC_DEVICE_TYPE=host)
  # This build first: its run unpacks the peers' runtimes the old one uses.
  env "${off[@]}" benchmarks/nested.sh "$b" --run-only --rounds="$rounds" \
    >"$logs/ab-new.log" 2>&1 || echo "ab-old-build: this build's run failed"
  env "${off[@]}" WEFT_CACHE_DIR=/tmp/ab-old-cache \
    LD_LIBRARY_PATH="$b/old/lib:$omp/lib:$omp/missing:$b/benchmarks/nested/cuda-link" \
    timeout 300 "$b/old/nested" --rounds "$rounds" "$b/old/hand-written.cu" \
    >"$logs/ab-old.log" 2>&1 || echo "ab-old-build: the old build's run failed"
  rows() {
    # "case [sizes]   weft   0.1234 ...": each case's weft and cuda rows.
    sed -nE 's/^([^[]*\[[^]]*\][^ ]*) +(weft|cuda) +([0-9.]+) .*/\1|\2|\3/p' "$1"
  }
  echo "== weft now against $(cat "$b/old/REVISION" 2>/dev/null || echo old)," \
    "ms a call (median of $rounds), each build's hand-written kernel beside it"
  { rows "$logs/ab-old.log" | sed 's/^/old|/'; rows "$logs/ab-new.log" | sed 's/^/new|/'; } |
    awk -F'|' '
      { t[$1, $2, $3] = $4; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
      END {
        printf "%-34s %9s %9s %7s %9s %9s %11s\n", "case", "weft old", "weft now",
          "now/old", "hand old", "hand now", "vs hand";
        for (i = 0; i < n; ++i) {
          c = order[i]
          if (!(("old", c, "weft") in t) || !(("new", c, "weft") in t)) continue
          wo = t["old", c, "weft"]; wn = t["new", c, "weft"]
          ho = t["old", c, "cuda"]; hn = t["new", c, "cuda"]
          rel = (ho > 0 && hn > 0 && wo > 0) ? (wn / hn) / (wo / ho) : 0
          printf "%-34s %9.4f %9.4f %7.2f %9.4f %9.4f %11.2f%s\n", c, wo, wn,
            wn / wo, ho, hn, rel, (wn / wo > 1.05 && rel > 1.05) ? "  SLOWER" : ""
        }
      }'
  ;;
*)
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
  ;;
esac
