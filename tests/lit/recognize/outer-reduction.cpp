// Reductions over the outermost level into captured variables: each block
// combines its threads' partial values, the runtime combines the blocks' in
// block order on the host, then into the program's variable.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: rm -rf %t.k && %weftxx -c %s -o %t.o -fplugin-arg-weft-emit-dir=%t.k
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <algorithm>

double dot(std::span<const double> a, std::span<const double> b) {
  double s = 0.5;
  int hits = 0;
#pragma weft parallel for reduction(+: s) reduction(+: hits)
  for (std::size_t i = 0; i < a.size(); ++i) {
    s += a[i] * b[i];
    if (a[i] > 0)
      ++hits;
  }
  return s + hits;
}
// CHECK: nest at {{.*}}outer-reduction.cpp:20:3
// CHECK-NEXT: param 0 a: read span of const double
// CHECK-NEXT: param 1 s: reduction target of double
// CHECK-NEXT: param 2 hits: reduction target of int
// CHECK-NEXT: param 3 b: read span of const double
// CHECK-NEXT: level 0 at {{.*}}, reduction(+: s), reduction(+: hits)
// CHECK-NEXT: ($s += ($a[i] * $b[i]))
// CHECK: (++$hits)

// KERNEL: (weft::dspan<const double> a, weft::dspan<const double> b, weft::index_t weft_lo0, weft::index_t weft_count0, weft::dspan<double> weft_partials0, weft::dspan<int> weft_partials1) {
// KERNEL: double s = weft::identity<weft::reduce_add, double>();
// KERNEL: weft_partials0[(weft::index_t)weft::linear_block()] = weft_r;

float lowest(std::span<const float> v, int n) {
  float m = 1e30f;
#pragma weft parallel for reduction(min: m)
  for (int i = 0; i < n; ++i)
    m = std::min(m, v[i]);
  return m;
}

// A sum over a 2D nest: the inner level's threads add to the outer level's
// reduction too.
long total(std::span<const int> grid, int rows, int cols) {
  long t = 0;
#pragma weft parallel for reduction(+: t)
  for (int r = 0; r < rows; ++r)
#pragma weft parallel for
    for (int c = 0; c < cols; ++c)
      t += grid[r * cols + c];
  return t;
}

#ifdef WITH_MAIN
#include <cstdio>
#include <vector>
int main() {
  std::vector<double> A(100000), B(100000);
  for (int I = 0; I < 100000; ++I) {
    A[I] = (I % 7) - 3;
    B[I] = 0.25 * (I % 11);
  }
  std::vector<float> V(5000);
  for (int I = 0; I < 5000; ++I)
    V[I] = static_cast<float>((I * 7919) % 10007) - 5000.0f;
  std::vector<int> G(300 * 70);
  for (std::size_t I = 0; I < G.size(); ++I)
    G[I] = static_cast<int>(I % 13);
  std::printf("%.6f %.1f %ld\n", dot(A, B), lowest(V, 5000),
              total(G, 300, 70));
}
#endif
