// Unmarked loops in a marked one whose headers take the other forms a
// marked loop's may (a bound set in the header, C89's variables set before
// it, counting down by 1 or 2, `<=`, `!=`, `n > i`, a step of 2, an index
// stepping beside the loop's) are found parallel as `for (int j = lo; j <
// hi; ++j)` is: each iteration computes what the header sets from its own
// index. A header variable the body changes, an unsigned index counting
// down to 0 (`x >= 0`; down to 1 is found parallel), a C89 bound read
// after the loop and a C89 header with a part that sets no variable keep
// the loop in each thread. On the checked simulator,
// against the host and the plugin-free build.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
#include <weft/weft.hpp>
#include <cstdio>
#include <span>
#include <vector>

// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel: no two values of x share an element the loop writes
void bound(std::span<float> out, std::span<const float> in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0, e = w; x < e; ++x)
      out[y * w + x] = 2 * in[y * w + x] + e;
}
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+5]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void c89(std::span<float> out, std::span<const float> in, int h, int w) {
  int y, x, e, k;
#pragma weft parallel for
  for (y = 0; y < h; ++y)
    for (x = 0, e = w, k = 5; x < e; ++x, k += 3)
      out[y * w + x] = in[y * w + x] * k - e;
}
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void down(std::span<float> out, std::span<const float> in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = w - 1, k = 0; x >= 0; --x, k += 2)
      out[y * w + x] = in[y * w + x] + k;
}
// Down by 2 to 1 at least, from the last column: every other one, k
// counting them.
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void downBy2(std::span<float> out, std::span<const float> in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = w - 1, k = 0; x >= 1; x -= 2, ++k)
      out[y * w + x] = in[y * w + x] * 5 + k;
}
// `x > 1`: the first two columns stay as they were.
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void downPast(std::span<float> out, std::span<const float> in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (long x = w - 1; x > 1; x--)
      out[y * w + x] = in[y * w + x - 2] - 1;
}
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void inclusive(std::span<float> out, std::span<const float> in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 1; x <= w - 1; x++)
      out[y * w + x] = in[y * w + x - 1] * 3;
}
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void notEqual(std::span<float> out, std::span<const float> in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (unsigned x = 0; x != unsigned(w); ++x)
      out[y * w + x] = in[y * w + x] + 7;
}
// Every other column, from the second, its step written `x = x + 2`; the
// bound on the left.
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void everyOther(std::span<float> out, std::span<const float> in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 1, half = 0; w > x; x = x + 2, ++half)
      out[y * w + x] = in[y * w + half] + half;
}
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:3: remark: weft: level 0 (y): {{[^;]*}}; parallelism
// CHECK-NOT: found parallel
void boundChanges(std::span<float> out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0, e = w; x < e; ++x) {
      out[y * w + x] = e;
      if (x == 2)
        e = x + 1;
    }
}
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:3: remark: weft: level 0 (y): {{[^;]*}}; parallelism
// CHECK-NOT: found parallel
void besideChanges(std::span<float> out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0, k = 0; x < w; ++x, ++k) {
      k += x % 2;
      out[y * w + x] = k;
    }
}
// An unsigned index down to 1, reaching x - 1.
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:5: remark: weft: level 1 (x): {{.*}}; not marked, found parallel
void unsignedPast(std::span<float> out, std::span<const float> in, int h, unsigned w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (unsigned x = w; x > 0; --x)
      out[y * w + x - 1] = in[y * w + w - x] * 2;
}
// (`x >= 0` of an unsigned x never ends: the loop breaks at 0.)
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+4]]:3: remark: weft: level 0 (y): {{[^;]*}}; parallelism
// CHECK-NOT: found parallel
void unsignedDown(std::span<float> out, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (unsigned x = w - 1; x >= 0; --x) {
      out[y * w + x] = x;
      if (x == 0)
        break;
    }
}
// C89's e, read after the inner loop: set there, not declared by it.
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+5]]:3: remark: weft: level 0 (y): {{.*}} kernel
// CHECK-NOT: found parallel
void readAfter(std::span<float> out, std::span<float> last, int h, int w) {
  int y, x, e;
#pragma weft parallel for
  for (y = 0; y < h; ++y) {
    for (x = 0, e = w - y % 3; x < e; ++x)
      out[y * w + x] = x + y;
    last[y] = e;
  }
}

// C89's header setting x and c, and stepping c (a part that sets no
// variable): declared before the nest as written, each iteration's own;
// kept in each thread.
// CHECK: loop-headers-found-parallel.cpp:[[@LINE+5]]:3: remark: weft: level 0 (y): {{.*}} kernel
// CHECK-NOT: found parallel
void c89Stepped(std::span<float> out, int h, int w) {
  int y, x, c;
#pragma weft parallel for
  for (y = 0; y < h; ++y)
    for (x = 0, c = 0, c++; x < w; ++x)
      out[y * w + x] = x + c;
}

int main() {
  const int H = 13, W = 37;
  std::vector<float> in(H * W), a(H * W), b(H * W), c(H * W), d(H * W),
      f(H * W), g(H * W), p(H * W), q(H * W), r(H * W), s(H * W), t(H * W),
      u(H * W), v(H * W, -6), z(H * W), last(H);
  for (int e = 0; e < H * W; ++e)
    in[e] = e % 17 - 5, d[e] = -1, f[e] = -2, p[e] = -3, s[e] = -4;
  bound(a, in, H, W);
  c89(b, in, H, W);
  down(c, in, H, W);
  downPast(d, in, H, W);
  downBy2(v, in, H, W);
  downBy2(v, in, H, W - 1);
  inclusive(f, in, H, W);
  notEqual(g, in, H, W);
  everyOther(p, in, H, W);
  unsignedPast(u, in, H, W);
  boundChanges(q, H, W);
  besideChanges(r, H, W);
  unsignedDown(s, H, W);
  readAfter(t, last, H, W);
  c89Stepped(z, H, W);
  double sum = 0;
  int e = 0;
  for (const std::vector<float> *v : {&a, &b, &c, &d, &f, &g, &p, &q, &r, &s,
                                      &t, &u, &v, &z, &last}) {
    for (std::size_t i = 0; i < v->size(); ++i)
      sum += (*v)[i] * ((i + e) % 11);
    std::printf("%d: %.1f\n", e++, sum);
  }
}
