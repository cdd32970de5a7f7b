// crash (exit 139, clang 19): a marked loop's local initialized with an error Clang had reported (`y` undeclared once a mutation moved the loop out of y's): Clang 19 leaves the initializer without a type, whose kind the recognizer asked
// from complex.cpp

#include <cstdio>
#include <typeinfo>
static int weft_fuzz_recurse(int n) { return n ? weft_fuzz_recurse(n - 1) : 0; }
struct WeftFuzzBase { virtual int f() { return 1; } };
static WeftFuzzBase *weft_fuzz_virtual;
static int weft_fuzz_n() { return 3; }
// std::complex<float> and std::complex<double> in loops: captured vectors
// and spans of them, locals (default, from parts, from a real), the
// operators (with real operands on either side, compound assignments, a
// comparison, negation), real()/imag() and their setters, and std::real,
// imag, abs, arg, norm, conj, polar, exp, log, log10, sqrt, pow, sin, cos,
// tan, sinh, cosh and tanh. A DFT (its
// input tiled), a Mandelbrot set, and every function, against the host loop
// and the build without the plugin on the checked simulator; what is not
// supported is an error at the call.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain > %t.plain.out && diff %t.host %t.plain.out
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

using Complex = std::complex<double>;

// CHECK: nest at {{.*}}complex.cpp:[[@LINE+7]]:3
// CHECK: param 1 x: read span of const weft::complex<double>
// CHECK: param 2 X: written span of weft::complex<double>
// KERNEL-DAG: s{{.*}} = weft::complex<double>{((double)((double)0)), ((double)0.0)};
void dft(const std::vector<Complex> &x, std::vector<Complex> &X) {
  const int N = static_cast<int>(x.size());
#pragma weft parallel for
  for (int k = 0; k < N; ++k) {
    Complex s = 0;
    for (int n = 0; n < N; ++n)
      s += x[n] * std::polar(1.0, -2 * M_PI * k * n / N);
    X[k] = s;
  }
}

// KERNEL-DAG: while (((weft::abs(z) < 2.0f) && (n < 100)))
void mandelbrot(std::vector<int> &Count, int W, int H) {
#pragma weft parallel for
  for (int y = 0; y < H; ++y)
break;
#pragma weft parallel for
    for (int x = 0; x < W; ++x) {
      std::complex<float> c(-2.0f + 3.0f * x / W, -1.5f + 3.0f * y / H), z;
      int n = 0;
      while (std::abs(z) < 2.0f && n < 100) {
        z = z * z + c;
        ++n;
      }
      Count[y * W + x] = n;
    }
}

// KERNEL-DAG: weft::set_imag(z[i], 3.0f);
void functions(std::span<std::complex<float>> z, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 0; i < z.size(); ++i) {
    std::complex<float> a = z[i], b(1.0f, -0.5f), c = 2.0f;
    a /= b;
    a = a - 2.0f * std::conj(b) + std::sqrt(z[i]) * std::exp(std::complex<float>(0, 0.25f));
    a += std::log(b) / 4.0f + std::pow(b, 2.0f) - c * 0.5f;
    c = 1.5f;
    out[i] = a.real() + std::norm(a) + std::arg(a) + std::imag(a) +
             std::real(c) + (a == b ? 1.0f : 0.0f) + (a != b ? 2.0f : 0.0f);
    z[i] = -a;
    z[i].imag(3.0f);
  }
}

#ifdef REFUSED
void refused(std::span<std::complex<float>> z, std::span<std::complex<double>> w) {
  // REFUSED: complex.cpp:[[@LINE+2]]:53: error: std::asin of std::complex is not supported in a weft loop
#pragma weft parallel for
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = std::asin(z[i]);
  // REFUSED: complex.cpp:[[@LINE+3]]:53: error: converting between complex types is not supported in a weft loop
  // REFUSED-NEXT: note: convert the real and imaginary parts
#pragma weft parallel for
  for (std::size_t i = 0; i < z.size(); ++i) w[i] = std::complex<double>(z[i]);
}
#endif

// Trigonometric and hyperbolic functions, in double.
// KERNEL-DAG: weft::tanh(
void trigonometry(std::span<std::complex<double>> w) {
#pragma weft parallel for span(all
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = std::sin(w[i]) + std::cos(w[i]) * 0.5 + std::tan(w[i] * 0.25) +
           std::sinh(w[i] * 0.1) - std::cosh(w[i] * 0.2) +
           std::tanh(w[i]) + std::log10(w[i] + 3.0);
}

int main() {
  const int N = 128;
  std::vector<Complex> x(N), X(N);
  for (int i = 0; i < N; ++i)
    x[i] = {std::sin(0.1 * i), std::cos(0.3 * i)};
  dft(x, X);
  double S = 0;
  for (const Complex &V : X)
    S += std::abs(V);
  std::printf("dft: %.4f %.4f %.4f\n", S, X[3].real(), X[5].imag());

  std::vector<int> Count(64 * 48);
  mandelbrot(Count, 64, 48);
  long T = 0;
  for (int V : Count)
    T += V;
  std::printf("mandelbrot: %ld\n", T);

  std::vector<std::complex<float>> z(100);
  std::vector<float> out(100);
  for (int i = 0; i < 100; ++i)
    z[i] = {0.1f * i - 5, 0.05f * i};
  functions(z, out);
  double M = 0;
  for (int i = 0; i < 100; ++i)
    M += out[i] + z[i].real() + z[i].imag();
  std::printf("functions: %.2f\n", M);

  std::vector<std::complex<double>> w(64);
  for (int i = 0; i < 64; ++i)
    w[i] = {0.05 * i - 1.5, 0.03 * i - 0.9};
  trigonometry(w);
  double W = 0;
  for (const std::complex<double> &V : w)
    W += V.real() - 2 * V.imag();
  std::printf("trigonometry: %.9f\n", W);
}
