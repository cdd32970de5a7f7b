// -fplugin-arg-weft-offload-arch: each kernel compiled when the program is
// built, by the compilers the runtime uses (NVRTC through weft-nvrtc), for
// each architecture named, plus PTX for the newest; the images are embedded
// in the object file in base64 after the kernels' text, each named by an
// image line of its kernel's descriptor. offload-arch-check.py reads them
// back from the object file and checks each is the kind it says (a cubin for
// sm_XX, PTX for compute_XX, an AMD code object for gfxNNN). The program
// still runs its kernels from their text where no image serves (here on
// the simulator). An architecture weft does not build for is an error.
// REQUIRES: nvrtc
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %weftxx -fplugin-arg-weft-offload-arch=sm_80,sm_90 -fplugin-arg-weft-emit-dir=%t.dir -c %s -o %t.o 2>&1 | count 0
// RUN: python3 %S/offload-arch-check.py %t.o %t.dir sm_80 sm_90 compute_90
// RUN: %weftxx -fplugin-arg-weft-offload-arch=sm_90 %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: not %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-offload-arch=sm_90,volta %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-help %s 2>&1 | FileCheck %s --check-prefix=HELP
// An architecture NVRTC refuses (sm_10) is a warning, once a file.
// RUN: %weftxx -fplugin-arg-weft-offload-arch=sm_10 -c %s -o %t.old.o 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: warning: weft: offload-arch: a kernel did not compile for sm_10
// OLD-NOT: warning:
// BAD: error: weft plugin argument 'offload-arch': 'volta' is no architecture weft builds for (sm_80, sm_90, gfx90a, gfx942, ...)
// HELP: offload-arch=A,B,...
// OUT: 8 steps: 37.5
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// Two loops: a map and a product's rows (a kernel with its combining
// kernel in one text when split).
void scale(std::span<float> v, float a) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] *= a;
}

float sumOf(std::span<const float> v) {
  float s = 0;
#pragma weft parallel for reduction(+ : s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i];
  return s;
}

int main() {
  std::vector<float> v(300, 0.125f);
  for (int step = 0; step < 8; ++step)
    scale(v, 1.0f);
  std::printf("8 steps: %g\n", sumOf(v));
  return 0;
}
