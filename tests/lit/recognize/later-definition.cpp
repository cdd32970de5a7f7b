// Functions a loop calls that are declared before it and defined later in
// the file, as C code orders them: the function holding the loop is
// rewritten at the end of the file, when their bodies are in view, and
// reaches code generation then. A static one, one the later one calls in
// turn, and an OpenMP loop calling one. On the checked simulator against
// the host, and against the program built without the plugin; a function
// defined nowhere in the file is still refused where it is called.
// REQUIRES: openmp
// RUN: %weftxx -fopenmp -std=c++17 -fsyntax-only -fno-caret-diagnostics -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %weftxx -fopenmp -std=c++17 %s -o %t.exe %weft_link %openmp_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx -fopenmp -std=c++17 %s -o %t.plain %openmp_link && %t.plain | diff %t.host -
// RUN: not %weftxx -std=c++17 -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdint>
#include <cstdio>

uint64_t step(uint64_t s, uint64_t n);
static double blend(double a, double b);

// CHECK-DAG: later-definition.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i):
void fill(uint64_t *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = step(1, i);
}

// CHECK-DAG: later-definition.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i):
void mix(const double *a, double *b, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; i++)
    b[i] = blend(a[i], b[i]);
}

#ifdef REFUSED
double elsewhere(double);
void refused(double *a, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; i++)
    a[i] = elsewhere(a[i]);
  // REFUSED: later-definition.cpp:[[@LINE-1]]:12: error: the body of 'elsewhere' is not visible here, so it cannot be compiled into the kernel
}
#endif

// RAN-COUNT-2: calls on sim, 0 on the host
int main() {
  static uint64_t out[1000];
  static double a[500], b[500];
  for (int i = 0; i < 500; i++) {
    a[i] = i * 0.5;
    b[i] = 500 - i;
  }
  fill(out, 1000);
  mix(a, b, 500);
  double s = 0;
  for (int i = 0; i < 500; i++)
    s += b[i];
  std::printf("%llu %llu %.17g\n", (unsigned long long)out[999],
              (unsigned long long)out[3], s);
}

// Held back too (its loop calls a function defined below it), yet
// called by mix's loop above: every body held back is restored before
// any is rewritten.
double scaled(double x);
static double half(double x) {
  double s = 0;
  for (int k = 0; k < 2; ++k)
    s += scaled(x);
  return s * 0.25;
}
double scaled(double x) { return x; }
static double blend(double a, double b) { return half(a) + half(b); }
uint64_t step(uint64_t s, uint64_t n) { return s * 6364136223846793005ull + n; }
