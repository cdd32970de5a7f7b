// Idioms of old loop bodies taken as written: a sequential loop over two
// variables (`for (i = 0, j = n - 1; i < j; ++i, --j)`), the comma
// operator, std::swap (its library body, with std::move), <cmath>'s
// rounding to integers and classification, the compiler's spellings of
// its functions (__builtin_fabs), memset and memcpy of small
// arrays (loops over their elements), range loops over per-iteration
// arrays. On the checked simulator
// against the host, and against the program built without the plugin.
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=BUILTIN
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

// Each row reversed in place, from both ends at once.
// KERNEL: int lo = 0;
// KERNEL-NEXT: int hi = (n - 1);
// KERNEL-NEXT: for (; (lo < hi); ((lo++) , (hi--)))
void reverseRows(std::vector<float> &m, int rows, int n) {
#pragma weft parallel for
  for (int r = 0; r < rows; ++r)
    for (int lo = 0, hi = n - 1; lo < hi; lo++, hi--) {
      float t = m[r * n + lo];
      m[r * n + lo] = m[r * n + hi];
      m[r * n + hi] = t;
    }
}

// A bubble pass per row with std::swap; the comma operator in a condition.
void sortRows(std::vector<int> &m, int rows, int n) {
#pragma weft parallel for
  for (int r = 0; r < rows; ++r) {
    int passes = 0;
    for (bool swapped = true; passes++, swapped;) {
      swapped = false;
      for (int j = 0; j + 1 < n; ++j)
        if (m[r * n + j] > m[r * n + j + 1]) {
          std::swap(m[r * n + j], m[r * n + j + 1]);
          swapped = true;
        }
    }
    m[r * n] += 1000 * passes;
  }
}

// KERNEL-DAG: weft::lround(
// KERNEL-DAG: weft::isnan(
void classify(const std::vector<double> &x, std::vector<long> &out) {
#pragma weft parallel for
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    long code = std::isnan(v) + 2 * std::isinf(v) + 4 * std::isfinite(v) +
                8 * std::signbit(v);
    if (std::isfinite(v) && std::fabs(v) < 1e12)
      code += 16 * (std::lround(v) + 3 * std::llround(v * 0.5) +
                    7 * std::lrint(v * 0.25) + 11 * std::llrint(v) +
                    (long)(13 * std::rint(v * 3) + 17 * std::nearbyint(v) +
                           19 * std::fdim(v, 1.0)));
    if (std::isfinite(v))
      code += (long)(1000 * std::remainder(v, 0.75));
    out[i] = code;
  }
}

// A row copied into a scratch array, cleared and copied C's way.
// KERNEL-DAG: (scratch[weft_b{{[0-9]+}}] = ((float)0));
void scratch(const std::vector<float> &a, std::vector<float> &out, int n) {
  const int rows = static_cast<int>(out.size());
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float scratch[16], copy[16];
    std::array<float, 4> w;
    memset(scratch, 0, sizeof(scratch));
    memcpy(scratch, &a[i * n], n * sizeof(float));
    memcpy(copy, scratch, sizeof copy);
    for (auto &x : w)
      x = copy[1];
    float s = 0;
    for (float x : copy)
      s += x;
    out[i] = s + w[3];
  }
}

// The compiler's spellings of <cmath>'s functions, as C code and macros
// write them.
// BUILTIN-DAG: = weft::fabs((x.ld(
// BUILTIN-DAG: = weft::sqrt((y.ld(
void builtins(std::vector<double> &x, std::vector<float> &y) {
  const int n = static_cast<int>(x.size());
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    x[i] = __builtin_fabs(x[i] - 3.0);
    y[i] = __builtin_sqrtf(y[i] + 1.0f);
  }
}

int main() {
  const int Rows = 37, N = 29;
  std::vector<float> m(Rows * N);
  std::vector<int> k(Rows * N);
  for (int i = 0; i < Rows * N; ++i) {
    m[i] = i * 0.5f;
    k[i] = (i * 7919) % 101;
  }
  reverseRows(m, Rows, N);
  sortRows(k, Rows, N);
  std::vector<double> x = {0.5,  -0.5,    1.5,      -1.5,      2.5,   -2.5,
                           0.0,  -0.0,    2.49999,  100.75,    -3.0,  1e13,
                           NAN,  -NAN,    INFINITY, -INFINITY, 1e-310, 7.125};
  std::vector<long> out(x.size());
  classify(x, out);
  double s = 0;
  for (int i = 0; i < Rows * N; ++i)
    s += m[i] * (i % 13) + k[i] * (i % 11);
  std::vector<float> sc(Rows);
  scratch(m, sc, 12);
  for (float v : sc)
    s += v;
  std::vector<double> bx(40);
  std::vector<float> by(40);
  for (int i = 0; i < 40; ++i) {
    bx[i] = i * 0.25;
    by[i] = i;
  }
  builtins(bx, by);
  for (int i = 0; i < 40; ++i)
    s += bx[i] + by[i];
  std::printf("%.1f %g %d %d\n", s, m[0], k[0], k[N - 1]);
  for (long c : out)
    std::printf("%ld ", c);
  std::printf("\n");
}
// RAN-COUNT-5: calls on sim, 0 on the host

#ifdef REFUSED
void refused(std::vector<float> &out, int bytes) {
#pragma weft parallel for
  for (int i = 0; i < 4; ++i) {
    float t[4], u[4];
    memset(t, 1, sizeof t);
    // REFUSED: body-idioms.cpp:[[@LINE-1]]:15: error: 'memset' in a weft loop may set only bytes to a value, or elements to zero
    memcpy(u, t, bytes);
    out[i] = u[0];
  }
}
void unsized(std::vector<float> &out, int bytes) {
#pragma weft parallel for
  for (int i = 0; i < 4; ++i) {
    float t[4] = {}, u[4];
    memcpy(u, t, bytes);
    // REFUSED: body-idioms.cpp:[[@LINE-1]]:18: error: weft cannot tell how many elements this 'memcpy' copies
    // REFUSED-NEXT: note: give the bytes as 'n * sizeof(float)' or a constant
    out[i] = u[0];
  }
}
#endif
