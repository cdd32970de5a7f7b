// Loops a marked loop holds, unmarked, that the plugin proves parallel
// (every span they write reached at one subscript of their index alone, no
// variable from outside written, a fixed range) become levels of their own
// ("not marked, found parallel"): with a per-iteration array, a while loop
// that breaks, a range read from a span's size, each row of rows held apart
// (std::vectors of std::vectors, ragged) to its own length, the rows and
// columns of a 3-D C array (an inner loop of constant range within the
// stride, found parallel in turn) and of a flat stack of images (ranges and
// strides of captured sizes; not where a row reaches past its stride), and
// of rows of 64 indexed as one range (`[e / 64][e % 64]`; not `% 32`),
// and one combining into the outermost level's reductions (not one that
// writes a scalar no reduction names, whose last value stays). A
// loop whose index shadows the marked loop's, or that reads a reference
// from outside it (which may bind an element it writes), stays in each
// thread. On the checked simulator, against the host and the plugin-free
// build.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
#include <weft/weft.hpp>
#include <cstdio>
#include <vector>
// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (j): {{.*}}; not marked, found parallel: no two values of j share an element the loop writes
void arr(int n, int m, const float *a, float *out) {
#pragma weft parallel for extent(a, out: n * m)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float t[3];
      for (int c = 0; c < 3; ++c)
        t[c] = a[i * m + j] * (c + 1);
      out[i * m + j] = t[0] + t[1] * t[2];
    }
}
// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i): {{[^;]*}}; parallelism
// CHECK-NOT: found parallel
void shadow(int n, const float *a, float *out) {
#pragma weft parallel for extent(a, out: n * n)
  for (int i = 0; i < n; ++i) {
    const int row = i * n;
    for (int i = 0; i < n; ++i)
      out[row + i] = a[row + i] + 1;
  }
}
// A reference from outside the loop to an element it writes (row's first,
// which the steps after the first read as the first step left it): kept.
// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i): {{[^;]*}}; parallelism
// CHECK-NOT: found parallel
void throughReference(int n, int m, float *out) {
#pragma weft parallel for extent(out: n * m)
  for (int i = 0; i < n; ++i) {
    float &first = out[i * m];
    for (int j = 0; j < m; ++j)
      out[i * m + j] = first + 1;
  }
}

// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (j): {{.*}}; not marked, found parallel
void whiles(int n, int m, const int *a, int *out) {
#pragma weft parallel for extent(a, out: n * m)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      int v = a[i * m + j], steps = 0;
      while (v > 1) {
        v = (v % 2) ? 3 * v + 1 : v / 2;
        if (++steps > 50) break;
      }
      out[i * m + j] = steps;
    }
}
// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (j): {{.*}}; not marked, found parallel
void sizes(std::span<const double> a, std::span<double> out, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    for (std::size_t j = 0; j < a.size() / n; ++j)
      out[i * (a.size() / n) + j] = a[i * (a.size() / n) + j] * 2;
}
using Rows = std::vector<std::vector<float>>;
// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (j): {{.*}}; not marked, found parallel: no two values of j share an element the loop writes
void rows(Rows &grid, const Rows &w) {
#pragma weft parallel for
  for (std::size_t i = 0; i < grid.size(); ++i)
    for (std::size_t j = 0; j < grid[i].size(); ++j)
      grid[i][j] = grid[i][j] * 2 + w[i][j];
}

// A 3-D C array swept as C89 code sweeps it, marked on its outer loop
// alone: (k, j, i) is its own element (i < 24 stays within j's row), so
// the loop over j is found parallel, and the loop over i inside it.
#define NZ 10
#define NY 12
#define NX 24
static double U[NZ][NY][NX], Un[NZ][NY][NX];
// CHECK: loops-found-parallel.cpp:[[@LINE+6]]:5: remark: weft: level 1 (j): {{.*}}; not marked, found parallel: no two values of j share an element the loop writes
// CHECK: loops-found-parallel.cpp:[[@LINE+6]]:7: remark: weft: level 2 (i): {{.*}}; not marked, found parallel: no two values of i share an element the loop writes
void heat3d() {
  int i, j, k;
#pragma weft parallel for
  for (k = 1; k < NZ - 1; k++)
    for (j = 1; j < NY - 1; j++)
      for (i = 1; i < NX - 1; i++)
        Un[k][j][i] = U[k][j][i] +
                      0.1 * (U[k][j][i + 1] + U[k][j][i - 1] + U[k][j + 1][i] +
                             U[k][j - 1][i] + U[k + 1][j][i] + U[k - 1][j][i] -
                             6.0 * U[k][j][i]);
}

// A stack of images flat over captured sizes, marked on its outer loop
// alone: (c, y, x) is its own element as x < w (y's coefficient w less
// what x moves, w - 1), so the loop over y is found parallel, and the loop
// over x inside it.
// CHECK: loops-found-parallel.cpp:[[@LINE+6]]:5: remark: weft: level 1 (y): {{.*}}; not marked, found parallel: no two values of y share an element the loop writes
// CHECK: loops-found-parallel.cpp:[[@LINE+6]]:7: remark: weft: level 2 (x): {{.*}}; not marked, found parallel: no two values of x share an element the loop writes
void channels(std::span<const float> in, std::span<float> out, int ch, int h,
              int w) {
#pragma weft parallel for
  for (int c = 0; c < ch; ++c)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        out[(c * h + y) * w + x] = in[(c * h + y) * w + x] * (c + 1) + y;
}
// Rows one element longer than their stride (row y's last is row y + 1's
// first): kept in each thread.
// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:3: remark: weft: level 0 (c): {{[^;]*}}; parallelism
// CHECK-NOT: found parallel
void overlapping(std::span<float> out, int ch, int h, int w) {
#pragma weft parallel for
  for (int c = 0; c < ch; ++c)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w + 1; ++x)
        out[(c * (h + 1) + y) * w + x] += y * 3 + x;
}
// Rows of 64 indexed as one flat range (`[e / 64][e % 64]`, a vector of
// chunks): each e its own element, so the loop over x is found parallel;
// not where the divisors differ (x and x + 32 meet).
// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void chunks(Rows &out, const Rows &in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out[(y * w + x) / 64][(y * w + x) % 64] =
          in[(y * w + x) / 64][(y * w + x) % 64] * 3 + x;
}
// CHECK: loops-found-parallel.cpp:[[@LINE+4]]:3: remark: weft: level 0 (y): {{.*}} kernel
// CHECK-NOT: found parallel
void unevenChunks(Rows &out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out[(y * 64 + x) / 64][(y * 64 + x) % 32] += x + 1;
}
// A loop combining into the outermost level's reduction (a max over a
// plate, a sum and a count): the reduction's combines, in any order;
// found parallel. Not where it writes a scalar no reduction names.
// CHECK: loops-found-parallel.cpp:[[@LINE+6]]:3: remark: weft: level 0 (y): {{.*}}reduction(max: most){{.*}}reduction(+: total){{.*}}reduction(+: count)
// CHECK: loops-found-parallel.cpp:[[@LINE+6]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
int reduced(const std::vector<float> &in, int h, int w, float &most,
            double &total) {
  int count = 0;
#pragma weft parallel for reduction(max: most) reduction(+: total, count)
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float v = in[y * w + x];
      if (v > most)
        most = v;
      total += v;
      if (v > 2)
        ++count;
    }
  return count;
}
// CHECK: loops-found-parallel.cpp:[[@LINE+5]]:3: remark: weft: level 0 (y): {{.*}} kernel
// CHECK-NOT: found parallel
void lastOfRow(const std::vector<float> &in, std::vector<float> &out, int h,
               int w, float scale) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y) {
    float last = 0;
    for (int x = 0; x < w; ++x)
      last = in[y * w + x] * scale;
    out[y] = last;
  }
}

int main() {
  const int N = 45, M = 37;
  std::vector<float> a(N * N), out(N * N), o2(N * N);
  std::vector<int> ai(N * M), oi(N * M);
  std::vector<double> ad(N * M), od(N * M);
  for (int i = 0; i < N * N; ++i) a[i] = i % 9;
  for (int i = 0; i < N * M; ++i) ai[i] = i % 97 + 1, ad[i] = i * 0.5;
  arr(N, M, a.data(), out.data());
  shadow(N, a.data(), o2.data());
  throughReference(N, N, o2.data());
  whiles(N, M, ai.data(), oi.data());
  sizes(ad, od, N);
  Rows g(N), w(N);
  for (int i = 0; i < N; ++i) {
    g[i].resize(i % M + 1), w[i].resize(i % M + 1);
    for (int j = 0; j <= i % M; ++j)
      g[i][j] = i + j, w[i][j] = j % 5;
  }
  rows(g, w);
  for (int k = 0; k < NZ; ++k)
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i)
        U[k][j][i] = (i * 3 + j * 5 + k * 7) % 11;
  heat3d();
  const int Ch = 3, H = 17, W = 33;
  std::vector<float> img(Ch * H * W), stack(Ch * H * W),
      over(Ch * (H + 1) * W + 1);
  for (int e = 0; e < Ch * H * W; ++e) img[e] = e % 13 - 6;
  channels(img, stack, Ch, H, W);
  overlapping(over, Ch, H, W);
  Rows ck(N, std::vector<float>(64)), ck2(N, std::vector<float>(64));
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < 64; ++c) ck[r][c] = (r * 64 + c) % 23;
  chunks(ck2, ck, N, M);
  unevenChunks(ck, N, M);
  float most = -100;
  double total = 0;
  const int count = reduced(img, Ch * H, W, most, total);
  std::vector<float> lasts(Ch * H);
  lastOfRow(img, lasts, Ch * H, W, 2);
  double s = most + total + count;
  for (float x : lasts) s += x;
  for (int k = 0; k < NZ; ++k)
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i)
        s += Un[k][j][i] * ((i + j + k) % 5);
  for (const std::vector<float> &r : g)
    for (float x : r) s += x;
  for (float x : out) s += x;
  for (std::size_t e = 0; e < stack.size(); ++e) s += stack[e] * (e % 7);
  for (std::size_t e = 0; e < over.size(); ++e) s += over[e] * (e % 5);
  for (float x : o2) s += x;
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < 64; ++c) s += (ck[r][c] + 2 * ck2[r][c]) * (c % 7 + r);
  for (int x : oi) s += x;
  for (double x : od) s += x;
  std::printf("%.17g\n", s);
}
