// OpenMP parallel regions of several worksharing loops, as real OpenMP code
// is mostly written: each `#pragma omp for` (and `for simd`) in a
// `#pragma omp parallel` region, also inside an `if` or a sequential loop of
// the region, is launched by the region's team: its thread 0 launches, the
// team waits, and the directive runs on the team only where no launch did.
// What runs between the loops (a `single` block, a statement every thread
// runs alike) runs as OpenMP runs it. A loop whose data is each thread's own
// (declared in the region, or private to it), or whose values may differ
// from thread to thread (the region asks omp_get_thread_num), stays with
// OpenMP; a remark says why (an orphaned `omp for`, in a function a
// region calls, is launched: tests/lit/syntax/openmp-orphaned.cpp). Each result is checked on the checked simulator against
// the host (the directives behind the launches, on four threads) and
// against the build without the plugin.
// REQUIRES: openmp
// RUN: %weftxx -fopenmp -std=c++17 -fsyntax-only -fno-caret-diagnostics -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %weftxx -fopenmp -std=c++17 %s -o %t.exe %weft_link %openmp_link
// RUN: env OMP_NUM_THREADS=4 WEFT_BACKEND=host %t.exe > %t.host
// RUN: env OMP_NUM_THREADS=4 WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx -fopenmp -std=c++17 %s -o %t.plain %openmp_link && env OMP_NUM_THREADS=4 %t.plain | diff %t.host -
#include <cstdio>
#include <utility>

// (As <omp.h> declares it; clang 19 here has no <omp.h>.)
extern "C" int omp_get_thread_num(void);

// Two products in one region (PolyBench's 2mm in its OpenMP form): C89's
// variables declared before the region, private to each loop.
// CHECK: openmp-regions.cpp:[[@LINE+8]]:5: remark: weft: level 0 (i):
// CHECK: openmp-regions.cpp:[[@LINE+14]]:5: remark: weft: level 0 (i):
void twoProducts(int n, double alpha, const double *a, const double *b,
                 const double *c, double *tmp, double *d) {
  int i, j, k;
#pragma omp parallel
  {
#pragma omp for private(j, k)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) {
        tmp[i * n + j] = 0;
        for (k = 0; k < n; ++k)
          tmp[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
      }
#pragma omp for private(j, k)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) {
        d[i * n + j] *= 0.5;
        for (k = 0; k < n; ++k)
          d[i * n + j] += tmp[i * n + k] * c[k * n + j];
      }
  }
}

// A time loop inside the region, a `single` block swapping the grids
// between its worksharing loops, a `nowait` loop and a value every thread
// computes alike.
// CHECK: openmp-regions.cpp:[[@LINE+13]]:7: remark: weft: level 0 (i):
// CHECK: openmp-regions.cpp:[[@LINE+16]]:7: remark: weft: level 0 (i):
void relax(int n, int steps, float *cur, float *next, float *out) {
#pragma omp parallel
  {
    const float w = 0.25f;
    for (int s = 0; s < steps; ++s) {
#pragma omp single
      {
        next[0] = cur[0];
        next[n - 1] = cur[n - 1];
      }
#pragma omp for nowait
      for (int i = 1; i < n - 1; ++i)
        next[i] = cur[i] + w * (cur[i - 1] - 2 * cur[i] + cur[i + 1]);
#pragma omp barrier
#pragma omp for schedule(dynamic, 4)
      for (int i = 0; i < n; ++i)
        cur[i] = next[i];
    }
  }
  for (int i = 0; i < n; ++i)
    out[i] = cur[i];
}

// A worksharing loop under an `if` of the region, and a loop beside a
// statement every thread runs alike.
// CHECK: openmp-regions.cpp:[[@LINE+7]]:7: remark: weft: level 0 (i):
// CHECK: openmp-regions.cpp:[[@LINE+10]]:5: remark: weft: level 0 (i):
void clear(int n, double *a, double *b, bool c) {
#pragma omp parallel
  {
    if (c) {
#pragma omp for
      for (int i = 0; i < n; ++i)
        a[i] = 0.5 * i;
    }
#pragma omp for simd
    for (int i = 0; i < n; ++i)
      b[i] = a[i] + 1;
    b[0] = 7;
  }
}

// What each thread holds of its own stays with OpenMP: an array declared
// in the region; a value read by the loop where the region asks which
// thread it is.
// CHECK: openmp-regions.cpp:[[@LINE+10]]:7: remark: weft: this OpenMP loop stays with OpenMP: 'own' is each thread's own in the parallel region (declared inside it, or private to it): the launch, run by one thread, would see that thread's alone
// CHECK-NEXT: note: declare 'own' before the region, so that the team shares it
// CHECK: openmp-regions.cpp:[[@LINE+14]]:14: remark: weft: this OpenMP loop stays with OpenMP: 'f' is each thread's own in the parallel region (declared inside it, or private to it), and the region asks which thread it is: the launch, run by one thread, would see that thread's alone
// CHECK-NEXT: note: declare 'f' before the region, so that the team shares it
void ownData(int n, double *a, double *sums) {
#pragma omp parallel
  {
    double own[8] = {0};
#pragma omp for
    for (int i = 0; i < 8; ++i)
      own[i] = i;
    if (omp_get_thread_num() == 0)
      sums[0] += 1 + own[0];
    double f = sums[1] + 2.0;
#pragma omp for
    for (int i = 0; i < n; ++i)
      a[i] = f * i;
  }
}

// A worksharing loop in a function a region calls: orphaned, launched
// where the team agrees on what it reads.
// CHECK: openmp-regions.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i):
void scale(int n, double *a) {
#pragma omp for
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}

// A loop inside another construct would launch as often as the construct
// runs it: a weft loop in a region (once per thread) runs as written, with
// a warning, and a parallel for nested in a region's single block stays
// with OpenMP. (Not called: every thread of the region adds.)
// CHECK: openmp-regions.cpp:{{14[34]}}:{{[59]}}: warning: this weft loop runs as written: weft takes a loop inside an OpenMP construct only as a '#pragma omp for' of a parallel region
// CHECK-NEXT: note: mark the loop '#pragma omp for' instead, or move it out of the construct
// CHECK: openmp-regions.cpp:[[@LINE+9]]:1: remark: weft: this OpenMP loop stays with OpenMP: weft takes a loop inside an OpenMP construct only as a '#pragma omp for' of a parallel region
void insideConstructs(double *a, int n) {
#pragma omp parallel
  {
#pragma weft parallel for
    for (int i = 0; i < n; ++i)
      a[i] += 1;
#pragma omp single
    {
#pragma omp parallel for
      for (int i = 0; i < n; ++i)
        a[i] += 2;
    }
  }
}

// Data the loop reaches only through a lambda defined before the region
// (the region captures the lambda, not the data): the launch names it as
// the lambda's capture (found by tests/fuzz/nests.py, seed 1213, program
// 235: the launch could not name it, and the loop stayed with OpenMP).
// CHECK: openmp-regions.cpp:[[@LINE+6]]:5: remark: weft: level 0 (i):
void throughLambda(int n, const double *a, double *b) {
  auto At = [&](int i) { return a[i] * 0.5; };
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      b[i] = At(i) + 1;
  }
}

// Loops nested in a target construct run where OpenMP's offload runs them.
// CHECK: openmp-regions.cpp:[[@LINE+4]]:1: remark: weft: this OpenMP loop stays with OpenMP: weft takes a loop inside an OpenMP construct only as a '#pragma omp for' of a parallel region
// CHECK: openmp-regions.cpp:[[@LINE+7]]:1: remark: weft: this OpenMP loop stays with OpenMP: weft takes '#pragma omp parallel for' loops, not '#pragma omp teams distribute parallel for'
void inTarget(double *a, int n) {
#pragma omp target map(tofrom : a[0 : n])
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] += 1;
#pragma omp target map(tofrom : a[0 : n])
#pragma omp teams distribute parallel for
  for (int i = 0; i < n; ++i)
    a[i] += 2;
}

// RAN-COUNT-8: weft: loop at {{.*}}openmp-regions.cpp:{{[0-9]+}}:{{[357]}}: {{[0-9]+}} calls on sim, 0 on the host
// RAN-NOT: weft: loop at
int main() {
  const int n = 24;
  static double a[n * n], b[n * n], c[n * n], tmp[n * n], d[n * n];
  for (int i = 0; i < n * n; ++i) {
    a[i] = (i % 7) * 0.25;
    b[i] = (i % 5) * 0.5;
    c[i] = (i % 3) - 1.0;
    d[i] = i % 11;
  }
  twoProducts(n, 1.5, a, b, c, tmp, d);
  double s = 0;
  for (int i = 0; i < n * n; ++i)
    s += d[i] * (i % 13);
  std::printf("products %.6f\n", s);

  static float cur[100], next[100], out[100];
  for (int i = 0; i < 100; ++i)
    cur[i] = (i * 37) % 17;
  relax(100, 5, cur, next, out);
  std::printf("relax %g %g %g\n", out[1], out[50], out[98]);

  static double x[100], y[100], sums[4];
  clear(100, x, y, true);
  clear(100, x, y, false);
  std::printf("clear %g %g %g\n", x[99], y[0], y[99]);
  ownData(100, x, sums);
  std::printf("own %g %g\n", x[3], x[99]);
#pragma omp parallel
  scale(100, x);
  std::printf("scale %g\n", x[99]);
  throughLambda(100, x, y);
  std::printf("lambda %g %g\n", y[0], y[99]);
}

// With WEFT_PROFILE the second call of a loop outside a region runs its
// directive on the team instead, timed (the rewrite tells the runtime where
// it ends): the results stay the host's.
// RUN: env OMP_NUM_THREADS=4 WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_PROFILE=1 %t.exe > %t.profiled 2> %t.profile
// RUN: diff %t.host %t.profiled
// RUN: FileCheck %s --check-prefix=PROFILE < %t.profile
// PROFILE: 1 on the host (its loop {{.*}} a call; last: WEFT_PROFILE timed its host loop on this call)
