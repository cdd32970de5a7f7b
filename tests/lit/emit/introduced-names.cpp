// Every name the plugin introduces into a kernel comes from one supply: two
// lambdas of one signature get two device functions; a function taking a
// pointer, compiled in twice inside another compiled in twice, and one
// compiled in inside its own argument (at two depths) give each call's
// views and locals names of their own, so none initializes itself from or
// hides another (the suite's header-free compile makes both errors). Each
// loop must run on the checked simulator and match the host.
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*_L31_*.cu | FileCheck %s --check-prefix=LAMBDAS
// RUN: cat %t.k/*_L48_*.cu | FileCheck %s --check-prefix=VIEWS
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_ON_FAULT=error %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// LAMBDAS: WEFT_DEVICE float [[F:weft_fn_lambda_[0-9a-f_]+]](float v)
// LAMBDAS: WEFT_DEVICE float [[G:weft_fn_lambda_[0-9a-f_]+]](float v)
// LAMBDAS-NOT: WEFT_DEVICE float [[F]](
// LAMBDAS-NOT: WEFT_DEVICE float [[G]](
// LAMBDAS: [[F]](x.ld(i))
// LAMBDAS: [[G]](x.ld(i))
void twoLambdas(std::span<const float> x, std::span<float> a,
                std::span<float> b) {
  auto f = [](float v) { return v * v + 1.0f; };
  auto g = [](float v) { return v * v + 2.0f; };
#pragma weft parallel for
  for (std::size_t i = 0; i < x.size(); ++i) {
    a[i] = f(x[i]);
    b[i] = g(x[i]);
  }
}

static double get(const double *p, int k) { return p[k]; }
static double pair(const double *p, int k) {
  return get(p, k) + 10.0 * get(p, k + 1);
}

// Each view is declared once.
// VIEWS: const long [[V:weft_row[0-9]+_p]] =
// VIEWS-NOT: const long [[V]] =
void nestedViews(std::span<const double> in, std::span<double> out) {
  const double *d = in.data();
#pragma weft parallel for extent(d: 70)
  for (int i = 0; i < 64; ++i)
    out[i] = pair(d, i) + 100.0 * pair(d + 1, i) +
             get(d, int(pair(d + 2, i)) % 3 + i);
}

int main() {
  std::vector<float> x(100), a(100), b(100);
  for (int i = 0; i < 100; ++i)
    x[i] = 0.25f * i;
  twoLambdas(x, a, b);
  double S = 0;
  for (int i = 0; i < 100; ++i)
    S += a[i] + 3 * b[i];
  std::printf("lambdas: %.4f\n", S);
  std::vector<double> in(70), out(64);
  for (int i = 0; i < 70; ++i)
    in[i] = i;
  nestedViews(in, out);
  S = 0;
  for (int i = 0; i < 64; ++i)
    S += out[i] * (i + 1);
  std::printf("views: %.4f\n", S);
}
