// A level one in that reduces across the threads of one dimension while the
// block holds several outermost iterations (Lee et al.'s sumCols: a block of
// columns on x, each column's rows on y, combined through shared memory):
// blocks walk the outermost level together so that every thread reaches
// the combining's barriers; threads past the last column only take part in
// it. Run on the checked simulator (barriers, shared-memory races, span
// bounds) with 32- and 64-wide warps, at sizes that leave partial blocks,
// and compared with the host.
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
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// The mapping as the search chooses it for sumCols.
// CHECK: group-reduction.cpp:[[@LINE+5]]:3: remark: weft: level 0 (c): dim x, block 32, Span(1)
// CHECK: group-reduction.cpp:[[@LINE+7]]:5: remark: weft: level 1 (r): dim y, block {{[0-9]+}}, {{Span\(all\);.* reduction\(\+: s\) combined through shared memory|Split\([0-9]+\);.* reduction\(\+: s\) combined per block}}
void sumCols(std::span<const float> m, std::span<float> out, int rows,
             int cols) {
#pragma weft parallel for
  for (int c = 0; c < cols; ++c) {
    float s = 0;
#pragma weft parallel for reduction(+ : s)
    for (int r = 0; r < rows; ++r)
      s += m[r * cols + c];
    out[c] = s;
  }
}

// Forced, with code before and after the inner level, and a maximum.
// CHECK: group-reduction.cpp:[[@LINE+5]]:3: remark: weft: level 0 (j): dim x, block 64, Span(1)
// CHECK: group-reduction.cpp:[[@LINE+8]]:5: remark: weft: level 1 (i): dim y, block 4, Span(all)
void columnPeaks(std::span<const float> m, std::span<float> peak, int rows,
                 int cols, float floor) {
#pragma weft parallel for dim(x) block(64)
  for (int j = 0; j < cols; ++j) {
    float best = floor;
    const float scale = 0.5f * static_cast<float>(j % 3 + 1);
#pragma weft parallel for reduction(max : best) dim(y) block(4) span(all)
    for (int i = 0; i < rows; ++i)
      best = std::max(best, m[i * cols + j] * scale);
    peak[j] = best + 1;
  }
}

// Forced: each column's rows split over 3 blocks along y, each block
// holding 32 columns; a partial per column and block, folded by a second
// kernel.
// CHECK: group-reduction.cpp:[[@LINE+5]]:3: remark: weft: level 0 (c): dim x, block 32, Span(1)
// CHECK: group-reduction.cpp:[[@LINE+7]]:5: remark: weft: level 1 (r): dim y, block 8, Split(3)
void sumColsSplit(std::span<const double> m, std::span<double> out, int rows,
                  int cols) {
#pragma weft parallel for dim(x) block(32)
  for (int c = 0; c < cols; ++c) {
    double s = 1;
#pragma weft parallel for reduction(+ : s) dim(y) block(8) split(3)
    for (int r = 0; r < rows; ++r)
      s += m[r * cols + c];
    out[c] = s * 2;
  }
}

// KERNEL-DAG: weft_split0[(weft::index_t)weft::block_idx(1) * weft_count0 + weft_t0] = weft_r;
// KERNEL-DAG: _combine, 256)
// KERNEL: for (weft::index_t weft_b0 = (weft::index_t)weft::block_idx(0) * WEFT_BLOCK_X; weft_b0 < weft_count0;
// KERNEL: const bool weft_in0 = weft_t0 < weft_count0;
// KERNEL: const weft::index_t weft_hi1 = !weft_in0 ? 0 : (weft::index_t)(rows);
// KERNEL: weft::axis_allreduce<weft::reduce_add>(s, weft_scratch0, weft::thread_idx(1), 1 * WEFT_BLOCK_X, WEFT_BLOCK_Y)
// KERNEL: if (weft_in0 && weft::thread_idx(1) == 0)

int main() {
  const int Shapes[][2] = {{100, 45}, {7, 70}, {300, 33}, {1, 129}};
  for (const auto &S : Shapes) {
    const int Rows = S[0], Cols = S[1];
    std::vector<float> M(Rows * Cols), Sums(Cols), Peaks(Cols);
    std::vector<double> D(Rows * Cols), Split(Cols);
    for (int I = 0; I < Rows * Cols; ++I) {
      M[I] = static_cast<float>((I * 7) % 11) * 0.25f;
      D[I] = M[I];
    }
    sumCols(M, Sums, Rows, Cols);
    columnPeaks(M, Peaks, Rows, Cols, 0.5f);
    sumColsSplit(D, Split, Rows, Cols);
    double Total = 0, PeakTotal = 0, SplitTotal = 0;
    for (int C = 0; C < Cols; ++C) {
      Total += Sums[C];
      PeakTotal += Peaks[C];
      SplitTotal += Split[C];
    }
    std::printf("%d x %d: %.2f %.2f %.2f %.2f %.2f %.2f\n", Rows, Cols, Total,
                Sums[0], Sums[Cols - 1], PeakTotal, SplitTotal, Split[Cols - 1]);
  }
}
