// weft::submatrix: a region's update of one block of a matrix moves the
// block's elements alone (a 2-D copy), both ways, and the host code between
// sees the device's results there; the same for 2-D arrays (a C array, a
// std::vector of std::array rows), their rows' length the pitch. A block
// outside its data stops the program with one line saying so.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim %t.exe | FileCheck %s
// RUN: env WEFT_BACKEND=host %t.exe | FileCheck %s --check-prefix=HOST
// RUN: not --crash %t.exe outside 2>&1 | FileCheck %s --check-prefix=OUTSIDE
#include <weft/weft.hpp>

#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

template <class Rows> void bumpRows(Rows &Grid, int N) {
#pragma weft parallel for
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < 24; ++J)
      Grid[I][J] += I + 1;
}

/// A 16 x 24 array: rows 2-5, columns 3-12 to the host and back.
template <class Rows> void twoDimensional(Rows &Grid, const char *Name) {
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 24; ++J)
      Grid[I][J] = 0;
  weft::region OnDevice(Grid);
  bumpRows(Grid, 16);
  const weft::transfer_stats_t Before = weft::transfer_stats();
  auto Block = weft::submatrix(Grid, 2, 3, 4, 10);
  OnDevice.update_host(Block);
  const float Inside = Grid[2][3], Outside = Grid[2][2];
  Grid[5][12] = 100;
  OnDevice.update_device(Block);
  const weft::transfer_stats_t After = weft::transfer_stats();
  bumpRows(Grid, 16);
  OnDevice.update_host(Grid);
  std::printf("%s: %g %g, to device %llu, to host %llu, after: %g %g\n", Name,
              Inside, Outside, After.ToDevice - Before.ToDevice,
              After.ToHost - Before.ToHost, Grid[5][12], Grid[15][23]);
}

void scale(std::span<float> M) {
#pragma weft parallel for
  for (std::size_t I = 0; I < M.size(); ++I)
    M[I] = 2 * M[I] + 1;
}

int main(int Argc, char **Argv) {
  const int N = 64;
  std::vector<float> M(N * N, 1.0f);
  if (Argc > 1 && !std::strcmp(Argv[1], "outside")) {
    // OUTSIDE: weft::submatrix: 32 x 32 elements from (40, 0) with 64 a row are not inside the 4096 elements given
    weft::submatrix(M, N, 40, 0, 32, 32);
    return 0;
  }
  weft::region OnDevice(M);
  scale(M);
  // 32 rows of 16 floats: 2048 bytes each way.
  const weft::transfer_stats_t Before = weft::transfer_stats();
  auto Block = weft::submatrix(M, N, 16, 8, 32, 16);
  OnDevice.update_host(Block);
  // CHECK: block on the host: 3, outside it: 1
  // HOST: block on the host: 3, outside it: 3
  std::printf("block on the host: %g, outside it: %g\n", M[16 * N + 8],
              M[16 * N + 7]);
  M[16 * N + 8] = 10;
  OnDevice.update_device(Block);
  const weft::transfer_stats_t After = weft::transfer_stats();
  // CHECK: to device 2048, to host 2048
  // HOST: to device 0, to host 0
  std::printf("to device %llu, to host %llu\n",
              After.ToDevice - Before.ToDevice, After.ToHost - Before.ToHost);
  scale(M);
  OnDevice.update_host(M);
  // CHECK: after: 21 7
  // HOST: after: 21 7
  std::printf("after: %g %g\n", M[16 * N + 8], M[0]);

  // 4 rows of 10 floats: 160 bytes each way.
  // CHECK: C array: 3 0, to device 160, to host 160, after: 106 32
  // HOST: C array: 3 3, to device 0, to host 0, after: 106 32
  static float Grid[16][24];
  twoDimensional(Grid, "C array");
  // CHECK: rows: 3 0, to device 160, to host 160, after: 106 32
  // HOST: rows: 3 3, to device 0, to host 0, after: 106 32
  std::vector<std::array<float, 24>> Rows(16);
  twoDimensional(Rows, "rows");
}
