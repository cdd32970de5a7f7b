// Reductions as old code writes them, without a clause: a scalar from
// outside the level that the body only updates, each update a statement of
// one operator (`sum += x;`, `sum = sum + x;`, `count++;`, `bits |= m;`,
// `total -= x;`, `if (x > m) m = x;`, `m = std::max(m, x);`), is reduced as
// reduction(op: v) would reduce it, and the value and index of the best
// element (`if (x > best) { best = x; at = i; }`) as reduction(argmax: best,
// at); the remarks say so. A variable used any other way stays an error.
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

#include <algorithm>
#include <cmath>
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

// The forms of C code before compound assignment was the habit.
// CHECK: level 0 at {{.*}}inferred-reductions.cpp:[[@LINE+12]]:{{.*}} reduction(+: sum, inferred), reduction(+: left, inferred), reduction(*: prod, inferred), reduction(max: high, inferred), reduction(min: low, inferred), reduction(max: widest, inferred), reduction(||: any, inferred)
// REMARK: inferred-reductions.cpp:[[@LINE+11]]:3: remark: {{.*}}; reduction(+: sum) from its updates; reduction(+: left) from its updates; reduction(*: prod) from its updates; reduction(max: high) from its updates; reduction(min: low) from its updates; reduction(max: widest) from its updates; reduction(||: any) from its updates; reduction(argmax: best, at) from its updates; reduction(argmin: least, where) from its updates
void oldForms(const std::vector<float> &a, const std::vector<int> &b) {
  double sum = 0, prod = 1;
  long left = 1000;
  float high = -1e30f, low = 1e30f, widest = 0;
  int any = 0;
  float best = -1e30f, least = 1e30f;
  int at = -1;
  long where = -1;
  int i;
#pragma weft parallel for
  for (i = 0; i < (int)a.size(); i++) {
    sum = sum + a[i];
    left = left - b[i];
    prod = prod * (1.0 + a[i] * 1e-4);
    if (std::min(a[i], 2.5f) > high) // (a temporary: cleanups around both)
      high = std::min(a[i], 2.5f);
    low = a[i] < low ? a[i] : low;
    widest = std::max(widest, std::fabs(a[i] - 1));
    any = any || b[i] == 17;
    if (a[i] > best) {
      best = a[i];
      at = i;
    }
    if (a[i] - b[i] <= least) {
      least = a[i] - b[i];
      where = i;
    }
  }
  std::printf("%.3f %ld %.6f %.2f %.2f %.2f %d %.2f %d %.2f %ld\n", sum, left,
              prod, high, low, widest, any, best, at, least, where);
}

// Flags of the outermost level, which the iterations that set them set to
// one constant each: set after the loop where some iteration did, as the
// serial loop leaves them (a convergence test's `changed = true;`).
// CHECK: level 0 at {{.*}}inferred-reductions.cpp:[[@LINE+11]]:{{.*}} reduction(||: weft_flag0, inferred), reduction(||: weft_flag1, inferred)
// CHECK: ($weft_flag0 = 1)
// REMARK: inferred-reductions.cpp:[[@LINE+9]]:5: remark: {{.*}}; 'changed' set after the loop where some iteration sets it; 'found' set after the loop where some iteration sets it
int relax(std::vector<int> &dist, const std::vector<int> &w) {
  int rounds = 0;
  bool changed = true;
  int found = -1;
  std::vector<int> next(dist);
  while (changed) {
    changed = false;
#pragma weft parallel for
    for (std::size_t e = 1; e < dist.size(); ++e) {
      next[e] = dist[e];
      if (dist[e - 1] + w[e] < dist[e]) {
        next[e] = dist[e - 1] + w[e];
        changed = true;
        if (w[e] > 100)
          found = 7;
      }
    }
    dist = next;
    ++rounds;
  }
  return rounds * 100 + found;
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
  oldForms(a, b);
  std::vector<int> Dist(40, 1 << 20), W(40);
  Dist[0] = 0;
  for (int i = 0; i < 40; ++i)
    W[i] = i % 3 + 1;
  std::printf("%d %d\n", relax(Dist, W), Dist[39]);
}
// RAN-COUNT-4: calls on sim, 0 on the host

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
double notCombined(const std::vector<float> &a) {
  double s = 0;
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); ++i)
    s = s * 2 + a[i];
  // REFUSED: inferred-reductions.cpp:[[@LINE-1]]:5: error: assigning to captured variable 's' from parallel iterations is a data race
  return s;
}
float notTheCompared(const std::vector<float> &a) {
  float m = 0;
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] > m)
      m = a[i] * 2;
  // REFUSED: inferred-reductions.cpp:[[@LINE-1]]:7: error: assigning to captured variable 'm' from parallel iterations is a data race
  return m;
}
int notTheIndex(const std::vector<float> &a) {
  float best = 0;
  int at = 0;
#pragma weft parallel for
  for (int i = 0; i < (int)a.size(); ++i)
    if (a[i] > best) {
      best = a[i];
      at = i + 1;
    }
  // REFUSED: inferred-reductions.cpp:[[@LINE-3]]:7: error: assigning to captured variable 'best' from parallel iterations is a data race
  return at + (int)best;
}
int flagRead(const std::vector<float> &a) {
  int found = 0;
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] > 1 && !found)
      found = 1;
  // REFUSED: inferred-reductions.cpp:[[@LINE-1]]:7: error: assigning to captured variable 'found' from parallel iterations is a data race
  return found;
}
int twoValues(const std::vector<float> &a) {
  int state = 0;
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] > 1)
      state = 1;
    // REFUSED: inferred-reductions.cpp:[[@LINE-1]]:7: error: assigning to captured variable 'state' from parallel iterations is a data race
    if (a[i] < -1)
      state = 2;
  }
  return state;
}
#endif
