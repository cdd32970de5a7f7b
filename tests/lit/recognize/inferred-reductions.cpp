// Reductions as old code writes them, without a clause: a scalar from
// outside the level that the body only updates, each update a statement of
// one operator (`sum += x;`, `count++;`, `bits |= m;`, `total -= x;`), is
// reduced as reduction(op: v) would reduce it, and the remarks say so. A
// variable used any other way stays an error.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: level 0 at {{.*}}inferred-reductions.cpp:[[@LINE+9]]:{{.*}} reduction(+: sum, inferred), reduction(+: count, inferred), reduction(|: bits, inferred), reduction(+: left, inferred)
// REMARK: inferred-reductions.cpp:[[@LINE+8]]:3: remark: {{.*}}; reduction(+: sum) from its updates; reduction(+: count) from its updates; reduction(|: bits) from its updates; reduction(+: left) from its updates
void summary(const std::vector<float> &a, const std::vector<int> &b,
             double &sumOut, int &countOut, unsigned &bitsOut, long &leftOut) {
  double sum = 0;
  int count = 0;
  unsigned bits = 0;
  long left = 1000000;
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); ++i) {
    sum += a[i] * 2;
    if (b[i] > 10)
      count++;
    bits |= 1u << (b[i] % 32);
    left -= b[i];
  }
  sumOut = sum;
  countOut = count;
  bitsOut = bits;
  leftOut = left;
}

// A local of the enclosing level summed by an inner level.
// CHECK: level 1 at {{.*}}inferred-reductions.cpp:[[@LINE+7]]:{{.*}} reduction(+: s, inferred)
void rowSums(const std::vector<float> &a, std::vector<float> &rows, int n) {
  const int R = static_cast<int>(rows.size());
#pragma weft parallel for
  for (int r = 0; r < R; ++r) {
    float s = 0;
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      s += a[r * n + j];
    rows[r] = s;
  }
}

int main() {
  const int N = 1000;
  std::vector<float> a(N);
  std::vector<int> b(N);
  for (int i = 0; i < N; ++i) {
    a[i] = (i % 13) * 0.25f;
    b[i] = i * 7 % 31;
  }
  double Sum;
  int Count;
  unsigned Bits;
  long Left;
  summary(a, b, Sum, Count, Bits, Left);
  std::vector<float> Rows(20);
  rowSums(a, Rows, 50);
  double T = 0;
  for (float x : Rows)
    T += x;
  std::printf("%.3f %d %u %ld %.3f\n", Sum, Count, Bits, Left, T);
}
// RAN-COUNT-2: calls on sim, 0 on the host

#ifdef REFUSED
double mixed(const std::vector<float> &a) {
  double s = 1;
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); ++i) {
    s += a[i];
    s *= 2;
  }
  // REFUSED: inferred-reductions.cpp:[[@LINE-3]]:5: error: assigning to captured variable 's' from parallel iterations is a data race
  return s;
}
double valueUsed(std::vector<float> &a) {
  double s = 0;
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = (s += a[i]);
  // REFUSED: inferred-reductions.cpp:[[@LINE-1]]:13: error: assigning to captured variable 's' from parallel iterations is a data race
  return s;
}
#endif
