// Min and max reductions in the forms legacy code writes them: the
// conditional expression (either branch order), the guarding if (either
// comparison, either operand order, braces or none), std::fmax/std::fmin
// with the variable second. The loop's code runs as written in each
// thread's partial value; the partial values combine with the clause's
// operator. Each runs on the checked simulator against the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

// CHECK: nest at {{.*}}reduction-idioms.cpp:[[@LINE+6]]:3
// CHECK: reduction(max: m)
// CHECK-NEXT: ($m = (($v[i] > $m) ? $v[i] : $m))
float conditional(std::span<const float> v) {
  float m = -1e30f;
#pragma weft parallel for reduction(max: m)
  for (std::size_t i = 0; i < v.size(); ++i)
    m = v[i] > m ? v[i] : m;
  return m;
}

// CHECK: nest at {{.*}}reduction-idioms.cpp:[[@LINE+6]]:3
// CHECK: reduction(max: m)
// CHECK-NEXT: ($m = (($m >= $v[i]) ? $m : $v[i]))
float conditionalKept(std::span<const float> v) {
  float m = -1e30f;
#pragma weft parallel for reduction(max: m)
  for (std::size_t i = 0; i < v.size(); ++i)
    m = m >= v[i] ? m : v[i];
  return m;
}

// CHECK: nest at {{.*}}reduction-idioms.cpp:[[@LINE+8]]:3
// CHECK: reduction(min: m)
// CHECK-NEXT: if ($v[i] < $m)
// CHECK: ($m = $v[i])
// KERNEL: if ((v.ld(i) < m))
int guarded(std::span<const int> v) {
  int m = 1 << 30;
#pragma weft parallel for reduction(min: m)
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] < m)
      m = v[i];
  return m;
}

// CHECK: nest at {{.*}}reduction-idioms.cpp:[[@LINE+5]]:3
// CHECK: if ($m > x)
double guardedSwapped(std::span<const double> v) {
  double m = 1e300;
#pragma weft parallel for reduction(min: m)
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double x = v[i] - 1;
    if (m > x) {
      m = x;
    }
  }
  return m;
}

// Both bounds of a row, one level in, with std::fmax and std::fmin.
// CHECK: nest at {{.*}}reduction-idioms.cpp:[[@LINE+4]]:3
// CHECK: reduction(max: hi), reduction(min: lo)
void rowRanges(std::span<const double> a, std::span<double> out, int rows, int cols) {
#pragma weft parallel for
  for (int r = 0; r < rows; ++r) {
    double hi = -1e300, lo = 1e300;
#pragma weft parallel for reduction(max: hi) reduction(min: lo)
    for (int c = 0; c < cols; ++c) {
      hi = std::fmax(a[r * cols + c], hi);
      lo = std::fmin(lo, a[r * cols + c]);
    }
    out[r] = hi - lo;
  }
}

int main() {
  const int n = 50021;
  std::vector<float> f(n);
  std::vector<double> d(n);
  std::vector<int> k(n);
  for (int i = 0; i < n; ++i) {
    f[i] = std::sin(i * 0.7f) * (i % 911);
    d[i] = std::cos(i * 0.3) * (i % 613);
    k[i] = (i * 7919) % 50021 - 25000;
  }
  std::printf("%.6g %.6g %d %.9g\n", conditional(f), conditionalKept(f),
              guarded(k), guardedSwapped(d));
  const int rows = 37, cols = 1201;
  std::vector<double> out(rows);
  rowRanges(std::span<const double>(d.data(), rows * cols), out, rows, cols);
  double s = 0;
  for (double x : out)
    s += x;
  std::printf("%.9g %.9g\n", out[0], s);
}
