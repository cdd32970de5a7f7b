// Before tuning has timed anything, a loop whose mapped grid has fewer
// blocks than the device has multiprocessors runs with smaller blocks (the
// mapping's block sizes the tuning space offers, no larger than mapped):
// lud's perimeter, a thread per row of a narrow strip, used 8 of an H100's
// 132 multiprocessors in blocks of 256. Here the simulator's 8 threads are
// its multiprocessors: 200 rows run in 7 blocks of 32, not 1 of 256, a
// 96 x 96 product in 9 blocks of 16 x 16 threads of 2 x 2 outputs, not 1
// of 8 x 8 outputs; a grid that fills the device, and a sequential nest's
// one block, keep theirs; with tuning off every loop runs as mapped.
// Results stay the host's, under the checker.
// RUN: rm -rf %t.cache %t.cache2 && %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_THREADS=8 WEFT_TUNE=on WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s < %t.err
// RUN: grep -c 'leaves multiprocessors idle' %t.err | FileCheck %s --check-prefix=ONCE
// ONCE: {{^2$}}
// RUN: env WEFT_CACHE_DIR=%t.cache2 WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_THREADS=8 WEFT_TUNE=off WEFT_VERBOSE=1 %t.exe > %t.off 2> %t.off.err
// RUN: diff %t.host %t.off
// RUN: FileCheck %s --check-prefix=OFF < %t.off.err
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK-DAG: tuning-start.cpp:[[@LINE+6]]:3: sizes 8: the mapped grid leaves multiprocessors idle; untuned launches run mapping 0: WEFT_BLOCK_X=32
// CHECK-DAG: tuning-start.cpp:[[@LINE+5]]:3: kernel weft_tuning_start_L[[@LINE+5]]_{{[0-9a-f]+}}: grid (7, 1, 1) x block (32, 1, 1)
// CHECK-DAG: tuning-start.cpp:[[@LINE+4]]:3: kernel weft_tuning_start_L[[@LINE+4]]_{{[0-9a-f]+}}: grid (391, 1, 1) x block (256, 1, 1)
// OFF-DAG: tuning-start.cpp:[[@LINE+3]]:3: kernel weft_tuning_start_L[[@LINE+3]]_{{[0-9a-f]+}}: grid (1, 1, 1) x block (256, 1, 1)
void rowUpdate(std::span<float> a, int rows, int cols) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i)
    for (int j = 1; j < cols; ++j)
      a[i * cols + j] += 0.5f * a[i * cols + j - 1];
}

// CHECK-DAG: tuning-start.cpp:[[@LINE+3]]:3: kernel weft_tuning_start_L[[@LINE+3]]_{{[0-9a-f]+}}: grid (1, 1, 1) x block ({{[0-9]+}}, 1, 1)
void sweeps(std::span<float> a, int steps) {
#pragma weft sequential for
  for (int s = 0; s < steps; ++s) {
#pragma weft parallel for
    for (std::size_t i = 1; i < a.size(); ++i)
      a[i] = 0.5f * a[i] + 0.25f;
  }
}

// A register-tiled product whose mapped blocks of outputs outnumber the
// device's 8 multiprocessors only once smaller: its threads' tiles shrink
// as well as its blocks.
// CHECK-DAG: tuning-start.cpp:[[@LINE+4]]:3: sizes 7: the mapped grid leaves multiprocessors idle; untuned launches run mapping 0: WEFT_BLOCK_X=16 WEFT_BLOCK_Y=16 WEFT_TM=2 WEFT_TN=2 WEFT_TILE=8
void product(std::span<const float> a, std::span<const float> b,
             std::span<float> c, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}

int main() {
  const int Cols = 32;
  std::vector<float> Small(200 * Cols), Large(100000 * Cols);
  for (std::size_t I = 0; I < Small.size(); ++I)
    Small[I] = static_cast<float>(I % 17) * 0.125f;
  for (std::size_t I = 0; I < Large.size(); ++I)
    Large[I] = static_cast<float>(I % 13) * 0.25f;
  std::vector<float> Strip(300, 1.0f);
  for (int Call = 0; Call < 5; ++Call) {
    rowUpdate(Small, 200, Cols);
    sweeps(Strip, 3);
  }
  rowUpdate(Large, 100000, Cols);
  const int N = 96;
  std::vector<float> A(N * N), B(N * N), C(N * N);
  for (int I = 0; I < N * N; ++I) {
    A[I] = static_cast<float>(I % 7) * 0.5f;
    B[I] = static_cast<float>(I % 5) * 0.25f;
  }
  product(A, B, C, N);
  std::printf("%.9g %.9g %.9g %.9g %.9g\n", Small[17], Small[200 * Cols - 1],
              Large[123457], Strip[299], C[N * N - 1]);
}
