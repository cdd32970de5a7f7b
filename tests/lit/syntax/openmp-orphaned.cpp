// Orphaned worksharing loops, as the NAS Parallel Benchmarks write them: a
// `#pragma omp for` in a function that a parallel region calls. The
// function's locals and parameters are each thread's own, so the team
// first votes on the values its launch would read: where every thread
// holds the same, thread 0 launches; where they differ (each thread passes
// its own number), the directive runs on the team, as OpenMP runs it.
// Called outside any region, the loop launches as a team of one. Each
// result is checked on the checked simulator against the host (the
// directives, on four threads) and against the build without the plugin.
// REQUIRES: openmp
// RUN: %weftxx -fopenmp -std=c++17 -fsyntax-only -fno-caret-diagnostics -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %weftxx -fopenmp -std=c++17 %s -o %t.exe %weft_link %openmp_link
// RUN: env OMP_NUM_THREADS=4 WEFT_BACKEND=host %t.exe > %t.host
// RUN: env OMP_NUM_THREADS=4 WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx -fopenmp -std=c++17 %s -o %t.plain %openmp_link && env OMP_NUM_THREADS=4 %t.plain | diff %t.host -
#include <cstdio>

// (As <omp.h> declares it; clang 19 here has no <omp.h>.)
extern "C" int omp_get_thread_num(void);

#define N 16
static double u[N][N][5], rhs[N][N][5], out[N];
static int grid[2];
static double total, norms;

// NAS's add(): C89's variables, globals alone (nothing to vote on).
// CHECK: openmp-orphaned.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i):
static void add(void) {
  int i, j, m;
#pragma omp for
  for (i = 1; i < grid[0] - 1; i++)
    for (j = 1; j < grid[1] - 1; j++)
      for (m = 0; m < 5; m++)
        u[i][j][m] = u[i][j][m] + rhs[i][j][m];
}

// A parameter and a local every thread holds alike, and a reduction into
// a global the team shares.
// CHECK: openmp-orphaned.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i):
static void scaleAndSum(double factor) {
  const double by = factor * 0.5;
#pragma omp for reduction(+ : total)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      rhs[i][j][0] *= by;
      total += rhs[i][j][0];
    }
}

// A parameter each thread passes its own of (its number): the team runs
// the directive.
// CHECK: openmp-orphaned.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i):
static void copyColumn(int thread, double *to) {
#pragma omp for nowait
  for (int i = 0; i < N; i++)
    to[i] = rhs[i][1][1] + (thread >= 0 ? 1 : 0);
}

// A reduction into a global, reading data through a parameter.
// CHECK: openmp-orphaned.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i):
static void norm(const double *v) {
#pragma omp for reduction(+ : norms)
  for (int i = 0; i < N; i++)
    norms += v[i] * v[i];
}

// Data a local of the function holds is each thread's own, its
// iterations' scratch: where each iteration fills it before reading it,
// and nothing reads it after the loop, a copy of each iteration's own.
// CHECK: openmp-orphaned.cpp:[[@LINE+5]]:3: remark: weft: level 0 (i):
static void smooth(double *to) {
  double scratch[2];
  int i;
#pragma omp for
  for (i = 1; i < N - 1; i++) {
    scratch[0] = rhs[i - 1][0][0];
    scratch[1] = rhs[i + 1][0][0];
    to[i] = (scratch[0] + scratch[1]) * 0.5;
  }
}

// Elsewhere the launch would share one copy among the iterations.
// CHECK: openmp-orphaned.cpp:[[@LINE+7]]:5: remark: weft: this OpenMP loop stays with OpenMP: 'carried' is a local of the function around this orphaned loop, each OpenMP thread's own, and the loop writes it: the launch would share one copy among all iterations; not a copy of each iteration's own, as each iteration may read what an earlier one left: {{.*}}
// CHECK-NEXT: note: declare 'carried' inside the loop
static void carry(double *to) {
  double carried[2];
  int i;
#pragma omp for
  for (i = 1; i < N - 1; i++) {
    carried[0] = carried[1];
    carried[1] = rhs[i][0][0];
    to[i] = carried[0] + carried[1];
  }
}

// RAN: weft: {{.*}}: the team's threads hold different values of what the orphaned loop reads (locals of their own): the team runs it as OpenMP does
// RAN-NOT: the team's threads hold different values of what the orphaned
// RAN-DAG: weft: loop at {{.*}}openmp-orphaned.cpp:33:3: 4 calls on sim, 0 on the host
// RAN-DAG: weft: loop at {{.*}}openmp-orphaned.cpp:45:3: 4 calls on sim, 0 on the host
// RAN-DAG: weft: loop at {{.*}}openmp-orphaned.cpp:57:3: 0 calls on sim, 3 on the host (last: its team's threads hold different values of what it reads)
// RAN-DAG: weft: loop at {{.*}}openmp-orphaned.cpp:65:3: 3 calls on sim, 0 on the host
// RAN-DAG: weft: loop at {{.*}}openmp-orphaned.cpp:77:3: 3 calls on sim, 0 on the host
int main() {
  grid[0] = grid[1] = N;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int m = 0; m < 5; m++) {
        u[i][j][m] = i + j;
        rhs[i][j][m] = (i * 3 + j + m) % 7;
      }
  // Outside any region: a team of one.
  add();
  scaleAndSum(2.0);
#pragma omp parallel
  {
    for (int step = 0; step < 3; ++step) {
      add();
      scaleAndSum(1.0);
      copyColumn(omp_get_thread_num(), out);
#pragma omp barrier
      norm(out);
      smooth(out);
    }
  }
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int m = 0; m < 5; m++)
        sum += u[i][j][m] * (m + 1) + rhs[i][j][m];
  std::printf("%.17g %.17g %.17g\n", sum, total, norms);
  return 0;
}

// With WEFT_PROFILE the second call of a loop outside a region runs its
// directive on the team instead, timed (the rewrite tells the runtime where
// it ends): the results stay the host's.
// RUN: env OMP_NUM_THREADS=4 WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_PROFILE=1 %t.exe > %t.profiled 2> %t.profile
// RUN: diff %t.host %t.profiled
// RUN: FileCheck %s --check-prefix=PROFILE < %t.profile
// PROFILE: 1 on the host (its loop {{.*}} a call; last: WEFT_PROFILE timed its host loop on this call)
