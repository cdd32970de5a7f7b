// Arguments that share memory where the kernel must not share it: a span the
// kernel keeps in registers or shared memory beside a written span over the
// same memory, rows held apart beside a span inside one of them, and spans
// that loops the plugin found parallel take as two arrays, run that call on
// the host after one warning for the loop (the results are the host loop's);
// the same loops on memory of their own, and kept spans that are only read,
// run as kernels. The descriptor names what the kernel keeps and what the
// found loops take apart.
// RUN: %weftxx -fsyntax-only -Xclang -ast-dump -Xclang -ast-dump-filter=Loop %s | FileCheck %s --check-prefix=DESC
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s < %t.err
// RUN: env WEFT_BACKEND=sim WEFT_ON_FAULT=error %t.exe > /dev/null 2> %t.error; test $? = 1
// RUN: FileCheck %s --check-prefix=ERROR < %t.error
#include <weft/weft.hpp>

#include <cstdio>
#include <span>
#include <vector>

// Acc[I] lives in a register across the k loop.
void growLoop(std::span<float> Acc, std::span<const float> In, int K) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Acc.size(); ++I)
    for (int k = 0; k < K; ++k)
      Acc[I] += 0.5f * In[I];
}
// DESC: param inout f32 Acc\nparam scalar i32 K\nparam in f32 In\nkeeps 0\nlevel

// Tiles of A and B in shared memory.
void productLoop(std::span<const float> A, std::span<const float> B,
             std::span<float> C, int N) {
#pragma weft parallel for
  for (int I = 0; I < N; ++I)
#pragma weft parallel for
    for (int J = 0; J < N; ++J) {
      float S = 0;
      for (int K = 0; K < N; ++K)
        S += A[I * N + K] * B[K * N + J];
      C[I * N + J] = S;
    }
}
// DESC: param inout f32 C\nkeeps 1\nkeeps 2\n

// Nothing kept: spans that share memory share one device copy.
void shiftLoop(std::span<float> Out, std::span<const float> In) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Out.size(); ++I)
    Out[I] = In[I] + 1.0f;
}
// DESC: param out f32 Out\nparam in f32 In\nlevel

// The loop over J is found parallel: no two J write one element of Out,
// read as an array of its own. In place, J reads what J - 1 wrote.
void rowShiftLoop(std::span<float> Out, std::span<const float> In, int Rows,
               int Cols) {
#pragma weft parallel for
  for (int I = 0; I < Rows; ++I)
    for (int J = 1; J < Cols; ++J)
      Out[I * Cols + J] = 0.5f * In[I * Cols + J - 1] + 1.0f;
}
// DESC: param inout f32 Out\nparam in f32 In\napart 2\napart 3\nlevel

using Rows = std::vector<std::vector<float>>;

void scaleRows(Rows &R, std::span<float> Extra) {
#pragma weft parallel for
  for (std::size_t I = 0; I < R.size(); ++I)
#pragma weft parallel for
    for (std::size_t J = 0; J < R[I].size(); ++J)
      R[I][J] = 2.0f * R[I][J] + Extra[J % Extra.size()];
}

static double sum(const std::vector<float> &V) {
  double S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I] * static_cast<double>(I % 7 + 1);
  return S;
}

int main() {
  std::vector<float> V(1000), W(1000);
  for (std::size_t I = 0; I < V.size(); ++I)
    V[I] = W[I] = static_cast<float>(I % 13);
  growLoop(V, V, 4); // on the host
  growLoop(V, V, 3); // on the host, no second warning
  growLoop(W, V, 2); // a kernel
  std::printf("grow: %.1f %.1f\n", sum(V), sum(W));

  const int N = 20;
  std::vector<float> A(N * N), C(N * N);
  for (int I = 0; I < N * N; ++I)
    A[I] = static_cast<float>(I % 5) - 2.0f;
  productLoop(A, A, C, N); // A * A: read twice, a kernel
  std::printf("square: %.1f\n", sum(C));
  productLoop(C, A, C, N); // C = C * A in place: on the host
  std::printf("in place: %.1f\n", sum(C));
  // Rows of A beside the product's output in part of A.
  productLoop(std::span<const float>(A).first(N * N / 2), A,
          std::span<float>(A).subspan(N * N / 4, N * N / 2), N / 2);
  std::printf("overlapping parts: %.1f\n", sum(A));

  shiftLoop(V, V); // a kernel
  std::printf("shift: %.1f\n", sum(V));

  rowShiftLoop(W, V, 20, 50); // a kernel
  rowShiftLoop(V, V, 20, 50); // on the host: each row's first element spreads
  std::printf("shift rows: %.1f %.1f\n", sum(V), sum(W));

  Rows R(8, std::vector<float>(16));
  for (std::size_t I = 0; I < R.size(); ++I)
    for (std::size_t J = 0; J < R[I].size(); ++J)
      R[I][J] = static_cast<float>((I + J) % 6);
  std::vector<float> Extra(5, 0.25f);
  scaleRows(R, Extra);                    // a kernel
  scaleRows(R, std::span<float>(R[3]).first(5)); // on the host
  double S = 0;
  for (const std::vector<float> &Row : R)
    S += sum(Row);
  std::printf("rows: %.2f\n", S);

  // Inside a region: the host call reads the region's latest copy.
  {
    weft::region Kept(V, W);
    growLoop(W, V, 1);
    growLoop(V, V, 2);
    growLoop(W, V, 1);
  }
  std::printf("region: %.1f %.1f\n", sum(V), sum(W));
}

// CHECK: weft: warning: {{.*}}shared-memory.cpp:26:3: the kernel writes 'Acc' and keeps copies of it in shared memory or registers, and this call passes 'In' over the same memory; calls passing such arguments run the loop on the host
// CHECK: weft: warning: {{.*}}shared-memory.cpp:36:3: the kernel writes 'C' and keeps copies of 'A' in shared memory or registers, and this call passes them over the same memory; calls passing such arguments run the loop on the host
// CHECK: weft: warning: {{.*}}shared-memory.cpp:60:3: the kernel writes 'Out' in loops the plugin found parallel or reordered taking 'Out' and 'In' as two arrays, and this call passes them over the same memory; calls passing such arguments run the loop on the host
// CHECK: weft: warning: {{.*}}shared-memory.cpp:70:3: the kernel writes 'R' and gathers its rows into a copy of their own, and this call passes 'Extra' over the same memory; calls passing such arguments run the loop on the host
// CHECK-NOT: warning
// CHECK-DAG: weft: loop at {{.*}}shared-memory.cpp:26:3: 3 calls on sim, 3 on the host (last: the kernel writes 'Acc'
// CHECK-DAG: weft: loop at {{.*}}shared-memory.cpp:36:3: 1 calls on sim, 2 on the host (last: the kernel writes 'C' and keeps copies of '{{A|B}}'
// CHECK-DAG: weft: loop at {{.*}}shared-memory.cpp:50:3: 1 calls on sim, 0 on the host
// CHECK-DAG: weft: loop at {{.*}}shared-memory.cpp:60:3: 1 calls on sim, 1 on the host (last: the kernel writes 'Out' in loops the plugin found parallel
// CHECK-DAG: weft: loop at {{.*}}shared-memory.cpp:70:3: 1 calls on sim, 1 on the host

// ERROR: weft: error: {{.*}}shared-memory.cpp:26:3: the kernel writes 'Acc'
// GPU run: falls back (tests/gpu/run-built-programs.sh expects the warnings there)
