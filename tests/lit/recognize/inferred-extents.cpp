// Pointers without an extent clause, as legacy code passes them: the
// plugin bounds each one's subscripts over the nest's loops (interval
// arithmetic in the loops' bounds, narrowed by the conditions around a
// subscript that read as bounds: `i > 0`, `if (x == 0 || x == w - 1)
// continue;`, `y + dy < h` on a part of the subscript, a conditional's
// arms, the right of `&&`), and the launch
// moves the elements up to the greatest. On the checked simulator (which
// checks every subscript against that extent), against the host and the
// plugin-free build. A pointer indexed below where it points runs that
// call on the host with one warning. Then the subscripts no bound says,
// refused with the clause as the fix.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>
#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

// CHECK: inferred-extents.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}; pointer y without an extent: its subscripts reach y[0] to y[n - 1], which the launch moves from element 0; pointer x without an extent: its subscripts reach x[0] to x[n - 1], which the launch moves from element 0; kernel
void axpy(float *y, const float *x, float a, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

// CHECK: inferred-extents.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}; pointer in without an extent: its subscripts reach in[min(0, max(0, n - 1))] to in[max(n - 1, min(n - 1, 0))]
void smooth(float *out, const float *in, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    if (i > 0 && i < n - 1)
      out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
    else
      out[i] = in[i];
}

// CHECK: inferred-extents.cpp:[[@LINE+3]]:3: remark: weft: level 0 (y): {{.*}}; pointer out without an extent: its subscripts reach out[w + 1] to out[h * w - w - 2]
void interior(float *out, const float *in, int h, int w) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (y == 0 || x == 0 || y == h - 1 || x == w - 1)
        continue;
      out[y * w + x] = in[(y - 1) * w + x] + in[(y + 1) * w + x] +
                       in[y * w + x - 1] + in[y * w + x + 1];
    }
}

// CHECK: inferred-extents.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}; pointer in without an extent: its subscripts reach in[min(0, n - 1)] to in[max(0, n - 1)]
void clamped(float *out, const float *in, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    out[i] = in[std::max(i - 1, 0)] + in[std::min(i + 1, n - 1)] +
             in[i > 0 ? i - 1 : 0];
}

// A filter whose taps check the image's edges as C code writes them: the
// comparisons bound the row and the column, parts of the subscript; a
// comparison with data (`in[...] > t`) bounds nothing.
// CHECK: inferred-extents.cpp:[[@LINE+3]]:3: remark: weft: level 0 (y): {{.*}}; pointer in without an extent: its subscripts reach in[0] to in[h * w - 1]
void blur(float *out, const float *in, int h, int w, float t) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float s = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (y + dy >= 0 && y + dy < h && x + dx >= 0 && x + dx < w)
            s += in[(y + dy) * w + x + dx] > t ? t : in[(y + dy) * w + x + dx];
      out[y * w + x] = s / 9;
    }
}

// Triangular, a sequential loop to `<=`, a row pointer set once per row.
// CHECK: inferred-extents.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}; pointer m without an extent: its subscripts reach m[0] to m[n * n - 1]
void lowerSums(float *sums, const float *m, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    const float *row = m + i * n;
    float s = 0;
    for (int j = 0; j <= i; ++j)
      s += row[j];
    sums[i] = s;
  }
}

// Counting down by 2 from the end, a local set once, a stride.
void strided(float *out, const float *in, int n) {
#pragma weft parallel for
  for (int i = n - 1; i >= 0; i -= 2) {
    const int At = 2 * i + 1;
    out[i] = in[At] - in[At - 1];
  }
}

// CHECK: inferred-extents.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}; pointer a without an extent: its subscripts reach a[0] to a[n * 4 - 1]
void openRows(double a[][4], int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k)
      a[i][k] = i + k;
}

struct Body {
  float X, M;
};
void records(std::array<float, 2> *Out, const Body *B, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    Out[i][0] = B[i].X * B[i].M;
    Out[i][1] = B[n - 1 - i].M;
  }
}

// Strides of either sign: bounds too long to say, evaluated at the launch.
// CHECK: inferred-extents.cpp:[[@LINE+3]]:3: remark: weft: level 0 (y): {{.*}}; pointer in without an extent: the bounds of its subscripts, evaluated at the launch, which the launch moves from element 0
void strides(float *out, const float *in, int h, int w, int s, int t) {
#pragma weft parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out[y * w + x] = in[y * s + x * t] + in[(y + 1) * s - x * t] +
                       in[y * t + x * s];
}

// Called with a pointer into the middle of an array: its subscripts start
// at -1, before where it points, so the call runs on the host.
// GPU run: falls back (tests/gpu/run-built-programs.sh expects the warning there)
// WARN: weft: warning: {{.*}}inferred-extents.cpp:[[@LINE+3]]:3: pointer 'p' is indexed from -1 by the bounds of its subscripts, before where it points: the launch cannot tell how many elements it holds; calls passing such arguments run the loop on the host
void behind(float *p, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    p[i] += p[i - 1] * 0;
}

int main() {
  const int n = 300, h = 17, w = 23;
  std::vector<float> a(n * n), b(n * n), c(2 * n + 2);
  for (int i = 0; i < n * n; ++i)
    a[i] = float(i % 13) - 6;
  axpy(b.data(), a.data(), 2, n);
  smooth(c.data(), b.data(), n);
  interior(b.data(), a.data(), h, w);
  clamped(c.data() + n, a.data(), n);
  blur(b.data() + 2000, a.data(), h, w, 3);
  strides(b.data() + 5000, a.data() + 700, 9, 11, 13, 1);
  lowerSums(c.data(), a.data(), n);
  strided(b.data() + 1000, a.data(), n);
  std::vector<double> rows(n * 4);
  openRows(reinterpret_cast<double(*)[4]>(rows.data()), n);
  std::vector<Body> bodies(n);
  for (int i = 0; i < n; ++i)
    bodies[i] = {float(i), float(i % 5)};
  std::vector<std::array<float, 2>> out(n);
  records(out.data(), bodies.data(), n);
  behind(a.data() + 1, n - 1);
  double s = 0;
  for (float v : b)
    s += v;
  for (float v : c)
    s += v * 3;
  for (double v : rows)
    s += v;
  for (const auto &o : out)
    s += o[0] + 2 * o[1];
  for (float v : a)
    s += v * 5;
  std::printf("%.1f\n", s);
}

#ifdef REFUSED
void indirect(float *p, const int *idx, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    p[idx[i]] = 0;
  // REFUSED: inferred-extents.cpp:[[@LINE-1]]:5: error: weft cannot know how many elements pointer 'p' points to: its subscript in 'p[idx[i]]' takes values not known at the launch
  // REFUSED-NEXT: note: state it in the mark: '#pragma weft parallel for extent(p: n)', n the number of elements
}
struct Image {
  float *Pix;
  int W, H;
};
void field(Image *Img, const int *idx, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    Img->Pix[idx[i]] = 0;
  // REFUSED: inferred-extents.cpp:[[@LINE-1]]:5: error: weft cannot know how many elements pointer 'Img->Pix' points to: its subscript in 'Img->Pix[idx[i]]' takes values not known at the launch
  // REFUSED-NEXT: note: state it in the mark: '#pragma weft parallel for extent(Img->Pix: n)', n the number of elements
}
void counted(float *p, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    int k = 0;
    while (k < 4) {
      p[i * 4 + k] = 0;
      ++k;
    }
  }
  // REFUSED: inferred-extents.cpp:[[@LINE-4]]:7: error: weft cannot know how many elements pointer 'p' points to: its subscript in 'p[((i * 4) + k)]' takes values not known at the launch
}
void sentinel(float *out, const float *s, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    float t = 0;
    for (int k = 0; k < 100; ++k) {
      if (s[i + k] == 0)
        break;
      t += s[i + k];
    }
    out[i] = t;
  }
  // REFUSED: inferred-extents.cpp:[[@LINE-6]]:11: error: weft cannot know how many elements pointer 's' points to: its subscript in 's[(i + k)]' takes values not known at the launch
}
void oddOnly(float *p, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    if (i % 2 == 1)
      p[i / 2] = 0;
  // REFUSED: inferred-extents.cpp:[[@LINE-1]]:7: error: weft cannot know how many elements pointer 'p' points to: its subscript in 'p[(i / 2)]' is kept in range by a condition on 'i' that is no bound weft reads
}
#endif
