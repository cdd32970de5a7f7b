// Register tiling (the outer-product form of a matrix product): under a
// mapping with n outputs a thread along both levels, each thread computes
// its TM x TN outputs from fragments of the tiles held in registers, the
// block's tile of the loop staged in shared memory; the shape is macros of
// the kernel text (WEFT_TM, WEFT_TN, WEFT_TILE, the block). Checked on the
// simulator with its checker, 32- and 64-wide warps, at sizes that are
// multiples of no tile (1, 17, 1000, 1023, 2049), non-square, and with
// every row 16-byte aligned (64 x 128 x 64, all 128-bit loads); the
// local-accumulator form, the output-accumulating form, a prologue and an
// epilogue reading other spans, doubles. The search takes register tiles
// for a matrix product on its own.
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
// RUN: env WEFT_BACKEND=sim WEFT_KERNEL_DEFINES="WEFT_TM=2 WEFT_TN=3 WEFT_TILE=5" %t.exe > %t.shape
// RUN: diff %t.host %t.shape
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: register-tiles.cpp:[[@LINE+5]]:3: remark: weft: level 0 (i): dim y, block 8, Span(4)
// CHECK: register-tiles.cpp:[[@LINE+6]]:5: remark: weft: level 1 (j): dim x, block 16, Span(8);{{.*}}the 4 x 8 outputs of each thread's register tile
void product(std::span<const float> a, std::span<const float> b,
             std::span<float> c, int n, int m, int kk) {
#pragma weft parallel for dim(y) block(8) span(4)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(8)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int k = 0; k < kk; ++k)
        s += a[i * kk + k] * b[k * m + j];
      c[i * m + j] = s;
    }
}
// KERNEL: #define WEFT_TM 4
// KERNEL: #define WEFT_TN 8
// KERNEL: #define WEFT_VEC0 (WEFT_TILE % 4 == 0 ? 4 : 1)
// KERNEL: #define WEFT_VEC1 (WEFT_BN % 4 == 0 ? 4 : 1)
// KERNEL: float s[WEFT_TM][WEFT_TN];
// KERNEL-NOT: WEFT_BN <= weft_count1
// KERNEL: weft::load_run(weft_next0[weft_q], a,
// KERNEL: weft::barrier();
// KERNEL: for (weft::index_t weft_k0 = weft_klo;
// KERNEL: weft_frag0[weft_r] = weft_tile0.ld((weft_read * WEFT_TILE + weft_kk) * (WEFT_BM + 4) + WEFT_ROW(weft_r));
// KERNEL: (s[weft_r][weft_c] += (weft_frag0[weft_r] * weft_frag1[weft_c]));

// The output-accumulating form, with an epilogue reading a bias, in
// doubles; the search's own mapping.
// CHECK: register-tiles.cpp:[[@LINE+6]]:3: remark: weft: level 0 (i): {{.*}}Span({{[48]}})
// CHECK: register-tiles.cpp:[[@LINE+7]]:5: remark: weft: level 1 (j): dim x, {{.*}}Span({{[48]}}); {{.*}}register tile{{.*}}c[((i * $m) + j)] kept in a register along its loop
void gemm(std::span<const double> a, std::span<const double> b,
          std::span<double> c, std::span<const double> bias, int n, int m,
          int kk, double alpha, double beta) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < m; ++j) {
      c[i * m + j] *= beta;
      for (int k = 0; k < kk; ++k)
        c[i * m + j] += alpha * a[i * kk + k] * b[k * m + j];
      c[i * m + j] += bias[j];
    }
}
// KERNEL: double weft_reg0[WEFT_TM][WEFT_TN]; // c[
// A block tile wholly in range loads the registers without guards (fewer
// registers: ptxas keeps less across 64 guarded loads); the edges guarded.
// KERNEL: if (weft_b0 + WEFT_BM <= weft_count0 && weft_b1 + WEFT_BN <= weft_count1) {
// KERNEL: weft_reg0[weft_r][weft_c] = c.ld(
// KERNEL: } else {
// KERNEL: if (weft_t0 < weft_count0 && weft_t1 < weft_count1) {
// KERNEL: weft_reg0[weft_r][weft_c] = c.ld(
// A's tile is staged times alpha (tests/lit/emit/scaled-tiles.cpp).
// KERNEL: weft_tile0[{{.*}}] = (alpha * weft_next0[weft_q][weft_v]);
// KERNEL: (weft_reg0[weft_r][weft_c] += (weft_frag0[weft_r] * weft_frag1[weft_c]));

template <class T> double checksum(const std::vector<T> &V) {
  double S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I] * static_cast<double>(I % 13 + 1);
  return S;
}

int main() {
  const int Shapes[][3] = {{1, 1, 1},      {17, 17, 17},  {1000, 17, 9},
                           {17, 1023, 5},  {2049, 1, 17}, {33, 2049, 3},
                           {130, 129, 40}, {1023, 64, 1}, {64, 128, 64}};
  for (const auto &S : Shapes) {
    const int N = S[0], M = S[1], K = S[2];
    std::vector<float> A(N * K), B(K * M), C(N * M, -1.0f);
    std::vector<double> Ad(N * K), Bd(K * M), Cd(N * M), Bias(M);
    for (int I = 0; I < N * K; ++I)
      Ad[I] = A[I] = static_cast<float>(I % 7) - 3;
    for (int I = 0; I < K * M; ++I)
      Bd[I] = B[I] = static_cast<float>(I % 5) * 0.5f;
    for (int I = 0; I < N * M; ++I)
      Cd[I] = static_cast<double>(I % 3);
    for (int J = 0; J < M; ++J)
      Bias[J] = J * 0.25;
    product(A, B, C, N, M, K);
    gemm(Ad, Bd, Cd, Bias, N, M, K, 1.5, 0.5);
    std::printf("%d x %d x %d: %.3f %.3f\n", N, M, K, checksum(C),
                checksum(Cd));
  }
}
