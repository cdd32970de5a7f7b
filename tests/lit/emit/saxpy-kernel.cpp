// The kernel text of a single-level map loop: signature, index mapping and
// body, written against <weft/device.h>.
// RUN: rm -rf %t && %weftxx -c %s -o %t.o -fplugin-arg-weft-emit-dir=%t
// RUN: cat %t/*.cu | FileCheck %s
// RUN: %weft_nvrtc %t/*.cu | FileCheck %s --check-prefix=NVRTC
// REQUIRES: nvrtc
// The kernel also runs on the checked simulator, matching the host loop:
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cmath>

void saxpy(float a, std::span<const float> x, std::span<float> y, int n) {
#pragma weft parallel for block(512)
  for (int i = 1; i <= n; i += 2) {
    float t = a * x[i] + y[i];
    y[i] = t > 1.0f ? std::sqrt(t) : std::fmin(t, 0.1f);
  }
}

// CHECK: // weft kernel for the loop at {{.*}}saxpy-kernel.cpp:[[@LINE-6]]:3
// CHECK: #include <weft/device.h>
// CHECK: #define WEFT_BLOCK_X 512
// CHECK: WEFT_KERNEL(weft_saxpy_kernel_L[[@LINE-9]]_[[HASH:[0-9a-f]+]], WEFT_BLOCK_THREADS)
// CHECK-NEXT: (int n, float a, weft::dspan<const float> x, weft::dspan<float> y, weft::index_t weft_lo0, weft::index_t weft_count0) {
// CHECK-NEXT: for (weft::index_t weft_t0 = weft::global_id_x(); weft_t0 < weft_count0;
// CHECK-NEXT: weft_t0 += weft::global_size_x()) {
// CHECK-NEXT: const int i = (int)(weft_lo0 + weft_t0 * 2);
// CHECK-NEXT: weft::begin_iteration(weft_t0);
// CHECK-NEXT: float t = ((a * x.ld(((unsigned long)i))) + y.ld(((unsigned long)i)));
// CHECK-NEXT: (y[((unsigned long)i)] = ((t > 1.0f) ? weft::sqrt(t) : weft::fmin(t, 0.100000001f)));
// NVRTC: 1 passed, 0 failed

#ifdef WITH_MAIN
#include <cstdio>
#include <vector>
int main() {
  std::vector<float> X(1000), Y(1000);
  for (int I = 0; I < 1000; ++I) {
    X[I] = 0.01f * I;
    Y[I] = 1.0f - 0.002f * I;
  }
  saxpy(3.0f, X, Y, 997);
  double S = 0;
  for (float V : Y)
    S += V;
  std::printf("%.9g\n", S);
}
#endif
