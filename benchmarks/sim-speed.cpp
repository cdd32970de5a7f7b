// The simulator's cost: one marked map loop of one million iterations,
// timed on the backend chosen by WEFT_BACKEND (after a first, compiling
// launch), against the same loop run on the host in the same process.
#include <weft/weft.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

static void saxpy(float A, std::span<const float> X, std::span<float> Y) {
#pragma weft parallel for
  for (std::size_t I = 0; I < X.size(); ++I)
    Y[I] = A * X[I] + Y[I];
}

int main() {
  const std::size_t N = 1'000'000;
  std::vector<float> X(N, 1.0f), Y(N, 0.0f), Z(N, 0.0f);
  saxpy(1.0f, X, Y); // compiles (or loads from the cache)
  using Clock = std::chrono::steady_clock;
  const int Repeat = 5;
  auto T0 = Clock::now();
  for (int R = 0; R < Repeat; ++R)
    saxpy(1.0f, X, Y);
  auto T1 = Clock::now();
  for (int R = 0; R < Repeat; ++R)
    for (std::size_t I = 0; I < N; ++I)
      Z[I] = 1.0f * X[I] + Z[I];
  auto T2 = Clock::now();
  const double Backend =
      std::chrono::duration<double>(T1 - T0).count() / Repeat;
  const double Host = std::chrono::duration<double>(T2 - T1).count() / Repeat;
  std::printf("%s: %.3f s per launch of %zu iterations (host loop %.4f s, "
              "ratio %.0fx); result %s\n",
              weft::backendName(), Backend, N, Host, Backend / Host,
              Y[7] == 1.0f + Repeat && Z[7] == Repeat ? "ok" : "WRONG");
  return 0;
}
