// A marked loop in every context the rewrite must reach; prints a checksum
// per context. The test compares the output with and without the plugin.
#include <weft/weft.hpp>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

// A plain function, with scalars, math and a conditional.
void saxpy(float A, std::span<const float> X, std::span<float> Y) {
#pragma weft parallel for
  for (int I = 0; I < static_cast<int>(X.size()); ++I) {
    float V = A * X[I] + Y[I];
    if (V > 100.0f)
      V = std::sqrt(V);
    Y[I] = V;
  }
}

// A function template: each instantiation gets its own kernel.
template <class T> void scale(std::span<T> V, T Factor) {
  [[weft::parallel("block(128)")]] for (T &E : V) E *= Factor;
}

// A lambda in a global initializer.
auto Square = [](std::span<double> V) {
#pragma weft parallel for
  for (std::size_t I = 0; I < V.size(); I++)
    V[I] = V[I] * V[I];
};

struct Particles {
  std::vector<float> Mass;
  // A member function.
  void heavier(float By) {
    std::span<float> M(Mass);
#pragma weft parallel for
    for (int I = 0; I < static_cast<int>(M.size()); ++I)
      M[I] += By;
  }
};

// A class template's member function.
template <class T> struct Grid {
  std::vector<T> Cells;
  void fill(T Value) {
    std::span<T> C(Cells);
    const int N = static_cast<int>(C.size());
#pragma weft parallel for
    for (int I = 0; I < N; I += 3)
      C[I] = Value + static_cast<T>(I);
  }
};

// A constexpr function: during constant evaluation the loop itself runs.
constexpr int triangle(int N) {
  int Values[64] = {};
  std::span<int> V(Values, N);
#pragma weft parallel for
  for (int I = 0; I < N; ++I)
    V[I] = I + 1;
  int Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Values[I];
  return Sum;
}
static_assert(triangle(10) == 55, "constexpr evaluation runs the loop");

template <class T> double sum(const std::vector<T> &V) {
  return std::accumulate(V.begin(), V.end(), 0.0);
}

int main() {
  std::vector<float> X(1000), Y(1000);
  for (int I = 0; I < 1000; ++I) {
    X[I] = 0.5f * static_cast<float>(I);
    Y[I] = static_cast<float>(I % 7);
  }
  saxpy(2.0f, X, Y);
  std::printf("function: %.6f\n", sum(Y));

  std::vector<int> Ints(300, 3);
  scale<float>(std::span<float>(Y), 0.25f);
  scale<int>(std::span<int>(Ints), 7);
  std::printf("template: %.6f %.0f\n", sum(Y), sum(Ints));

  std::vector<double> D(257);
  std::iota(D.begin(), D.end(), -128.0);
  Square(D);
  std::printf("global lambda: %.3f\n", sum(D));

  // A local lambda capturing by reference, and a generic one.
  int Offset = 5;
  std::span<float> YS(Y);
  auto AddOffset = [&](int Count) {
#pragma weft parallel for
    for (int I = 0; I < Count; ++I)
      YS[I] += static_cast<float>(Offset);
  };
  AddOffset(500);
  auto Negate = [](auto Span) {
#pragma weft parallel for
    for (std::size_t I = 0; I < Span.size(); ++I)
      Span[I] = -Span[I];
  };
  Negate(std::span<float>(Y));
  Negate(std::span<int>(Ints));
  std::printf("lambdas: %.6f %.0f\n", sum(Y), sum(Ints));

  Particles P{std::vector<float>(100, 1.0f)};
  P.heavier(0.5f);
  std::printf("member: %.3f\n", sum(P.Mass));

  Grid<double> G{std::vector<double>(50, 0.0)};
  G.fill(1.5);
  std::printf("class template: %.3f\n", sum(G.Cells));

  // A marked loop nested in an ordinary loop.
  std::vector<float> Acc(64, 0.0f);
  std::span<float> AccS(Acc);
  for (int Step = 0; Step < 4; ++Step) {
#pragma weft parallel for
    for (int I = 0; I < 64; ++I)
      AccS[I] += static_cast<float>(Step * I);
  }
  std::printf("nested: %.3f\n", sum(Acc));

  volatile int N = 12;
  std::printf("constexpr: %d %d\n", triangle(10), triangle(N));
  return 0;
}
