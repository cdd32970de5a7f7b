#!/bin/bash
# scripts/fuzz.sh: a long fuzzing run of the plugin, against a built tree.
#   scripts/fuzz.sh [MUTANTS] [PROGRAMS] [SEED]   (defaults 10000 10000 1)
# Mutants of the test suite's marked programs (tests/fuzz/mutate.py) must
# never crash or hang clang and be rejected only with located errors;
# random nests (tests/fuzz/nests.py) must match their serial loops on the
# checked simulator, with no checker report, no fallback and no hang, under
# the search's mapping and WEFT_FUZZ_CONFIGS more configurations each
# (default 2; 'all': every fixed strategy, tuning macros, schedules).
# Failures are kept in fuzz-found/: a mutant becomes a regression test in
# tests/fuzz/regressions/ (the suite compiles it as it is), a program a lit
# or e2e test once the bug is fixed. Uses clang WEFT_FUZZ_CLANG (22, or 19)
# and ./build (WEFT_BUILD_DIR).
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
build=${WEFT_BUILD_DIR:-build}
mutants=${1:-10000} programs=${2:-10000} seed=${3:-1}
clang=${WEFT_FUZZ_CLANG:-22}
common=(--clang "/usr/lib/llvm-$clang/bin/clang++" --plugin "$build/lib/weft-clang$clang.so"
        --include include --jobs "$(nproc)" --keep fuzz-found --seed "$seed")
status=0
python3 tests/fuzz/mutate.py "${common[@]}" --count "$mutants" \
  tests/lit/*/*.cpp tests/e2e/*.cpp tests/fuzz/regressions/*.cpp || status=1
python3 tests/fuzz/nests.py "${common[@]}" --lib "$build/lib" \
  --count "$programs" --configs "${WEFT_FUZZ_CONFIGS:-2}" || status=1
exit $status
