// Scratch arrays a C function declares at its top (`double temp[5];`,
// `double lhs[3][5];`, as the NAS Parallel Benchmarks write them) and a
// loop fills before it reads them in each iteration: each iteration gets
// a copy of its own, as OpenMP's private(temp) or a function's locals in
// an orphaned `omp for` give each thread one. Elements are followed
// through constant subscripts and loops of constant bounds, and through a
// function the loop passes the array to. Where an iteration may read an
// element an earlier one left, or the function reads what the loop left,
// the array stays one shared array (so the nest's writes are a race the
// warnings and the checker name), and an OpenMP loop that names no
// private copy stays with OpenMP where a team shares it.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
// RUN: %weftxx -fsyntax-only -fno-caret-diagnostics -DSHARED %s 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: %weftxx -fopenmp -std=c++17 %s -o %t.omp %weft_link %openmp_link
// RUN: env OMP_NUM_THREADS=3 WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.omp | diff %t.host -
#include <weft/weft.hpp>

#include <cstdio>
#include <utility>

#define N 24

static double u[N][N][5], rhs[N][N][5];

// CHECK: nest at {{.*}}scratch-arrays.cpp:[[@LINE+11]]:3
// CHECK-NOT: param {{.*}} temp
// CHECK-NOT: param {{.*}} lhs
// CHECK: level 0 at {{.*}}: int i in [1, ($n - 1)) step 1
// CHECK-NEXT: decl double temp[5l]
// CHECK-NEXT: decl double lhs[15l]
void sweep(int n) {
  int i, j, m;
  double temp[5], lhs[3][5];
#pragma omp parallel for private(j, m, temp, lhs)
#pragma weft parallel for
  for (i = 1; i < n - 1; i++)
    for (j = 1; j < n - 1; j++) {
      for (m = 0; m < 5; m++)
        temp[m] = u[i][j][m] * 0.5 + u[i - 1][j][m];
      for (m = 0; m < 5; m++) {
        lhs[0][m] = temp[m];
        lhs[1][m] = temp[(m + 1) % 5];
        lhs[2][m] = lhs[0][m] - lhs[1][m];
      }
      for (m = 0; m < 5; m++)
        rhs[i][j][m] = lhs[2][m] + temp[m] * lhs[1][4 - m];
    }
}

// Filled through a function taking a pointer, then read back through
// another, at a constant offset.
static void load(const double *src, double *t) {
  for (int m = 0; m < 5; m++)
    t[m] = src[m] * src[m];
}
static double spread(const double *t) { return t[4] - t[0] + t[2]; }

// CHECK: nest at {{.*}}scratch-arrays.cpp:[[@LINE+9]]:3
// CHECK-NOT: param {{.*}} q
// CHECK: level 0 at
// CHECK-NEXT: decl double q[5l]
// CHECK: allocation q: double[5l] per iteration of level 0
void pointwise(int n, double *out) {
  int i;
  double q[5];
#pragma weft parallel for extent(out: n)
  for (i = 0; i < n; i++) {
    load(&u[i][i][0], q);
    out[i] = spread(q) + q[1];
  }
}

// Per-iteration arrays of several dimensions, their rows partly given
// (each row's rest is zero), and one passed to a function taking pointers.
static float dot4(const float *a, const float *b) {
  float s = 0;
  for (int k = 0; k < 4; k++)
    s += a[k] * b[k];
  return s;
}
// CHECK: nest at {{.*}}scratch-arrays.cpp:[[@LINE+4]]:3
// CHECK: decl float w[12l] = {float(1), float(2), 0l, 0l, float(3), 0l, 0l, 0l, float(4), float(5), float(6), 0l}
void weighted(int n, float *out) {
#pragma weft parallel for extent(out: n)
  for (int i = 0; i < n; i++) {
    float w[3][4] = {{1, 2}, {3}, {4, 5, 6}};
    float t[4] = {1, 2, 3, 4};
    float acc = dot4(t, &w[2][0]);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 4; c++)
        acc += w[r][c] * (r * 4 + c + 1) * (i % 5);
    out[i] = acc;
  }
}

// Read back whole by a range-for, after a swap of two elements (found by
// tests/fuzz/nests.py, seed 4: the range-for kept it shared).
// CHECK: nest at {{.*}}scratch-arrays.cpp:[[@LINE+7]]:3
// CHECK-NEXT: param 0 n: scalar of int
// CHECK-NOT: param {{.*}} arr
void ranged(int n, float *out) {
  int i;
  float arr[4], t;
#pragma weft parallel for extent(out: n)
  for (i = 0; i < n; i++) {
    arr[0] = 2;
    arr[1] = (float)(i % 7);
    arr[2] = 1;
    arr[3] = 0;
    std::swap(arr[0], arr[3]);
    t = arr[3] * 3;
    for (float v : arr)
      t -= v;
    out[i] = t;
  }
}

#ifdef SHARED
// Element 4 is never written in an iteration: it holds what an earlier
// one left, so the array is the function's one array.
// SHARED: scratch-arrays.cpp:[[@LINE+7]]:{{[0-9]+}}: warning: iterations i = 0 and i = 1 of the parallel loop over 'i' both write this element of 'partial'
void partialFill(int n, double *out) {
  int i, m;
  double partial[5] = {0, 0, 0, 0, 0};
#pragma weft parallel for extent(out: n)
  for (i = 0; i < n; i++) {
    for (m = 0; m < 4; m++)
      partial[m] = u[i][0][m];
    out[i] = partial[4] + partial[0];
  }
}
// The function reads what the last iteration left.
// SHARED: scratch-arrays.cpp:[[@LINE+7]]:{{[0-9]+}}: warning: iterations i = 0 and i = 1 of the parallel loop over 'i' both write this element of 'last'
double readAfter(int n, double *out) {
  int i, m;
  double last[5];
#pragma weft parallel for extent(out: n)
  for (i = 0; i < n; i++) {
    for (m = 0; m < 5; m++)
      last[m] = u[i][1][m];
    out[i] = last[2];
  }
  return last[1];
}
#endif

int main() {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int m = 0; m < 5; m++)
        u[i][j][m] = (i * 7 + j * 3 + m) % 11 - 4;
  sweep(N);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int m = 0; m < 5; m++)
        s += rhs[i][j][m] * (1 + (i + j + m) % 3);
  double out[N];
  pointwise(N, out);
  for (int i = 0; i < N; i++)
    s += out[i] * (i % 4);
  float weights[N];
  weighted(N, weights);
  for (int i = 0; i < N; i++)
    s += weights[i] * (i % 3);
  ranged(N, weights);
  for (int i = 0; i < N; i++)
    s += weights[i] * (i % 4);
  std::printf("%.3f\n", s);
  return 0;
}

// RAN: loop at {{.*}}scratch-arrays.cpp:42:{{[0-9]+}}: 1 calls on sim, 0 on the host
// RAN: loop at {{.*}}scratch-arrays.cpp:73:{{[0-9]+}}: 1 calls on sim, 0 on the host
// RAN: loop at {{.*}}scratch-arrays.cpp:91:{{[0-9]+}}: 1 calls on sim, 0 on the host
// RAN: loop at {{.*}}scratch-arrays.cpp:111:{{[0-9]+}}: 1 calls on sim, 0 on the host
