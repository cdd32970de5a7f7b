// Launch geometry: every grid dimension covers its level's extent
// (ceil(extent / block)), within the device's limits (65535 blocks along y
// and z; the kernel strides over the rest); WEFT_VERBOSE says which grid and
// block each launch got (=2: every launch), and the simulator, which knows
// the grid it ran, says how many blocks it ran. 1-, 2- and 3-level nests
// at extents 1, 31, 1000, 16384 and 2^20; every result checked.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=2 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: FileCheck --check-prefix=OK %s < %t.sim
// RUN: env WEFT_BACKEND=host %t.exe | diff - %t.sim
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

void fill1(std::span<int> out, int n) {
#pragma weft parallel for dim(x) block(256)
  for (int i = 0; i < n; ++i)
    out[i] = 3 * i + 1;
}

void fill2(std::span<int> out, int rows, int cols) {
#pragma weft parallel for dim(y) block(4)
  for (int i = 0; i < rows; ++i)
#pragma weft parallel for dim(x) block(64)
    for (int j = 0; j < cols; ++j)
      out[i * cols + j] = 7 * i + j;
}

void fill3(std::span<int> out, int a, int b, int c) {
#pragma weft parallel for dim(z) block(2)
  for (int i = 0; i < a; ++i)
#pragma weft parallel for dim(y) block(4)
    for (int j = 0; j < b; ++j)
#pragma weft parallel for dim(x) block(32)
      for (int k = 0; k < c; ++k)
        out[(i * b + j) * c + k] = 5 * i + 3 * j + k;
}

// 1 level:
// CHECK: kernel [[K1:weft_geometry_L[0-9]+_[0-9a-f]+]]: grid (1, 1, 1) x block (256, 1, 1)
// CHECK-NEXT: sim: kernel [[K1]] ran 1 blocks of grid (1, 1, 1) x block (256, 1, 1)
// CHECK: kernel [[K1]]: grid (1, 1, 1) x block (256, 1, 1)
// CHECK: kernel [[K1]]: grid (4, 1, 1) x block (256, 1, 1)
// CHECK: kernel [[K1]]: grid (64, 1, 1) x block (256, 1, 1)
// CHECK: kernel [[K1]]: grid (4096, 1, 1) x block (256, 1, 1)
// CHECK-NEXT: sim: kernel [[K1]] ran 4096 blocks of grid (4096, 1, 1)
// 2 levels (rows x cols):
// CHECK: kernel [[K2:weft_geometry_L[0-9]+_[0-9a-f]+]]: grid (1, 1, 1) x block (64, 4, 1)
// CHECK: kernel [[K2]]: grid (1, 8, 1) x block (64, 4, 1)
// CHECK: kernel [[K2]]: grid (16, 250, 1) x block (64, 4, 1)
// CHECK-NEXT: sim: kernel [[K2]] ran 4000 blocks of grid (16, 250, 1)
// CHECK: kernel [[K2]]: grid (1, 4096, 1) x block (64, 4, 1)
// CHECK: kernel [[K2]]: grid (256, 8, 1) x block (64, 4, 1)
// CHECK: kernel [[K2]]: grid (1, 65535, 1) x block (64, 4, 1)
// CHECK-NEXT: sim: kernel [[K2]] ran 65535 blocks of grid (1, 65535, 1)
// CHECK: kernel [[K2]]: grid (16384, 1, 1) x block (64, 4, 1)
// 3 levels (a x b x c):
// CHECK: kernel [[K3:weft_geometry_L[0-9]+_[0-9a-f]+]]: grid (1, 1, 1) x block (32, 4, 2)
// CHECK: kernel [[K3]]: grid (1, 8, 16) x block (32, 4, 2)
// CHECK: kernel [[K3]]: grid (32, 8, 1) x block (32, 4, 2)
// CHECK: kernel [[K3]]: grid (1, 1, 65535) x block (32, 4, 2)
// CHECK-NEXT: sim: kernel [[K3]] ran 65535 blocks of grid (1, 1, 65535)
// CHECK: kernel [[K3]]: grid (1, 1, 1) x block (32, 4, 2)
// CHECK: kernel [[K3]]: grid (32768, 1, 1) x block (32, 4, 2)
// OK-NOT: MISMATCH

int check(const std::vector<int> &Out, const std::vector<int> &Want) {
  for (std::size_t I = 0; I < Want.size(); ++I)
    if (Out[I] != Want[I]) {
      std::printf("MISMATCH at %zu: %d, expected %d\n", I, Out[I], Want[I]);
      return 1;
    }
  return 0;
}

int main() {
  int Failures = 0;
  for (int N : {1, 31, 1000, 16384, 1 << 20}) {
    std::vector<int> Out(N, -1), Want(N);
    fill1(Out, N);
    for (int I = 0; I < N; ++I)
      Want[I] = 3 * I + 1;
    Failures += check(Out, Want);
    std::printf("1 level, %d: ok\n", N);
  }
  const int Shapes2[][2] = {{1, 1},     {31, 31}, {1000, 1000}, {16384, 31},
                            {31, 16384}, {1 << 20, 1}, {1, 1 << 20}};
  for (const auto &S : Shapes2) {
    const int Rows = S[0], Cols = S[1];
    std::vector<int> Out(std::size_t(Rows) * Cols, -1), Want(Out.size());
    fill2(Out, Rows, Cols);
    for (int I = 0; I < Rows; ++I)
      for (int J = 0; J < Cols; ++J)
        Want[std::size_t(I) * Cols + J] = 7 * I + J;
    Failures += check(Out, Want);
    std::printf("2 levels, %d x %d: ok\n", Rows, Cols);
  }
  const int Shapes3[][3] = {{1, 1, 1},       {31, 31, 31}, {1, 31, 1000},
                            {1 << 20, 1, 1}, {1, 1, 1},    {1, 1, 1 << 20}};
  for (const auto &S : Shapes3) {
    const int A = S[0], B = S[1], C = S[2];
    std::vector<int> Out(std::size_t(A) * B * C, -1), Want(Out.size());
    fill3(Out, A, B, C);
    for (int I = 0; I < A; ++I)
      for (int J = 0; J < B; ++J)
        for (int K = 0; K < C; ++K)
          Want[(std::size_t(I) * B + J) * C + K] = 5 * I + 3 * J + K;
    Failures += check(Out, Want);
    std::printf("3 levels, %d x %d x %d: ok\n", A, B, C);
  }
  return Failures;
}
