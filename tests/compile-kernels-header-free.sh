#!/bin/sh
# Compiles every kernel the test suite generated as HIP without any header
# (clang -nogpuinc -nogpulib) into an AMDGPU code object, for a target the
# installed HIP does not know (gfx942). Math functions come from ROCm's
# device library (ocml bitcode, Debian's rocm-device-libs), linked in.
# Usage: compile-kernels-header-free.sh CLANGXX INCLUDE_DIR KERNEL_DIR ARCH
#        [FILE...] (further kernel files; with KERNEL_DIR "-", those alone)
# Exit 77 (skipped) without clang's AMDGPU linker or the device library.
cxx=$1 include=$2 dir=$3 arch=$4
shift 4
bin=$(dirname "$(readlink -f "$(command -v "$cxx")")")
lld=$bin/ld.lld
if [ ! -x "$lld" ]; then
  echo "SKIPPED: $lld is missing (Debian package lld-22): no AMDGPU code objects"
  exit 77
fi
libs=""
for d in /usr/lib/x86_64-linux-gnu/amdgcn/bitcode /opt/rocm/amdgcn/bitcode; do
  [ -e "$d/ocml.bc" ] && libs=$d && break
done
if [ -z "$libs" ]; then
  echo "SKIPPED: no ROCm device library (ocml.bc; Debian package rocm-device-libs)"
  exit 77
fi
# The device library's per-target switches: the exact ISA version where it
# has one, else the nearest of the same family (ROCm 5.2 stops at gfx940,
# whose instruction set gfx942 shares).
version=${arch#gfx}
isa=$libs/oclc_isa_version_$version.bc
if [ ! -e "$isa" ]; then
  isa=$(ls "$libs"/oclc_isa_version_"$(printf '%s' "$version" | cut -c1-2)"*.bc 2>/dev/null | sort | tail -1)
  echo "note: $libs has no oclc_isa_version_$version.bc; using $(basename "$isa")"
fi
case $arch in
  gfx9*) wave=on ;;
  *) wave=off ;;
esac
link=""
for f in "$libs/ocml.bc" "$libs/ockl.bc" "$isa" "$libs/oclc_finite_only_off.bc" \
         "$libs/oclc_unsafe_math_off.bc" "$libs/oclc_daz_opt_off.bc" \
         "$libs/oclc_correctly_rounded_sqrt_on.bc" \
         "$libs/oclc_wavefrontsize64_$wave.bc" "$libs/oclc_abi_version_500.bc"; do
  link="$link -Xclang -mlink-builtin-bitcode -Xclang $f"
done

if [ "$dir" != - ]; then
  if [ ! -e "$(ls "$dir"/*.cu 2>/dev/null | head -1)" ]; then
    echo "FAILED: no kernels in $dir: the lit and e2e tests should have written them"
    exit 1
  fi
  set -- "$dir"/*.cu "$@"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
for k in "$@"; do
  co=$out/$(basename "$k" .cu).co
  # shellcheck disable=SC2086
  if ! "$cxx" -x hip --cuda-device-only --no-gpu-bundle-output -nogpuinc \
       -nogpulib $link --offload-arch="$arch" -O3 -I"$include" -c "$k" \
       -Werror=uninitialized -Wshadow-all -fno-caret-diagnostics \
       -o "$co" 2>"$co.log"; then
    echo "FAILED: $k"; cat "$co.log"; failed=$((failed + 1)); continue
  fi
  # A name the generator introduced that hides another (the loop's own code
  # may shadow its names as it likes): where a compiled-in local hides one
  # of the same name, a use meant for the outer one reads the inner.
  shadowed=$(grep -E "^$k:[0-9]+:[0-9]+: warning: declaration shadows" "$co.log" |
    while IFS=: read -r _ line col _; do
      sed -n "${line}p" "$k" | cut -c"$col"- | grep -oE '^[A-Za-z_][A-Za-z0-9_]*' |
        grep '^weft_' | sed "s/\$/ (line $line)/"
    done)
  if [ -n "$shadowed" ]; then
    echo "FAILED: $k: introduced names shadow others: $shadowed"
    failed=$((failed + 1)); continue
  fi
  # Staging and tiling off, too: the text's other branch.
  # shellcheck disable=SC2086
  if grep -q '^#define WEFT_STAGING' "$k" &&
     ! "$cxx" -x hip --cuda-device-only --no-gpu-bundle-output -nogpuinc \
       -nogpulib $link --offload-arch="$arch" -O3 -I"$include" -c "$k" \
       -DWEFT_STAGING=0 -o "$co.off" 2>"$co.log"; then
    echo "FAILED: $k with WEFT_STAGING=0"; cat "$co.log"; failed=$((failed + 1)); continue
  fi
  # A code object for the target, defining the kernel.
  name=$(sed -n -E 's/^WEFT_(TILE_)?KERNEL\(([A-Za-z0-9_]*)[,)].*/\2/p' "$k" | head -1)
  if ! "$bin/llvm-readelf" -h "$co" | grep -q "Flags:.*$arch" ||
     ! "$bin/llvm-nm" "$co" | grep -q " T $name\$"; then
    echo "FAILED: $k: not a $arch code object defining $name"; failed=$((failed + 1))
  fi
done
echo "$(($# - failed)) of $# kernels compiled header-free into $arch code objects"
[ "$failed" -eq 0 ]
