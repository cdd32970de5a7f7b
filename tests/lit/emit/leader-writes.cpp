// A level's statement that writes a span is made by one thread (the leader
// of the threads the levels inside it spread over); where the others read
// that span too and all of them work on the same iterations (here one row
// a block), the write is fenced by a barrier on each side: a later warp
// reads neither the old value after the write nor the new one before it.
// Where the threads inside are one warp of several a block (a row a
// warp), the write is fenced by the warp's wait instead. A span the nest
// never reads back needs no fence. The checked simulator
// runs a block's threads last first (and with WEFT_SIM_ORDER=forward first
// first): both orders match the host.
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: grep -l "First" %t.k/*.cu | xargs cat | FileCheck %s
// RUN: grep -l "Out\[" %t.k/*.cu | xargs cat | FileCheck %s --check-prefix=SUM
// RUN: grep -l "(P\[" %t.k/*.cu | xargs cat | FileCheck %s --check-prefix=WARP
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_ORDER=forward %t.exe > %t.fwd
// RUN: diff %t.host %t.fwd
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// Each row: its first element grows by one, and the rest lose the new
// value, which every thread of the row's block reads (whole numbers: the
// sums below are exact in any order).
// CHECK: weft::barrier();
// CHECK-NEXT: if (weft::thread_idx(0) == 0)
// CHECK-NEXT: (A[{{.*}}] = (A.ld({{.*}}) + ((float)1)));
// CHECK-NEXT: weft::barrier();
void normalizeRows(std::span<float> A, int Rows, int Columns) {
#pragma weft parallel for dim(y) block(1)
  for (int I = 0; I < Rows; ++I) {
    A[I * Columns] = A[I * Columns] + 1;
    const float First = A[I * Columns];
#pragma weft parallel for dim(x) block(128)
    for (int J = 1; J < Columns; ++J)
      A[I * Columns + J] -= First;
  }
}

// Out is only written: its leader's write needs no barrier (nor does any
// of its kernels, which combine over a warp or in a second kernel).
// SUM: if (weft::thread_idx(0) == 0)
// SUM-NEXT: (Out[{{.*}}] = Sum);
// SUM-NOT: weft::barrier();
void sumRows(std::span<const float> A, std::span<float> Out, int Rows,
             int Columns) {
#pragma weft parallel for dim(y) block(1)
  for (int I = 0; I < Rows; ++I) {
    float Sum = 0;
#pragma weft parallel for dim(x) block(32) reduction(+: Sum)
    for (int J = 0; J < Columns; ++J)
      Sum += A[I * Columns + J];
    Out[I] = Sum;
  }
}

// Rows a warp each, four a block: each step's sum reads the elements the
// row's leader wrote in the steps before (whole numbers again, below 2^24).
// WARP: weft::warp_sync();
// WARP-NEXT: if (weft::thread_idx(0) == 0)
// WARP-NEXT: (P[{{.*}}] = Sum);
// WARP-NEXT: weft::warp_sync();
// WARP-NOT: weft::barrier();
void prefixRows(std::span<float> P, int Rows, int Columns) {
#pragma weft parallel for dim(y) block(4)
  for (int I = 0; I < Rows; ++I)
    for (int T = 1; T < Columns; ++T) {
      float Sum = 0;
#pragma weft parallel for dim(x) block(32) reduction(+: Sum)
      for (int K = 0; K < T; ++K)
        Sum += P[I * Columns + K];
      P[I * Columns + T] = Sum;
    }
}

int main() {
  const int Rows = 9, Columns = 300, Steps = 20;
  std::vector<float> A(Rows * Columns), Out(Rows), P(Rows * Steps, 1.0f);
  for (int I = 0; I < Rows; ++I)
    P[I * Steps] = static_cast<float>(I + 1);
  prefixRows(P, Rows, Steps);
  for (int I = 0; I < Rows; ++I)
    std::printf("prefix row %d: %.1f\n", I, P[I * Steps + Steps - 1]);
  for (int I = 0; I < Rows * Columns; ++I)
    A[I] = static_cast<float>(I % 17);
  normalizeRows(A, Rows, Columns);
  sumRows(A, Out, Rows, Columns);
  for (int I = 0; I < Rows; ++I)
    std::printf("row %d: %.1f\n", I, Out[I]);
}
