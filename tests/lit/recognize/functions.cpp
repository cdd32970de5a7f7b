// Functions called from a nest become device functions of its kernel:
// free functions, function templates (each instantiation), constexpr
// functions, non-capturing lambdas, and what they call in turn.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: rm -rf %t.k && %weftxx -c %s -o %t.o -fplugin-arg-weft-emit-dir=%t.k
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cmath>

inline float softplus(float x) { return std::log1p(std::exp(x)); }

template <class T> T cube(T v) { return v * v * v; }

constexpr int clampIndex(int i, int n) {
  if (i < 0)
    return 0;
  return i >= n ? n - 1 : i;
}

static void accumulate(float &acc, float v) { acc += softplus(v); }

void apply(std::span<const float> x, std::span<float> y, std::span<double> z) {
  auto twice = [](float v) { return 2 * v; };
  const int n = static_cast<int>(x.size());
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    float acc = 0;
    accumulate(acc, x[clampIndex(i - 1, n)]);
    accumulate(acc, x[clampIndex(i + 1, n)]);
    y[i] = twice(acc) + cube(x[i]);
    z[i] = cube(static_cast<double>(x[i]));
  }
}
// CHECK-NOT: function weft_fn_log1p
// CHECK: function weft_fn_softplus_{{[0-9a-f]+}} (softplus): float(float x)
// CHECK-NEXT: return weft::log1p(weft::exp(x))
// CHECK: function weft_fn_accumulate_{{[0-9a-f]+}} (accumulate): void(float& acc, float v)
// CHECK-NEXT: (acc += weft_fn_softplus_{{[0-9a-f]+}}(v))
// CHECK: function weft_fn_clampIndex_{{[0-9a-f]+}} (clampIndex): int(int i, int n)
// CHECK-NEXT: if (i < 0)
// CHECK: function weft_fn_lambda_{{[0-9a-f]+}} ({{.*}}operator()): float(float v)
// CHECK: function weft_fn_cube_[[FLOAT:[0-9a-f]+]] (cube): float(float v)
// CHECK: function weft_fn_cube_[[DOUBLE:[0-9a-f]+]] (cube): double(double v)

// KERNEL: WEFT_DEVICE void weft_fn_accumulate_{{[0-9a-f]+}}(float &acc, float v) {
// KERNEL: WEFT_DEVICE int weft_fn_clampIndex_{{[0-9a-f]+}}(int i, int n) {
// KERNEL: WEFT_KERNEL(

#ifdef WITH_MAIN
#include <cstdio>
#include <vector>
int main() {
  std::vector<float> X(300), Y(300);
  std::vector<double> Z(300);
  for (int I = 0; I < 300; ++I)
    X[I] = 0.01f * static_cast<float>(I) - 1.5f;
  apply(X, Y, Z);
  double S = 0;
  for (int I = 0; I < 300; ++I)
    S += Y[I] * (I % 7) + Z[I];
  std::printf("%.9g\n", S);
}
#endif
