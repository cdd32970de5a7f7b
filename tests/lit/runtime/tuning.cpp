// Run-time tuning: after a loop's third launch the runtime times each block
// size the descriptor offers (two launches each, variants compiled on first
// use), then keeps the fastest; results stay those of the host, bit for bit.
// A loop that reduces is not tuned (its floating-point result would depend
// on the block); WEFT_TUNE=0 turns tuning off. On the simulator it is off
// unless WEFT_TUNE=1 (its timings say nothing about a GPU's).
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_TUNE=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s < %t.err
// RUN: env WEFT_BACKEND=sim WEFT_TUNE=0 WEFT_VERBOSE=1 %t.exe > %t.off 2> %t.off.err
// RUN: diff %t.host %t.off
// RUN: not grep tuned %t.off.err
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe > %t.default 2> %t.default.err
// RUN: diff %t.host %t.default
// RUN: not grep tuned %t.default.err
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: tuning.cpp:[[@LINE+4]]:3: kernel weft_tuning_L[[@LINE+4]]_{{[0-9a-f]+}} tuned: block x {{128|256|512}} (128: {{[0-9.]+}} us, 256: {{[0-9.]+}} us, 512: {{[0-9.]+}} us)
// CHECK-NOT: tuned
void relax(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 1; i + 1 < in.size(); ++i)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

double total(std::span<const float> v) {
  double s = 0;
#pragma weft parallel for reduction(+: s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * 0.001;
  return s;
}

int main() {
  std::vector<float> A(5000), B(5000, 0.0f);
  for (std::size_t I = 0; I < A.size(); ++I)
    A[I] = static_cast<float>((I * 7919) % 1000);
  double Sum = 0;
  for (int Step = 0; Step < 12; ++Step) {
    relax(A, B);
    relax(B, A);
    Sum += total(A);
  }
  std::printf("%.9g %.9g %.9g\n", A[17], A[2500], Sum);
}
