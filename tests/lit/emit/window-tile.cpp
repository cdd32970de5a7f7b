// Window tiles: where a two-level nest's inner body walks a window along
// the outer index (a convolution's in[(y + dy) * w + x + dx]), each thread
// computes WEFT_RM consecutive rows, the window's loops unrolled and run
// once for all of them, so that the reads the rows share load once. Checked
// on the simulator against the host at row counts that are multiples of no
// WEFT_RM (1, 2, 17, 64), with the rows a thread as mapped, 1, 3 and 8,
// 64-wide warps and what the tuner tries; and its checker still tells a
// thread's rows apart (a false claim of independence between two rows of
// one thread is reported).
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat $(grep -l 'dy < 5' %t.k/*.cu) | FileCheck %s --check-prefix=KERNEL
// RUN: grep -h "^map 0\|^tune WEFT_RM" $(grep -l 'dy < 5' %t.k/*.cu | sed 's/cu$/desc/' | xargs ls 2>/dev/null) | FileCheck %s --check-prefix=DESC
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_RM=1 %t.exe > %t.rm1 2> %t.err1
// RUN: count 0 < %t.err1
// RUN: diff %t.host %t.rm1
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_RM=3 %t.exe > %t.rm3 2> %t.err3
// RUN: count 0 < %t.err3
// RUN: diff %t.host %t.rm3
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_RM=8 WEFT_SIM_WARP=64 %t.exe > %t.rm8 2> %t.err8
// RUN: count 0 < %t.err8
// RUN: diff %t.host %t.rm8
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_THREADS=2 WEFT_TUNE=search=random,eager,budget=6 %t.exe > %t.tuned 2> %t.err.tuned
// RUN: count 0 < %t.err.tuned
// RUN: diff %t.host %t.tuned
// RUN: %weftxx %s -DWINDOW_RACE -o %t.race %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t.race 2>&1 | FileCheck %s --check-prefix=RACE
#include <weft/weft.hpp>

#include <cstdio>
#include <span>
#include <tuple>
#include <vector>

// CHECK: window-tile.cpp:[[@LINE+7]]:3: remark: weft: level 0 (y): dim {{.}}, block {{[0-9]+}}, Span(4);
// CHECK: window-tile.cpp:[[@LINE+8]]:5: remark: weft: level 1 (x): {{.*}}; each thread computes 4 consecutive iterations of level 0 (y) (WEFT_RM), the loops over dy, dx unrolled whole and run once for all of them: the reads they share (img along y, f) load once{{$}}
// DESC: map 0 {{.}} {{[0-9]+}} span 4
// DESC: tune WEFT_RM n0 4 1 2 8
void conv5(std::span<const float> img, std::span<const float> f,
           std::span<float> out, int h, int w) {
#pragma weft parallel for
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
// Where all the thread's rows are in range: per-row locals, the loops
// unrolled, each step for every row; else each row as written.
// KERNEL: weft_f0 < weft_count0; weft_f0 += (weft::index_t)weft::grid_dim({{.}}) * WEFT_BLOCK_{{.}} * WEFT_RM) {
// KERNEL: if (weft_f0 + WEFT_RM <= weft_count0) {
// KERNEL-NEXT: float s[WEFT_RM];
// KERNEL: s[weft_u] = ((float)0);
// KERNEL: #pragma unroll
// KERNEL-NEXT: for (int dy = 0; (dy < 5); (++dy)) {
// KERNEL-NEXT: #pragma unroll
// KERNEL-NEXT: for (int dx = 0; (dx < 5); (++dx)) {
// KERNEL-NEXT: #pragma unroll
// KERNEL-NEXT: for (int weft_u = 0; weft_u < WEFT_RM; ++weft_u) {
// KERNEL-NEXT: const int y = weft_row0 + (int)weft_u;
// KERNEL-NEXT: weft::resume_iteration(weft_f0 + weft_u, weft_t1);
// KERNEL-NEXT: (s[weft_u] += (img.ld(
// KERNEL: (out[((unsigned long)((y * (w - 4)) + x))] = s[weft_u]);
// KERNEL: } else {
// KERNEL-NEXT: for (int weft_u = 0; weft_u < WEFT_RM && weft_f0 + weft_u < weft_count0; ++weft_u) {
// KERNEL: float s = ((float)0);

// Centred, the window's rows guarded inside the loops, of doubles in
// vectors; a statement before the loops, three results after them.
// CHECK: window-tile.cpp:[[@LINE+7]]:5: remark: weft: level 1 (x): {{.*}}; each thread computes 4 consecutive iterations of level 0 (y) (WEFT_RM), the loops over dy, dx unrolled whole and run once for all of them: the reads they share (v along y, k) load once{{$}}
void blur(const std::vector<double> &v, const std::vector<double> &k,
          std::vector<double> &out, std::vector<double> &peak,
          std::vector<int> &hits, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
#pragma weft parallel for
    for (int x = 1; x < w - 1; ++x) {
      double s = 0, m = -1e30;
      int n = 0;
      s += 0.5 * v[y * w + x];
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
          if (y + dy >= 1 && y + dy <= h) {
            const double t = v[(y + dy - 1) * w + x + dx - 1];
            s += t * k[dy * 3 + dx];
            m = t > m ? t : m;
            n += t > 0.5;
          }
      out[y * w + x] = s;
      peak[y * w + x] = m;
      hits[y * w + x] = n;
    }
}

// Rows of a std::vector of std::vectors and a 2-D array filter, as legacy
// code holds them: rows of one length are one block of rows by columns.
// CHECK: window-tile.cpp:[[@LINE+6]]:5: remark: weft: level 1 (x): {{.*}}; each thread computes 4 consecutive iterations of level 0 (y) (WEFT_RM), the loops over dy, dx unrolled whole and run once for all of them: the reads they share (img along y, f) load once{{$}}
void rows(const std::vector<std::vector<float>> &img, const float (&f)[3][3],
          std::vector<std::vector<float>> &out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h - 2; ++y)
#pragma weft parallel for
    for (int x = 0; x < w - 2; ++x) {
      float s = 0;
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
          s += img[y + dy][x + dx] * f[dy][dx];
      out[y][x] = s;
    }
}

// No window tile where the inner level's bounds follow the row (a
// triangle): its rows would walk different columns.
// CHECK-NOT: consecutive iterations
// CHECK: window-tile.cpp:[[@LINE+7]]:5: remark: weft: level 1 (x):
// CHECK-NOT: consecutive iterations
// CHECK: remark: weft: level 0 (i)
void triangle(std::span<const float> a, std::span<float> b, int n) {
#pragma weft parallel for
  for (int y = 0; y < n - 3; ++y)
#pragma weft parallel for
    for (int x = 0; x < y; ++x) {
      float s = 0;
      for (int d = 0; d < 4; ++d)
        s += a[(y + d) * n + x];
      b[y * n + x] = s;
    }
}

// Nor with a span(1) clause, which keeps one row a thread.
// CHECK: window-tile.cpp:[[@LINE+7]]:5: remark: weft: level 1 (j):
// CHECK-NOT: consecutive iterations
// CHECK: remark:
void columns(std::span<const float> a, std::span<float> b, int n) {
#pragma weft parallel for span(1)
  for (int i = 0; i < n - 3; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int d = 0; d < 4; ++d)
        s += a[(i + d) * n + j] * (d + 1);
      b[i * n + j] = s;
    }
}

#ifdef WINDOW_RACE
// Rows 2r and 2r + 1 write one element: false, and one thread's rows.
// RACE: loop iterations are not independent in kernel {{.*}}: iteration {{[0-9]+}} writes element {{[0-9]+}} of span 'out', which iteration {{[0-9]+}} writes
void halves(std::span<const float> img, std::span<float> out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h - 2; ++y)
#pragma weft parallel for
    for (int x = 0; x < w; ++x) {
      float s = 0;
      for (int dy = 0; dy < 3; ++dy)
        s += img[(y + dy) * w + x];
      out[(y / 2) * w + x] = s;
    }
}

int main() {
  // 16 rows: each thread's 4 in range, run together.
  std::vector<float> Img(18 * 40, 1.0f), Out(18 * 40);
  halves(Img, Out, 18, 40);
  std::printf("%.1f\n", Out[0]);
}
#else
int main() {
  for (auto [H, W] : {std::tuple{5, 5}, std::tuple{6, 9}, std::tuple{21, 37},
                      std::tuple{68, 45}}) {
    std::vector<float> Img(H * W), F(25), Out((H - 4) * (W - 4));
    for (int I = 0; I < H * W; ++I)
      Img[I] = static_cast<float>(I % 11) * 0.25f - 1.0f;
    for (int I = 0; I < 25; ++I)
      F[I] = static_cast<float>(I % 4) * 0.5f;
    conv5(Img, F, Out, H, W);
    std::vector<double> V(H * W), K(9), Blur(H * W), Peak(H * W);
    std::vector<int> Hits(H * W);
    for (int I = 0; I < H * W; ++I)
      V[I] = static_cast<double>(I % 13) / 7.0;
    for (int I = 0; I < 9; ++I)
      K[I] = 1.0 / (I + 2);
    blur(V, K, Blur, Peak, Hits, H, W);
    std::vector<std::vector<float>> Rows(H, std::vector<float>(W)),
        RowsOut(H, std::vector<float>(W));
    const float Taps[3][3] = {{1, 2, 1}, {0, -1, 0}, {0.5f, 0.25f, 2}};
    for (int I = 0; I < H * W; ++I)
      Rows[I / W][I % W] = static_cast<float>(I % 9) - 4.0f;
    rows(Rows, Taps, RowsOut, H, W);
    std::vector<float> Tri(H * W);
    triangle(Img, Tri, H < W ? H : W);
    std::vector<float> Col(H * W);
    columns(Img, Col, H < W ? H : W);
    double S = 0;
    for (std::size_t I = 0; I < Out.size(); ++I)
      S += Out[I] * static_cast<double>(I % 3 + 1);
    for (int I = 0; I < H * W; ++I)
      S += Blur[I] * (I % 5 + 1) + Peak[I] + Hits[I] + Tri[I] + Col[I] +
           RowsOut[I / W][I % W] * (I % 7);
    std::printf("%d x %d: %.6f\n", H, W, S);
  }
}
#endif
