// Sequential loops on the device (`#pragma weft sequential for`): one block
// of threads runs the iterations in order and shares each iteration's
// marked loops. A Cholesky factorization (a write at the sequential level
// that the marked loops then read), lud's diagonal block (two marked loops
// an iteration), and a Jacobi sweep that alternates its two grids in
// branches and stops once a max-reduction says it has converged. The
// result must equal the serial program's.
#include <weft/weft.hpp>

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
}
