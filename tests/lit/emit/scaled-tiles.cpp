// A register tile whose every read is first multiplied by a capture or a
// literal (alpha in C += alpha * A * B) is staged scaled: the block
// multiplies each element once as it stores the tile, and the threads'
// fragments need no multiply at each iteration (x * y == y * x exactly, so
// the results are the host's). Where some read of the tile is not such a
// product, the tile is staged as it is. On the simulator with its checker,
// at sizes that are multiples of no tile, against the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_KERNEL_DEFINES="WEFT_TM=2 WEFT_TN=3 WEFT_TILE=5" %t.exe > %t.shape
// RUN: diff %t.host %t.shape
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// B's reads are all B * scale: its tile is staged scaled. A's read is
// multiplied by that product, not by an invariant: staged as it is.
// CHECK: scaled-tiles.cpp:[[@LINE+6]]:5: remark: weft: level 1 (j): {{.*}}: a[((i * $kk) + k)] (shared by the 16 threads along x) b[((k * $m) + j)] (shared by the 8 threads along y; staged times $scale); each thread computes
void scaledColumns(std::span<const float> a, std::span<const float> b,
                   std::span<float> c, int n, int m, int kk, float scale) {
#pragma weft parallel for dim(y) block(8) span(4)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(8)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int k = 0; k < kk; ++k)
        s += a[i * kk + k] * (b[k * m + j] * scale);
      c[i * m + j] = s;
    }
}
// KERNEL-LABEL: WEFT_TILE_KERNEL(weft_scaled_tiles_L
// KERNEL: weft_tile0[{{.*}}] = weft_next0[weft_q][weft_v];
// KERNEL: weft_tile1[{{.*}}] = (scale * weft_next1[weft_q][weft_v]);
// KERNEL: (s[weft_r][weft_c] += (weft_frag0[weft_r] * weft_frag1[weft_c]));

// A's element is read twice, once times 2 and once alone: no factor.
// CHECK: scaled-tiles.cpp:[[@LINE+6]]:5: remark: weft: level 1 (j): {{.*}}: a[((i * $kk) + k)] (shared by the 16 threads along x) b[((k * $m) + j)] (shared by the 8 threads along y); each thread computes
void twiceRead(std::span<const float> a, std::span<const float> b,
               std::span<float> c, int n, int m, int kk) {
#pragma weft parallel for dim(y) block(8) span(4)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(8)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int k = 0; k < kk; ++k)
        s += 2.0f * a[i * kk + k] * b[k * m + j] + a[i * kk + k];
      c[i * m + j] = s;
    }
}
// KERNEL-LABEL: WEFT_TILE_KERNEL(weft_scaled_tiles_L
// KERNEL: weft_tile0[{{.*}}] = weft_next0[weft_q][weft_v];
// KERNEL: weft_tile1[{{.*}}] = weft_next1[weft_q][weft_v];
// KERNEL: (s[weft_r][weft_c] += (((2.0f * weft_frag0[weft_r]) * weft_frag1[weft_c]) + weft_frag0[weft_r]));

// A factor of captures and literals (a cast, a product).
// CHECK: scaled-tiles.cpp:[[@LINE+6]]:5: remark: weft: level 1 (j): {{.*}}: a[((i * $kk) + k)] (shared by the 16 threads along x; staged times ({{.*}}$shift{{.*}} * 0.5f)) b[((k * $m) + j)] (shared by the 8 threads along y); each thread computes
void compoundFactor(std::span<const float> a, std::span<const float> b,
                    std::span<float> c, int n, int m, int kk, int shift) {
#pragma weft parallel for dim(y) block(8) span(4)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(8)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int k = 0; k < kk; ++k)
        s += (float)shift * 0.5f * a[i * kk + k] * b[k * m + j];
      c[i * m + j] = s;
    }
}
// KERNEL-LABEL: WEFT_TILE_KERNEL(weft_scaled_tiles_L
// KERNEL: weft_tile0[{{.*}}] = ({{.*}}shift{{.*}} * 0.5f) * weft_next0[weft_q][weft_v]);
// KERNEL: weft_tile1[{{.*}}] = weft_next1[weft_q][weft_v];
// KERNEL: (s[weft_r][weft_c] += (weft_frag0[weft_r] * weft_frag1[weft_c]));

double checksum(const std::vector<float> &V) {
  double S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I] * static_cast<double>(I % 13 + 1);
  return S;
}

int main() {
  const int Shapes[][3] = {{1, 1, 1}, {17, 33, 9}, {130, 129, 40}, {64, 128, 64}};
  for (const auto &S : Shapes) {
    const int N = S[0], M = S[1], K = S[2];
    std::vector<float> A(N * K), B(K * M), C(N * M), D(N * M), E(N * M);
    for (int I = 0; I < N * K; ++I)
      A[I] = static_cast<float>(I % 7) * 0.3f - 1;
    for (int I = 0; I < K * M; ++I)
      B[I] = static_cast<float>(I % 5) * 0.7f;
    scaledColumns(A, B, C, N, M, K, 1.3f);
    twiceRead(A, B, D, N, M, K);
    compoundFactor(A, B, E, N, M, K, 3);
    std::printf("%d x %d x %d: %.6f %.6f %.6f\n", N, M, K, checksum(C),
                checksum(D), checksum(E));
  }
}
