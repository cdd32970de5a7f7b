#!/bin/bash
# scripts/setup.sh: sets up weft on a fresh Debian 12 machine and runs it.
#   scripts/setup.sh sample   install, build, and run samples/hotspot.cpp
#                             built with the plugin (on the best backend
#                             present) and without: the check and the times
#   scripts/setup.sh test     install, build and run the whole test suite
# Dependencies come from Debian's packages (apt-get); the build goes to
# ./build (WEFT_BUILD_DIR overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WEFT_BUILD_DIR:-build}

usage() {
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

packages=(
  cmake ninja-build g++ pkg-config python3 binutils
  clang-22 libclang-22-dev llvm-22-dev llvm-22-tools libc++-22-dev libomp-22-dev
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools clang-tools-19
  libgtest-dev libboost-context-dev
  hipcc rocm-device-libs lld-22
  gcc-12-offload-nvptx
  openmpi-bin libopenmpi-dev
)

install_dependencies() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all Debian packages present"
    return
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build"
}

run_sample() {
  WEFT_BUILD_DIR=$build samples/run-sample.sh hotspot
}

run_tests() {
  ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
}

case "${1:-}" in
  sample) install_dependencies; build; run_sample ;;
  test) install_dependencies; build; run_tests ;;
  -h|--help) usage 0 ;;
  *) usage 1 >&2 ;;
esac
