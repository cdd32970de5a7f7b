#!/bin/bash
# npb-openmp.sh SUITE [BUILD] [CLASS]: the NAS Parallel Benchmarks' OpenMP
# programs in C++ as they are (SUITE: NPB-CPP's NPB-OMP/ folder, fetched
# apart: its code never enters this repository), each built with and
# without the plugin at CLASS (default S), run on the checked simulator and
# plain on two threads. Prints, per program, the OpenMP loops weft took
# (most are orphaned: `#pragma omp for` in functions a region calls), the
# remarks of those it left (counted by reason), and whether both builds
# pass the benchmark's own verification with the same verified values.
set -u
S=${1:?usage: npb-openmp.sh SUITE [BUILD] [CLASS]}
B=${2:-build}
CLASS=${3:-S}
CXX=${CXX:-/usr/lib/llvm-22/bin/clang++}
LIBOMP=${LIBOMP:-/usr/lib/llvm-22/lib}
OUT=${NPB_OUT:-$(mktemp -d)}
[ -n "${NPB_OUT:-}" ] || trap 'rm -rf "$OUT"' EXIT
mkdir -p "$OUT"
P="$("$B/bin/weft-config" --clang="$CXX" --cxxflags) -fplugin-arg-weft-remarks"
L="$("$B/bin/weft-config" --libs) -L$LIBOMP -Wl,-rpath,$LIBOMP"
F="-std=c++17 -O1 -fopenmp -fno-caret-diagnostics -w -mcmodel=medium -I$S/common"
"$CXX" -O1 -w -fopenmp "$S/sys/setparams.cpp" -o "$OUT/setparams" || exit 1
for C in c_print_results c_timers c_randdp wtime; do
  "$CXX" $F -c "$S/common/$C.cpp" -o "$OUT/$C.o" || exit 1
done
Programs=0 Loops=0 Taken=0 Verified=0
for D in BT CG EP FT IS LU MG SP; do
  N=$(echo "$D" | tr A-Z a-z)
  W="$OUT/$D"
  rm -rf "$W" && mkdir -p "$W" && cp "$S/$D/$N.cpp" "$W/" || continue
  # setparams writes npbparams.hpp where it runs, reading ../config.
  mkdir -p "$OUT/config" && cp "$S/config/make.def" "$OUT/config/"
  (cd "$W" && "$OUT/setparams" "$N" "$CLASS" >/dev/null 2>&1)
  Common="$OUT/c_print_results.o $OUT/c_timers.o $OUT/c_randdp.o $OUT/wtime.o"
  if ! "$CXX" $F -I"$W" "$W/$N.cpp" $Common -o "$W/plain" -L"$LIBOMP" \
      -Wl,-rpath,"$LIBOMP" -lm 2>"$W/plain.log"; then
    echo "$D: not built (without the plugin either): $(grep -m1 error: "$W/plain.log")"
    continue
  fi
  "$CXX" $F $P -I"$W" "$W/$N.cpp" $Common -o "$W/weft" $L -lm \
    >"$W/remarks" 2>&1 || {
    echo "$D: FAILED to build with the plugin: $(grep -m1 error: "$W/remarks")"
    continue
  }
  Marked=$(grep -cE '^[[:space:]]*#[[:space:]]*pragma[[:space:]]+omp[[:space:]]+(parallel[[:space:]]+)?for' "$W/$N.cpp")
  Got=$(grep -E 'remark: weft: level 0 ' "$W/remarks" | cut -d: -f2,3 | sort -u | wc -l)
  OMP_NUM_THREADS=2 timeout 600 "$W/plain" >"$W/plain.out" 2>&1
  OMP_NUM_THREADS=2 WEFT_BACKEND=sim WEFT_SIM_CHECK=1 timeout 1200 "$W/weft" \
    >"$W/weft.out" 2>"$W/weft.err"
  Race=$(grep -m1 'sim checker' "$W/weft.err" | sed 's/.*sim checker: //' | cut -c1-160)
  # The verification lines, without times and rates.
  Check() { grep -iE 'verif|^ *[0-9]+ +[-0-9.E+]+ +[-0-9.E+]+ +[-0-9.E+]+|zeta|err' "$1" |
    grep -viE 'time|mop' ; }
  if [ -n "$Race" ]; then
    Result="stopped by the checker: $Race"
  elif ! grep -qiE 'verification *= *successful|verification successful' "$W/weft.out"; then
    Result="VERIFICATION FAILED with the plugin (plain: $(grep -ciE 'verification *= *successful' "$W/plain.out") successful)"
  elif ! diff -q <(Check "$W/plain.out") <(Check "$W/weft.out") >/dev/null; then
    Result="verified; verified values differ from the plain build's in the last digits"
    Verified=$((Verified + 1))
  else
    Result="verified, the same verified values"
    Verified=$((Verified + 1))
  fi
  Left=$(grep -o 'stays with OpenMP: .*' "$W/remarks" | sed 's/stays with OpenMP: //' |
    cut -c1-70 | sort | uniq -c | sort -rn | head -3 | sed 's/^ */    /')
  echo "$D: $Got of $Marked OpenMP loops taken; $Result"
  [ -n "$Left" ] && echo "$Left"
  Programs=$((Programs + 1)) Loops=$((Loops + Marked)) Taken=$((Taken + Got))
done
echo "$Programs programs: $Taken of $Loops OpenMP loops taken; $Verified verified with the plugin"
