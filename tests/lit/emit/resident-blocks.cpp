// Resident blocks: where a sequential nest (one block of threads) reads and
// writes a span only inside a small block of rows and columns of a matrix
// (lud's diagonal block), the block of threads loads that block into
// shared memory before the loop, works there, and stores it back after.
// Checked on the simulator against the host: blocks of a constant size and
// of a size known at run time (larger than fits: the span in place), on,
// off, too small, other block sizes the tuner tries; and where it must not
// apply.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: for d in %t.k/*.desc; do grep -h '^loc\|^keeps' $d | tr '\n' ' '; echo; done | FileCheck %s --check-prefix=KEEPS
// RUN: cat $(grep -l 'weft::resident_block<float, WEFT_RESIDENT0, decltype(A)> weft_resident0{weft_resident0_buffer, A, ((weft::index_t)N), ((weft::index_t)Offset), ((weft::index_t)32)' %t.k/*.cu) | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64 2> %t.err64
// RUN: count 0 < %t.err64
// RUN: diff %t.host %t.sim64
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_STAGING=0 %t.exe > %t.off 2> %t.err.off
// RUN: count 0 < %t.err.off
// RUN: diff %t.host %t.off
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_UNROLL_STEPS=0 %t.exe > %t.rolled 2> %t.err.rolled
// RUN: count 0 < %t.err.rolled
// RUN: diff %t.host %t.rolled
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_RESIDENT0=100 %t.exe > %t.small 2> %t.err.small
// RUN: count 0 < %t.err.small
// RUN: diff %t.host %t.small
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_THREADS=2 WEFT_TUNE=search=random,eager,budget=6 %t.exe > %t.tuned 2> %t.err.tuned
// RUN: count 0 < %t.err.tuned
// RUN: diff %t.host %t.tuned
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

constexpr int BlockSize = 32;

// KEEPS: resident-blocks.cpp:[[@LINE+9]]:3 keeps 1 {{$}}
// lud's diagonal block, factored on the device: each row's and column's
// reads of what the rows and columns before wrote.
// Its marked loops run at most 32 iterations (their bounds over the
// sequential loop's): one warp, not a block of 1024 idle at each barrier.
// CHECK: resident-blocks.cpp:[[@LINE+4]]:3: remark: weft: sequential loop: {{.*}}; A[((I * $N) + J)] and the others of the block of rows and columns the loop reaches held in shared memory for the loop (1024 elements); the extent of level 1 (J) is at most 32 (its bounds over the loops around); a loop of 32 steps unrolled whole on the GPU (WEFT_UNROLL_STEPS), the loops inside it of constant trip counts there;
// CHECK: resident-blocks.cpp:[[@LINE+5]]:5: remark: weft: level 1 (J): dim x, block 32, Span(all);
void factorDiagonal(std::span<float> A, int N, int Offset) {
#pragma weft sequential for
  for (int I = Offset; I < Offset + BlockSize; ++I) {
#pragma weft parallel for
    for (int J = I; J < Offset + BlockSize; ++J) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
    float Inverse = 1.0f / A[I * N + I];
#pragma weft parallel for
    for (int J = I + 1; J < Offset + BlockSize; ++J) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[J * N + K] * A[K * N + I];
      A[J * N + I] = (A[J * N + I] - Sum) * Inverse;
    }
  }
}
// KERNEL: if (WEFT_STAGING != 0 && weft_resident0.fits()) {
// KERNEL-NEXT: weft_resident0.load(weft::linear_thread(), WEFT_BLOCK_THREADS);
// KERNEL-NEXT: weft::barrier();
// Its 32 steps unrolled whole on the GPU: each step's K loop then runs a
// constant number of iterations.
// KERNEL-NEXT: #if WEFT_UNROLL_STEPS && !defined(WEFT_DIALECT_SIM)
// KERNEL-NEXT: #pragma unroll
// KERNEL-NEXT: #endif
// KERNEL-NEXT: for (int I = Offset; (I < (Offset + 32)); (++I))
// Each K loop counted from zero to I - Offset, a constant in each copy
// that NVRTC's unroller finds in this form (not in K < I).
// KERNEL: for (int weft_step0 = 0, weft_steps0 = (int)((I) - (Offset)); weft_step0 < weft_steps0; ++weft_step0)
// KERNEL-NEXT: {
// KERNEL-NEXT: int K = (int)((Offset) + weft_step0);
// KERNEL-NEXT: (Sum += (weft_resident0.ld(((weft::index_t)(I)), ((weft::index_t)(K)), [&]
// KERNEL: (weft_resident0.at(((weft::index_t)(I)), ((weft::index_t)(J)), [&] { return (weft::index_t)(((unsigned long)((I * N) + J))); }) -= Sum);
// KERNEL: float Inverse = (1.0f / weft_resident0.ld(((weft::index_t)(I)), ((weft::index_t)(I)),
// KERNEL: weft_resident0.store(weft::linear_thread(), WEFT_BLOCK_THREADS);
// KERNEL-NEXT: } else {
// The span in place (the block does not fit, or staging is off): rolled.
// KERNEL-NOT: #pragma unroll
// KERNEL-NOT: weft_step

// Sweeps of a block whose size is known at run time, each sweep's rows
// from the last's: up to 8192 floats in 32 KiB.
// CHECK: resident-blocks.cpp:[[@LINE+4]]:3: remark: weft: sequential loop: {{.*}}; T[(((R + $R0) * $W) + C)] and the others of the block of rows and columns the loop reaches held in shared memory for the loop (up to 8192 elements);
void relax(std::span<float> T, std::span<const float> Src, int W, int R0,
           int Rows, int Cols, int Steps) {
#pragma weft sequential for
  for (int S = 0; S < Steps; ++S) {
#pragma weft parallel for
    for (int C = 1; C < Cols - 1; ++C)
      for (int R = 1; R < Rows; ++R)
        T[(R + R0) * W + C] = 0.5f * T[(R + R0 - 1) * W + C] +
                              0.25f * (Src[(R + R0) * W + C - 1] +
                                       Src[(R + R0) * W + C + 1]);
  }
}

// Not where a subscript is not affine in the indices (a row through a
// permutation), nor for a span only read.
// CHECK: resident-blocks.cpp:[[@LINE+6]]:3: remark: weft: sequential loop:
// CHECK-NOT: held in shared memory for the loop
// CHECK: resident-blocks.cpp:[[@LINE+13]]:3: remark: weft: sequential loop:
// CHECK-NOT: held in shared memory for the loop
void permuted(std::span<float> A, std::span<const int> Perm, int N) {
#pragma weft sequential for
  for (int I = 1; I < N; ++I) {
#pragma weft parallel for
    for (int J = 0; J < N; ++J)
      A[Perm[I] * N + J] += 0.5f * A[(I - 1) * N + J];
  }
}

void readOnly(std::span<const float> A, std::span<float> Out, int N) {
#pragma weft sequential for
  for (int I = 1; I < N; ++I) {
#pragma weft parallel for
    for (int J = 0; J < N; ++J)
      Out[J] += A[I * N + J] * A[(I - 1) * N + J];
  }
}

// An element a register holds along its loop stays out of the block (the
// register's value, not the block's, is the element's until the loop ends).
// CHECK: resident-blocks.cpp:[[@LINE+6]]:3: remark: weft: sequential loop:
// CHECK-NOT: held in shared memory for the loop
// CHECK: resident-blocks.cpp:[[@LINE+6]]:5: remark: weft: level 1 (C): {{.*}}; T[((S * $W) + C)] kept in a register along its loop
void accumulate(std::span<float> T, std::span<const float> Src, int W,
                int Cols) {
#pragma weft sequential for
  for (int S = 0; S < 3; ++S) {
#pragma weft parallel for
    for (int C = 0; C < Cols; ++C)
      for (int K = 0; K < 4; ++K)
        T[S * W + C] += Src[K * Cols + C] * 0.5f;
  }
}

static double checksum(const std::vector<float> &V) {
  double S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I] * static_cast<double>(I % 7 + 1);
  return S;
}

int main() {
  for (int N : {32, 45, 70}) {
    std::vector<float> A(N * N);
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < N; ++J)
        A[I * N + J] =
            static_cast<float>((I * 5 + J * 3) % 7) * 0.25f + (I == J ? N : 0);
    for (int Offset = 0; Offset + BlockSize <= N; Offset += 13)
      factorDiagonal(A, N, Offset);
    std::printf("diagonal %d: %.4f\n", N, checksum(A));
  }
  // 5 x 9, 40 x 30 (1200 elements) and 100 x 100 (past the 8192).
  for (auto [Rows, Cols] :
       {std::pair{5, 9}, std::pair{40, 30}, std::pair{100, 100}}) {
    const int W = Cols + 3, R0 = 2;
    std::vector<float> T((Rows + R0 + 1) * W), Src(T.size());
    for (std::size_t I = 0; I < T.size(); ++I) {
      T[I] = static_cast<float>(I % 11) * 0.125f;
      Src[I] = static_cast<float>(I % 3) * 0.5f;
    }
    relax(T, Src, W, R0, Rows, Cols, 3);
    std::printf("relax %d x %d: %.4f\n", Rows, Cols, checksum(T));
  }
  for (int Cols : {1, 30}) {
    std::vector<float> T(4 * (Cols + 2), 1.0f), Src(4 * Cols);
    for (std::size_t I = 0; I < Src.size(); ++I)
      Src[I] = static_cast<float>(I % 6) * 0.25f;
    accumulate(T, Src, Cols + 2, Cols);
    std::printf("accumulate %d: %.4f\n", Cols, checksum(T));
  }
  for (int N : {3, 40}) {
    std::vector<float> A(N * N), Out(N, 1.0f);
    std::vector<int> Perm(N);
    for (int I = 0; I < N; ++I)
      Perm[I] = (I * 7 + 1) % N;
    for (std::size_t I = 0; I < A.size(); ++I)
      A[I] = static_cast<float>(I % 5) * 0.5f;
    readOnly(A, Out, N);
    permuted(A, Perm, N);
    std::printf("read only, permuted %d: %.4f %.4f\n", N, checksum(Out),
                checksum(A));
  }
}
