// Tiles whose elements depend on the thread (the lud and matrix-product
// case): in a nest spread over a 2-D block, the sequential loop over k is
// walked in tiles; the block loads each tile of A (rows, shared along x)
// and of B (columns, shared along y) into padded shared memory, waits, and
// computes from there. Partial tiles in every direction; checked on the
// simulator with 32- and 64-wide warps against the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64 2> %t.err64
// RUN: count 0 < %t.err64
// RUN: diff %t.host %t.sim64
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_STAGING=0 %t.exe > %t.off 2> %t.err.off
// RUN: count 0 < %t.err.off
// RUN: diff %t.host %t.off
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: remark: weft: level 1 (j): dim x, block 16, Span(1){{.*}}; loop over k in tiles of 32 in shared memory: a[((i * $inner) + k)] (shared by the 16 threads along x) b[((k * $cols) + j)] (shared by the 8 threads along y)
void matmul(std::span<const float> a, std::span<const float> b,
            std::span<float> c, int rows, int inner, int cols) {
#pragma weft parallel for dim(y) block(8) span(1)
  for (int i = 0; i < rows; ++i)
#pragma weft parallel for dim(x) block(16) span(1)
    for (int j = 0; j < cols; ++j) {
      float acc = 0;
      for (int k = 0; k < inner; ++k)
        acc += a[i * inner + k] * b[k * cols + j];
      c[i * cols + j] = acc;
    }
}
// Row tiles padded by one element, column tiles by one column; the block
// waits after loading and before the next load; results are written where
// the thread's indices are in range. WEFT_STAGING=0 builds the loop as
// written (run above through WEFT_KERNEL_DEFINES).
// KERNEL: WEFT_SHARED weft::shared_array<float, (WEFT_STAGING ? WEFT_BLOCK_Y * (WEFT_TILE + 1) : 1)> weft_tile0;
// KERNEL: WEFT_SHARED weft::shared_array<float, (WEFT_STAGING ? WEFT_TILE * (WEFT_BLOCK_X + 1) : 1)> weft_tile1;
// KERNEL: #if WEFT_STAGING
// KERNEL-NEXT: for (weft::index_t weft_k0 = (weft::index_t)(0); weft_k0 < (weft::index_t)(inner); weft_k0 += WEFT_TILE) {
// KERNEL: weft::barrier();
// KERNEL-NEXT: const weft::index_t weft_ke = (weft::index_t)(inner) < weft_k0 + WEFT_TILE ? (weft::index_t)(inner) : weft_k0 + WEFT_TILE;
// KERNEL-NEXT: if (weft_active) {
// KERNEL-NEXT: #pragma unroll 4
// KERNEL-NEXT: for (int k = (int)weft_k0; k < (int)weft_ke; ++k)
// KERNEL: weft::barrier();
// KERNEL: #else
// KERNEL-NEXT: if (weft_active)
// KERNEL-NEXT: for (int k = 0; (k < inner); (++k))
// KERNEL: #endif
// KERNEL-NEXT: if (weft_active) {
// KERNEL-NEXT: (c[

// A transposed operand (column-major A: a[k][i]) is still a row tile of
// the thread's i; a loop starting past 0 and a constant before it.
// CHECK: remark: weft: level 1 (j): {{.*}}; loop over k in tiles of {{[0-9]+}} in shared memory: at[((k * $rows) + i)] (shared by the 32 threads along x) b[((k * $cols) + (j + shift))] (shared by the 4 threads along y)
void matmulTransposed(std::span<const double> at, std::span<const double> b,
                      std::span<double> c, int rows, int inner, int cols) {
#pragma weft parallel for dim(y) block(4) span(1)
  for (int i = 0; i < rows; ++i)
#pragma weft parallel for dim(x) block(32) span(1)
    for (int j = 0; j < cols - 1; ++j) {
      const int shift = 1;
      double acc = 0.5;
      for (int k = 1; k < inner; ++k)
        acc += at[k * rows + i] * b[k * cols + (j + shift)];
      c[i * cols + j] = acc;
    }
}

// Not tiled: a read that follows both indices (a window of the block's 4
// rows and 16 + 2 columns instead), or a loop that breaks.
// CHECK: remark: weft: level 1 (j): dim x, block 16, Span(1); constrained by this loop's dim/block/span/split clauses; coalescing{{[^;]*}}; reuse: overlapping reads among the block's threads [+{{[^]]*}}]; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 64 threads of the block): a[(((i * $n) + j) + k)], k in [0, 3), a window along i and j{{$}}
void diagonalBand(std::span<const float> a, std::span<float> c, int n) {
#pragma weft parallel for dim(y) block(4) span(1)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(1)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < 3; ++k)
        acc += a[i * n + j + k];
      c[i * n + j] = acc;
    }
}
// CHECK: remark: weft: level 1 (j): dim x, block 16, Span(1); constrained by this loop's dim/block/span/split clauses; coalescing{{[^;]*}}{{$}}
void firstPositive(std::span<const int> a, std::span<int> c, int n) {
#pragma weft parallel for dim(y) block(4) span(1)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(1)
    for (int j = 0; j < n; ++j) {
      int found = -1;
      for (int k = 0; k < n; ++k)
        if (a[i * n + k] * j > 20) {
          found = k;
          break;
        }
      c[i * n + j] = found;
    }
}

int main() {
  double Check = 0;
  {
    const int Rows = 37, Inner = 50, Cols = 45;
    std::vector<float> A(Rows * Inner), B(Inner * Cols), C(Rows * Cols);
    for (std::size_t X = 0; X < A.size(); ++X)
      A[X] = static_cast<float>(X % 7) * 0.5f;
    for (std::size_t X = 0; X < B.size(); ++X)
      B[X] = static_cast<float>(X % 11) - 2.0f;
    matmul(A, B, C, Rows, Inner, Cols);
    for (std::size_t X = 0; X < C.size(); ++X)
      Check += C[X] * static_cast<double>(X % 3);
    std::printf("matmul: %.3f\n", Check);
  }
  {
    const int Rows = 21, Inner = 70, Cols = 40;
    std::vector<double> At(Inner * Rows), B(Inner * Cols), C(Rows * Cols);
    for (std::size_t X = 0; X < At.size(); ++X)
      At[X] = static_cast<double>(X % 13) * 0.25;
    for (std::size_t X = 0; X < B.size(); ++X)
      B[X] = static_cast<double>(X % 5) - 1.5;
    matmulTransposed(At, B, C, Rows, Inner, Cols);
    for (std::size_t X = 0; X < C.size(); ++X)
      Check += C[X] * static_cast<double>(X % 7);
    std::printf("transposed: %.3f\n", Check);
  }
  {
    const int N = 19;
    std::vector<float> A(N * N + 2), C(N * N);
    std::vector<int> I(N * N), D(N * N);
    for (int X = 0; X < N * N; ++X) {
      A[X] = static_cast<float>(X % 9);
      I[X] = X % 6;
    }
    diagonalBand(A, C, N);
    firstPositive(I, D, N);
    for (int X = 0; X < N * N; ++X)
      Check += C[X] + D[X] * 3;
    std::printf("others: %.3f\n", Check);
  }
}
// The window staged (off by default: the L1 cache serves it faster on the
// H100 and H200), as the tests of windows run it.
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_STAGED_RANGES=1 %t.exe > %t.ranges 2> %t.err.ranges
// RUN: count 0 < %t.err.ranges
// RUN: diff %t.host %t.ranges
