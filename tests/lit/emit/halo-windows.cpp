// Halo windows: a read-only span that each thread reads at its own index
// plus a loop's (a convolution's in[(y + dy) * w + x + dx]) is loaded once
// a block into shared memory, rows by the block's columns plus the halo,
// and each read finds its element there. Checked on the simulator (32- and
// 64-wide warps, windows on, off and too small to fit, and a capped grid
// whose later rounds lie outside the window) against the host. (span(1)
// keeps the loops whose rows share their window one row a thread: else a
// window tile reads it from registers, window-tile.cpp.)
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat $(grep -l 'float> img' %t.k/*.cu) | FileCheck %s --check-prefix=KERNEL
// RUN: cat $(grep -l 'float> in,' %t.k/*.cu | xargs grep -l 'weft::window') | FileCheck %s --check-prefix=STENCIL
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
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES="WEFT_STAGED_RANGES=1 WEFT_STAGE0=40 WEFT_STAGE1=40" %t.exe > %t.small 2> %t.err.small
// RUN: count 0 < %t.err.small
// RUN: diff %t.host %t.small
// RUN: env WEFT_BACKEND=sim WEFT_KERNEL_DEFINES=WEFT_STAGED_RANGES=1 WEFT_SIM_CHECK=1 WEFT_SIM_THREADS=1 WEFT_VERBOSE=1 %t.exe > %t.capped 2> %t.err.capped
// RUN: FileCheck %s --check-prefix=CAPPED < %t.err.capped
// RUN: diff %t.host %t.capped
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// A 5 x 5 filter over the valid part of an image: rows [y, y + 5) by the
// block's 32 columns plus 4.
// CHECK: remark: weft: level 1 (x): dim x, block 32, Span(1){{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 32 threads of the block): img[((((y + dy) * $w) + x) + dx)], dy in [0, 5), dx in [0, 5), a window along x; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 32 threads of the block): f[((dy * 5) + dx)], dy in [0, 5), dx in [0, 5){{$}}
void conv5(std::span<const float> img, std::span<const float> f,
           std::span<float> out, int h, int w) {
#pragma weft parallel for block(1) span(1)
  for (int y = 0; y < h - 4; ++y)
#pragma weft parallel for block(32)
    for (int x = 0; x < w - 4; ++x) {
      float s = 0;
      for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx)
          s += img[(y + dy) * w + x + dx] * f[dy * 5 + dx];
      out[y * (w - 4) + x] = s;
    }
}
// Shared arrays that fit exactly: the window's follows the block's width.
// KERNEL: #define WEFT_STAGE0 (5 * (WEFT_BLOCK_X + 4))
// KERNEL: #define WEFT_STAGE1 25
// KERNEL: const weft::index_t weft_stage0_x0 = weft_lo1 + (weft::index_t)weft::block_idx(0) * WEFT_BLOCK_X;
// KERNEL: const weft::index_t weft_stage0_lo = (weft::index_t)(w) * (weft::index_t)(y) + weft_stage0_x0 + (weft::index_t)(w) * (weft::index_t)(0) + (weft::index_t)(0);
// KERNEL: const weft::window<float, WEFT_STAGE0, decltype(img)> weft_stage0{weft_stage0_buffer, img, weft_stage0_lo, 1 + ((weft::index_t)(5) - 1 - (weft::index_t)(0)), WEFT_BLOCK_X + ((weft::index_t)(5) - 1 - (weft::index_t)(0)), (weft::index_t)(w) * 1, 1, WEFT_STAGING != 0 && WEFT_STAGED_RANGES != 0};
// KERNEL: weft_stage0.load(weft::linear_thread(), WEFT_BLOCK_THREADS);
// KERNEL: weft::barrier();
// KERNEL: weft_stage0.ld(0 + ((weft::index_t)(dy) - (weft::index_t)(0)), ((weft::index_t)(x) - weft_stage0_x0) + ((weft::index_t)(dx) - (weft::index_t)(0)), [&] { return (weft::index_t)(((unsigned long)((((y + dy) * w) + x) + dx))); })

// Centred, with offsets subtracted; the window starts a row and a column
// before the thread's, and its last rows run past the span's end where a
// guard keeps the loop from reading them.
// CHECK: remark: weft: level 1 (x): {{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 64 threads of the block): v[((((((y + dy) - 1) * $w) + x) + dx) - 1)], dy in [0, 3), dx in [0, 3), a window along x{{$}}
void blur(std::span<const double> v, std::span<double> out, int h, int w) {
#pragma weft parallel for block(1) span(1)
  for (int y = 1; y < h; ++y)
#pragma weft parallel for block(64)
    for (int x = 1; x < w - 1; ++x) {
      double s = 0;
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
          if (y + dy - 1 < h)
            s += v[((y + dy) - 1) * w + x + dx - 1] * (dy + 2 * dx + 1);
      out[y * w + x] = s;
    }
}

// One row (no row term): each signal filtered by 7 taps; and every other
// element (a column stride of 2, which the taps' coefficient matches).
// CHECK: remark: weft: level 1 (i): {{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 32 threads of the block): sig[(((r * $len) + i) + k)], k in [0, 7), a window along i; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 32 threads of the block): sig[(((r * $len) + (2 * i)) + (2 * k))], k in [0, 3), a window along i{{$}}
void taps7(std::span<const int> sig, std::span<int> out, int signals,
           int len) {
#pragma weft parallel for block(1)
  for (int r = 0; r < signals; ++r)
#pragma weft parallel for block(32)
    for (int i = 0; i < (len - 6) / 2; ++i) {
      int s = 0;
      for (int k = 0; k < 7; ++k)
        s += sig[r * len + i + k] * (k - 3);
      for (int k = 0; k < 3; ++k)
        s -= sig[r * len + 2 * i + 2 * k];
      out[r * len + i] = s;
    }
}

// A 5-point stencil: five reads at constant offsets share one window of 3
// rows by the block's columns plus 2, each read at its own row and column.
// CHECK: remark: weft: level 1 (j): {{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 64 threads of the block): in[((i * $n) + j)], a window along j (and 4 more reads at other offsets){{$}}
void jacobi(std::span<const float> in, std::span<float> out, int n) {
#pragma weft parallel for block(1)
  for (int i = 1; i < n - 1; ++i)
#pragma weft parallel for block(64)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] = 0.25f * (in[i * n + j] - in[(i - 1) * n + j]) +
                       in[(i + 1) * n + j] + 2.0f * in[i * n + j - 1] -
                       in[i * n + (j + 1)];
}
// STENCIL: #define WEFT_STAGE0 (3 * (WEFT_BLOCK_X + 2))
// STENCIL: const weft::index_t weft_stage0_lo = (weft::index_t)(n) * (weft::index_t)(i) + weft_stage0_x0 + (weft::index_t)(n) * (-1) + (-1);
// STENCIL: weft::window<float, WEFT_STAGE0, decltype(in)> weft_stage0{weft_stage0_buffer, in, weft_stage0_lo, 1 + 2, WEFT_BLOCK_X + 2, (weft::index_t)(n) * 1, 1, WEFT_STAGING != 0 && WEFT_STAGED_RANGES != 0};
// STENCIL: weft_stage0.ld(1, ((weft::index_t)(j) - weft_stage0_x0) + 1, [&] { return (weft::index_t)(((unsigned long)((i * n) + j))); })
// STENCIL: weft_stage0.ld(0, ((weft::index_t)(j) - weft_stage0_x0) + 1, [&] { return (weft::index_t)(((unsigned long)(((i - 1) * n) + j))); })
// STENCIL: weft_stage0.ld(2, ((weft::index_t)(j) - weft_stage0_x0) + 1, [&] { return (weft::index_t)(((unsigned long)(((i + 1) * n) + j))); })
// STENCIL: weft_stage0.ld(1, ((weft::index_t)(j) - weft_stage0_x0), [&] { return (weft::index_t)(((unsigned long)(((i * n) + j) - 1))); })
// STENCIL: weft_stage0.ld(1, ((weft::index_t)(j) - weft_stage0_x0) + 2, [&] { return (weft::index_t)(((unsigned long)((i * n) + (j + 1)))); })

// A padded row (a stride that is itself a sum) and an offset written as
// "+ -1": the row is the factor holding the outer index, one window.
// CHECK: remark: weft: level 1 (j): {{.*}}; staged in shared memory with WEFT_STAGED_RANGES=1 (read by all 64 threads of the block): p[((i * ($n + 2)) + j)], a window along j (and 2 more reads at other offsets){{$}}
void padded(std::span<const int> p, std::span<int> out, int n) {
#pragma weft parallel for block(1)
  for (int i = 1; i < n; ++i)
#pragma weft parallel for block(64)
    for (int j = 1; j < n + 1; ++j)
      out[i * n + j - 1] = p[i * (n + 2) + j] - p[(i + -1) * (n + 2) + j + 1] +
                           3 * p[(n + 2) * (i + 1) + j + -1];
}

// Rows above and below alone: no element is read by two threads.
// CHECK: remark: weft: level 1 (j): dim x, block 64, Span(1); constrained by this loop's dim/block/span/split clauses; coalescing: 3 access(es) have unit stride in this index [{{[^]]*}}]{{$}}
void vertical(std::span<const float> in, std::span<float> out, int n) {
#pragma weft parallel for block(1)
  for (int i = 1; i < n - 1; ++i)
#pragma weft parallel for block(64)
    for (int j = 0; j < n; ++j)
      out[i * n + j] = in[(i - 1) * n + j] + in[(i + 1) * n + j];
}

// Not windows: rows whose elements each thread reads alone (no halo to
// share), and a third stride (a 3-D stencil's planes).
// CHECK: remark: weft: level 1 (j): dim x, block 32, Span(1); constrained by this loop's dim/block/span/split clauses{{[^;]*}}
// CHECK-NOT: staged
// CHECK: remark: weft: level 0 (y)
void columns(std::span<const float> b, std::span<float> c, int n) {
#pragma weft parallel for block(1)
  for (int i = 0; i < n - 3; ++i)
#pragma weft parallel for block(32)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < 4; ++k)
        acc += b[(i + k) * n + j] * (k + 1);
      c[i * n + j] = acc;
    }
}
// CHECK: remark: weft: level 1 (x): dim x, block 32, Span(1); constrained by this loop's dim/block/span/split clauses{{[^;]*}}
// CHECK-NOT: staged
// CHECK: remark: weft: level 0 (y)
void planes(std::span<const float> v, std::span<float> out, int n) {
#pragma weft parallel for block(1)
  for (int y = 0; y < n - 2; ++y)
#pragma weft parallel for block(32)
    for (int x = 0; x < n - 2; ++x) {
      float s = 0;
      for (int dz = 0; dz < 3; ++dz)
        for (int dy = 0; dy < 3; ++dy)
          for (int dx = 0; dx < 3; ++dx)
            s += v[dz * n * n + (y + dy) * n + x + dx];
      out[y * n + x] = s;
    }
}

// A reduction over the outputs keeps the grid to two waves of resident
// blocks: with one simulator thread, a wide image's x blocks stride over
// it, and their later rounds read past their window, from the span.
long wide(std::span<const float> img, std::span<float> out, int h, int w) {
  long total = 0;
  // CAPPED: halo-windows.cpp:[[@LINE+2]]:3: kernel {{.*}}: grid (16, 1, 1) x block (256, 1, 1)
#pragma weft parallel for block(1) reduction(+ : total)
  for (int y = 0; y < h - 2; ++y)
#pragma weft parallel for block(256)
    for (int x = 0; x < w - 2; ++x) {
      float s = 0;
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
          s += img[(y + dy) * w + x + dx];
      out[y * w + x] = s;
      total += static_cast<long>(s);
    }
  return total;
}

template <class T> double checksum(const std::vector<T> &V) {
  double Sum = 0;
  for (std::size_t X = 0; X < V.size(); ++X)
    Sum += static_cast<double>(V[X]) * static_cast<double>(X % 7 + 1);
  return Sum;
}

int main() {
  for (auto [H, W] : {std::pair{23, 77}, std::pair{5, 5}, std::pair{9, 40}}) {
    std::vector<float> Img(H * W), F(25), Out((H - 4) * (W - 4));
    for (std::size_t X = 0; X < Img.size(); ++X)
      Img[X] = static_cast<float>((X * 13) % 17) - 8.0f;
    for (std::size_t X = 0; X < F.size(); ++X)
      F[X] = static_cast<float>(X % 4) * 0.5f;
    conv5(Img, F, Out, H, W);
    std::printf("conv5 %d x %d: %.4f\n", H, W, checksum(Out));
  }
  for (auto [H, W] : {std::pair{17, 131}, std::pair{2, 3}}) {
    std::vector<double> V(H * W), Out(H * W, -1.0);
    for (std::size_t X = 0; X < V.size(); ++X)
      V[X] = static_cast<double>(X % 11) * 0.25;
    blur(V, Out, H, W);
    std::printf("blur %d x %d: %.4f\n", H, W, checksum(Out));
  }
  {
    const int Signals = 3, Len = 150;
    std::vector<int> Sig(Signals * Len), Out(Signals * Len, 0);
    for (std::size_t X = 0; X < Sig.size(); ++X)
      Sig[X] = static_cast<int>((X * 7) % 23) - 11;
    taps7(Sig, Out, Signals, Len);
    std::printf("taps7: %.0f\n", checksum(Out));
  }
  for (int N : {3, 70, 130}) {
    std::vector<float> In(N * N), Out(N * N, 0.0f), Vert(N * N, 0.0f);
    for (std::size_t X = 0; X < In.size(); ++X)
      In[X] = static_cast<float>((X * 5) % 19) * 0.5f;
    jacobi(In, Out, N);
    vertical(In, Vert, N);
    std::printf("jacobi %d: %.3f %.3f\n", N, checksum(Out), checksum(Vert));
    std::vector<int> P((N + 1) * (N + 2)), Q(N * N + N, 0);
    for (std::size_t X = 0; X < P.size(); ++X)
      P[X] = static_cast<int>((X * 11) % 29) - 14;
    padded(P, Q, N);
    std::printf("padded %d: %.0f\n", N, checksum(Q));
  }
  {
    const int N = 40;
    std::vector<float> B(N * N), C(N * N), V(N * N * N), P(N * N, 0.0f);
    for (std::size_t X = 0; X < B.size(); ++X)
      B[X] = static_cast<float>(X % 9);
    for (std::size_t X = 0; X < V.size(); ++X)
      V[X] = static_cast<float>(X % 5);
    columns(B, C, N);
    planes(V, P, N);
    std::printf("columns, planes: %.1f %.1f\n", checksum(C), checksum(P));
  }
  {
    const int H = 4, W = 256 * 20 + 2;
    std::vector<float> Img(H * W), Out(H * W, 0.0f);
    for (std::size_t X = 0; X < Img.size(); ++X)
      Img[X] = static_cast<float>(X % 13);
    const long Total = wide(Img, Out, H, W);
    std::printf("wide: %.1f %ld\n", checksum(Out), Total);
  }
}
