// A stencil's time loop inside a weft::region: the grids stay on the device
// between steps; host code in the middle goes through update_host and
// update_device; then the pragma form; then one block of a matrix on the
// host (weft::submatrix). The result must equal the serial program's.
#include <weft/weft.hpp>

#include <cstdio>
#include <utility>
#include <vector>

void relax(std::span<const float> In, std::span<float> Out, int N) {
#pragma weft parallel for
  for (int I = 1; I < N - 1; ++I)
#pragma weft parallel for
    for (int J = 1; J < N - 1; ++J)
      Out[I * N + J] = 0.25f * (In[(I - 1) * N + J] + In[(I + 1) * N + J] +
                                In[I * N + J - 1] + In[I * N + J + 1]);
}

void bump(std::span<float> Grid) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Grid.size(); ++I)
    Grid[I] = Grid[I] * 1.5f + 1.0f;
}

int main() {
  const int N = 64;
  std::vector<float> A(N * N, 0.0f), B(N * N, 0.0f);
  for (int I = 0; I < N; ++I)
    A[I] = B[I] = 100.0f; // a hot edge
  std::span<float> Cur(A), Next(B);
  {
    weft::region Grids(Cur, Next);
    for (int Step = 0; Step < 40; ++Step) {
      relax(Cur, Next, N);
      std::swap(Cur, Next);
      if (Step == 19) {
        // Host code in the middle: bring the data back, change it, send it.
        Grids.update_host(Cur);
        Cur[N * N / 2] += 500.0f;
        Grids.update_device(Cur);
      }
    }
  }
  double S = 0;
  for (int I = 0; I < N * N; ++I)
    S += Cur[I] * (I % 7 + 1);
  std::printf("relaxed: %.4f\n", S);

  // The pragma form (ignored without the plugin).
#pragma weft region(Cur, Next)
  for (int Step = 0; Step < 20; ++Step) {
    relax(Cur, Next, N);
    std::swap(Cur, Next);
  }
  S = 0;
  for (int I = 0; I < N * N; ++I)
    S += Cur[I] * (I % 5 + 1);
  std::printf("relaxed more: %.4f\n", S);

  // A block of a matrix: host code works on it alone, and the rest of its
  // rows, newer on the device, must stay as they are there.
  const int Rows = 40, Pitch = 48;
  std::vector<float> Grid(Rows * Pitch);
  for (int I = 0; I < Rows * Pitch; ++I)
    Grid[I] = static_cast<float>(I % 13);
  {
    weft::region OnDevice(Grid);
    bump(Grid);
    auto Block = weft::submatrix(Grid, Pitch, 8, 5, 16, 20);
    OnDevice.update_host(Block);
    for (int I = 8; I < 24; ++I)
      for (int J = 5; J < 25; ++J)
        Grid[I * Pitch + J] = -Grid[I * Pitch + J];
    OnDevice.update_device(Block);
    bump(Grid);
  }
  S = 0;
  for (int I = 0; I < Rows * Pitch; ++I)
    S += Grid[I] * (I % 11 + 1);
  std::printf("one block on the host: %.4f\n", S);
  return 0;
}
