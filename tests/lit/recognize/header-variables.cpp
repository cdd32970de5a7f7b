// Variables a parallel loop's header sets beside its index, as C and C++
// code writes them: a bound computed once (`int i = 0, n = v.size()`), an
// index or a pointer stepping with the index (`++i, --j`, `i++, p++`,
// `base += cols`). Each iteration computes its own value of each from the
// index, so the affine analysis sees through them; a header variable the
// body changes, a bound that steps, or a floating-point value summed step
// by step is an error.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.sim -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: nest at {{.*}}header-variables.cpp:[[@LINE+5]]:3
// CHECK: decl int j = (($n - 1) - ((i - 0) * 1l))
// CHECK: access $v[unsigned long(j)] read in level 0: affine i*-1 + $n - 1
void reversed(const std::vector<float> &v, std::vector<float> &w, int n) {
#pragma weft parallel for
  for (int i = 0, j = n - 1; i < n; ++i, --j)
    w[i] = v[j];
}

// CHECK: nest at {{.*}}header-variables.cpp:[[@LINE+4]]:3
// CHECK: level 0 at {{.*}}: int i in [0, int(int(size($v)))) step 1
void sized(std::vector<float> &v) {
#pragma weft parallel for
  for (int i = 0, n = (int)v.size(); i < n; i++)
    v[i] = v[i] * 2 + 1;
}

// C89: the index, a second index and a pointer set in the header.
// CHECK: nest at {{.*}}header-variables.cpp:[[@LINE+8]]:3
// CHECK: decl int j = (1 + ((i - 0) * 1l))
// CHECK: decl const long weft_row{{[0-9]+}}_p = (long((i - 0)) * 1l)
// CHECK: access $b[j] read in level 0: affine i*1 + 1
void differences(float *a, const float *b, int n) {
  int i, j;
  float *p;
#pragma weft parallel for extent(a, b: n)
  for (i = 0, j = 1, p = a; i < n - 1; i++, j++, p++)
    *p = b[j] - b[i];
}

// Counting down by 2, a second index counting up by 3.
// CHECK: nest at {{.*}}header-variables.cpp:[[@LINE+4]]:3
// CHECK: decl int k = (0 + (((($n - 1) - i) / 2l) * 3))
void strided(const std::vector<float> &v, std::vector<float> &w, int n) {
#pragma weft parallel for
  for (int i = n - 1, k = 0; i >= 0; i -= 2, k += 3)
    w[i] = v[k % n];
}

// A row's offset stepping by a run-time length, the inner bound computed
// once.
// CHECK: nest at {{.*}}header-variables.cpp:[[@LINE+5]]:3
// CHECK: decl int base = (0 + ((r - 0) * $cols))
// CHECK: access $a[unsigned long((base + c))] read-write in level 1: affine r*$cols c*1 + 0
void rows(std::vector<float> &a, int rows, int cols) {
#pragma weft parallel for
  for (int r = 0, base = 0; r < rows; ++r, base += cols)
#pragma weft parallel for
    for (int c = 0, m = cols; c < m; ++c)
      a[base + c] += r - c;
}

int main() {
  const int N = 1000;
  std::vector<float> v(N), w(N), a(N), b(N);
  for (int i = 0; i < N; ++i) {
    v[i] = i % 17;
    b[i] = (i * 7) % 23;
  }
  reversed(v, w, N);
  sized(w);
  differences(a.data(), b.data(), N);
  strided(v, w, N);
  rows(a, 20, 50);
  double T = 0;
  for (int i = 0; i < N; ++i)
    T += w[i] * (i + 1) + a[i] * (i % 7);
  std::printf("%.3f\n", T);
}
// RAN-COUNT-5: calls on sim, 0 on the host

#ifdef REFUSED
void boundSteps(std::vector<float> &v, int n) {
  int i, j;
#pragma weft parallel for
  for (i = 0, j = n; i < j; ++i, --j)
    v[i] = v[j - 1];
  // REFUSED: header-variables.cpp:[[@LINE-2]]:26: error: 'j' steps with the loop's index: a bound of the loop cannot depend on it
}
void bodyChanges(std::vector<float> &v, int n) {
#pragma weft parallel for
  for (int i = 0, j = 0; i < n; ++i) {
    j += 2;
    // REFUSED: header-variables.cpp:[[@LINE-1]]:5: error: 'j' is set by the loop's header; its body may read it, not change it
    v[i] = j;
  }
}
void startReadsHeader(std::vector<float> &v, int n) {
#pragma weft parallel for
  for (int i = 0, j = i + 1; i < n; ++i, ++j)
    // REFUSED: header-variables.cpp:[[@LINE-1]]:23: error: the initial value of 'j' reads 'i', which the same header sets
    v[i] = j;
}
void floatSteps(std::vector<float> &v, int n, float h) {
  int i;
  float x;
#pragma weft parallel for
  for (i = 0, x = 0; i < n; ++i, x += h)
    v[i] = x * x;
  // REFUSED: header-variables.cpp:[[@LINE-2]]:34: error: 'x' steps with the loop's index, but only an integer or a pointer can
}
void stepChanges(std::vector<float> &v, int n) {
  int step = 1;
#pragma weft parallel for
  for (int i = 0, j = 0; i < n; ++i, j += step)
    // REFUSED: header-variables.cpp:[[@LINE-1]]:38: error: the increment of a parallel loop may step its index and the variables its header declares beside it, each once, by a value the loop does not change
    v[i] = step++;
}
#endif
