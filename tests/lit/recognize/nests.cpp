// The nest IR of the canonical nests: levels, reductions at inner levels,
// captures classified by use, and each span subscript as an affine function
// of the parallel indices. Each program also runs on the checked simulator.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <algorithm>

void sumRows(std::span<const float> m, int rows, int cols,
             std::span<float> out) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float s = 0;
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < cols; ++j)
      s += m[i * cols + j];
    out[i] = s;
  }
}
// CHECK: nest at {{.*}}nests.cpp:[[@LINE-8]]:3
// CHECK-NEXT: param 0 rows: scalar of int
// CHECK-NEXT: param 1 cols: scalar of int
// CHECK-NEXT: param 2 m: read span of const float
// CHECK-NEXT: param 3 out: written span of float
// CHECK-NEXT: level 0 at {{.*}}: int i in [0, $rows) step 1
// CHECK-NEXT: decl float s = float(0)
// CHECK-NEXT: level 1 at {{.*}}nests.cpp:[[@LINE-12]]:5: int j in [0, $cols) step 1, reduction(+: s)
// CHECK-NEXT: (s += $m[unsigned long(((i * $cols) + j))])
// CHECK-NEXT: ($out[unsigned long(i)] = s)
// CHECK-NEXT: access $m[unsigned long(((i * $cols) + j))] read in level 1: affine i*$cols j*1 + 0
// CHECK-NEXT: access $out[unsigned long(i)] write in level 0: affine i*1 + 0

void sumCols(std::span<const float> m, int rows, int cols,
             std::span<float> out) {
#pragma weft parallel for
  for (int j = 0; j < cols; ++j) {
    float s = 0;
#pragma weft parallel for reduction(+: s)
    for (int i = 0; i < rows; ++i)
      s += m[i * cols + j];
    out[j] = s;
  }
}
// CHECK: nest at {{.*}}nests.cpp:[[@LINE-8]]:3
// CHECK: level 1 at {{.*}}: int i in [0, $rows) step 1, reduction(+: s)
// CHECK: access $m[{{.*}}] read in level 1: affine j*1 i*$cols + 0
// CHECK-NEXT: access $out[unsigned long(j)] write in level 0: affine j*1 + 0

// CSR sparse matrix-vector product: rows delimited by an offsets span, the
// inner bounds depend on the outer index, x is read indirectly.
void spmv(std::span<const int> offsets, std::span<const int> col,
          std::span<const double> val, std::span<const double> x,
          std::span<double> y) {
#pragma weft parallel for
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    double acc = 0;
#pragma weft parallel for reduction(+: acc)
    for (int k = offsets[r]; k < offsets[r + 1]; ++k)
      acc += val[k] * x[col[k]];
    y[r] = acc;
  }
}
// CHECK: nest at {{.*}}nests.cpp:[[@LINE-8]]:3
// CHECK: level 1 at {{.*}}: int k in [$offsets[r], $offsets[(r + unsigned long(1))]) step 1, reduction(+: acc)
// CHECK: access $offsets[r] read in level 0: affine r*1 + 0
// CHECK-NEXT: access $offsets[(r + unsigned long(1))] read in level 0: affine r*1 + 1
// CHECK-NEXT: access $val[unsigned long(k)] read in level 1: affine k*1 + 0
// CHECK-NEXT: access $x[unsigned long($col[unsigned long(k)])] read in level 1: not affine
// CHECK-NEXT: access $col[unsigned long(k)] read in level 1: affine k*1 + 0

// A 2D five-point stencil over a row-major grid, with a local row offset.
void stencil(std::span<const float> in, std::span<float> out, int n, int m,
             float w) {
#pragma weft parallel for
  for (int i = 1; i < n - 1; ++i)
#pragma weft parallel for
    for (int j = 1; j < m - 1; ++j) {
      const int row = i * m;
      out[row + j] = w * in[row + j] +
                     (1 - w) * 0.25f *
                         (in[row + j - 1] + in[row + j + 1] +
                          in[row - m + j] + in[row + m + j]);
    }
}
// CHECK: nest at {{.*}}nests.cpp:[[@LINE-10]]:3
// CHECK: level 1 at {{.*}}: int j in [1, ($m - 1)) step 1
// CHECK-NEXT: decl const int row = (i * $m)
// CHECK: access $out[unsigned long((row + j))] write in level 1: affine i*$m j*1 + 0
// CHECK-NEXT: access $in[unsigned long((row + j))] read in level 1: affine i*$m j*1 + 0
// CHECK-NEXT: access $in[unsigned long(((row + j) - 1))] read in level 1: affine i*$m j*1 + -1
// CHECK-NEXT: access $in[unsigned long(((row + j) + 1))] read in level 1: affine i*$m j*1 + 1
// CHECK-NEXT: access $in[unsigned long(((row - $m) + j))] read in level 1: affine i*$m j*1 + -$m
// CHECK-NEXT: access $in[unsigned long(((row + $m) + j))] read in level 1: affine i*$m j*1 + $m

// A max reduction with std::max, and a product.
void extremes(std::span<const int> v, int rows, int cols,
              std::span<int> maxima, std::span<long> products) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    int mx = v[i * cols];
    long p = 1;
#pragma weft parallel for reduction(max: mx) reduction(*: p)
    for (int j = 0; j < cols; ++j) {
      mx = std::max(mx, v[i * cols + j]);
      p = p * (v[i * cols + j] % 3 + 1);
    }
    maxima[i] = mx;
    products[i] = p;
  }
}
// CHECK: nest at {{.*}}nests.cpp:[[@LINE-12]]:3
// CHECK: level 1 at {{.*}} step 1, reduction(max: mx), reduction(*: p)
// CHECK-NEXT: (mx = weft::max(mx, $v[{{.*}}]))
// CHECK-NEXT: (p = (p * long((($v[{{.*}}] % 3) + 1))))

#ifdef WITH_MAIN
#include <cstdio>
#include <vector>
int main() {
  const int R = 37, C = 53;
  std::vector<float> M(R * C), Rows(R), Cols(C);
  for (int I = 0; I < R * C; ++I)
    M[I] = static_cast<float>((I * 7) % 13) - 6.0f;
  sumRows(M, R, C, Rows);
  sumCols(M, R, C, Cols);
  std::vector<int> Off = {0, 2, 2, 5, 9}, Col = {0, 3, 1, 2, 3, 0, 1, 2, 3};
  std::vector<double> Val = {1, 2, 3, 4, 5, 6, 7, 8, 9}, X = {1, -1, 2, 0.5},
                      Y(4);
  spmv(Off, Col, Val, X, Y);
  std::vector<float> Out(R * C, 0.0f);
  stencil(M, Out, R, C, 0.5f);
  std::vector<int> V(R * C);
  for (int I = 0; I < R * C; ++I)
    V[I] = (I * 31) % 101;
  std::vector<int> Max(R);
  std::vector<long> Prod(R);
  extremes(V, R, C, Max, Prod);
  double S = 0;
  for (float F : Rows)
    S += F;
  for (float F : Cols)
    S += 2 * F;
  for (double D : Y)
    S += 3 * D;
  for (int I = 0; I < R * C; ++I)
    S += Out[I] * (I % 11);
  for (int I = 0; I < R; ++I)
    S += Max[I] + static_cast<double>(Prod[I] % 1000003);
  std::printf("%.9g\n", S);
}
#endif
