// A first weft program: y = a * x + y, then a 3-point smoothing, on marked
// loops. It checks the results against the same loops run serially and
// prints which backend ran them.
#include <weft/weft.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

void saxpy(float A, std::span<const float> X, std::span<float> Y) {
#pragma weft parallel for
  for (std::size_t I = 0; I < X.size(); ++I)
    Y[I] = A * X[I] + Y[I];
}

void smooth(std::span<const float> In, std::span<float> Out) {
#pragma weft parallel for
  for (std::size_t I = 1; I + 1 < In.size(); ++I)
    Out[I] = 0.25f * In[I - 1] + 0.5f * In[I] + 0.25f * In[I + 1];
}

int main() {
  const std::size_t N = 1 << 20;
  std::vector<float> X(N), Y(N), Smooth(N, 0.0f);
  for (std::size_t I = 0; I < N; ++I) {
    X[I] = std::sin(0.001f * static_cast<float>(I));
    Y[I] = static_cast<float>(I % 100) / 100.0f;
  }
  std::vector<float> RefY = Y, RefSmooth = Smooth;

  saxpy(2.0f, X, Y);
  smooth(Y, Smooth);

  // The reference: the same arithmetic, unmarked.
  for (std::size_t I = 0; I < N; ++I)
    RefY[I] = 2.0f * X[I] + RefY[I];
  for (std::size_t I = 1; I + 1 < N; ++I)
    RefSmooth[I] = 0.25f * RefY[I - 1] + 0.5f * RefY[I] + 0.25f * RefY[I + 1];

  double MaxError = 0;
  for (std::size_t I = 0; I < N; ++I)
    MaxError = std::fmax(MaxError, std::fabs(Y[I] - RefY[I]) +
                                       std::fabs(Smooth[I] - RefSmooth[I]));
  const bool Ok = MaxError <= 1e-5;
  std::printf("saxpy + smooth over %zu elements on backend '%s': check %s "
              "(max error %.3g)\n",
              N, weft::backendName(), Ok ? "OK" : "FAILED", MaxError);
  return Ok ? 0 : 1;
}
