# build-one.sh: sourced by the benchmarks that build one program with the
# plugin (lud.sh, nw.sh, tuning.sh). Reads [BUILD_DIR]
# [--run-only|--build-only] off the caller's arguments (the rest are the
# program's), sets build, mode, config and out, and defines build_one.
build=${1:-build}
mode=${2:-}
case $mode in --run-only|--build-only) shift 2 ;; *) mode=""; shift || true ;; esac
config=$build/bin/weft-config
out=$build/benchmarks

# build_one NAME CLANG-ARGS...: compiles with the plugin into $out/NAME
# (not with --run-only: on a GPU machine without clang, what was built
# here runs); with --build-only the script ends there.
build_one() {
  local name=$1
  shift
  if [ "$mode" != --run-only ]; then
    mkdir -p "$out"
    # shellcheck disable=SC2046
    clang++-22 -O2 $("$config" --cxxflags) "$@" $("$config" --ldflags) \
      -o "$out/$name"
  fi
  if [ "$mode" = --build-only ]; then
    exit 0
  fi
}
