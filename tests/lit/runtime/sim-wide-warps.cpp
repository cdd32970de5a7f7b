// Blocks of several rows whose level one in is one 32-wide warp and whose
// code after it reads what the warp wrote (a warp_sync there): on the
// simulator's 64-wide warps (an AMD wavefront) two rows share a warp, and
// where one row has left the loop for the block's combining barrier the
// other's warp_sync still passes, as on the hardware.
// RUN: %weftxx %s -o %t.exe %weft_link
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

float doubledFirsts(std::span<const float> a, std::span<float> c, int rows,
                    int cols) {
  float t = 0;
#pragma weft parallel for dim(y) block(4) reduction(+ : t)
  for (int i = 0; i < rows; ++i) {
#pragma weft parallel for dim(x) block(32) span(all)
    for (int j = 0; j < cols; ++j)
      c[i * cols + j] = 2.0f * a[i * cols + j];
    t += c[i * cols + cols - 1];
  }
  return t;
}

int main() {
  for (auto [Rows, Cols] : {std::pair{1, 3}, std::pair{5, 40}, std::pair{7, 33}}) {
    std::vector<float> A(Rows * Cols), C(Rows * Cols, 0.0f);
    for (std::size_t X = 0; X < A.size(); ++X)
      A[X] = static_cast<float>(X % 9) - 4.0f;
    const float T = doubledFirsts(A, C, Rows, Cols);
    double Sum = 0;
    for (float V : C)
      Sum += V;
    std::printf("%d x %d: %.1f %.1f\n", Rows, Cols, static_cast<double>(T), Sum);
  }
}
