// Split(k) of an inner level, chosen by the search for a few long rows: each
// block reduces its share of a row, and a second kernel combines the
// partials in block order and finishes the row. Run on the checked
// simulator with 32- and 64-wide warps and compared with the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: cat %t.k/*.cu | grep -c "pragma unroll 4" | FileCheck %s --check-prefix=UNROLLED
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64 2> %t.err64
// RUN: count 0 < %t.err64
// RUN: diff %t.host %t.sim64
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

constexpr int Rows = 4, Cols = 1 << 17;

// Two reductions of one level, the row's statistics finished after it.
// CHECK: remark: weft: level 0 (i): dim y, block 1, Span(1)
// CHECK: remark: weft: level 1 (j): dim x, block {{[0-9]+}}, Split({{[0-9]+}}){{.*}}reduction(+: sum) combined per block, then the {{[0-9]+}} partials by a second step{{.*}}reduction(max: peak) combined per block
void rowStats(std::span<const int> m, std::span<long long> sums,
              std::span<int> peaks) {
#pragma weft parallel for
  for (int i = 0; i < Rows; ++i) {
    const int bias = i - 2;
    long long sum = bias;
    int peak = -1000000;
#pragma weft parallel for reduction(+: sum) reduction(max: peak)
    for (int j = 0; j < Cols; ++j) {
      const int v = m[i * Cols + j] + bias;
      sum += v;
      peak = std::max(peak, v);
    }
    sums[i] = sum * 2;
    if (peak > 0)
      peaks[i] = peak;
  }
}
// The first kernel leaves each block's partials; the second folds them in
// where the level was and runs the rest of the row.
// A split level's threads stride by the grid, which NVVM does not unroll
// by itself: four of a small body's iterations at once (loads in flight).
// KERNEL: #pragma unroll 4
// KERNEL-NEXT: for (weft::index_t weft_t1 = (weft::index_t)weft::block_idx(0) * WEFT_BLOCK_X + weft::thread_idx(0); weft_t1 < weft_count1; weft_t1 += (weft::index_t)weft::grid_dim(0) * WEFT_BLOCK_X) {
// KERNEL: weft_split0[(weft::index_t)weft::block_idx(0) * weft_count0 + weft_t0] = weft_r;
// KERNEL: weft_split1[(weft::index_t)weft::block_idx(0) * weft_count0 + weft_t0] = weft_r;
// KERNEL: WEFT_KERNEL(weft_inner_split_L{{[0-9]+}}_{{[0-9a-f]+}}_combine, 256)
// KERNEL: const int bias = (i - 2);
// KERNEL: for (weft::index_t weft_k = 0; weft_k < weft_splits; ++weft_k)
// KERNEL-NEXT: weft_acc = weft::combine<weft::reduce_add>(weft_acc, weft_split0.ld(weft_k * weft_count0 + weft_t0));
// KERNEL: sum = weft::combine<weft::reduce_add>(sum, weft_acc);
// KERNEL: (sums[((unsigned long)i)] = (sum * ((long long)2)));

// Code before the level that writes a span would run twice: no split.
// CHECK: remark: weft: level 1 (j): {{.*}}Span(all)
void rowSumsMarked(std::span<const int> m, std::span<long long> sums,
                   std::span<int> marks) {
#pragma weft parallel for
  for (int i = 0; i < Rows; ++i) {
    marks[i] = i;
    long long sum = 0;
#pragma weft parallel for reduction(+: sum)
    for (int j = 0; j < Cols; ++j)
      sum += m[i * Cols + j];
    sums[i] = sum;
  }
}

// A body with a loop of its own is left to the compiler: the only unroll
// pragma is rowStats'.
// CHECK: remark: weft: level 1 (j): dim x, block {{[0-9]+}}, Split({{[0-9]+}})
// UNROLLED: {{^1$}}
void rowCubes(std::span<const int> m, std::span<long long> sums) {
#pragma weft parallel for
  for (int i = 0; i < Rows; ++i) {
    long long sum = 0;
#pragma weft parallel for reduction(+: sum)
    for (int j = 0; j < Cols; ++j) {
      long long p = 1;
      for (int e = 0; e < 3; ++e)
        p *= m[i * Cols + j];
      sum += p;
    }
    sums[i] = sum;
  }
}

int main() {
  std::vector<int> M(Rows * Cols), Peaks(Rows, 0), Marks(Rows, 0);
  for (int I = 0; I < Rows * Cols; ++I)
    M[I] = (I * 7919) % 1009 - 500;
  std::vector<long long> Sums(Rows), Plain(Rows);
  rowStats(M, Sums, Peaks);
  rowSumsMarked(M, Plain, Marks);
  std::vector<long long> Cubes(Rows);
  rowCubes(M, Cubes);
  for (int I = 0; I < Rows; ++I)
    std::printf("%lld %d %lld %d %lld\n", Sums[I], Peaks[I], Plain[I],
                Marks[I], Cubes[I]);
}
