// What keeps an OpenMP loop with OpenMP, found in a function the loop
// calls: the remark is at the loop, a note points where in the function,
// and one at the call, each under its own remark (a reason the loop's own
// arguments give stays where they are).
// REQUIRES: openmp
// RUN: %weftxx -fopenmp -std=c++17 -fsyntax-only -fno-caret-diagnostics -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <cstdio>

static int visits;

static double pick(const double *x, const int *at, int k) {
  return x[at[k]] + x[at[k + 1]];
}

static double counted(double v) {
  ++visits;
  return v * 2;
}

void gatherPairs(const double *x, const int *nodes, double *res, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    res[i] = pick(x, nodes, 2 * i);
  // CHECK: openmp-callee-remarks.cpp:[[@LINE-1]]:19: remark: weft: this OpenMP loop stays with OpenMP: weft cannot know how many elements pointer 'x' points to
  // CHECK-NEXT: note: state it in the mark
}

void twice(const double *x, double *y, int n) {
  // CHECK: openmp-callee-remarks.cpp:[[@LINE+1]]:1: remark: weft: this OpenMP loop stays with OpenMP: {{.*}}'visits'
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = counted(x[i]);
  // CHECK-NEXT: note: pass 'visits' as an argument
  // CHECK-NEXT: openmp-callee-remarks.cpp:16:{{[0-9]+}}: note: found here, in a function the loop calls
  // CHECK-NEXT: openmp-callee-remarks.cpp:[[@LINE-3]]:12: note: called from the weft loop here
}
