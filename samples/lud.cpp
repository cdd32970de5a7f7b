// lud: LU decomposition without pivoting, blocked as Rodinia's OpenMP lud
// is: per step, the diagonal block, the perimeter (the block row's U and the
// block column's L) and the trailing matrix's update, each marked. The matrix
// stays on the device in a region, so the steps' launches queue one after
// another with no host work between them.
#include "Harness.h"

#include <span>
#include <string>
#include <vector>

namespace {

constexpr int BlockSize = 32;

// The diagonal block at (Offset, Offset), factored in place, as Rodinia
// does it: a row of U, then a column of L, BlockSize times, in order on
// the device, one block of threads sharing each row's and column's loop.
void factorDiagonal(std::span<float> A, int N, int Offset) {
#pragma weft sequential for
  for (int I = Offset; I < Offset + BlockSize; ++I) {
#pragma weft parallel for
    for (int J = I; J < Offset + BlockSize; ++J) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
    float Inverse = 1.0f / A[I * N + I];
#pragma weft parallel for
    for (int J = I + 1; J < Offset + BlockSize; ++J) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[J * N + K] * A[K * N + I];
      A[J * N + I] = (A[J * N + I] - Sum) * Inverse;
    }
  }
}

// The block row right of the diagonal block (U = L^-1 A, column by column)
// and the block column below it (L = A U^-1, row by row): each column (or
// row) its own thread's, which holds it in registers down the block.
void perimeter(std::span<float> A, int N, int Offset) {
  const int End = Offset + BlockSize;
#pragma weft parallel for
  for (int J = End; J < N; ++J) {
    for (int I = Offset + 1; I < End; ++I) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
  }
#pragma weft parallel for
  for (int I = End; I < N; ++I) {
    for (int J = Offset; J < End; ++J) {
      float Sum = 0;
      for (int K = Offset; K < J; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] = (A[I * N + J] - Sum) / A[J * N + J];
    }
  }
}

// The trailing matrix less the product of the block column and block row.
void updateTrailing(std::span<float> A, int N, int Offset) {
  const int End = Offset + BlockSize;
#pragma weft parallel for
  for (int I = End; I < N; ++I) {
#pragma weft parallel for
    for (int J = End; J < N; ++J) {
      float Sum = 0;
      for (int K = Offset; K < End; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
  }
}

void decompose(std::vector<float> &Matrix, int N) {
  std::span<float> A(Matrix);
  weft::region OnDevice(A);
  for (int Offset = 0; Offset < N; Offset += BlockSize) {
    factorDiagonal(A, N, Offset);
    if (Offset + BlockSize < N) {
      perimeter(A, N, Offset);
      updateTrailing(A, N, Offset);
    }
  }
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int N = Opts.Small ? 128 : 2048; // a multiple of BlockSize
  // Diagonally dominant, so that no pivoting is needed.
  std::vector<float> Input(static_cast<std::size_t>(N) * N);
  sample::Random Rng(37);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J)
      Input[I * N + J] = Rng.uniform(0.0f, 1.0f) + (I == J ? N : 0);
  std::vector<float> Matrix;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    Matrix = Input;
    decompose(Matrix, N);
  });
  double Flops = 2.0 / 3.0 * N * N * N;
  return sample::finish(Opts, "lud",
                        std::to_string(N) + "x" + std::to_string(N) + ", " +
                            std::to_string(Flops / Ms / 1e6).substr(0, 6) +
                            " GFLOP/s",
                        Ms, Matrix, 1e-3);
}
