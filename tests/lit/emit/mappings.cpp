// Kernels for forced mappings: each degree of parallelism (Split(k) of the
// outermost and of an inner level) and each fixed strategy, on sumRows, a
// dot product, a stencil, a three-level nest and a 3-D grid; each run on
// the checked simulator, with 32- and 64-wide warps, and compared with the
// host loops.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64 2> %t.err64
// RUN: count 0 < %t.err64
// RUN: diff %t.host %t.sim64
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

#define SUM_ROWS(Name, OuterClauses, InnerClauses)                             \
  void Name(std::span<const float> m, int rows, int cols,                      \
            std::span<float> out) {                                            \
    _Pragma(OuterClauses) for (int i = 0; i < rows; ++i) {                     \
      float s = 1;                                                             \
      _Pragma(InnerClauses) for (int j = 0; j < cols; ++j) s += m[i * cols + j]; \
      out[i] = s;                                                              \
    }                                                                          \
  }

// CHECK: remark: weft: level 0 (i): dim x, block 256, Span(1); 1d strategy
// CHECK: remark: weft: level 1 (j): sequential; 1d strategy
SUM_ROWS(rows1d, "weft parallel for strategy(1d)",
         "weft parallel for reduction(+: s)")
// CHECK: remark: weft: level 0 (i): dim y, block 1, Span(1); thread_block strategy
// CHECK: remark: weft: level 1 (j): dim x, block 1024, Span(all); thread_block strategy{{.*}}through shared memory
SUM_ROWS(rowsBlock, "weft parallel for strategy(thread_block)",
         "weft parallel for reduction(+: s)")
// CHECK: remark: weft: level 0 (i): dim y, block 16, Span(1); warp strategy
// CHECK: remark: weft: level 1 (j): dim x, block 32, Span(all); warp strategy{{.*}}in warp shuffles
SUM_ROWS(rowsWarp, "weft parallel for strategy(warp)",
         "weft parallel for reduction(+: s)")
// CHECK: remark: weft: level 0 (i): dim y, block 1, Span(4)
// CHECK: remark: weft: level 1 (j): dim x, block 64, Span(all)
SUM_ROWS(rowsSpan4, "weft parallel for dim(y) block(1) span(4)",
         "weft parallel for reduction(+: s) block(64) span(all)")
// CHECK: remark: weft: level 0 (i): dim x, block 128, Span(2)
// CHECK: remark: weft: level 1 (j): sequential
SUM_ROWS(rowsCoarse, "weft parallel for block(128) span(2)",
         "weft parallel for reduction(+: s)")
// The row's reduction split over 6 blocks; a second kernel combines the
// partials and writes out[i].
// CHECK: remark: weft: level 0 (i): dim y, block 1, Span(1)
// CHECK: remark: weft: level 1 (j): dim x, block 128, Split(6){{.*}}combined per block, then the 6 partials by a second step
SUM_ROWS(rowsSplit, "weft parallel for block(1)",
         "weft parallel for reduction(+: s) split(6) block(128)")
// Two rows a block, each split over 6 blocks along x: the rows' groups
// combine along x, a partial per row and block.
// CHECK: remark: weft: level 0 (i): dim y, block 2, Span(1)
// CHECK: remark: weft: level 1 (j): dim x, block 128, Split(6)
SUM_ROWS(rowsSplitPairs, "weft parallel for dim(y) block(2)",
         "weft parallel for reduction(+: s) split(6) block(128)")

// An outermost reduction split over 8 blocks, and over one block.
double dotSplit(std::span<const double> a, std::span<const double> b) {
  double s = 0;
  // CHECK: remark: weft: level 0 (i): dim x, block 64, Split(8)
#pragma weft parallel for reduction(+: s) block(64) split(8)
  for (std::size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}
double dotOneBlock(std::span<const double> a, std::span<const double> b) {
  double s = 0;
  // CHECK: remark: weft: level 0 (i): dim x, block 512, Span(all)
#pragma weft parallel for reduction(+: s) block(512) span(all)
  for (std::size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

// A 2D stencil with both levels over the grid (a perfectly nested chain).
void blur(std::span<const float> in, std::span<float> out, int n, int m) {
  // CHECK: remark: weft: level 0 (i): dim y, block 8, Span(1)
  // CHECK: remark: weft: level 1 (j): dim x, block 32, Span(1)
#pragma weft parallel for dim(y) block(8)
  for (int i = 1; i < n - 1; ++i)
#pragma weft parallel for dim(x) block(32) span(1)
    for (int j = 1; j < m - 1; ++j)
      out[i * m + j] = 0.2f * (in[i * m + j] + in[(i - 1) * m + j] +
                               in[(i + 1) * m + j] + in[i * m + j - 1] +
                               in[i * m + j + 1]);
}

// Three levels: a batch of small matrix products, the innermost dot
// product a reduction.
void batchedMatmul(std::span<const float> a, std::span<const float> b,
                   std::span<float> c, int batch, int n) {
  // CHECK: remark: weft: level 0 (p):
  // CHECK: remark: weft: level 1 (i):
  // CHECK: remark: weft: level 2 (j):
#pragma weft parallel for
  for (int p = 0; p < batch; ++p)
#pragma weft parallel for
    for (int i = 0; i < n; ++i)
#pragma weft parallel for
      for (int j = 0; j < n; ++j) {
        float acc = 0;
        for (int k = 0; k < n; ++k)
          acc += a[(p * n + i) * n + k] * b[(p * n + k) * n + j];
        c[(p * n + i) * n + j] = acc;
      }
}

// Three levels on a 3-D grid (a perfectly nested chain): a 3-D stencil.
// CHECK: remark: weft: level 0 (i): dim z, block 2, Span(1)
// CHECK: remark: weft: level 1 (j): dim y, block 4, Span(1)
// CHECK: remark: weft: level 2 (k): dim x, block 32, Span(1)
void smooth3d(std::span<const float> in, std::span<float> out, int n) {
#pragma weft parallel for dim(z) block(2)
  for (int i = 1; i < n - 1; ++i)
#pragma weft parallel for dim(y) block(4)
    for (int j = 1; j < n - 1; ++j)
#pragma weft parallel for dim(x) block(32)
      for (int k = 1; k < n - 1; ++k) {
        const int c = (i * n + j) * n + k;
        out[c] = (in[c - 1] + in[c + 1] + in[c - n] + in[c + n] +
                  in[c - n * n] + in[c + n * n]) /
                 6;
      }
}

int main() {
  const int R = 61, C = 300;
  std::vector<float> M(R * C), Out(R);
  for (int I = 0; I < R * C; ++I)
    M[I] = static_cast<float>(I % 23) * 0.5f - 5.0f;
  double Check = 0;
  for (auto Fn :
       {rows1d, rowsBlock, rowsWarp, rowsSpan4, rowsCoarse, rowsSplit,
        rowsSplitPairs}) {
    std::fill(Out.begin(), Out.end(), 0.0f);
    Fn(M, R, C, Out);
    for (int I = 0; I < R; ++I)
      Check = Check * 0.5 + Out[I];
    std::printf("sumRows: %.6f\n", Check);
  }
  std::vector<double> A(10007), B(10007);
  for (int I = 0; I < 10007; ++I) {
    A[I] = (I % 5) * 0.5;
    B[I] = (I % 9) - 4;
  }
  std::printf("dot: %.6f %.6f\n", dotSplit(A, B), dotOneBlock(A, B));
  std::vector<float> In(50 * 70), Blurred(50 * 70, 0.0f);
  for (std::size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<float>((I * 37) % 101);
  blur(In, Blurred, 50, 70);
  double S = 0;
  for (std::size_t I = 0; I < Blurred.size(); ++I)
    S += Blurred[I] * (I % 7);
  std::printf("blur: %.4f\n", S);
  const int Batch = 5, N = 12;
  std::vector<float> X(Batch * N * N), Y(Batch * N * N), Z(Batch * N * N);
  for (std::size_t I = 0; I < X.size(); ++I) {
    X[I] = static_cast<float>(I % 7) - 3;
    Y[I] = static_cast<float>(I % 5) * 0.25f;
  }
  batchedMatmul(X, Y, Z, Batch, N);
  S = 0;
  for (std::size_t I = 0; I < Z.size(); ++I)
    S += Z[I] * (I % 3 + 1);
  std::printf("matmul: %.4f\n", S);
  const int Side = 19;
  std::vector<float> Cube(Side * Side * Side), Smoothed(Cube.size(), 0.0f);
  for (std::size_t I = 0; I < Cube.size(); ++I)
    Cube[I] = static_cast<float>((I * 37) % 101) * 0.5f;
  smooth3d(Cube, Smoothed, Side);
  S = 0;
  for (std::size_t I = 0; I < Smoothed.size(); ++I)
    S += Smoothed[I] * (I % 7);
  std::printf("smooth3d: %.3f\n", S);
}
