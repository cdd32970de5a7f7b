// Min and max reductions written the ways legacy code writes them: the
// conditional expression, the guarding if (either comparison, either
// order, with and without braces), std::fmax and std::fmin, over a whole
// span and per row (an inner level reducing into the row's variable), on
// int, float and double; and a sum into an element of a span
// (reduction(+: Tmp[R])).
#include <weft/weft.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

float largestConditional(std::span<const float> V) {
  float M = -1e30f;
#pragma weft parallel for reduction(max: M)
  for (std::size_t I = 0; I < V.size(); ++I)
    M = V[I] > M ? V[I] : M;
  return M;
}

double smallestConditionalSwapped(std::span<const double> V) {
  double M = 1e300;
#pragma weft parallel for reduction(min: M)
  for (std::size_t I = 0; I < V.size(); ++I)
    M = M <= V[I] ? M : V[I];
  return M;
}

int largestGuarded(std::span<const int> V) {
  int M = -2147483647;
#pragma weft parallel for reduction(max: M)
  for (std::size_t I = 0; I < V.size(); ++I)
    if (M < V[I])
      M = V[I];
  return M;
}

float smallestGuardedBraces(std::span<const float> V) {
  float M = 1e30f;
#pragma weft parallel for reduction(min: M)
  for (std::size_t I = 0; I < V.size(); ++I) {
    const float X = V[I] * 0.5f;
    if (X <= M) {
      M = X;
    }
  }
  return M;
}

double rangeWithFmaxFmin(std::span<const double> V) {
  double Hi = -1e300, Lo = 1e300;
#pragma weft parallel for reduction(max: Hi) reduction(min: Lo)
  for (std::size_t I = 0; I < V.size(); ++I) {
    Hi = std::fmax(Hi, V[I]);
    Lo = std::fmin(V[I], Lo);
  }
  return Hi - Lo;
}

// Per row: the largest element of each row, an inner level reducing into
// the row's variable.
void rowMaxima(std::span<const float> A, std::span<float> Out, int Rows,
               int Cols) {
#pragma weft parallel for
  for (int R = 0; R < Rows; ++R) {
    float Best = A[R * Cols];
#pragma weft parallel for reduction(max: Best)
    for (int C = 0; C < Cols; ++C)
      if (A[R * Cols + C] > Best)
        Best = A[R * Cols + C];
    Out[R] = Best;
  }
}

// A matrix-vector product accumulating into the output's element.
void matVec(std::span<const float> A, std::span<const float> X,
            std::span<float> Tmp, int Rows, int Cols) {
#pragma weft parallel for
  for (int R = 0; R < Rows; ++R) {
    Tmp[R] = 0;
#pragma weft parallel for reduction(+: Tmp[R])
    for (int C = 0; C < Cols; ++C)
      Tmp[R] += A[R * Cols + C] * X[C];
  }
}

int main() {
  const int N = 100003;
  std::vector<float> F(N);
  std::vector<double> D(N);
  std::vector<int> I(N);
  for (int K = 0; K < N; ++K) {
    F[K] = std::sin(K * 0.37f) * static_cast<float>(K % 1000);
    D[K] = std::cos(K * 0.11) * (K % 777);
    I[K] = (K * 7919) % 100019 - 50000;
  }
  std::printf("largest %.6g\n", largestConditional(F));
  std::printf("smallest %.9g\n", smallestConditionalSwapped(D));
  std::printf("largest int %d\n", largestGuarded(I));
  std::printf("smallest half %.6g\n", smallestGuardedBraces(F));
  std::printf("range %.9g\n", rangeWithFmaxFmin(D));
  const int Rows = 257, Cols = 389;
  std::vector<float> Out(Rows);
  rowMaxima(std::span<const float>(F.data(), Rows * Cols), Out, Rows, Cols);
  double Sum = 0;
  for (float X : Out)
    Sum += X;
  std::printf("row maxima %.6g %.6g %.6g\n", Out[0], Out[Rows - 1], Sum);
  std::vector<float> Tmp(Rows);
  std::vector<float> Small(Rows * Cols), X(Cols);
  for (int K = 0; K < Rows * Cols; ++K)
    Small[K] = static_cast<float>(K % 11) - 5;
  for (int C = 0; C < Cols; ++C)
    X[C] = static_cast<float>(C % 3);
  matVec(Small, X, Tmp, Rows, Cols);
  std::printf("mat-vec %.6g %.6g\n", Tmp[0], Tmp[Rows - 1]);
}
