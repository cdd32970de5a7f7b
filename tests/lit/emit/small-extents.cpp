// Batches of small matrices: the sizes' scenarios include 16, where a block
// wider than its level's extent would launch idle threads (they count for
// no parallelism), and the unit-stride level, shorter than a warp, still
// goes on x with all its iterations in the block (runs of 16 elements).
// Checked on the simulator at sizes around the scenario against the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: small-extents.cpp:[[@LINE+4]]:3: remark: weft: mapping {{[0-9]}} of {{[0-9]}}, for sizes near batch = 16, n = 16; {{.*}}level 0: dim {{[yz]}}, block 1, Span(1); level 1: dim {{[yz]}}, block 16, Span(1); level 2: dim x, block 16, Span(1);
void batched(std::span<const float> a, std::span<const float> b,
             std::span<float> c, int batch, int n) {
#pragma weft parallel for
  for (int p = 0; p < batch; ++p)
#pragma weft parallel for
    for (int i = 0; i < n; ++i)
#pragma weft parallel for
      for (int j = 0; j < n; ++j) {
        float s = 0;
        for (int k = 0; k < n; ++k)
          s += a[(p * n + i) * n + k] * b[(p * n + k) * n + j];
        c[(p * n + i) * n + j] = s;
      }
}
// Sizes of 3, 16 and 21 take the mapping for 16: blocks of 16 x 16
// threads, one matrix each (the mapping and the geometry are printed when
// they change).
// LAUNCH: sizes (40, 3): mapping {{[0-9]}} of {{[0-9]}}, kernel [[K:weft_small_extents_L[0-9]+_[0-9a-f]+]]
// LAUNCH-NEXT: kernel [[K]]: grid (1, {{40, 1|1, 40}}) x block (16, {{1, 16|16, 1}})
// LAUNCH-NEXT: kernel [[K]]: grid (2, {{40, 2|2, 40}}) x block (16, {{1, 16|16, 1}})
// LAUNCH-NEXT: 3 calls on sim, 0 on the host

int main() {
  double Check = 0;
  for (int N : {3, 16, 21}) {
    const int Batch = 40;
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
}
