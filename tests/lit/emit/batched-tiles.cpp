// Tiles of a pair of levels under a batch level: in a batch of products
// whose batch level has one thread a block, the last two levels are tiled
// as a lone product's are (the block shares the batch index, and walks
// both levels together). A level whose bounds follow the thread (a
// triangle) is strided over by the block, and not tiled. Sizes that are
// multiples of no tile, checked on the simulator with 32- and 64-wide warps
// and with staging off against the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat $(grep -l 'int batch' %t.k/*.cu) | FileCheck %s --check-prefix=KERNEL
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
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: remark: weft: level 2 (j): dim x, block 16, Span(1){{.*}}; loop over k in tiles of {{[0-9]+}} in shared memory: a[((((p * $n) + i) * $n) + k)] (shared by the 16 threads along x) b[((((p * $n) + k) * $n) + j)] (shared by the 8 threads along y)
void batched(std::span<const float> a, std::span<const float> b,
             std::span<float> c, int batch, int n) {
#pragma weft parallel for dim(z) block(1)
  for (int p = 0; p < batch; ++p)
#pragma weft parallel for dim(y) block(8)
    for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16)
      for (int j = 0; j < n; ++j) {
        float s = 0;
        for (int k = 0; k < n; ++k)
          s += a[(p * n + i) * n + k] * b[(p * n + k) * n + j];
        c[(p * n + i) * n + j] = s;
      }
}
// The pair's outer level walked by blocks together, in range where the
// batch level is too; the tiles' rows along y, columns along x.
// KERNEL: const bool weft_in1 = weft_t1 < weft_count1 && weft_in0;
// KERNEL: const bool weft_in2 = weft_t2 < weft_count2;
// KERNEL: const bool weft_active = weft_in1 && weft_in2;
// KERNEL: for (weft::index_t weft_kk = weft::thread_idx(0); weft_kk < WEFT_TILE; weft_kk += WEFT_BLOCK_X)
// KERNEL-NEXT: if (weft_in1 && weft_k0 + weft_kk < (weft::index_t)(n))
// KERNEL-NEXT: weft_tile0[(weft::index_t)weft::thread_idx(1) * (WEFT_TILE + 1) + weft_kk] =
// KERNEL: weft::barrier();

// CHECK: remark: weft: level 1 (j): dim x, block 16, Span(all); constrained by this loop's dim/block/span/split clauses; extent known only inside the kernel{{[^;]*}}; coalescing{{[^;]*}}{{$}}
void lowerProducts(std::span<const float> a, std::span<const float> b,
                   std::span<float> c, int n) {
#pragma weft parallel for dim(y) block(4)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16)
    for (int j = 0; j <= i; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

int main() {
  double Check = 0;
  for (int N : {13, 20}) {
    const int Batch = 3;
    std::vector<float> A(Batch * N * N), B(Batch * N * N), C(Batch * N * N);
    for (std::size_t X = 0; X < A.size(); ++X) {
      A[X] = static_cast<float>(X % 7) - 3.0f;
      B[X] = static_cast<float>(X % 5) * 0.5f;
    }
    batched(A, B, C, Batch, N);
    for (std::size_t X = 0; X < C.size(); ++X)
      Check += C[X] * static_cast<double>(X % 3);
    std::printf("batched %d: %.3f\n", N, Check);
  }
  {
    const int N = 21;
    std::vector<float> A(N * N), B(N * N), C(N * N);
    for (int X = 0; X < N * N; ++X) {
      A[X] = static_cast<float>(X % 9) * 0.5f;
      B[X] = static_cast<float>(X % 4) - 1.0f;
    }
    lowerProducts(A, B, C, N);
    for (int X = 0; X < N * N; ++X)
      Check += C[X] * (1 + X % 2);
    std::printf("lower: %.3f\n", Check);
  }
}
