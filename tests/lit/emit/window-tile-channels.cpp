// Window tiles below the root: where each level outside holds the next
// alone (a convolution of each channel: for c, for y, for x), each thread
// computes WEFT_RM consecutive rows of its channel. Checked on the
// simulator against the host at row counts that are multiples of no
// WEFT_RM (1, 2, 17, 64), with the rows a thread as mapped, 1, 3 and 8,
// 64-wide warps and what the tuner tries; its checker still tells a
// thread's rows apart (a false claim between two rows of one thread is
// reported).
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat $(grep -l 'c \* 9' %t.k/*.cu) | FileCheck %s --check-prefix=KERNEL
// RUN: grep -h "^map 1\|^tune WEFT_RM" $(grep -l 'c \* 9' %t.k/*.cu | sed 's/cu$/desc/' | xargs ls 2>/dev/null) | FileCheck %s --check-prefix=DESC
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

// CHECK: window-tile-channels.cpp:[[@LINE+9]]:5: remark: weft: level 1 (y): dim {{.}}, block {{[0-9]+}}, Span(4);
// CHECK: window-tile-channels.cpp:[[@LINE+10]]:7: remark: weft: level 2 (x): {{.*}}; each thread computes 4 consecutive iterations of level 1 (y) (WEFT_RM), the loops over dy, dx unrolled whole and run once for all of them: the reads they share (img along y, f) load once{{$}}
// DESC: map 1 {{.}} {{[0-9]+}} span 4
// DESC: tune WEFT_RM n1 4 1 2 8
void channels(std::span<const float> img, std::span<const float> f,
              std::span<float> out, int ch, int h, int w) {
#pragma weft parallel for
  for (int c = 0; c < ch; ++c)
#pragma weft parallel for
    for (int y = 0; y < h - 2; ++y)
#pragma weft parallel for
      for (int x = 0; x < w - 2; ++x) {
        float s = 0;
        for (int dy = 0; dy < 3; ++dy)
          for (int dx = 0; dx < 3; ++dx)
            s += img[(c * h + y + dy) * w + x + dx] * f[c * 9 + dy * 3 + dx];
        out[(c * (h - 2) + y) * (w - 2) + x] = s;
      }
}
// The rows' level walked by each thread's WEFT_RM rows; the checker told
// their rows apart in the channel's iteration.
// KERNEL: for (weft::index_t weft_f1 = ((weft::index_t)weft::block_idx({{.}}) * WEFT_BLOCK_{{.}} + weft::thread_idx({{.}})) * WEFT_RM;
// KERNEL-NEXT: weft_f1 < weft_count1; weft_f1 += (weft::index_t)weft::grid_dim({{.}}) * WEFT_BLOCK_{{.}} * WEFT_RM) {
// KERNEL: const int weft_row0 = (int)(weft_lo1 + weft_f1);
// KERNEL-NEXT: if (weft_f1 + WEFT_RM <= weft_count1) {
// KERNEL-NEXT: float s[WEFT_RM];
// KERNEL: for (int dx = 0; (dx < 3); (++dx)) {
// KERNEL-NEXT: #pragma unroll
// KERNEL-NEXT: for (int weft_u = 0; weft_u < WEFT_RM; ++weft_u) {
// KERNEL-NEXT: const int y = weft_row0 + (int)weft_u;
// KERNEL-NEXT: weft::resume_iteration(weft_t0, weft_f1 + weft_u);
// KERNEL: } else {
// KERNEL-NEXT: for (int weft_u = 0; weft_u < WEFT_RM && weft_f1 + weft_u < weft_count1; ++weft_u) {

// Doubles, one loop, a filter shared by every channel.
// CHECK: window-tile-channels.cpp:[[@LINE+8]]:7: remark: weft: level 2 (x): {{.*}}; each thread computes 4 consecutive iterations of level 1 (y) (WEFT_RM), the loops over d unrolled whole and run once for all of them: the reads they share (img along y, taps) load once{{$}}
void shrinking(std::span<const double> img, std::span<const double> taps,
               std::span<double> out, int ch, int h, int w) {
#pragma weft parallel for
  for (int c = 0; c < ch; ++c)
#pragma weft parallel for
    for (int y = 0; y < h - 3; ++y)
#pragma weft parallel for
      for (int x = 0; x < w; ++x) {
        double s = 0;
        for (int d = 0; d < 4; ++d)
          s += img[(c * h + y + d) * w + x] * taps[d];
        out[(c * h + y) * w + x] = s;
      }
}

// Not where the inner level's bounds follow the row (a triangle in each
// channel).
// CHECK: window-tile-channels.cpp:[[@LINE+8]]:7: remark: weft: level 2 (x):
// CHECK-NOT: consecutive iterations
void triangles(std::span<const float> a, std::span<float> b, int ch, int n) {
#pragma weft parallel for
  for (int c = 0; c < ch; ++c)
#pragma weft parallel for
    for (int y = 0; y < n - 2; ++y)
#pragma weft parallel for
      for (int x = 0; x < y; ++x) {
        float s = 0;
        for (int d = 0; d < 3; ++d)
          s += a[(c * n + y + d) * n + x];
        b[(c * n + y) * n + x] = s;
      }
}

#ifdef WINDOW_RACE
// Rows 2r and 2r + 1 of a channel write one element: false, and one
// thread's rows.
// RACE: inner loop iterations are not independent in kernel {{.*}}: iteration {{[0-9]+}} of the loop one level in (outermost iteration {{[0-9]+}}) writes element {{[0-9]+}} of span 'out', which iteration {{[0-9]+}} of the loop one level in
void halves(std::span<const float> img, std::span<float> out, int ch, int h,
            int w) {
#pragma weft parallel for
  for (int c = 0; c < ch; ++c)
#pragma weft parallel for
    for (int y = 0; y < h - 2; ++y)
#pragma weft parallel for
      for (int x = 0; x < w; ++x) {
        float s = 0;
        for (int dy = 0; dy < 3; ++dy)
          s += img[(c * h + y + dy) * w + x];
        out[(c * h + y / 2) * w + x] = s;
      }
}

int main() {
  std::vector<float> Img(2 * 18 * 40, 1.0f), Out(2 * 18 * 40);
  halves(Img, Out, 2, 18, 40);
  std::printf("%.1f\n", Out[0]);
}
#else
int main() {
  const int Ch = 3;
  for (auto [H, W] : {std::tuple{3, 5}, std::tuple{4, 9}, std::tuple{19, 37},
                      std::tuple{66, 45}}) {
    std::vector<float> Img(Ch * H * W), F(Ch * 9), Out(Ch * (H - 2) * (W - 2));
    for (int I = 0; I < Ch * H * W; ++I)
      Img[I] = static_cast<float>(I % 11) * 0.25f - 1.0f;
    for (int I = 0; I < Ch * 9; ++I)
      F[I] = static_cast<float>(I % 4) * 0.5f;
    channels(Img, F, Out, Ch, H, W);
    std::vector<double> V(Ch * H * W), Taps{0.5, -1.0, 2.0, 0.25},
        Shrunk(Ch * H * W);
    for (int I = 0; I < Ch * H * W; ++I)
      V[I] = static_cast<double>(I % 13) / 7.0;
    shrinking(V, Taps, Shrunk, Ch, H, W);
    const int N = H < W ? H : W;
    std::vector<float> Tri(Ch * N * N);
    triangles(Img, Tri, Ch, N);
    double S = 0;
    for (std::size_t I = 0; I < Out.size(); ++I)
      S += Out[I] * static_cast<double>(I % 3 + 1);
    for (std::size_t I = 0; I < Shrunk.size(); ++I)
      S += Shrunk[I] * static_cast<double>(I % 5 + 1);
    for (std::size_t I = 0; I < Tri.size(); ++I)
      S += Tri[I] * static_cast<double>(I % 7 + 1);
    std::printf("%d x %d x %d: %.6f\n", Ch, H, W, S);
  }
}
#endif
