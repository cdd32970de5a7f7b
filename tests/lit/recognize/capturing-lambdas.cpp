// Lambdas that capture the function's variables, as modern C++ factors a
// loop's body (an accessor over the data, a filter's tap): compiled into
// the loop at each call, what they capture read (or written) as the
// loop's own code would: by reference, by copy of a variable that keeps
// its value, `this` in a method, a loop's locals; one that returns a value
// of its arguments is that value, so it may sit in a branch of ?:. On the
// checked simulator against the host and the plugin-free build. Then the
// captures whose values could differ at the call, refused with the fix.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>
#include <cstdio>
#include <span>
#include <vector>

// An accessor over a pointer: its subscripts bound the pointer's extent.
// CHECK: capturing-lambdas.cpp:[[@LINE+5]]:5: remark: weft: level 1 (j): {{.*}}; not marked, found parallel
void jacobi(int n, int m, const float *in, float *out) {
  auto at = [&](int i, int j) { return in[i * m + j]; };
#pragma weft parallel for
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      out[i * m + j] =
          0.25f * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
}

// An accessor returning one value is that value with the arguments in
// place: it may sit in a branch of ?:, where a call compiled in before its
// statement would read in[-m] at the first row.
void edges(int n, int m, const float *in, float *out) {
  auto at = [&](int i, int j) { return in[i * m + j]; };
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      out[i * m + j] = (i > 0 ? at(i - 1, j) : 0.0f) +
                       (i < n - 1 ? at(i + 1, j) : 0.0f) + at(i, j);
}

// By copy: a factor that keeps its value; by reference: the data.
void scaleRows(std::span<float> v, int cols, float f) {
  const float g = 2 * f;
  auto scale = [=, &v](int r, int c) { v[r * cols + c] *= g; };
#pragma weft parallel for
  for (int r = 0; r < int(v.size()) / cols; ++r)
    for (int c = 0; c < cols; ++c)
      scale(r, c);
}

// In a method: `this` and a member.
struct Grid {
  std::vector<float> Cells;
  int W = 0;
  void blur(std::vector<float> &Out) const {
    auto tap = [this](int x, int d) {
      const int At = x + d;
      return At < 0 || At >= W ? 0.0f : Cells[At];
    };
#pragma weft parallel for
    for (int x = 0; x < W; ++x)
      Out[x] = (tap(x, -1) + tap(x, 0) + tap(x, 1)) / 3;
  }
};

// Declared in the loop, over its locals: a sum the lambda adds to.
void rowSums(std::span<const float> a, std::span<float> s, int cols) {
#pragma weft parallel for
  for (int r = 0; r < int(s.size()); ++r) {
    float Sum = 0;
    auto add = [&](int c) { Sum += a[r * cols + c]; };
    for (int c = 0; c < cols; ++c)
      add(c);
    s[r] = Sum;
  }
}

int main() {
  const int n = 40, m = 33;
  std::vector<float> a(n * m), b(n * m);
  for (int i = 0; i < n * m; ++i)
    a[i] = float(i % 17) - 5;
  jacobi(n, m, a.data(), b.data());
  std::vector<float> e(n * m);
  edges(n, m, a.data(), e.data());
  scaleRows(b, m, 1.5f);
  Grid G{a, n * m};
  std::vector<float> c(n * m), s(n);
  G.blur(c);
  rowSums(a, s, m);
  double t = 0;
  for (int i = 0; i < n * m; ++i)
    t += b[i] + 3 * c[i] + 5 * e[i];
  for (float v : s)
    t += v * 7;
  std::printf("%.2f\n", t);
}

#ifdef REFUSED
void changedAfter(std::span<float> y, int n) {
  int k = 3;
  auto addK = [k](float v) { return v + k; };
  k = 4;
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    y[i] = addK(y[i]);
  // REFUSED: capturing-lambdas.cpp:[[@LINE-5]]:16: error: a lambda called from a weft loop captures 'k' by copy, which the function changes: the copy may hold an older value
  // REFUSED-NEXT: note: capture it by reference ([&k]), or pass it as an argument
}
void ownCopy(std::span<float> y, int n) {
  int k = 3;
  auto next = [k](float v) mutable { return v + k++; };
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    y[i] = next(y[i]);
  // REFUSED: capturing-lambdas.cpp:[[@LINE-1]]:12: error: a mutable lambda called from a weft loop changes its own copies of what it captures
  // REFUSED-NEXT: note: remove 'mutable', or capture by reference
}
void initCapture(std::span<float> y, int n) {
  auto addK = [k = n * 2](float v) { return v + k; };
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    y[i] = addK(y[i]);
  // REFUSED: capturing-lambdas.cpp:[[@LINE-4]]:16: error: a lambda called from a weft loop captures what is no variable of the function (an init-capture, a structured binding)
  // REFUSED-NEXT: note: capture the variable itself, or pass the value as an argument
}
#endif
