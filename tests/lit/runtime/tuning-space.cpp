// The tuning space the plugin states for each kernel shape, searched as the
// program runs: a register-tiled matrix product (blocks, register-tile
// shape, tile width), a two-axis stencil (a block size per axis), an
// integer sum (tuned without opting in: its result is exact in any order)
// and a floating-point sum (not tuned unless WEFT_TUNE=reductions). Every
// configuration the random searcher picks runs under the simulator's
// checker and must give the host's results bit for bit.
// RUN: rm -rf %t.k %t.cache && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: grep -h "^tune \|^shared \|^reorders" %t.k/*.desc | FileCheck %s --check-prefix=SPACE
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=search=random,eager,budget=4 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s < %t.err
// The model searcher starts from the mapping the sizes chose: for the row
// sums, an inner Split(k), whose k it varies (the launch alone sets it).
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=eager,budget=3 WEFT_VERBOSE=2 %t.exe 2>&1 > %t.model | FileCheck %s --check-prefix=MODEL
// RUN: diff %t.host %t.model
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// SPACE-DAG: tune WEFT_TM n0 {{[0-9]+}} {{.*}}
// SPACE-DAG: tune WEFT_TILE text {{[0-9]+}} {{.*}}
// SPACE-DAG: shared (
// SPACE-DAG: tune WEFT_BLOCK_Y y {{[0-9]+}} {{.*}}
// SPACE-DAG: reorders
// SPACE-DAG: tune WEFT_SPLIT1 k1 {{[0-9]+}} {{.*}}
// SPACE-DAG: tune WEFT_STAGED_RANGES text 0 1
// CHECK-DAG: tuning-space.cpp:[[@LINE+4]]:3: sizes 7: tuned: mapping {{[0-9]}}: WEFT_BLOCK_X={{[0-9]+}}{{.*}} (4 of {{[0-9]+}} configurations;
void product(std::span<const float> a, std::span<const float> b,
             std::span<float> c, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

// Its window of rows by columns follows both block sizes; a block one warp
// wide keeps its x.
// CHECK-DAG: tuning-space.cpp:[[@LINE+3]]:3: sizes 7: tuned: mapping {{[0-9]}}: {{(WEFT_BLOCK_X=[0-9]+ )?}}WEFT_BLOCK_Y={{[0-9]+}} WEFT_STAGING={{[01]}} WEFT_STAGED_RANGES={{[01]}} (4 of {{[0-9]+}} configurations;
void smooth(std::span<const float> in, std::span<float> out, int n) {
#pragma weft parallel for
  for (int i = 1; i < n - 1; ++i)
#pragma weft parallel for
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] = 0.5f * in[i * n + j] +
                       0.125f * (in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                                 in[i * n + j - 1] + in[i * n + j + 1]);
}

// CHECK-DAG: tuning-space.cpp:[[@LINE+4]]:3: sizes 14: tuned: mapping 0: WEFT_BLOCK_X={{[0-9]+}} (4 of 4 configurations;
long long count(std::span<const float> v) {
  long long c = 0;
#pragma weft parallel for reduction(+: c)
  for (std::size_t i = 0; i < v.size(); ++i)
    c += v[i] > 0.5f ? 3 : 1;
  return c;
}

// CHECK-NOT: tuning-space.cpp:[[@LINE+4]]:3: {{.*}}tuned
float total(std::span<const float> v) {
  float s = 0;
#pragma weft parallel for reduction(+: s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i];
  return s;
}

// MODEL: tuning-space.cpp:[[@LINE+5]]:3: tuning 2.15: mapping {{[0-9]}}: {{.*}}WEFT_SPLIT1={{[0-9]+}}: {{[0-9.]+}} us
// MODEL: tuning-space.cpp:[[@LINE+4]]:3: sizes 2.15: tuned: mapping {{[0-9]}}: {{.*}}WEFT_SPLIT1={{[0-9]+}} (3 of {{[0-9]+}} configurations;
void rowSums(std::span<const int> v, std::span<long long> out, int rows,
             int cols) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    long long s = 0;
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < cols; ++j)
      s += v[i * cols + j];
    out[i] = s;
  }
}

int main() {
  const int N = 100;
  std::vector<float> A(N * N), B(N * N), C(N * N), D(N * N);
  for (int I = 0; I < N * N; ++I) {
    A[I] = static_cast<float>((I * 37) % 101) / 101.0f;
    B[I] = static_cast<float>((I * 53) % 97) / 97.0f;
  }
  const int Rows = 4, Cols = 20000;
  std::vector<int> V(Rows * Cols);
  for (int I = 0; I < Rows * Cols; ++I)
    V[I] = (I * 7) % 13 - 6;
  std::vector<long long> Sums(Rows);
  long long Count = 0;
  double Total = 0;
  for (int Step = 0; Step < 14; ++Step) {
    product(A, B, C, N);
    smooth(C, D, N);
    Count += count(D);
    Total += total(D);
    rowSums(V, Sums, Rows, Cols);
    Count += Sums[Step % Rows];
  }
  // The sum's order is the mapping's, not the host loop's: its last bits
  // differ from the host's, tuned or not.
  std::printf("%.9g %.9g %.9g %lld %.4g\n", C[0], C[N * N / 2 + 3],
              D[N * N - N - 2], Count, Total);
}
