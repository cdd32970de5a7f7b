// Shared-memory staging: a range of a read-only span that every thread of a
// block reads along a sequential loop (a row of A in a matrix product, the
// lud case) is loaded once by the block and read from shared memory; one
// that does not fit is read in place. Checked on the simulator (32- and
// 64-wide warps) against the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: for d in %t.k/*.desc; do grep -h '^loc\|^keeps' $d | tr '\n' ' '; echo; done | FileCheck %s --check-prefix=KEEPS
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: cat $(grep -l '(int rows, int cols, weft::dspan<const float> img, weft::dspan<const float> f,' %t.k/*.cu) | FileCheck %s --check-prefix=ROWS
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_KERNEL_DEFINES=WEFT_STAGED_RANGES=1 WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_KERNEL_DEFINES=WEFT_STAGED_RANGES=1 WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64 2> %t.err64
// RUN: count 0 < %t.err64
// RUN: diff %t.host %t.sim64
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_STAGING=0 %t.exe > %t.off 2> %t.err.off
// RUN: count 0 < %t.err.off
// RUN: diff %t.host %t.off
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: remark: weft: level 1 (j): dim x, block 64, Span(all){{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 64 threads of the block): a[(row + k)], k in [0, $inner)
// KEEPS: staging.cpp:[[@LINE+4]]:3 keeps 3
void matmul(std::span<const float> a, std::span<const float> b,
            std::span<float> c, int rows, int inner, int cols) {
#pragma weft parallel for block(1)
  for (int i = 0; i < rows; ++i) {
    const int row = i * inner;
#pragma weft parallel for span(all) block(64)
    for (int j = 0; j < cols; ++j) {
      float acc = 0;
      for (int k = 0; k < inner; ++k)
        acc += a[row + k] * b[k * cols + j];
      c[i * cols + j] = acc;
    }
  }
}
// KERNEL: WEFT_SHARED weft::shared_array<float, WEFT_STAGE0> weft_stage0_buffer;
// KERNEL: const weft::index_t weft_stage0_lo = (weft::index_t)(row) + (weft::index_t)(0);
// The block waits for the load only where staged ranges are compiled in.
// KERNEL: weft_stage0.load(weft::linear_thread(), WEFT_BLOCK_THREADS);
// KERNEL-NEXT: if (WEFT_STAGING && WEFT_STAGED_RANGES)
// KERNEL-NEXT: weft::barrier();
// KERNEL: weft_stage0.ld(((unsigned long)(row + k)))
// KERNEL: if (WEFT_STAGING && WEFT_STAGED_RANGES)
// KERNEL-NEXT: weft::barrier();

// The range runs past the span's end for the last row, where a guard keeps
// the loop from reading it: the load skips what lies outside.
// CHECK: remark: weft: level 1 (j): {{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 32 threads of the block): w[(base + k)], k in [0, 8)
void windows(std::span<const double> w, std::span<double> out, int rows) {
#pragma weft parallel for block(1)
  for (int i = 0; i < rows; ++i) {
    const int base = i * 4;
#pragma weft parallel for span(all) block(32)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 8; ++k)
        if (base + k < static_cast<int>(w.size()))
          s += w[base + k] * (j + 1);
      out[i * 32 + j] = s;
    }
  }
}

// A tile every thread reads (a filter's weights), along two loops; the
// image's reads depend on the thread and are not staged.
// CHECK: remark: weft: level 1 (j): {{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 64 threads of the block): f[((r * 5) + c)], r in [0, 5), c in [0, 5){{$}}
void filter(std::span<const float> img, std::span<const float> f,
            std::span<float> out, int rows, int cols) {
#pragma weft parallel for block(1)
  for (int i = 2; i < rows - 2; ++i)
#pragma weft parallel for span(all) block(64)
    for (int j = 2; j < cols - 2; ++j) {
      float s = 0;
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 5; ++c)
          s += f[r * 5 + c] * img[(i + r - 2) * cols + j + c - 2];
      out[i * cols + j] = s;
    }
}
// KERNEL: const weft::index_t weft_stage{{[0-9]+}}_lo = (weft::index_t)(5) * (weft::index_t)(0) + (weft::index_t)(0);
// KERNEL: weft_stage{{[0-9]+}}_lo, 1 + (weft::index_t)(5) * ((weft::index_t)(5) - 1 - (weft::index_t)(0)) + ((weft::index_t)(5) - 1 - (weft::index_t)(0)), WEFT_STAGING != 0 && WEFT_STAGED_RANGES != 0};

// A coefficient known only at run time: with stride -1 the range the reads
// span is not [lo, lo + count) and every read goes to the span (a read
// outside the staged range always does).
// CHECK: remark: weft: level 1 (j): {{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 32 threads of the block): v[((last + 7) + (k * $stride))], k in [0, 6)
void strided(std::span<const int> v, std::span<int> out, int stride) {
#pragma weft parallel for block(1)
  for (int i = 0; i < 4; ++i) {
    const int last = i * 10;
#pragma weft parallel for span(all) block(32)
    for (int j = 0; j < 40; ++j) {
      int s = 0;
      for (int k = 0; k < 6; ++k)
        s += v[last + 7 + k * stride] * (j + k);
      out[i * 40 + j] = s;
    }
  }
}

// Not staged: the range depends on the thread (lud's triangular loop), or
// the span is written in the nest.
// CHECK: remark: weft: level 1 (j): dim x, block 64, Span(all); constrained by this loop's dim/block/span/split clauses{{[^;]*}}
// CHECK-NOT: staged
// CHECK: remark: weft: level 0
void triangular(std::span<const float> a, std::span<float> c, int n) {
#pragma weft parallel for block(1)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for span(all) block(64)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < j; ++k)
        acc += a[i * n + k];
      c[i * n + j] = acc;
    }
}
// CHECK: remark: weft: level 1 (j): dim x, block 64, Span(all); constrained by this loop's dim/block/span/split clauses{{[^;]*}}
// CHECK-NOT: staged
void written(std::span<float> a, int n) {
#pragma weft parallel for block(1)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for span(all) block(64)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < n; ++k)
        acc += a[k];
      a[n * (i + 1) + j] = acc;
    }
}

// Without clauses: the search scores the reuse tiles would give (see
// tiling.cpp) and puts rows and columns on a 2-D block over the grid, each
// thread computing a register tile of outputs (register-tiles.cpp); rows
// of A are shared along x, columns of B along y.
// CHECK: remark: weft: level 0 (i): dim y, block {{[0-9]+}}, Span({{[48]}})
// CHECK: remark: weft: level 1 (j): dim x, block {{[0-9]+}}, Span({{[48]}}){{.*}}; reuse: 2 read(s) along the loop over k tiled in shared memory, shared by the block's threads and by the {{[48]}} x {{[48]}} outputs of each thread's register tile [+{{[0-9.e+]+}}]; loop over k in tiles of 8 in shared memory: a[((i * $inner) + k)] (shared by the {{[0-9]+}} threads along x) b[((k * $cols) + j)] (shared by the {{[0-9]+}} threads along y); each thread computes a {{[48]}} x {{[48]}} register tile of outputs from fragments of the tiles{{$}}
void matmulAuto(std::span<const float> a, std::span<const float> b,
                std::span<float> c, int rows, int inner, int cols) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i)
#pragma weft parallel for
    for (int j = 0; j < cols; ++j) {
      float acc = 0;
      for (int k = 0; k < inner; ++k)
        acc += a[i * inner + k] * b[k * cols + j];
      c[i * cols + j] = acc;
    }
}

// A block holding eight rows stages a range that no row follows: blocks walk
// the rows together, so that the threads past the last row (259 is no
// multiple of 8) load it and wait at its barriers with the others.
// CHECK: remark: weft: level 1 (j): {{.*}}; staged in shared memory {{.*}}: f[((d * 2) + e)], d in [0, 5), e in [0, 2)
// ROWS: for (weft::index_t weft_b0 = (weft::index_t)weft::block_idx(1) * WEFT_BLOCK_Y; weft_b0 < weft_count0;
// ROWS: const bool weft_in0 = weft_t0 < weft_count0;
// ROWS: weft_stage0.load(weft::linear_thread(), WEFT_BLOCK_THREADS);
// ROWS-NEXT: if (WEFT_STAGING && WEFT_STAGED_RANGES)
// ROWS-NEXT: weft::barrier();
void rowBlocks(std::span<const float> img, std::span<const float> f,
               std::span<float> out, int rows, int cols) {
#pragma weft parallel for block(8)
  for (int i = 0; i < rows; ++i)
#pragma weft parallel for
    for (int j = 0; j < cols; ++j) {
      float acc = 0;
      for (int d = 0; d < 5; ++d)
        for (int e = 0; e < 2; ++e)
          acc += img[i * cols + j] * f[d * 2 + e];
      out[i * cols + j] = acc;
    }
}

int main() {
  double Check = 0;
  // inner = 50 fits the stage; inner = 7000 does not (read in place).
  for (int Inner : {50, 7000}) {
    const int Rows = 3, Cols = 70;
    std::vector<float> A(Rows * Inner), B(Inner * Cols), C(Rows * Cols);
    for (std::size_t X = 0; X < A.size(); ++X)
      A[X] = static_cast<float>(X % 7) * 0.5f;
    for (std::size_t X = 0; X < B.size(); ++X)
      B[X] = static_cast<float>(X % 11) - 2.0f;
    matmul(A, B, C, Rows, Inner, Cols);
    for (std::size_t X = 0; X < C.size(); ++X)
      Check += C[X] * static_cast<double>(X % 5);
    matmulAuto(A, B, C, Rows, Inner, Cols);
    for (std::size_t X = 0; X < C.size(); ++X)
      Check += C[X] * static_cast<double>(X % 3);
    std::printf("matmul %d: %.3f\n", Inner, Check);
  }
  std::vector<double> W(4 * 9 + 2), Out(9 * 32);
  for (std::size_t X = 0; X < W.size(); ++X)
    W[X] = static_cast<double>(X % 5) + 0.25;
  windows(W, Out, 9);
  for (std::size_t X = 0; X < Out.size(); ++X)
    Check += Out[X] * static_cast<double>(X % 3);
  std::vector<float> Img(23 * 41), Weights(25), Filtered(23 * 41, 0.0f);
  for (std::size_t X = 0; X < Img.size(); ++X)
    Img[X] = static_cast<float>((X * 13) % 17);
  for (std::size_t X = 0; X < Weights.size(); ++X)
    Weights[X] = static_cast<float>(X % 4) * 0.5f;
  filter(Img, Weights, Filtered, 23, 41);
  for (std::size_t X = 0; X < Filtered.size(); ++X)
    Check += Filtered[X] * static_cast<double>(X % 5);
  std::vector<int> Ints(60), Sums(4 * 40);
  for (std::size_t X = 0; X < Ints.size(); ++X)
    Ints[X] = static_cast<int>((X * 7) % 13);
  for (int Stride : {1, 2, -1}) {
    strided(Ints, Sums, Stride);
    for (std::size_t X = 0; X < Sums.size(); ++X)
      Check += Sums[X] * static_cast<double>(X % 3);
  }
  std::vector<float> T(20 * 20), U(20 * 20);
  for (std::size_t X = 0; X < T.size(); ++X)
    T[X] = static_cast<float>(X % 9);
  triangular(T, U, 20);
  std::vector<float> V(20 * 21, 1.0f);
  written(V, 20);
  for (std::size_t X = 0; X < U.size(); ++X)
    Check += U[X] + V[X];
  std::vector<float> Rows((259 + 5) * 40), Taps(10), Blocked(259 * 40);
  for (std::size_t X = 0; X < Rows.size(); ++X)
    Rows[X] = static_cast<float>(X % 7);
  for (std::size_t X = 0; X < Taps.size(); ++X)
    Taps[X] = static_cast<float>(X % 3) * 0.5f;
  rowBlocks(Rows, Taps, Blocked, 259, 40);
  for (std::size_t X = 0; X < Blocked.size(); ++X)
    Check += Blocked[X] * static_cast<double>(X % 3);
  std::printf("all: %.3f\n", Check);
}
