// -fplugin-arg-weft-offload-arch for AMD GPUs: each kernel compiled by
// hipRTC (through weft-hiprtc) into a code object for gfx90a and gfx1030,
// embedded as offload-arch.cpp's NVIDIA images are. A target the installed
// hipRTC does not know (gfx999 here; Debian's HIP 5.2 knows no gfx942
// either) is a warning, once: those kernels compile when the program runs.
// REQUIRES: hiprtc
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %weftxx -fplugin-arg-weft-offload-arch=gfx90a,gfx1030,gfx999 -fplugin-arg-weft-emit-dir=%t.dir -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: python3 %S/offload-arch-check.py %t.o %t.dir gfx90a gfx1030
// CHECK: offload-arch-amd.cpp:[[@LINE+7]]:3: warning: weft: offload-arch: a kernel did not compile for gfx999 (its text compiles again when the program runs, and says why)
// CHECK: note: the kernels that have no image compile when the program runs, where a compiler is
// CHECK-NOT: warning:
#include <weft/weft.hpp>

void scale(std::span<float> v, float a) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] *= a;
}
