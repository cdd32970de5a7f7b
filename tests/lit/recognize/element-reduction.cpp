// reduction(op: tmp[i]): an inner parallel loop accumulating into an
// element of a span whose subscript the loop leaves unchanged (or into
// c[i][j] of a 2-D array or of rows held apart). The element
// goes through a local of the enclosing level, loaded before the loop and
// stored after it, and reduces as a scalar. On the checked simulator
// against the host; the forms refused, with their fixes.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=DIMS
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: remark: weft: level 1 (j): {{.*}}reduction(+: tmp[i])
// CHECK: remark: weft: level 1 (j): {{.*}}reduction(max: best[r])
// CHECK: decl float weft_reduced_tmp0 = $tmp[unsigned long(i)]
// CHECK-NEXT: level 1 at {{.*}}, reduction(+: weft_reduced_tmp0)
// CHECK-NEXT: (weft_reduced_tmp0 += ($a[unsigned long(((i * $m) + j))] * $x[unsigned long(j)]))
// CHECK-NEXT: ($tmp[unsigned long(i)] = weft_reduced_tmp0)
void matvec(std::span<const float> a, std::span<const float> x,
            std::span<float> tmp, int n, int m) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    tmp[i] = 0;
#pragma weft parallel for reduction(+: tmp[i])
    for (int j = 0; j < m; ++j)
      tmp[i] += a[i * m + j] * x[j];
    tmp[i] *= 0.5f;
  }
}

// The element's subscript through a local of the enclosing level, a max,
// and the old value kept (no reset before the loop); the clause's spaces
// do not matter.
void rowMaxima(std::span<const double> a, std::span<double> best, int n,
               int m) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    const int r = n - 1 - i;
#pragma weft parallel for reduction(max: best[ r ])
    for (int j = 0; j < m; ++j)
      if (a[r * m + j] > best[r])
        best[r] = a[r * m + j];
  }
}

// An element of a 2-D array (one subscript a dimension), and of rows held
// apart (a std::vector of std::vectors).
// DIMS: remark: weft: level 2 (k): sequential
// DIMS: remark: weft: level 1 (j): {{.*}}reduction(+: sums[i][0])
constexpr int Side = 24;
float A2[Side][Side], B2[Side][Side], C2[Side][Side];
void product(float (&a)[Side][Side], float (&b)[Side][Side],
             float (&c)[Side][Side]) {
#pragma weft parallel for
  for (int i = 0; i < Side; ++i)
#pragma weft parallel for
    for (int j = 0; j < Side; ++j) {
      c[i][j] = 0;
#pragma weft parallel for reduction(+: c[i] [j])
      for (int k = 0; k < Side; ++k)
        c[i][j] += a[i][k] * b[k][j];
    }
}
void rowSums(const std::vector<std::vector<double>> &rows,
             std::vector<std::vector<double>> &sums) {
#pragma weft parallel for
  for (std::size_t i = 0; i < rows.size(); ++i) {
    sums[i][0] = 0;
#pragma weft parallel for reduction(+: sums[i][0])
    for (std::size_t j = 0; j < rows[i].size(); ++j)
      sums[i][0] += rows[i][j];
  }
}

#ifdef REFUSED
void refused(std::span<const float> a, std::span<float> tmp,
             std::span<float> out, int n, int m) {
  // REFUSED: element-reduction.cpp:[[@LINE+3]]:27: error: reduction element 'tmp[k]' is not used in the loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for reduction(+: tmp[k])
    for (int j = 0; j < m; ++j)
      tmp[i] += a[j];
  // REFUSED: element-reduction.cpp:[[@LINE+4]]:37: error: the subscript of reduction element 'tmp[j]' changes from one iteration of the loop to the next
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for reduction(+: tmp[j])
    for (int j = 0; j < m; ++j) tmp[j] += a[j];
  // REFUSED: element-reduction.cpp:[[@LINE+3]]:5: error: an element can be reduced by an inner parallel loop only
#pragma weft parallel for reduction(+: tmp[0])
  for (int i = 0; i < n; ++i)
    tmp[0] += a[i];
  // REFUSED: element-reduction.cpp:[[@LINE+5]]:40: error: the partial value of reduction element 'tmp[i]' cannot be used inside the loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for reduction(+: tmp[i])
    for (int j = 0; j < m; ++j) {
      tmp[i] += a[j]; out[i * m + j] = tmp[i];
    }
  // REFUSED: element-reduction.cpp:[[@LINE+5]]:45: error: no other element of 'tmp' can be used in the loop that reduces 'tmp[i]'
  // REFUSED-NEXT: note: read it before or after that loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for reduction(+: tmp[i])
    for (int j = 0; j < m; ++j) { tmp[i] += tmp[j]; }
}
#endif

int main() {
  const int n = 37, m = 1001;
  std::vector<float> a(n * m), x(m), tmp(n);
  std::vector<double> d(n * m), best(n, 2.5);
  for (int k = 0; k < n * m; ++k) {
    a[k] = static_cast<float>(k % 9) - 4;
    d[k] = (k * 37 % 101) * 0.05;
  }
  for (int j = 0; j < m; ++j)
    x[j] = static_cast<float>(j % 4) * 0.5f;
  matvec(a, x, tmp, n, m);
  rowMaxima(d, best, n, m);
  for (int i = 0; i < n; i += 6)
    std::printf("%d: %g %g\n", i, tmp[i], best[i]);
  for (int i = 0; i < Side; ++i)
    for (int j = 0; j < Side; ++j) {
      A2[i][j] = static_cast<float>((i + j) % 5);
      B2[i][j] = static_cast<float>((i * j) % 3);
    }
  product(A2, B2, C2);
  std::vector<std::vector<double>> rows(30), sums(30, std::vector<double>(1));
  for (int i = 0; i < 30; ++i)
    for (int j = 0; j < i * 3; ++j)
      rows[i].push_back((j % 4) * 0.25);
  rowSums(rows, sums);
  for (int i = 0; i < Side; i += 5)
    std::printf("%d: %g %g %g\n", i, C2[i][i], C2[i][Side - 1 - i],
                sums[i][0]);
}
