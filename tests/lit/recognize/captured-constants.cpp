// A captured integer constant set from other captures that keep their
// values (`const int End = Offset + Width`, Offset a parameter the function
// only reads) is seen through by the affine analysis: a loop from Offset up
// to End has Width iterations, so that an inner reduction over it is summed
// over a warp's lanes rather than a whole block's. Where a variable it is
// set from may change (assigned anywhere in the function, or not const and
// declared elsewhere), the constant stays a symbol.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: rm -rf %t.k && %weftxx %s -DWITH_MAIN -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*_L27_*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

constexpr int Width = 32;

// Each row's dot products against the block of columns [Offset, End).
void rowSolve(std::span<float> A, int N, int Offset) {
  const int End = Offset + Width;
#pragma weft parallel for
  for (int I = End; I < N; ++I)
    for (int J = Offset; J < End; ++J) {
      float Sum = 0;
#pragma weft parallel for reduction(+ : Sum)
      for (int K = Offset; K < J; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
}
// CHECK: nest at {{.*}}captured-constants.cpp:[[@LINE-9]]:3
// CHECK: param {{[0-9]+}} End: scalar of int = ($Offset + 32)
// REMARK: captured-constants.cpp:[[@LINE-11]]:3: remark: weft: level 0 (I): dim y, block 8, Span(1)
// REMARK-SAME: the extent of level 1 (K) is at most 31 (its bounds over the loops around)
// REMARK: captured-constants.cpp:[[@LINE-9]]:7: remark: weft: level 1 (K): dim x, block 32, Span(all)
// REMARK-SAME: reduction(+: Sum) combined in warp shuffles
// The kernel's compiler sees the same: End as its definition.
// KERNEL: for (int J = Offset; (J < ((int)((Offset + 32)))); (++J))

// Offset is assigned after End is set: End is no longer Offset + 32.
void shifted(std::span<float> A, int N, int Offset) {
  const int End = Offset + Width;
  Offset += 1;
#pragma weft parallel for
  for (int I = End; I < N; ++I)
    for (int J = Offset; J < End; ++J) {
      float Sum = 0;
#pragma weft parallel for reduction(+ : Sum)
      for (int K = Offset; K < J; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
}
// CHECK: nest at {{.*}}captured-constants.cpp:[[@LINE-9]]:3
// CHECK-NOT: End: scalar of int =
// CHECK: level 0
// REMARK: captured-constants.cpp:[[@LINE-12]]:3: remark: weft: level 0 (I)
// REMARK-SAME: the extent of level 1 (K) is assumed to be

// End not const: a later assignment might change it.
void notConst(std::span<float> A, int N, int Offset) {
  int End = Offset + Width;
#pragma weft parallel for
  for (int I = End; I < N; ++I) {
    float Sum = 0;
#pragma weft parallel for reduction(+ : Sum)
    for (int K = Offset; K < End; ++K)
      Sum += A[I * N + K];
    A[I * N + Offset] = Sum;
  }
}
// CHECK: nest at {{.*}}captured-constants.cpp:[[@LINE-8]]:3
// CHECK-NOT: End: scalar of int =
// CHECK: level 0

// An unsigned constant: its literal keeps its type in the definition (the
// kernel prints the definition where the constant was).
void unsignedEnd(std::span<float> A, unsigned Offset) {
  const unsigned Stop = Offset + 8u;
#pragma weft parallel for
  for (unsigned I = Offset; I < Stop; ++I)
    A[I] *= 2.0f;
}
// CHECK: nest at {{.*}}captured-constants.cpp:[[@LINE-3]]:3
// CHECK: param {{[0-9]+}} Stop: scalar of unsigned int = ($Offset + 8u)

#ifdef WITH_MAIN
int main() {
  const int N = 80;
  std::vector<float> A(N * N), B, C;
  // The rows of the block of columns are a shift (one term of each dot
  // product is nonzero): whole numbers, exact in any order of summing.
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J)
      A[I * N + J] = I < 40 ? (J == I + 1 ? 1.0f : 0.0f)
                            : static_cast<float>((I * N + J) % 7) - 3;
  B = A;
  C = A;
  rowSolve(A, N, 8);
  shifted(B, N, 8);
  notConst(C, N, 8);
  unsignedEnd(C, 3u);
  double Total = 0;
  for (int I = 0; I < N * N; ++I)
    Total += A[I] + B[I] + C[I];
  std::printf("%.3f\n", Total);
}
#endif
