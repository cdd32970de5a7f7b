// The cost of tuning as the program runs: a matrix product (register tiles,
// the widest space the plugin states) and a two-axis stencil, each called
// CALLS times; prints the cumulative time after 1, 10, 100 and every call.
// benchmarks/tuning.sh runs it untuned, tuned online from nothing, and
// started from the best configuration of a whole recorded space, and says
// when online tuning has paid for itself.
#include <weft/weft.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void product(std::span<const float> a, std::span<const float> b,
             std::span<float> c, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

void smooth(std::span<const float> in, std::span<float> out, int n) {
#pragma weft parallel for
  for (int i = 1; i < n - 1; ++i)
#pragma weft parallel for
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] = 0.5f * in[i * n + j] +
                       0.125f * (in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                                 in[i * n + j - 1] + in[i * n + j + 1]);
}

using Clock = std::chrono::steady_clock;

/// Calls Fn Calls times; prints the cumulative milliseconds after 1, 10,
/// 100 and all calls.
template <class Fn> void run(const char *Name, int Calls, Fn &&F) {
  std::printf("%-8s", Name);
  const Clock::time_point Start = Clock::now();
  for (int C = 1; C <= Calls; ++C) {
    F();
    if (C != 1 && C != 10 && C != 100 && C != Calls)
      continue;
    weft::synchronize(); // launches into a region need not wait
    std::printf(" %d: %.1f ms", C,
                std::chrono::duration<double, std::milli>(Clock::now() - Start)
                    .count());
  }
  std::printf("\n");
}

} // namespace

int main(int Argc, char **Argv) {
  const int N = Argc > 1 ? std::atoi(Argv[1]) : 1024;
  const int Calls = Argc > 2 ? std::atoi(Argv[2]) : 1000;
  std::vector<float> A(std::size_t(N) * N), B(A.size()), C(A.size());
  for (std::size_t I = 0; I < A.size(); ++I) {
    A[I] = static_cast<float>((I * 37) % 101) / 101.0f;
    B[I] = static_cast<float>((I * 53) % 97) / 97.0f;
  }
  std::printf("backend %s, %d x %d, %d calls each; cumulative times\n",
              weft::backendName(), N, N, Calls);
  {
    // Braces: with parentheses this declared a function, and no region.
    weft::region Data{std::span<const float>(A), std::span<const float>(B),
                      std::span<float>(C)};
    run("product", Calls, [&] { product(A, B, C, N); });
    run("smooth", Calls, [&] { smooth(A, C, N); });
  }
  double Sum = 0;
  for (float X : C)
    Sum += X;
  std::printf("checksum %.6g\n", Sum);
}
