// Thread slices: where each iteration of an innermost level alone reads
// and writes its column (or row) of a span down a bounded loop (lud's
// perimeter, a triangular solve, a recurrence down a column), its thread
// holds those elements in shared memory for the iteration and writes
// through to the span. Checked on the simulator against the host: slices
// on, off, too small to hold a slice, other block sizes the tuner tries;
// reads the analysis leaves in place that take the iteration's own writes;
// and where it must not apply.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat $(grep -l 'const int J = (int)(weft_lo0' %t.k/*.cu) | FileCheck %s --check-prefix=KERNEL
// RUN: grep -h "^shared" $(grep -l 'const int J = (int)(weft_lo0' %t.k/*.cu | sed 's/cu$/desc/') | FileCheck %s --check-prefix=SPACE
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
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_SLICE0=3 %t.exe > %t.small 2> %t.err.small
// RUN: count 0 < %t.err.small
// RUN: diff %t.host %t.small
// RUN: cat $(grep -l 'weft::register_slice<float, 32' %t.k/*.cu) | FileCheck %s --check-prefix=REGISTERS
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_UNROLL_STEPS=0 %t.exe > %t.shared 2> %t.err.shared
// RUN: count 0 < %t.err.shared
// RUN: diff %t.host %t.shared
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_THREADS=2 WEFT_TUNE=search=random,eager,budget=6 %t.exe > %t.tuned 2> %t.err.tuned
// RUN: count 0 < %t.err.tuned
// RUN: diff %t.host %t.tuned
#include <weft/weft.hpp>

#include <cstdio>
#include <tuple>
#include <vector>

// lud's block row: each column solved down the block's rows, reading what
// it wrote at the rows before (the diagonal block's reads stay in place).
// CHECK: thread-slices.cpp:[[@LINE+3]]:3: remark: weft: level 0 (J): {{.*}}; A[((I * $N) + J)] and the elements each iteration reads along K, I held by its thread in shared memory (up to 32 a thread), written through to the span;
void columnSolve(std::span<float> A, int N, int Offset, int End) {
#pragma weft parallel for
  for (int J = End; J < N; ++J)
    for (int I = Offset + 1; I < End; ++I) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
}
// KERNEL: weft::thread_slice<float, WEFT_SLICE0, WEFT_BLOCK_THREADS, decltype(A)> weft_slice0{weft_slice0_buffer, A, (weft::index_t)(J) * ((weft::index_t)1), ((weft::index_t)N), ((weft::index_t)Offset), ((weft::index_t)End - (weft::index_t)Offset), weft::linear_thread()};
// KERNEL: if (WEFT_STAGING != 0 && weft_slice0.fits()) {
// KERNEL-NEXT: weft_slice0.load();
// KERNEL: A.ld(((unsigned long)((I * N) + K))) * weft_slice0.ld((weft::index_t)(K), [&]
// KERNEL: weft_slice0.through((weft::index_t)(((unsigned long)((I * N) + J))), (weft_slice0.at((weft::index_t)(I), [&]
// KERNEL: } else {
// KERNEL: (A[((unsigned long)((I * N) + J))] -= Sum);
// The slice's bytes over the tuned block: 64 elements a thread, 32 KiB at most.
// SPACE: shared (mul (div (add (min (mul (lit 64) (mul (mul (tune 0) (mul (lit 1) (lit 1))) (lit 4))) (max (lit 32768) (mul (mul (tune 0) (mul (lit 1) (lit 1))) (lit 4)))) (lit 15)) (lit 16)) (lit 16)){{$}}

// lud's block row of 32 rows: the slice's length a constant and its loops
// of a few steps, unrolled whole: each use names a constant element of an
// array the thread holds in registers.
// Its other reads of A (the diagonal block's, columns [Offset, End)) lie
// apart from the slice (column J >= End) where Offset >= 0 and the block's
// columns are inside a row (checked at run time): its writes wait in
// registers for the iteration's end, no store between the loads.
// CHECK: thread-slices.cpp:[[@LINE+4]]:3: remark: weft: level 0 (J): {{.*}}; A[((I * $N) + J)] and the elements each iteration reads along K, I held by its thread in registers (32 a thread, the loops along them unrolled whole; in shared memory with WEFT_UNROLL_STEPS=0), written to the span at the iteration's end (its other accesses of the span lie elsewhere, as checked at run time); {{.*}}; a loop of 31 steps unrolled whole on the GPU (WEFT_UNROLL_STEPS)
void columnSolve32(std::span<float> A, int N, int Offset) {
  const int End = Offset + 32;
#pragma weft parallel for
  for (int J = End; J < N; ++J)
    for (int I = Offset + 1; I < End; ++I) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
}
// REGISTERS: #if WEFT_UNROLL_STEPS
// REGISTERS-NEXT: float weft_slice0_values[32];
// REGISTERS-NEXT: unsigned long long weft_slice0_written = 0;
// REGISTERS-NEXT: const weft::register_slice<float, 32, decltype(A)> weft_slice0{weft_slice0_values, weft_slice0_written, A, (weft::index_t)(J) * ((weft::index_t)1), ((weft::index_t)N), ((weft::index_t)Offset), ((weft::index_t)32), true, (((weft::index_t)32 + (weft::index_t)Offset) >= 0) && (((weft::index_t)Offset) >= 0) && ((-(weft::index_t)31 + (weft::index_t)N - (weft::index_t)Offset) >= 0)};
// REGISTERS-NEXT: #else
// REGISTERS-NEXT: const weft::thread_slice<float, WEFT_SLICE0
// REGISTERS-NEXT: #endif
// REGISTERS-NEXT: if (WEFT_STAGING != 0 && weft_slice0.fits()) {
// REGISTERS-NEXT: weft_slice0.load();
// REGISTERS-NEXT: #if WEFT_UNROLL_STEPS && !defined(WEFT_DIALECT_SIM)
// REGISTERS-NEXT: #pragma unroll
// REGISTERS-NEXT: #endif
// REGISTERS-NEXT: for (int I = (Offset + 1);
// REGISTERS: for (int weft_step0 = 0, weft_steps0 = (int)((I) - (Offset)); weft_step0 < weft_steps0; ++weft_step0)
// REGISTERS: weft_slice0.ld((weft::index_t)(K),
// REGISTERS: weft_slice0.store();
// REGISTERS-NEXT: } else {
// The span in place: rolled.
// REGISTERS-NOT: #pragma unroll
// REGISTERS-NOT: weft_step

// lud's block column: each row, along the block's columns.
// CHECK: thread-slices.cpp:[[@LINE+3]]:3: remark: weft: level 0 (I): {{.*}}; A[((I * $N) + J)] and the elements each iteration reads along K, J held by its thread
void rowSolve(std::span<float> A, int N, int Offset, int End) {
#pragma weft parallel for
  for (int I = End; I < N; ++I)
    for (int J = Offset; J < End; ++J) {
      float Sum = 0;
      for (int K = Offset; K < J; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] = (A[I * N + J] - Sum) / A[J * N + J];
    }
}

// A recurrence down each column of each matrix of a batch: the slice's
// rows shifted by the batch's (an enclosing level's index), of a length
// known at run time.
// CHECK: thread-slices.cpp:[[@LINE+5]]:5: remark: weft: level 1 (j): {{.*}}; a[((((b * $m) + k) * $n) + j)] and the elements each iteration reads along k held by its thread in shared memory (up to 32 a thread)
void batchedRecurrence(std::span<float> a, int batch, int m, int n) {
#pragma weft parallel for
  for (int b = 0; b < batch; ++b)
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      for (int k = 1; k < m; ++k)
        a[(b * m + k) * n + j] =
            0.5f * a[(b * m + k - 1) * n + j] + a[(b * m + k) * n + j];
}

// Reads through a permutation the analysis cannot place: from the span,
// where the iteration's writes went through.
// CHECK: thread-slices.cpp:[[@LINE+3]]:3: remark: weft: level 0 (j): {{.*}}; a[((k * $n) + j)] and the elements each iteration reads along k, r held by its thread in registers (5 a thread, the loops along them unrolled whole; in shared memory with WEFT_UNROLL_STEPS=0)
void throughPermutation(std::span<float> a, std::span<const int> perm, int n) {
#pragma weft parallel for
  for (int j = 0; j < n; ++j) {
    float Last = 0;
    for (int k = 0; k < 5; ++k) {
      a[k * n + j] = a[k * n + j] * 2.0f + Last;
      for (int r = 0; r < k + 1; ++r)
        Last += a[perm[r] * n + j] + a[r * n + j];
    }
  }
}

// Two spans sliced on one level share the 32 KiB: 16 elements a thread.
// CHECK: thread-slices.cpp:[[@LINE+3]]:3: remark: weft: level 0 (j): {{.*}}; a[((k * $n) + j)] and the elements each iteration reads along k held by its thread in shared memory (up to 16 a thread), written through to the span; c[((k * $n) + j)] and the elements each iteration reads along k held by its thread in shared memory (up to 16 a thread), written through to the span;
void twoColumns(std::span<float> a, std::span<float> c, int n, int m) {
#pragma weft parallel for
  for (int j = 0; j < n; ++j)
    for (int k = 1; k < m; ++k) {
      a[k * n + j] += 0.5f * a[(k - 1) * n + j];
      c[k * n + j] += a[k * n + j] * c[(k - 1) * n + j];
    }
}

// Refused: a write to the span the slice would miss, an element passed to
// a function by reference, a bound the analysis cannot read, and a
// column each element of which is read once.
// CHECK: thread-slices.cpp:[[@LINE+4]]:3: remark: weft: level 0 (j):
// CHECK-NOT: held by its thread
void otherWrite(std::span<float> a, int n, int m) {
#pragma weft parallel for
  for (int j = 0; j < n; ++j) {
    for (int k = 1; k < m; ++k)
      a[k * n + j] += a[(k - 1) * n + j];
    a[j] = 0.0f;
  }
}

void bump(float &X) { X += 1.0f; }
// CHECK: thread-slices.cpp:[[@LINE+4]]:3: remark: weft: level 0 (j):
// CHECK-NOT: held by its thread
void passedByReference(std::span<float> a, int n, int m) {
#pragma weft parallel for
  for (int j = 0; j < n; ++j)
    for (int k = 1; k < m; ++k) {
      a[k * n + j] += a[(k - 1) * n + j];
      bump(a[k * n + j]);
    }
}

// CHECK: thread-slices.cpp:[[@LINE+4]]:3: remark: weft: level 0 (j):
// CHECK-NOT: held by its thread
void unreadBound(std::span<float> a, std::span<const int> len, int n) {
#pragma weft parallel for
  for (int j = 0; j < n; ++j)
    for (int k = 1; k < len[j]; ++k)
      a[k * n + j] += a[(k - 1) * n + j];
}

// CHECK: thread-slices.cpp:[[@LINE+4]]:3: remark: weft: level 0 (j):
// CHECK-NOT: held by its thread
void readOnce(std::span<float> a, int n, int m) {
#pragma weft parallel for
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < m; ++k)
      a[k * n + j] = a[k * n + j] * 2.0f;
}

static double checksum(const std::vector<float> &V) {
  double S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I] * static_cast<double>(I % 7 + 1);
  return S;
}

int main() {
  // Blocks of 4, 32 and 40 rows (the last longer than a thread's slice of
  // 32 at 256 threads: those iterations read the span in place).
  for (auto [N, Block] : {std::pair{37, 4}, std::pair{70, 32},
                          std::pair{100, 40}}) {
    std::vector<float> A(N * N);
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < N; ++J)
        A[I * N + J] = static_cast<float>((I * 7 + J * 3) % 11) * 0.125f +
                       (I == J ? N : 0);
    for (int Call = 0; Call < 3; ++Call)
      for (int Offset = 0; Offset + Block < N; Offset += Block) {
        columnSolve(A, N, Offset, Offset + Block);
        rowSolve(A, N, Offset, Offset + Block);
      }
    std::printf("solve %d / %d: %.4f\n", N, Block, checksum(A));
  }
  for (int N : {33, 70, 100}) {
    std::vector<float> A(N * N);
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < N; ++J)
        A[I * N + J] = static_cast<float>((I * 5 + J * 3) % 13) * 0.125f +
                       (I == J ? N : 0);
    for (int Offset = 0; Offset + 32 < N; Offset += 32)
      columnSolve32(A, N, Offset);
    std::printf("solve by 32 %d: %.4f\n", N, checksum(A));
  }
  for (auto [Batch, M, N] : {std::tuple{3, 5, 7}, std::tuple{2, 33, 40},
                             std::tuple{1, 1, 3}, std::tuple{2, 70, 9}}) {
    std::vector<float> A(Batch * M * N);
    for (std::size_t I = 0; I < A.size(); ++I)
      A[I] = static_cast<float>((I * 5) % 13) * 0.25f;
    batchedRecurrence(A, Batch, M, N);
    std::printf("recurrence %d x %d x %d: %.4f\n", Batch, M, N, checksum(A));
  }
  for (int N : {1, 9, 300}) {
    std::vector<float> A(5 * N);
    std::vector<int> Perm = {4, 0, 3, 1, 2};
    for (std::size_t I = 0; I < A.size(); ++I)
      A[I] = static_cast<float>(I % 9) * 0.5f;
    throughPermutation(A, Perm, N);
    std::printf("permutation %d: %.4f\n", N, checksum(A));
  }
  // 12 rows fit a thread's 16, 20 do not.
  for (auto [N, M] : {std::pair{40, 12}, std::pair{33, 20}}) {
    std::vector<float> A(M * N), C(M * N);
    for (std::size_t I = 0; I < A.size(); ++I) {
      A[I] = static_cast<float>(I % 5) * 0.25f;
      C[I] = static_cast<float>(I % 3) * 0.5f;
    }
    twoColumns(A, C, N, M);
    std::printf("two columns %d x %d: %.4f %.4f\n", M, N, checksum(A),
                checksum(C));
  }
  for (int N : {3, 50}) {
    const int M = 6;
    std::vector<float> A(M * N, 1.0f), B(M * N, 1.0f), C(M * N, 1.0f),
        D(M * N, 1.0f);
    std::vector<int> Len(N, M);
    otherWrite(A, N, M);
    passedByReference(B, N, M);
    unreadBound(C, Len, N);
    readOnce(D, N, M);
    std::printf("refused %d: %.4f %.4f %.4f %.4f\n", N, checksum(A), checksum(B),
                checksum(C), checksum(D));
  }
}
