// Sequential loops on the device (`#pragma weft sequential for`): one block
// of threads runs the iterations in order and shares each iteration's
// marked loops. A Cholesky factorization (a write at the sequential level
// that the marked loops then read), lud's diagonal block (two marked loops
// an iteration), and a Jacobi sweep that alternates its two grids in
// branches and stops once a max-reduction says it has converged, and steps
// on a grid that stop on its maximum. The result must equal the serial
// program's.
#include <weft/weft.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

void cholesky(std::span<float> A, int N) {
#pragma weft sequential for
  for (int K = 0; K < N; ++K) {
    A[K * N + K] = std::sqrt(A[K * N + K]);
    const float Pivot = A[K * N + K];
#pragma weft parallel for
    for (int I = K + 1; I < N; ++I)
      A[I * N + K] /= Pivot;
#pragma weft parallel for
    for (int J = K + 1; J < N; ++J)
      for (int I = J; I < N; ++I)
        A[I * N + J] -= A[I * N + K] * A[J * N + K];
  }
}

void factorDiagonal(std::span<float> A, int N, int Offset, int Size) {
#pragma weft sequential for
  for (int I = Offset; I < Offset + Size; ++I) {
#pragma weft parallel for
    for (int J = I; J < Offset + Size; ++J) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
    const float Inverse = 1.0f / A[I * N + I];
#pragma weft parallel for
    for (int J = I + 1; J < Offset + Size; ++J) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[J * N + K] * A[K * N + I];
      A[J * N + I] = (A[J * N + I] - Sum) * Inverse;
    }
  }
}

/// Returns the sweeps it took; the result is in A.
int jacobi(std::span<float> A, std::span<float> B, int N, int MaxSweeps) {
  int Sweeps = MaxSweeps;
  std::span<int> Taken(&Sweeps, 1);
#pragma weft sequential for if (N > 4)
  for (int T = 0; T < MaxSweeps; ++T) {
    float Change = 0;
    if (T % 2 == 0) {
#pragma weft parallel for reduction(max : Change)
      for (int I = 1; I < N - 1; ++I) {
        B[I] = 0.5f * (A[I - 1] + A[I + 1]);
        Change = std::fmax(Change, std::fabs(B[I] - A[I]));
      }
    } else {
#pragma weft parallel for reduction(max : Change)
      for (int I = 1; I < N - 1; ++I) {
        A[I] = 0.5f * (B[I - 1] + B[I + 1]);
        Change = std::fmax(Change, std::fabs(A[I] - B[I]));
      }
    }
    if (Change < 1e-3f) {
      Taken[0] = T + 1;
      break;
    }
  }
  return Sweeps;
}

// Steps that update a grid (a nest of two levels) from a pivot, then take
// the grid's maximum (a second marked loop, one level) and stop on it: at
// these sizes the maximum's level runs within each thread while the grid's
// inner level spreads over the block, and every thread must hold the whole
// maximum to agree on the break.
double relaxUntil(std::span<double> Out, std::span<const double> A, int Rows,
                  int Cols) {
  const int Total = Rows * Cols;
#pragma weft sequential for
  for (int T = 0; T < 9; ++T) {
    const int Pivot = (T * 7) % Total;
    Out[Pivot] = Out[Pivot] * 0.5 + A[Pivot];
    const double C = Out[Pivot];
#pragma weft parallel for
    for (int I = 0; I < Rows; ++I)
#pragma weft parallel for
      for (int J = 0; J < Cols; ++J)
        if (I * Cols + J != Pivot)
          Out[I * Cols + J] =
              Out[I * Cols + J] * 0.5 + C * 0.25 + A[I * Cols + J] * 0.125;
    double M = -1e6;
#pragma weft parallel for reduction(max : M)
    for (int I = 0; I < Rows; ++I)
      for (int J = 0; J < Cols; ++J)
        M = std::max(M, Out[I * Cols + J]);
    Out[Total] += M;
    if (M > 0.5)
      break;
  }
  return Out[Total];
}

int main() {
  const int N = 40;
  std::vector<float> C(N * N);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J)
      C[I * N + J] = (I == J ? N : 0) + 1.0f / (1 + I + J);
  cholesky(C, N);
  double S = 0;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J <= I; ++J)
      S += C[I * N + J] * ((I + J) % 5 + 1);
  std::printf("cholesky: %.4f\n", S);

  const int M = 96;
  std::vector<float> L(M * M);
  for (int I = 0; I < M * M; ++I)
    L[I] = static_cast<float>(I % 7) + (I % (M + 1) == 0 ? M : 0);
  factorDiagonal(L, M, 0, 32);
  factorDiagonal(L, M, 32, 64);
  S = 0;
  for (int I = 0; I < M * M; ++I)
    S += L[I] * (I % 3 + 1);
  std::printf("diagonal blocks: %.4f\n", S);

  const int G = 64;
  std::vector<float> A(G, 0.0f), B(G, 0.0f);
  A[0] = B[0] = 1;
  A[G - 1] = B[G - 1] = 2;
  const int Sweeps = jacobi(A, B, G, 5000);
  S = 0;
  for (int I = 0; I < G; ++I)
    S += (Sweeps % 2 ? B[I] : A[I]) * (I % 4 + 1);
  std::printf("jacobi: %d sweeps, %.4f\n", Sweeps, S);

  const int Rows = 7, Cols = 64;
  std::vector<double> Grid(Rows * Cols + 1), Input(Rows * Cols);
  for (int I = 0; I < Rows * Cols; ++I) {
    Grid[I] = ((I * 37) % 17 - 8) / 8.0;
    Input[I] = ((I * 11) % 13 - 6) / 8.0;
  }
  const double Last = relaxUntil(Grid, Input, Rows, Cols);
  S = 0;
  for (int I = 0; I < Rows * Cols; ++I)
    S += Grid[I] * (I % 7 + 1);
  std::printf("relaxed until: %.6f, %.6f\n", Last, S);
}
