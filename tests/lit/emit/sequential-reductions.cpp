// A sequential loop's marked loop whose iterations each sum a marked
// reduction: the block's threads are the outer level's along one dimension
// and the reduction's lanes along x (a warp each), every thread running the
// outer level's loop, so the block waits for all of them after it. The
// search scores a sequential loop's parallelism against one block's threads
// (it runs in one) and a reduction over fewer iterations than a warp as
// that much of a coalesced warp.
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k -fplugin-arg-weft-remarks %weft_link 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: cat %t.k/*.cu | FileCheck %s
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// Column S of a 16-wide block becomes, row by row, the sum of the row's
// columns before it less itself (whole numbers below 2^24: exact in any
// order).
void cascade(std::span<float> A, int N, int Offset) {
#pragma weft sequential for
  for (int S = Offset + 1; S < Offset + 16; ++S) {
#pragma weft parallel for
    for (int J = Offset; J < Offset + 16; ++J) {
      float Sum = 0;
#pragma weft parallel for reduction(+ : Sum)
      for (int K = Offset; K < S; ++K)
        Sum += A[J * N + K];
      A[J * N + S] = Sum - A[J * N + S];
    }
  }
}
// REMARK: sequential-reductions.cpp:[[@LINE-11]]:3: remark: weft: sequential loop
// REMARK: sequential-reductions.cpp:[[@LINE-10]]:5: remark: weft: level 1 (J): dim {{[yz]}}, block 16, Span(all)
// REMARK: sequential-reductions.cpp:[[@LINE-8]]:7: remark: weft: level 2 (K): dim x, block 32, Span(all)
// REMARK-SAME: coalescing: 1 access(es) have unit stride in this index
// REMARK-SAME: reduction(+: Sum) combined in warp shuffles
// CHECK: Sum = weft::combine<weft::reduce_add>(weft_init_Sum, weft::warp_allreduce<weft::reduce_add>(Sum, WEFT_BLOCK_X));
// CHECK: if (weft::thread_idx(0) == 0)
// CHECK: weft::inner_level(false);
// CHECK-NEXT: weft::barrier();

int main() {
  const int N = 40;
  std::vector<float> A(N * N);
  for (int I = 0; I < N * N; ++I)
    A[I] = static_cast<float>(I % 7) - 3;
  cascade(A, N, 8);
  double Total = 0;
  for (float V : A)
    Total += V;
  std::printf("%.1f %.1f %.1f\n", Total, A[8 * N + 23], A[23 * N + 23]);
}
