// Windows of a block of rows by columns: where a block holds several
// iterations of the outermost level too (8 rows of 32 columns, the mapping
// the search now prefers for a convolution and a stencil), a read that
// follows both indices is one window of the block's rows plus the filter's
// by its columns plus the filter's, which its blocks load together (they
// walk the outermost level in step, threads past its end loading too).
// Checked on the simulator (32- and 64-wide warps; windows on, off and too
// small to fit; other block shapes the tuner tries) against the host, at
// sizes that are multiples of no block. (span(1) keeps the loops whose
// rows share their window one row a thread: else a window tile reads it
// from registers, window-tile.cpp.)
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat $(grep -l 'float> img' %t.k/*.cu | xargs grep -l 'level 0: dim y, block 8,') $(grep -l 'int north = ' %t.k/*.cu | xargs grep -l 'level 0: dim y, block 8,') | FileCheck %s --check-prefix=KERNEL
// RUN: grep -h "^tune WEFT_BLOCK\|^shared" $(grep -l 'param in f32 img' %t.k/*.desc) | FileCheck %s --check-prefix=SPACE
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
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES="WEFT_STAGED_RANGES=1 WEFT_STAGE0=40" %t.exe > %t.small 2> %t.err.small
// RUN: count 0 < %t.err.small
// RUN: diff %t.host %t.small
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_KERNEL_DEFINES=WEFT_STAGED_RANGES=1 WEFT_SIM_CHECK=1 WEFT_SIM_THREADS=2 WEFT_TUNE=search=random,eager,budget=6 %t.exe > %t.tuned 2> %t.err.tuned
// RUN: count 0 < %t.err.tuned
// RUN: diff %t.host %t.tuned
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// The search's choice: 8 rows by 32 columns, a window of 12 x 36.
// CHECK: remark: weft: level 0 (y): dim y, block 8, Span(1);
// CHECK: remark: weft: level 1 (x): dim x, block 32, Span(1);{{.*}}; reuse: overlapping reads among the block's threads [+{{[^]]*}}]; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 256 threads of the block): img[((((y + dy) * $w) + x) + dx)], dy in [0, 5), dx in [0, 5), a window along y and x; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 256 threads of the block): f[((dy * 5) + dx)], dy in [0, 5), dx in [0, 5){{$}}
void conv5(std::span<const float> img, std::span<const float> f,
           std::span<float> out, int h, int w) {
#pragma weft parallel for span(1)
  for (int y = 0; y < h - 4; ++y)
#pragma weft parallel for
    for (int x = 0; x < w - 4; ++x) {
      float s = 0;
      for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx)
          s += img[(y + dy) * w + x + dx] * f[dy * 5 + dx];
      out[y * (w - 4) + x] = s;
    }
}
// The array follows both block sizes; blocks walk the rows together, each
// thread active where its row is in range; the window's first column and
// row are the block's, the same in every thread.
// KERNEL: #define WEFT_STAGE0 ((WEFT_BLOCK_Y + 4) * (WEFT_BLOCK_X + 4))
// KERNEL: for (weft::index_t weft_b0 = (weft::index_t)weft::block_idx(1) * WEFT_BLOCK_Y; weft_b0 < weft_count0;
// KERNEL: const bool weft_in0 = weft_t0 < weft_count0;
// KERNEL: const weft::index_t weft_hi1 = !weft_in0 ? 0 : (weft::index_t)((w - 4));
// KERNEL: const weft::index_t weft_stage0_x0 = (weft::index_t)(0) + (weft::index_t)weft::block_idx(0) * WEFT_BLOCK_X;
// KERNEL: const weft::index_t weft_stage0_y0 = weft_lo0 + weft_b0;
// KERNEL: const weft::index_t weft_stage0_lo = weft_stage0_x0 + (weft::index_t)(w) * weft_stage0_y0 + (weft::index_t)(w) * (weft::index_t)(0) + (weft::index_t)(0);
// KERNEL: weft::window<float, WEFT_STAGE0, decltype(img)> weft_stage0{weft_stage0_buffer, img, weft_stage0_lo, 1 + WEFT_BLOCK_Y - 1 + ((weft::index_t)(5) - 1 - (weft::index_t)(0)), WEFT_BLOCK_X + ((weft::index_t)(5) - 1 - (weft::index_t)(0)), (weft::index_t)(w) * 1, 1, WEFT_STAGING != 0 && WEFT_STAGED_RANGES != 0};
// KERNEL: weft::barrier();
// KERNEL: weft_stage0.ld(0 + ((weft::index_t)(y) - weft_stage0_y0) + ((weft::index_t)(dy) - (weft::index_t)(0)), ((weft::index_t)(x) - weft_stage0_x0) + ((weft::index_t)(dx) - (weft::index_t)(0)), [&] { return (weft::index_t)(((unsigned long)((((y + dy) * w) + x) + dx))); })
// The tuner may reshape the block: the array's bytes follow both sizes.
// SPACE: tune WEFT_BLOCK_Y y 8 1 2 4 16 32
// SPACE: shared {{.*}}(add (tune 0) (lit 4)){{.*}}

// A 5-point stencil: its five reads share one window of 8 + 2 rows.
// CHECK: remark: weft: level 0 (i): dim y, block 8, Span(1);
// CHECK: remark: weft: level 1 (j): dim x, block 32, Span(1);{{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 256 threads of the block): in[((i * $n) + j)], a window along i and j (and 4 more reads at other offsets){{$}}
void jacobi(std::span<const float> in, std::span<float> out, int n) {
#pragma weft parallel for
  for (int i = 1; i < n - 1; ++i)
#pragma weft parallel for
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] = 0.25f * (in[i * n + j] - in[(i - 1) * n + j]) +
                       in[(i + 1) * n + j] + 2.0f * in[i * n + j - 1] -
                       in[i * n + (j + 1)];
}

// Rows alone overlap (a vertical filter): from thread row to thread row.
// CHECK: remark: weft: level 1 (j): dim x, block 32, Span(1);{{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 128 threads of the block): b[(((i + k) * $n) + j)], k in [0, 4), a window along i and j{{$}}
void columns(std::span<const float> b, std::span<float> c, int n) {
#pragma weft parallel for block(4) span(1)
  for (int i = 0; i < n - 3; ++i)
#pragma weft parallel for block(32)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < 4; ++k)
        acc += b[(i + k) * n + j] * (k + 1);
      c[i * n + j] = acc;
    }
}

// Neighbours clamped at the edges (Rodinia's hotspot): each read's offset
// is its neighbour's distance from the thread's own row or column, the
// window as wide as the offsets it may take; in blocks of one row too. A
// neighbour written after its declaration is read from the span.
// CHECK: remark: weft: level 1 (c): dim x, block 32, Span(1);{{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 256 threads of the block): t[((north * $cols) + c)], a window along r and c (and 4 more reads at other offsets){{$}}
// CHECK: remark: weft: level 1 (c): dim x, block 64, Span(1);{{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 64 threads of the block): t[((r * $cols) + west)], a window along c (and 2 more reads at other offsets){{$}}
void clamped(std::span<const float> t, std::span<float> out, int rows,
             int cols) {
#pragma weft parallel for
  for (int r = 0; r < rows; ++r)
#pragma weft parallel for
    for (int c = 0; c < cols; ++c) {
      int north = r > 0 ? r - 1 : r;
      int south = r + 1 < rows ? r + 1 : r;
      int west = c > 0 ? c - 1 : c;
      const int east = c + 1 >= cols ? c : c + 1;
      out[r * cols + c] = t[north * cols + c] + 2.0f * t[south * cols + c] -
                          t[r * cols + west] + 0.5f * t[r * cols + east] +
                          t[r * cols + c];
    }
}
void clampedRows(std::span<const float> t, std::span<float> out, int rows,
                 int cols) {
#pragma weft parallel for block(1)
  for (int r = 0; r < rows; ++r)
#pragma weft parallel for block(64)
    for (int c = 0; c < cols; ++c) {
      int west = c > 0 ? c - 1 : c;
      int east = c + 1 < cols ? c + 1 : c;
      int north = r > 0 ? r - 1 : r;
      if (north > 0 && c % 3 == 0)
        north = 0;
      out[r * cols + c] = t[r * cols + west] * t[r * cols + east] -
                          t[north * cols + c] + t[r * cols + c];
    }
}
// KERNEL: weft_stage0.ld(1 + ((weft::index_t)(r) - weft_stage0_y0) + ((weft::index_t)(north) - (weft::index_t)(r)), ((weft::index_t)(c) - weft_stage0_x0) + 1, [&] { return (weft::index_t)(((unsigned long)((north * cols) + c))); })

// Not a window of several rows: a reduction over the rows (its blocks
// combine per row; the window's rows would not walk together). The level
// whose bounds follow the row is not one either (ir StagingTest).
// CHECK: remark: weft: level 0 (i): dim y, block 4, Span(1);
// CHECK: remark: weft: level 1 (j): dim x, block 64, Span(1); constrained by this loop's dim/block/span/split clauses; coalescing{{[^;]*}}{{$}}
float total(std::span<const float> b, std::span<float> c, int n) {
  float t = 0;
#pragma weft parallel for block(4) reduction(+ : t)
  for (int i = 0; i < n - 2; ++i)
#pragma weft parallel for block(64)
    for (int j = 0; j < n - 2; ++j) {
      float acc = 0;
      for (int k = 0; k < 3; ++k)
        acc += b[(i + k) * n + j + k];
      c[i * n + j] = acc;
      t += acc;
    }
  return t;
}

template <class T> double checksum(const std::vector<T> &V) {
  double Sum = 0;
  for (std::size_t X = 0; X < V.size(); ++X)
    Sum += static_cast<double>(V[X]) * static_cast<double>(X % 7 + 1);
  return Sum;
}

int main() {
  for (auto [H, W] :
       {std::pair{23, 77}, std::pair{5, 5}, std::pair{9, 40}, std::pair{30, 6}}) {
    std::vector<float> Img(H * W), F(25), Out((H - 4) * (W - 4));
    for (std::size_t X = 0; X < Img.size(); ++X)
      Img[X] = static_cast<float>((X * 13) % 17) - 8.0f;
    for (std::size_t X = 0; X < F.size(); ++X)
      F[X] = static_cast<float>(X % 4) * 0.5f;
    // Calls enough for the tuner to time other block shapes at one size.
    for (int Call = 0; Call < (H == 23 ? 8 : 1); ++Call) {
      conv5(Img, F, Out, H, W);
      std::printf("conv5 %d x %d: %.4f\n", H, W, checksum(Out));
    }
  }
  for (auto [Rows, Cols] :
       {std::pair{1, 1}, std::pair{2, 70}, std::pair{19, 33}, std::pair{40, 5}}) {
    std::vector<float> T(Rows * Cols), Out(Rows * Cols, 0.0f),
        Out2(Rows * Cols, 0.0f);
    for (std::size_t X = 0; X < T.size(); ++X)
      T[X] = static_cast<float>((X * 7) % 23) * 0.25f;
    clamped(T, Out, Rows, Cols);
    clampedRows(T, Out2, Rows, Cols);
    std::printf("clamped %d x %d: %.3f %.3f\n", Rows, Cols, checksum(Out),
                checksum(Out2));
  }
  for (int N : {3, 19, 70}) {
    std::vector<float> In(N * N), Out(N * N, 0.0f), C(N * N, 0.0f),
        E(N * N, 0.0f);
    for (std::size_t X = 0; X < In.size(); ++X)
      In[X] = static_cast<float>((X * 5) % 19) * 0.5f;
    jacobi(In, Out, N);
    if (N > 3)
      columns(In, C, N);
    const float T = total(In, E, N);
    std::printf("jacobi %d: %.3f; columns %.3f; total %.3f %.1f\n", N,
                checksum(Out), checksum(C), checksum(E),
                static_cast<double>(T));
  }
}
