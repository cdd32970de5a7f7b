// Spans a loop declares over parts of captured data (`auto row =
// out.subspan(y * w, w)`, `first`, `last`, `std::span(&a[k], n)`, a
// reference to one) are views of it, as a span parameter of a function
// compiled into the loop is: their elements, size() and range-for. Marked
// on the outer loop alone, the loops over a row are found parallel, an
// index loop to `row.size()` and a range-for over the row, over a
// subspan written in the range-for, and over a row of a std::vector of
// std::vectors; the launch sizes the grid by the row's length (`w`, the
// same in every thread). A span over a per-iteration array is refused. On
// the checked simulator, against the host and the plugin-free build.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s --check-prefix=IR
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>
#include <cstdio>
#include <span>
#include <vector>

// CHECK: local-spans.cpp:[[@LINE+7]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel: no two values of x share an element the loop writes
// IR: level 1 at {{.*}}local-spans.cpp:[[@LINE+6]]:5: unsigned long x in [unsigned long(0), unsigned long(long(unsigned long($w)))) step 1
void indexed(std::span<float> out, std::span<const float> in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y) {
    auto row = out.subspan(y * w, w);
    const std::span<const float> src = in.subspan(y * w, w);
    for (std::size_t x = 0; x < row.size(); ++x)
      row[x] = src[x] * 2 + src.first(1)[0] + src.last(2)[1];
  }
}
// CHECK: local-spans.cpp:[[@LINE+7]]:5: remark: weft: level 1 (v): {{.*}}; not marked, found parallel: no two iterations over v share an element the loop writes
void ranged(std::span<float> out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y) {
    std::span<float> row = out.subspan(y * w, w);
    std::span<float> &same = row;
    same[0] += 100;
    for (float &v : row)
      v = v * 3 + y;
  }
}
// CHECK: local-spans.cpp:[[@LINE+4]]:5: remark: weft: level 1 (v): {{.*}}; not marked, found parallel
void subspanRange(std::span<float> out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (float &v : std::span(&out[y * w], w))
      v = v - y;
}
// CHECK: local-spans.cpp:[[@LINE+4]]:5: remark: weft: level 1 (v): {{.*}}; not marked, found parallel
void rows(std::vector<std::vector<float>> &grid) {
#pragma weft parallel for
  for (std::size_t i = 0; i < grid.size(); ++i)
    for (float &v : grid[i])
      v = v * 2 + i;
}

// The bound's n is the outer level's; the n declared after the loop is
// another, whose value the bound does not take.
// IR: level 2 at {{.*}}local-spans.cpp:[[@LINE+7]]:7: int x in [0, n) step 1
void shadowedAfter(std::span<float> out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y) {
    const int n = w - y % 4;
#pragma weft parallel for
    for (int z = 0; z < 1; ++z) {
      for (int x = 0; x < n; ++x)
        out[(y + z) * w + x] = x + 1;
      const int n = 2;
      out[(y + z) * w] += n;
    }
  }
}

#ifdef REFUSED
void ofArray(std::span<float> out, int h) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y) {
    float tmp[4] = {1, 2, 3, 4};
    // REFUSED: local-spans.cpp:[[@LINE+2]]:22: error: span 't' can be only a part of captured data of one dimension in a weft loop
    // REFUSED: note: set it to such data, 'a.subspan(k, n)' or 'std::span(&a[k], n)'
    std::span<float> t(tmp);
    out[y] = t[1];
  }
}
#endif

int main() {
  const int H = 11, W = 29;
  std::vector<float> in(H * W), a(H * W), b(H * W), c(H * W), d(H * W);
  for (int e = 0; e < H * W; ++e)
    in[e] = e % 13 - 4, b[e] = e % 5, c[e] = e % 7;
  indexed(a, in, H, W);
  ranged(b, H, W);
  subspanRange(c, H, W);
  shadowedAfter(d, H, W);
  std::vector<std::vector<float>> grid(H);
  for (int i = 0; i < H; ++i) {
    grid[i].resize(i % 6 + 1);
    for (std::size_t j = 0; j < grid[i].size(); ++j) grid[i][j] = i + j;
  }
  rows(grid);
  double s = 0;
  for (int e = 0; e < H * W; ++e)
    s += (a[e] + 2 * b[e] + 3 * c[e] + 5 * d[e]) * (e % 7 + 1);
  for (const std::vector<float> &r : grid)
    for (std::size_t j = 0; j < r.size(); ++j) s += r[j] * (j + 1);
  std::printf("%.17g\n", s);
}
