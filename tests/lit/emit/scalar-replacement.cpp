// Scalar replacement: a span element a sequential loop reads and writes at
// an index the loop never changes lives in a register for the loop (loaded
// before it, stored after), where the affine analysis proves that no other
// access in the loop can touch it; the remark at the level says so. Not
// where another access to the span cannot be told apart, where a call
// receives the element, where a reference binds it, or where the index
// moves. Elements of rows held apart (std::vectors of std::vectors) too:
// in one row at columns apart, not at a row the analysis cannot tell from
// the row updated. The output-accumulating matrix product is then tiled as the
// local-accumulator form is. Every nest runs on the checked simulator and
// is compared with the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: scalar-replacement.cpp:[[@LINE+7]]:5: remark: weft: level 1 (j): {{.*}}; c[((i * $m) + j)] kept in a register along its loop; loop over k in tiles of {{[0-9]+}} in shared memory: a[{{.*}}] ({{.*}}) b[{{.*}}]
void matmulAcc(std::span<const float> a, std::span<const float> b,
               std::span<float> c, int n, int m, int kk, float alpha,
               float beta) {
#pragma weft parallel for span(1)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for span(1)
    for (int j = 0; j < m; ++j) {
      c[i * m + j] *= beta;
      for (int k = 0; k < kk; ++k)
        c[i * m + j] += alpha * a[i * kk + k] * b[k * m + j];
    }
}
// KERNEL: weft_reg0 = weft_active ? c.ld({{.*}}) : float(); // c[
// KERNEL: weft_reg0 += ((alpha * WEFT_SPAN_READ(a, {{.*}}, weft_tile0.ld(
// KERNEL: #endif
// KERNEL-NEXT: if (weft_active)
// KERNEL-NEXT: c[{{.*}}] = weft_reg0;

// Two elements the loop updates, provably apart (2i and 2i + 1): both in
// registers.
// CHECK: scalar-replacement.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}; y[((2 * i) + 1)] kept in a register along its loop; y[(2 * i)] kept in a register along its loop
void pairs(std::span<const float> a, std::span<float> y, int n, int len) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < len; ++k) {
      y[2 * i] += a[i * len + k];
      y[2 * i + 1] -= a[i * len + k] * 0.5f;
    }
}

void addTo(float &x, float v) { x += v; }

// Not in a register: another access to y at an index the analysis cannot
// tell apart (y[k]); a call that receives the element; a reference bound
// to it; an index that moves with the loop.
// CHECK-NOT: kept in a register
void unsafe(std::span<const float> a, std::span<float> y, std::span<float> z,
            std::span<float> w, std::span<float> v, int n, int len) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < len; ++k)
      y[i] += 0.25f * y[k % n];
    for (int k = 0; k < len; ++k)
      addTo(z[i], a[k]);
    for (int k = 0; k < len; ++k) {
      float &r = w[i];
      r += a[k];
    }
    for (int k = 0; k < len; ++k)
      v[(i + k) % n] += 1;
  }
}
// CHECK: remark: weft: level 0 (i)

using Rows = std::vector<std::vector<float>>;
// The remark is the kernel for rows of one length (row i at i * r_cols);
// the kernel for rows of differing lengths reads the row offsets.
// CHECK: scalar-replacement.cpp:[[@LINE+6]]:3: remark: weft: level 0 (i): {{.*}}; r[((long(i) * long($r_cols)) + long(unsigned long(0)))] kept in a register along its loop; r[((long(i) * long($r_cols)) + long(unsigned long(1)))] kept in a register along its loop
// CHECK: scalar-replacement.cpp:[[@LINE+5]]:3: remark: weft: for rows of differing lengths
// KERNEL-DAG: float weft_reg0 = weft_active ? r.ld((((long)r_rows.ld(i)) + ((long)((unsigned long)0)))) : float(); // r[(long($r_rows[i]) + long(unsigned long(0)))]
// KERNEL-DAG: float weft_reg1 = weft_active ? r.ld((((long)r_rows.ld(i)) + ((long)((unsigned long)1)))) : float(); // r[(long($r_rows[i]) + long(unsigned long(1)))]
void rowPairs(Rows &r, std::span<const float> a, int len) {
#pragma weft parallel for
  for (std::size_t i = 0; i < r.size(); ++i)
    for (int k = 0; k < len; ++k) {
      r[i][0] += a[k];
      r[i][1] -= a[k] * 0.5f;
    }
}

// CHECK-NOT: kept in a register
void rowsUnsafe(Rows &r, int len) {
#pragma weft parallel for
  for (std::size_t i = 0; i < r.size(); ++i)
    for (int k = 0; k < len; ++k)
      r[i][0] += r[k % r.size()][1];
}
// CHECK: remark: weft: level 0 (i)

int main() {
  const int Shapes[][3] = {{17, 9, 33}, {5, 40, 3}, {1, 1, 1}};
  for (const auto &S : Shapes) {
    const int N = S[0], M = S[1], K = S[2];
    std::vector<float> A(N * K), B(K * M), C(N * M, 1.0f);
    for (int I = 0; I < N * K; ++I)
      A[I] = static_cast<float>(I % 7) - 3;
    for (int I = 0; I < K * M; ++I)
      B[I] = static_cast<float>(I % 5) * 0.5f;
    matmulAcc(A, B, C, N, M, K, 1.5f, 0.5f);
    double Sum = 0;
    for (float X : C)
      Sum += X;
    std::printf("matmulAcc %dx%dx%d: %.3f\n", N, M, K, Sum);
  }
  const int N = 20, Len = 7;
  std::vector<float> A(N * Len), Y(2 * N, 1.0f);
  for (int I = 0; I < N * Len; ++I)
    A[I] = static_cast<float>(I % 11);
  pairs(A, Y, N, Len);
  double S = 0;
  for (float X : Y)
    S += X;
  std::printf("pairs: %.3f\n", S);
  std::vector<float> U(N, 1.0f), Z(N, 0.0f), W(N, 0.0f), V(N, 0.0f);
  // Sequentially dependent reads of y across iterations: one iteration.
  unsafe(A, U, Z, W, V, 1, Len);
  std::printf("unsafe: %.3f %.3f %.3f %.3f\n", U[0], Z[0], W[0], V[0]);
  Rows R(N, std::vector<float>(3, 1.0f));
  for (int I = 0; I < N; ++I)
    R[I][1] = static_cast<float>(I % 4);
  rowPairs(R, A, Len);
  rowsUnsafe(R, Len);
  R[3].push_back(2.0f); // rows of differing lengths
  rowPairs(R, A, Len);
  double RS = 0;
  for (const std::vector<float> &Row : R)
    RS += Row[0] * 3 + Row[1] + Row.back();
  std::printf("rows: %.3f\n", RS);
}
