// std::mdspan (C++23, libc++; libstdc++ 12 has no <mdspan>): A[i, j]
// flattened row-major with static extents as constants and run-time ones as
// scalars the launch passes (A.extent(r), also in bounds), a region keeping
// one resident (and a weft::submatrix of it updated); against the
// plugin-free build on the checked simulator; layouts other than
// layout_right refused.
// REQUIRES: mdspan
// RUN: %weftxx -std=c++23 -stdlib=libc++ -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: %weftxx -std=c++23 -stdlib=libc++ %s -o %t.exe %weft_link
// RUN: %clangxx -std=c++23 -stdlib=libc++ %s -o %t.plain
// RUN: %t.plain > %t.expected
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.expected %t.sim
// RUN: not %weftxx -std=c++23 -stdlib=libc++ -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>
#include <mdspan>
#include <vector>

using Matrix = std::mdspan<float, std::dextents<std::size_t, 2>>;
using Rows4 = std::mdspan<const float, std::extents<int, 4, std::dynamic_extent>>;

// CHECK: nest at {{.*}}mdspan.cpp:[[@LINE+10]]
// CHECK: param 0 A: written span of float
// CHECK: param 1 A_extent0: scalar of unsigned long
// CHECK: param 2 A_extent1: scalar of unsigned long
// CHECK: param 3 B: read span of const float
// CHECK: param 4 B_extent1: scalar of int
// CHECK: level 0 {{.*}}: unsigned long i in [unsigned long(0), unsigned long($A_extent0))
// CHECK: access $A[((long(i) * long($A_extent1)) + long(j))] write in level 1: affine i*$A_extent1 j*1 + 0
void scaleRows(Matrix A, Rows4 B) {
#pragma weft parallel for
  for (std::size_t i = 0; i < A.extent(0); ++i)
#pragma weft parallel for
    for (std::size_t j = 0; j < A.extent(1); ++j)
      A[i, j] = B[i % 4, j] * 2 + i;
}

// Every extent static: constants, no scalar passed. (The loops over j and
// k are found parallel: each (i, j, k) is its own element.)
// CHECK: nest at {{.*}}mdspan.cpp:[[@LINE+5]]
// CHECK-NOT: param 1
// CHECK: access $C[{{.*}}] write in level 2: affine i*35 j*7 k*1 + 0
void fill(std::mdspan<double, std::extents<std::size_t, 3, 5, 7>> C) {
#pragma weft parallel for
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < C.extent(2); ++k)
        C[i, j, k] = i * 100 + j * 10 + k;
}

int main() {
  std::vector<float> a(10 * 7), b(4 * 7);
  for (int i = 0; i < 28; ++i)
    b[i] = i;
  Matrix A(a.data(), 10, 7);
  {
    weft::region Resident(A);
    scaleRows(A, Rows4(b.data(), 7));
    // A block of it to the host and back (extent(1) its pitch).
    auto Block = weft::submatrix(A, 2, 1, 3, 4);
    Resident.update_host(Block);
    A[3, 2] += 1000;
    Resident.update_device(Block);
    scaleRows(A, Rows4(b.data(), 7));
  }
  std::vector<double> c(105);
  fill(std::mdspan<double, std::extents<std::size_t, 3, 5, 7>>(c.data()));
  double Sum = 0;
  for (float x : a)
    Sum += x;
  for (double x : c)
    Sum += x;
  std::printf("%g %g %g\n", Sum, a[69], c[104]);
}

#ifdef REFUSED
void columnMajor(std::mdspan<float, std::dextents<int, 2>, std::layout_left> A) {
#pragma weft parallel for
  for (int i = 0; i < A.extent(0); ++i)
    A[i, 0] = 0;
  // REFUSED: mdspan.cpp:[[@LINE-2]]:23: error: 'A' of type '{{.*}}' cannot be captured: only a std::mdspan with layout_right and the default accessor is one row-major block
}
void variableRank(Matrix A, int r) {
#pragma weft parallel for
  for (std::size_t i = 0; i < A.extent(r); ++i)
    A[i, 0] = 0;
  // REFUSED: mdspan.cpp:[[@LINE-2]]:40: error: the rank of 'extent' must be a constant below 2
}
#endif
