// A register tile over a span of 12-byte structs: its tile is loaded an
// element at a time (no 16-byte runs of structs), and the run type the
// loader declares must still compile (an alignment of 12 would not). On
// the checked simulator against the host, and through NVRTC and hipRTC
// with the rest of the suite's kernels.
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// KERNEL: #define WEFT_VEC0 (WEFT_TILE % 1 == 0 ? 1 : 1)
// KERNEL: #define WEFT_VEC1 (WEFT_BN % 4 == 0 ? 4 : 1)
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

struct Vec3 {
  float x, y, z;
};

void product3(std::span<const Vec3> a, std::span<const float> b,
              std::span<float> c, int n, int m, int kk) {
#pragma weft parallel for dim(y) block(8) span(4)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(4)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int k = 0; k < kk; ++k)
        s += (a[i * kk + k].x - a[i * kk + k].z) * b[k * m + j];
      c[i * m + j] = s;
    }
}
int main() {
  const int N = 37, M = 21, K = 19;
  std::vector<Vec3> A(N * K);
  std::vector<float> B(K * M), C(N * M);
  for (int I = 0; I < N * K; ++I)
    A[I] = {float(I % 7), 1.0f, float(I % 3)};
  for (int I = 0; I < K * M; ++I)
    B[I] = float(I % 5) * 0.5f;
  product3(A, B, C, N, M, K);
  double S = 0;
  for (int I = 0; I < N * M; ++I)
    S += C[I] * (I % 13 + 1);
  std::printf("%.3f\n", S);
}
