// Tuning a loop with tiles the whole block reads: every configuration of
// its space — tile widths, staging on and off, and 1, 2 and 4 iterations a
// thread (WEFT_CM, which shrinks the grid) — runs while the tuner records
// them, each on the checked simulator, and the program's results, which
// every call feeds, stay the host's bit for bit. (The simulator's timings
// say nothing of a GPU's; which configuration wins is not checked.)
// RUN: rm -rf %t.cache %t.rec && mkdir %t.rec
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=record=%t.rec WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s < %t.err
// RUN: not grep "sim checker" %t.err
// RUN: cat %t.rec/*.txt | FileCheck %s --check-prefix=RECORDING
#include <weft/weft.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

// CHECK: tuning-coarsened.cpp:{{[0-9]+}}:3: sizes {{[0-9]+}}: tuned: mapping 0: {{.*}}(24 of 24 configurations
// CHECK: tuning recorded in
// RECORDING: tune WEFT_CM n0 1 2 4
// RECORDING: time 0 64 1 1
// RECORDING: time 0 64 2 1
// RECORDING: time 0 64 4 1
void pull(std::span<const float> x, std::span<float> f, int n) {
#pragma weft parallel for block(64)
  for (int i = 0; i < n; ++i) {
    const float xi = x[i];
    float s = 0;
    for (int j = 0; j < n; ++j) {
      const float d = x[j] - xi;
      s += d / (1.0f + d * d);
    }
    f[i] = s;
  }
}

int main() {
  const int N = 333;
  std::vector<float> X(N), F(N);
  for (int I = 0; I < N; ++I)
    X[I] = static_cast<float>((I * 37) % 101) * 0.125f;
  for (int Step = 0; Step < 80; ++Step) {
    pull(X, F, N);
    for (int I = 0; I < N; ++I)
      X[I] += F[I] * 0.001f;
  }
  std::printf("%.9g %.9g %.9g\n", X[0], X[N / 2], X[N - 1]);
}
