// Per-iteration arrays: recorded with element type, extent and owning level
// (and the level that fills one); constant-size ones run, per thread.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: rm -rf %t.k && %weftxx -c %s -o %t.o -fplugin-arg-weft-emit-dir=%t.k
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64 2> %t.err64
// RUN: count 0 < %t.err64
// RUN: diff %t.host %t.sim64
#include <weft/weft.hpp>

#include <array>

// A window of 5 values per output element, sorted to take the median.
void median5(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 2; i + 2 < in.size(); ++i) {
    float w[5];
    for (int k = 0; k < 5; ++k)
      w[k] = in[i + k - 2];
    for (int a = 1; a < 5; ++a)
      for (int b = a; b > 0 && w[b - 1] > w[b]; --b) {
        float t = w[b];
        w[b] = w[b - 1];
        w[b - 1] = t;
      }
    out[i] = w[2];
  }
}
// CHECK: nest at {{.*}}allocations.cpp:21:3
// CHECK: decl float w[5l]
// CHECK: allocation w: float[5l] per iteration of level 0, constant size

// A row buffer filled by a nested parallel level, then reduced.
void rowNorms(std::span<const double> m, int rows, std::span<double> out) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    std::array<double, 8> sq{};
#pragma weft parallel for
    for (int j = 0; j < 8; ++j)
      sq[j] = m[i * 8 + j] * m[i * 8 + j];
    double s = 0;
    for (std::size_t j = 0; j < sq.size(); ++j)
      s += sq[j];
    out[i] = s;
  }
}
// CHECK: nest at {{.*}}allocations.cpp:41:3
// CHECK: decl double sq[8l] = {}
// CHECK: (sq[unsigned long(j)] = ($m[{{.*}}] * $m[{{.*}}]))
// CHECK: for (sequential)
// CHECK: cond (j < unsigned long(8l))
// CHECK: allocation sq: double[8l] per iteration of level 0, filled by level 1, constant size

#include <vector>
// A run-time size: the runtime preallocates one slice per thread.
void histogram(std::span<const int> keys, int bins, std::span<int> out) {
#pragma weft parallel for
  for (std::size_t b = 0; b < out.size() / bins; ++b) {
    std::vector<int> h(bins, 0);
    for (int k = 0; k < bins; ++k)
      h[k] += keys[b * bins + k] % bins;
    for (int k = 0; k < bins; ++k)
      out[b * bins + k] = h[k];
  }
}
// CHECK: nest at {{.*}}allocations.cpp:[[@LINE-8]]:3
// CHECK-NEXT: param 0 out: written span of int
// CHECK: decl int h[unsigned long($bins)] filled with 0
// CHECK: allocation h: int[unsigned long($bins)] per iteration of level 0, run-time size
// The slices of neighbouring threads interleave: their elements are
// neighbours.
// KERNEL: weft::dspan<int> weft_buffer0) {
// KERNEL: const weft::strided<int> h{weft_buffer0.data() + weft::global_thread(), weft::global_threads()};

// Owned by an inner level spread over threads, sized by a capture (two
// arrays: two buffers).
void pairProducts(std::span<const float> a, int n, int m, int k,
                  std::span<float> out) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < m; ++j) {
      std::vector<float> lhs(k), rhs(k + 1, 1.0f);
      for (int t = 0; t < k; ++t) {
        lhs[t] = a[(i * m + j) * k + t];
        rhs[t + 1] = rhs[t] * 0.5f + lhs[t];
      }
      float s = 0;
      for (int t = 0; t < k; ++t)
        s += lhs[t] * rhs[k - t];
      out[i * m + j] = s;
    }
}
// CHECK: allocation lhs: float[unsigned long($k)] per iteration of level 1, run-time size
// CHECK: allocation rhs: float[unsigned long(($k + 1))] per iteration of level 1, run-time size
// KERNEL: const weft::strided<float> lhs{weft_buffer0.data() + weft::global_thread(), weft::global_threads()};
// KERNEL: const weft::strided<float> rhs{weft_buffer1.data() + weft::global_thread(), weft::global_threads()};

#ifdef WITH_MAIN
#include <cstdio>
#include <vector>
int main() {
  double S = 0;
  std::vector<float> In(200), Out(200, 0.0f);
  for (int I = 0; I < 200; ++I)
    In[I] = static_cast<float>((I * 37) % 23);
  median5(In, Out);
  std::vector<double> M(8 * 20), Norms(20);
  for (int I = 0; I < 160; ++I)
    M[I] = 0.5 * (I % 9) - 1;
  rowNorms(M, 20, Norms);
  std::vector<int> Keys(60 * 13), Hist(60 * 13);
  for (std::size_t I = 0; I < Keys.size(); ++I)
    Keys[I] = static_cast<int>(I * 31 % 97);
  histogram(Keys, 13, Hist);
  for (std::size_t I = 0; I < Hist.size(); ++I)
    S += Hist[I] * static_cast<double>(I % 5);
  for (int I = 0; I < 200; ++I)
    S += Out[I] * (I % 5);
  for (double N : Norms)
    S += N;
  std::vector<float> A(7 * 45 * 6), Products(7 * 45);
  for (std::size_t I = 0; I < A.size(); ++I)
    A[I] = static_cast<float>(I % 11) * 0.25f;
  pairProducts(A, 7, 45, 6, Products);
  for (std::size_t I = 0; I < Products.size(); ++I)
    S += Products[I] * static_cast<double>(I % 3);
  std::printf("%.9g\n", S);
}
#endif
