// Variables a C89 function declares at its top (`int i, j, k; double sum;`)
// and a loop uses as its indices and scratch values: each iteration sets
// them before it reads them, and nothing after the loop reads what they
// were left holding (clang's liveness analysis says so), so they are
// private to the iteration, declared in the kernel where C99 would have
// declared them: the nest below is the one `for (int i ...)` makes (its
// loop over j, found parallel, a level of its own as if marked). Where
// an iteration reads what an earlier one left, or the function reads the
// value after the loop, or takes its address, it is an error saying which.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>

#define N 48

// CHECK: nest at {{.*}}c89-locals.cpp:[[@LINE+14]]
// CHECK-NEXT: param 0 a: read span of double
// CHECK-NEXT: param 1 b: read span of double
// CHECK-NEXT: param 2 c: written span of double
// CHECK-NEXT: level 0 at {{.*}}: int i in [0, 48) step 1
// CHECK-NEXT: level 1 at {{.*}}c89-locals.cpp:[[@LINE+10]]:5: int j in [0, 48) step 1
// CHECK-NEXT: decl double sum = 0.0
// CHECK-NEXT: for (sequential)
// CHECK-NEXT: decl int k = 0
void matmul(double a[N][N], double b[N][N], double c[N][N]) {
  int i, j, k;
  double sum;

#pragma weft parallel for
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      sum = 0.0;
      for (k = 0; k < N; k++)
        sum += a[i][k] * b[k][j];
      c[i][j] = sum;
    }
}

// Two loops over one k: each declares its own, as nothing after either
// reads it. Both levels marked, their indices declared before.
// CHECK: nest at {{.*}}c89-locals.cpp:[[@LINE+15]]
// CHECK: level 0 at {{.*}}: int i in [0, $n) step 1
// CHECK-NEXT: decl float t = float(0)
// CHECK-NEXT: for (sequential)
// CHECK-NEXT: decl int k = 0
// CHECK: for (sequential)
// CHECK-NEXT: decl int k = 0
// CHECK: level 1 at {{.*}}: int j in [0, $m) step 1
// CHECK-NEXT: decl float u = ($x[((i * $m) + j)] - (t / float($m)))
// CHECK-NEXT: for (sequential)
// CHECK-NEXT: decl int k = 0
void normalize(float *x, float *y, int n, int m) {
  int i, j, k;
  float t, u;
#pragma weft parallel for extent(x, y: n * m)
  for (i = 0; i < n; i++) {
    t = 0;
    for (k = 0; k < m; k++)
      t += x[i * m + k];
    for (k = 0; k < m; k++)
      t -= 0.5f * x[i * m + k] / m;
#pragma weft parallel for
    for (j = 0; j < m; j++) {
      u = x[i * m + j] - t / m;
      for (k = 0; k < j; k++)
        u += 0.125f * x[i * m + k];
      y[i * m + j] = u * u;
    }
  }
}

// A scratch sum reduced by an inner level, and an index the function uses
// again (its next loop sets it first).
// CHECK: nest at {{.*}}c89-locals.cpp:[[@LINE+7]]
// CHECK: decl double sum = 0.0
float rowSums(const float *x, double *s, int n, int m) {
  int i, j;
  double sum;
  float total = 0;
#pragma weft parallel for extent(x: n * m) extent(s: n)
  for (i = 0; i < n; i++) {
    sum = 0.0;
#pragma weft parallel for reduction(+: sum)
    for (j = 0; j < m; j++)
      sum += x[i * m + j];
    s[i] = sum;
  }
  for (i = 0; i < n; i++)
    total += s[i];
  return total;
}

// A time loop marked sequential over t declared before, its levels over
// one i, a scratch value it sets each step.
// CHECK: nest at {{.*}}c89-locals.cpp:[[@LINE+7]]:3 (sequential)
// CHECK: decl int t = 0
// CHECK: decl float edge = $a[0]
void steps(float *a, float *b, int n, int T) {
  int t, i;
  float edge;
#pragma weft sequential for extent(a, b: n)
  for (t = 0; t < T; t++) {
    edge = a[0];
    b[0] = edge;
#pragma weft parallel for
    for (i = 1; i < n - 1; i++)
      b[i] = (a[i - 1] + a[i + 1]) * 0.5f;
#pragma weft parallel for
    for (i = 1; i < n - 1; i++)
      a[i] = b[i];
  }
}

int main() {
  static double a[N][N], b[N][N], c[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = i + j;
      b[i][j] = i - j;
    }
  matmul(a, b, c);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += c[i][j] * (i + 1);
  static float x[60 * 7], y[60 * 7];
  for (int i = 0; i < 420; i++)
    x[i] = i % 17;
  normalize(x, y, 60, 7);
  for (int i = 0; i < 420; i++)
    s += y[i] * (i % 5);
  double sums[60];
  const float Total = rowSums(x, sums, 60, 7);
  steps(x, y, 60, 5);
  for (int i = 0; i < 60; i++)
    s += x[i] * i;
  std::printf("%.3f %.1f %.1f\n", s, Total, sums[59]);
}
// RAN-COUNT-4: calls on sim, 0 on the host

#ifdef REFUSED
void carried(float *x, int n) {
  int i;
  float last = 0;
#pragma weft parallel for extent(x: n)
  for (i = 0; i < n; i++) {
    x[i] = last;
    last = x[i] + 1;
  }
  // REFUSED: c89-locals.cpp:[[@LINE-2]]:5: error: assigning to captured variable 'last' from parallel iterations is a data race: an iteration reads the value an earlier one left
  // REFUSED-NEXT: note: declare the variable inside the loop, or use reduction(op: last)
}
float readAfter(float *x, int n) {
  int i;
  float t;
#pragma weft parallel for extent(x: n)
  for (i = 0; i < n; i++) {
    t = x[i] * 2;
    x[i] = t;
  }
  // REFUSED: c89-locals.cpp:[[@LINE-3]]:5: error: assigning to captured variable 't' from parallel iterations is a data race: the value the loop leaves in it is read after the loop
  return t;
}
void addressTaken(float *x, int n) {
  int i;
  float t;
  float *p = &t;
#pragma weft parallel for extent(x: n)
  for (i = 0; i < n; i++) {
    t = x[i] * 2;
    x[i] = t;
  }
  // REFUSED: c89-locals.cpp:[[@LINE-3]]:5: error: assigning to captured variable 't' from parallel iterations is a data race: its address is taken in the function
  *p = 0;
}
void innerIndexAfter(float *a, int n, int T) {
  int t, i;
#pragma weft sequential for extent(a: n)
  for (t = 0; t < T; t++) {
#pragma weft parallel for
    for (i = 1; i < n; i++)
      a[i] += 1;
    a[0] = a[i - 1];
  }
  // REFUSED: c89-locals.cpp:[[@LINE-4]]:10: error: 'i', declared before the loop, is read after it, where the serial loop leaves it past its last value; a weft loop does not set it
}
int indexAfter(float *x, int n) {
  int i;
#pragma weft parallel for extent(x: n)
  for (i = 0; i < n; i++)
    x[i] = 1;
  // REFUSED: c89-locals.cpp:[[@LINE-2]]:8: error: 'i', declared before the loop, is read after it, where the serial loop leaves it past its last value; a weft loop does not set it
  // REFUSED-NEXT: note: declare the index in the loop ('for (int i = ...') and compute the value read after it
  return i;
}
#endif
