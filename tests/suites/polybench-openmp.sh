#!/bin/bash
# polybench-openmp.sh SUITE [BUILD]: PolyBench-ACC's OpenMP programs as they
# are (SUITE: its OpenMP/ folder, fetched apart: its code never enters this
# repository), each built as C++17 with -fopenmp with and without the plugin
# (small sizes on the command line, arrays dumped), run on the checked
# simulator against the plain build on two threads. Prints, per program,
# the OpenMP loops weft took and whether the outputs are equal; a run the
# checker stops names the race it found in the program.
set -u
S=${1:?usage: polybench-openmp.sh SUITE [BUILD]}
B=${2:-build}
CXX=${CXX:-/usr/lib/llvm-22/bin/clang++}
LIBOMP=${LIBOMP:-/usr/lib/llvm-22/lib}
U=$S/utilities
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
P="$("$B/bin/weft-config" --clang="$CXX" --cxxflags) -fplugin-arg-weft-remarks"
L="$("$B/bin/weft-config" --libs) -L$LIBOMP -Wl,-rpath,$LIBOMP"
SIZES="-DCXM=32 -DCYM=32 -DCZ=32 -DLENGTH=32 -DM=32 -DMAXGRID=2 -DN=32 -DNI=32
  -DNJ=32 -DNK=32 -DNL=32 -DNM=32 -DNP=10 -DNQ=10 -DNR=10 -DNX=32 -DNY=32
  -DTMAX=2 -DTSTEPS=2 -DNITER=2"
F="-std=c++17 -O1 -fopenmp -fno-caret-diagnostics -w -DPOLYBENCH_DUMP_ARRAYS $SIZES -I$U"
# polybench.c is C that C++ rejects only for a variable named 'new'.
"$CXX" -x c++ $F -Dnew=pb_new -c "$U/polybench.c" -o "$OUT/polybench.o" || exit 1
Programs=0 Loops=0 Taken=0 Equal=0 Stopped=0
for C in $(find "$S" -name '*.c' ! -name polybench.c ! -name 'template*' | sort); do
  N=$(basename "$C" .c) D=$(dirname "$C")
  if ! "$CXX" -x c++ $F -I"$D" "$C" -x none "$OUT/polybench.o" -o "$OUT/$N.plain" \
      -L"$LIBOMP" -Wl,-rpath,"$LIBOMP" -lm 2>"$OUT/$N.plain.log"; then
    echo "$N: not built (without the plugin either): $(grep -m1 error: "$OUT/$N.plain.log")"
    continue
  fi
  "$CXX" -x c++ $F $P -I"$D" "$C" -x none "$OUT/polybench.o" -o "$OUT/$N.weft" $L \
    -lm >"$OUT/$N.remarks" 2>&1 || {
    echo "$N: FAILED to build with the plugin: $(grep -m1 error: "$OUT/$N.remarks")"
    continue
  }
  Marked=$(grep -cE '^[[:space:]]*#[[:space:]]*pragma[[:space:]]+omp[[:space:]]+(parallel[[:space:]]+)?for' "$C")
  Got=$(grep -E 'remark: weft: level 0 ' "$OUT/$N.remarks" | cut -d: -f2,3 | sort -u | wc -l)
  OMP_NUM_THREADS=2 timeout 120 "$OUT/$N.plain" 2>"$OUT/$N.plain.out" >/dev/null
  OMP_NUM_THREADS=2 WEFT_BACKEND=sim WEFT_SIM_CHECK=1 timeout 300 "$OUT/$N.weft" \
    2>"$OUT/$N.weft.err" >/dev/null
  grep -v '^weft' "$OUT/$N.weft.err" >"$OUT/$N.weft.out"
  Race=$(grep -m1 'sim checker' "$OUT/$N.weft.err" | sed 's/.*sim checker: //' | cut -c1-160)
  if [ -n "$Race" ]; then
    Result="stopped by the checker: $Race"
    Stopped=$((Stopped + 1))
  elif diff -q <(grep -v '^weft' "$OUT/$N.plain.out") "$OUT/$N.weft.out" >/dev/null; then
    Result="output equal"
    Equal=$((Equal + 1))
  else
    Result="OUTPUT DIFFERS"
  fi
  echo "$N: $Got of $Marked OpenMP loops taken; $Result"
  Programs=$((Programs + 1)) Loops=$((Loops + Marked)) Taken=$((Taken + Got))
done
echo "$Programs programs: $Taken of $Loops OpenMP loops taken; $Equal outputs equal, $Stopped runs stopped at a race"
