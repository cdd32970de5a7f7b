// nw: Needleman-Wunsch global alignment of two sequences (Rodinia's NW): a
// score matrix filled one anti-diagonal at a time, the cells of each
// anti-diagonal in parallel (a wavefront).
#include "Harness.h"

#include <algorithm>
#include <string>
#include <vector>

namespace {

// A BLOSUM62-like similarity of two of 24 residues, symmetric.
int similarity(int A, int B) {
  if (A == B)
    return 4 + (A * 7) % 6;
  return ((A * 31 + B * 31 + A * B) % 9) - 5;
}

// Fills Score ((N + 1) x (N + 1), its first row and column set) from the
// similarities Ref of the residues at each cell.
void align(const std::vector<int> &Ref, std::vector<int> &Score, int N,
           int Penalty) {
  const int Width = N + 1;
#pragma weft region(Ref, Score)
  for (int D = 2; D <= 2 * N; ++D) { // the anti-diagonal I + J == D
    int First = std::max(1, D - N), Last = std::min(N, D - 1);
#pragma weft parallel for
    for (int I = First; I <= Last; ++I) {
      int J = D - I;
      int Diagonal = Score[(I - 1) * Width + J - 1] + Ref[I * Width + J];
      int Up = Score[(I - 1) * Width + J] - Penalty;
      int Left = Score[I * Width + J - 1] - Penalty;
      Score[I * Width + J] = std::max(Diagonal, std::max(Up, Left));
    }
  }
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int N = Opts.Small ? 128 : 4096, Penalty = 10, Width = N + 1;
  std::vector<int> First(N + 1), Second(N + 1);
  sample::Random Rng(3);
  for (int I = 1; I <= N; ++I) {
    First[I] = Rng.below(24);
    Second[I] = Rng.below(24);
  }
  std::vector<int> Ref(static_cast<std::size_t>(Width) * Width, 0);
  for (int I = 1; I <= N; ++I)
    for (int J = 1; J <= N; ++J)
      Ref[I * Width + J] = similarity(First[I], Second[J]);
  std::vector<int> Score;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    Score.assign(Ref.size(), 0);
    for (int I = 0; I <= N; ++I) {
      Score[I * Width] = -I * Penalty;
      Score[I] = -I * Penalty;
    }
    align(Ref, Score, N, Penalty);
  });
  return sample::finish(Opts, "nw", "two sequences of " + std::to_string(N), Ms,
                        Score);
}
