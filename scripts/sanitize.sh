#!/bin/bash
# scripts/sanitize.sh: builds weft with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DWEFT_SANITIZE=ON) in build-sanitize/ and runs
# the test suite under them.
#   scripts/sanitize.sh [ctest arguments...]   e.g. -R 'lit|e2e'
# The plugin is loaded by a clang that is not instrumented, and the test
# programs (compiled by clang) link the instrumented runtime: both need
# GCC's sanitizer runtime preloaded, which this script does for every
# process of the run. Leak checking is off: clang frees nothing at exit on
# purpose (-disable-free), so every compile would "leak". Any sanitizer
# report fails the test that ran into it (halt_on_error).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WEFT_SANITIZE_BUILD_DIR:-build-sanitize}

case "${1:-}" in
  -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWEFT_SANITIZE=ON >/dev/null
cmake --build "$build"

asan=$(g++ -print-file-name=libasan.so)
ubsan=$(g++ -print-file-name=libubsan.so)
if [ ! -e "$asan" ] || [ ! -e "$ubsan" ]; then
  echo "sanitize: GCC's libasan/libubsan not found (install g++)" >&2
  exit 1
fi
export LD_PRELOAD="$asan:$ubsan"
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0:exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87
# Reports go to stderr of the process that ran into them; tests that
# compare stderr fail on them, and the rest by the exit codes above.
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
