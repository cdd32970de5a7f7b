// Tiles of a span the nest also writes (lud's trailing update, in place):
// shared memory serves the reads where every write to the span comes after
// the loop that reads it, in the same level; the block's loads are then
// checked against the extent but recorded as no iteration's read (the
// read from shared memory records it). A write before or inside the loop
// keeps the reads in global memory. The checked simulator matches the host
// at sizes that fill no tile, down to one column; an in-place product
// whose iterations read what others write is still reported, with and
// without register tiles.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64 2> %t.err64
// RUN: count 0 < %t.err64
// RUN: diff %t.host %t.sim64
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t.exe in-place 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t.exe in-place-tiled 2>&1 | FileCheck %s --check-prefix=RACE-TILED
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

// lud's trailing update: the block column (columns [offset, end)) and the
// block row (rows [offset, end)) are read, the trailing matrix written.
// CHECK: remark: weft: level 1 (j): dim x, block 16, Span(1){{.*}}; loop over k in tiles of 32 in shared memory: a[((i * $n) + k)] (shared by the 16 threads along x) a[((k * $n) + j)] (shared by the 8 threads along y)
void trailing(std::span<float> a, int n, int offset) {
  const int end = offset + 32;
#pragma weft parallel for dim(y) block(8) span(1)
  for (int i = end; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(1)
    for (int j = end; j < n; ++j) {
      float sum = 0;
      for (int k = offset; k < end; ++k)
        sum += a[i * n + k] * a[k * n + j];
      a[i * n + j] -= sum;
    }
}
// The loads only check the extent (at()); the reads record themselves.
// KERNEL-DAG: weft_tile0[{{.*}}] = (*a.at(
// KERNEL-DAG: weft_tile1[{{.*}}] = (*a.at(
// KERNEL-DAG: WEFT_SPAN_READ(a, ({{.*}}((i * n) + k))), weft_tile0.ld(

// Every thread reads the same row (a whole block's tile), each writes its
// own element past it afterwards.
// CHECK: remark: weft: level 0 (i): {{.*}}; loop over k in tiles of {{[0-9]+}} in shared memory: v[k] (shared by the {{[0-9]+}} threads along x);
void prefixWeights(std::span<float> v, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += v[k] * static_cast<float>(i - k);
    v[n + i] = s;
  }
}

// A write before the loop, or inside it, keeps the reads of that span in
// global memory (b's, read-only, are tiled).
// CHECK: remark: weft: level 1 (j): {{.*}}; loop over k in tiles of 32 in shared memory: b[((k * $n) + j)] (shared by the 8 threads along y){{$}}
void writeBefore(std::span<float> a, std::span<const float> b, int n) {
#pragma weft parallel for dim(y) block(8) span(1)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(1)
    for (int j = 0; j < n; ++j) {
      a[i * 2 * n + n + j] = 1;
      float sum = 0;
      for (int k = 0; k < n; ++k)
        sum += a[i * 2 * n + k] * b[k * n + j];
      a[i * 2 * n + n + j] += sum;
    }
}
// CHECK: remark: weft: level 1 (j): {{.*}}; loop over k in tiles of 32 in shared memory: b[((k * $n) + j)] (shared by the 8 threads along y){{$}}
void writeInside(std::span<float> a, std::span<const float> b, int n) {
#pragma weft parallel for dim(y) block(8) span(1)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(1)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int k = 0; k < n; ++k) {
        sum += a[i * 2 * n + k] * b[k * n + j];
        a[i * 2 * n + n + j] = sum;
      }
    }
}

// Iterations that read the row others write: a false claim, reported.
// RACE: weft: error: sim checker: inner loop iterations are not independent in kernel weft_written_tiles_L[[@LINE+3]]_{{.*}} writes element {{[0-9]+}} of span 'a', which other iterations of the loop one level in read
void inPlace(std::span<float> a, std::span<const float> b, int n) {
#pragma weft parallel for dim(y) block(4) span(1)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(8) span(1)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      a[i * n + j] = sum;
    }
}

// Register tiles too: the loads check the extent alone, each output in
// range records its reads on the simulator.
// CHECK: remark: weft: level 1 (j): dim x, block 16, Span(4);{{.*}}the 4 x 4 outputs of each thread's register tile
void trailingTiled(std::span<float> a, int n, int offset) {
  const int end = offset + 32;
#pragma weft parallel for dim(y) block(8) span(4)
  for (int i = end; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(4)
    for (int j = end; j < n; ++j) {
      float sum = 0;
      for (int k = offset; k < end; ++k)
        sum += a[i * n + k] * a[k * n + j];
      a[i * n + j] -= sum;
    }
}
// KERNEL-DAG: weft::load_run(weft_next0[weft_q], a, {{.*}}, weft_valid, 2);
// KERNEL-DAG: weft::begin_inner_iteration(weft_t1);
// KERNEL-DAG: WEFT_SPAN_READ_IF(weft_out_in, a,

// RACE-TILED: weft: error: sim checker: inner loop iterations are not independent in kernel weft_written_tiles_L[[@LINE+3]]_{{.*}} writes element {{[0-9]+}} of span 'a', which other iterations of the loop one level in read
void inPlaceTiled(std::span<float> a, std::span<const float> b, int n) {
#pragma weft parallel for dim(y) block(4) span(4)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(8) span(4)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      a[i * n + j] = sum;
    }
}

double checksum(const std::vector<float> &V) {
  double S = 0;
  for (std::size_t X = 0; X < V.size(); ++X)
    S += V[X] * static_cast<double>(X % 5 + 1);
  return S;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && !std::strncmp(Argv[1], "in-place", 8)) {
    const int N = 12;
    std::vector<float> A(N * N, 1.0f), B(N * N, 0.5f);
    if (!std::strcmp(Argv[1], "in-place-tiled"))
      inPlaceTiled(A, B, N);
    else
      inPlace(A, B, N);
    std::printf("in place: %.3f\n", checksum(A));
    return 0;
  }
  // Trailing matrices of 1 to 45 columns, at offset 0 and past it.
  for (int N : {33, 50, 77}) {
    for (int Offset : {0, N - 45}) {
      if (Offset < 0 || Offset + 32 > N)
        continue;
      std::vector<float> A(N * N);
      for (int X = 0; X < N * N; ++X)
        A[X] = static_cast<float>(X % 13) * 0.125f - 0.5f;
      std::vector<float> T = A;
      trailing(A, N, Offset);
      trailingTiled(T, N, Offset);
      std::printf("trailing %d at %d: %.4f, register-tiled %.4f\n", N, Offset,
                  checksum(A), checksum(T));
    }
  }
  for (int N : {1, 7, 40}) {
    std::vector<float> V(2 * N);
    for (int X = 0; X < N; ++X)
      V[X] = static_cast<float>(X % 4) - 1.0f;
    prefixWeights(V, N);
    std::printf("prefix %d: %.4f\n", N, checksum(V));
  }
  for (int N : {1, 9, 21}) {
    std::vector<float> A(2 * N * N), B(N * N);
    for (int X = 0; X < N * N; ++X) {
      A[X % N + (X / N) * 2 * N] = static_cast<float>(X % 3);
      B[X] = static_cast<float>(X % 4) * 0.5f;
    }
    std::vector<float> A2 = A;
    writeBefore(A, B, N);
    writeInside(A2, B, N);
    std::printf("before %d: %.4f, inside: %.4f\n", N, checksum(A),
                checksum(A2));
  }
}
