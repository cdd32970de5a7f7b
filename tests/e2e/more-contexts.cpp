// More contexts for the rewrite: consteval, static and friend members,
// variadic and constrained templates, an explicit specialization, extern
// "C", a local class, and if constexpr in a generic lambda.
// e2e-unemitted: 1 (the consteval function is only constant-evaluated)
#include <concepts>
#include <cstdio>
#include <vector>
#include <weft/weft.hpp>
consteval int twice(int n) {
  int a[8] = {};
  std::span<int> s(a, 8);
#pragma weft parallel for
  for (int i = 0; i < 8; ++i)
    s[i] = 2 * n;
  return a[7];
}
static_assert(twice(4) == 8);
struct S {
  static void sfn(std::span<float> y) {
#pragma weft parallel for
    for (std::size_t i = 0; i < y.size(); ++i)
      y[i] += 1;
  }
  friend void ffn(S, std::span<float> y) {
#pragma weft parallel for
    for (std::size_t i = 0; i < y.size(); ++i)
      y[i] *= 2;
  }
};
template <class... Ts> void variadic(std::span<float> y, Ts... xs) {
  const float add = (0.0f + ... + xs);
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] += add;
}
template <std::floating_point T>
void constrained(std::span<T> y) requires(sizeof(T) >= 4) {
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] -= T(0.5);
}
template <class T> void spec(std::span<T> y) {}
template <> void spec<float>(std::span<float> y) {
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] = y[i] * y[i];
}
extern "C" void cfn(float *p, int n) {
  std::span<float> y(p, n);
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    y[i] += 0.25f;
}
int main() {
  std::vector<float> v(100, 1.0f);
  S::sfn(v);
  ffn(S{}, v);
  variadic(std::span<float>(v), 1.0f, 2.0f);
  constrained(std::span<float>(v));
  spec(std::span<float>(v));
  cfn(v.data(), 100);
  struct Local {
    void run(std::span<float> y) {
#pragma weft parallel for
      for (std::size_t i = 0; i < y.size(); ++i)
        y[i] -= 1;
    }
  } L;
  L.run(v);
  auto gen = [](auto y, auto k) {
    if constexpr (sizeof(k) == 8) {
#pragma weft parallel for
      for (std::size_t i = 0; i < y.size(); ++i)
        y[i] += (float)k;
    }
  };
  gen(std::span<float>(v), 1.5);
  gen(std::span<float>(v), 1);
  double s = 0;
  for (float x : v)
    s += x;
  std::printf("%.4f %d\n", s, twice(3));
}
