// Pointers into captured data as C code moves them: `float *row = a + i *
// n;`, `&img[(y - 1) * w]`, `here + w`, `v.data() + k`, `*(p + i)`, `*p`,
// `(p + k)[j]`, and a C89 pointer declared at the top and set once in each
// iteration. Each is a view: the element it points to is kept in a local,
// and an access through it is an element of the data at that offset, an
// affine subscript. On the checked simulator against the host and the
// program built without the plugin; then the forms refused.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: nest at {{.*}}pointer-arithmetic.cpp:[[@LINE+11]]
// CHECK: decl const long weft_row0_dst = long((y * $w))
// CHECK: decl const long weft_row1_above = long(((y - 1) * $w))
// CHECK: decl const long weft_row3_below = (weft_row2_here + long($w))
// CHECK: access $out[(weft_row0_dst + long(x))] write in level 1: affine y*$w x*1 + 0
// CHECK: access $img[(weft_row2_here + long((x - 1)))] read in level 1: affine y*$w x*1 + -1
void blur(float *img, float *out, int w, int h) {
  int x, y;
  float *dst;
  const float *above, *here, *below;
#pragma weft parallel for extent(img, out: w * h)
  for (y = 1; y < h - 1; y++) {
    dst = out + y * w;
    above = &img[(y - 1) * w];
    here = img + y * w;
    below = here + w;
    for (x = 1; x < w - 1; x++)
      dst[x] = (above[x] + below[x] + here[x - 1] + here[x + 1] +
                *(here + x)) *
               0.2f;
  }
}

// Declared in the loop, through a vector's data(), dereferenced.
// CHECK: nest at {{.*}}pointer-arithmetic.cpp:[[@LINE+5]]
// CHECK: ($s[unsigned long(i)] = (($m[(weft_row0_row + long(0))] + $m[(long((i * $n)) + long(($n - 1)))]) + $m[0l]))
void ends(const std::vector<float> &m, std::vector<float> &s, int n) {
  const int rows = static_cast<int>(s.size());
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    const float *row = m.data() + i * n;
    s[i] = row[0] + *(m.data() + i * n + (n - 1)) + *m.data();
  }
}

// Writes through *(p + i) and (p + k)[j].
void fill(double *p, int n) {
#pragma weft parallel for extent(p: 2 * n)
  for (int i = 0; i < n; ++i) {
    *(p + i) = i;
    (p + n)[i] = -i;
  }
}

int main() {
  const int W = 33, H = 21;
  std::vector<float> a(W * H), b(W * H);
  for (int i = 0; i < W * H; ++i)
    a[i] = i % 7;
  blur(a.data(), b.data(), W, H);
  std::vector<float> s(H);
  ends(a, s, W);
  std::vector<double> d(40);
  fill(d.data(), 20);
  double Total = 0;
  for (int i = 0; i < W * H; ++i)
    Total += b[i] * (i % 3);
  for (int i = 0; i < H; ++i)
    Total += s[i] * i;
  for (int i = 0; i < 40; ++i)
    Total += d[i] * (i % 5);
  std::printf("%.3f\n", Total);
}
// RAN-COUNT-3: calls on sim, 0 on the host

#ifdef REFUSED
void movedTwice(float *img, int w, int h) {
  int y;
  float *p;
#pragma weft parallel for extent(img: w * h)
  for (y = 0; y < h; y++) {
    p = img + y * w;
    p[0] = 1;
    p = p + 1;
    p[0] = 2;
  }
  // REFUSED: pointer-arithmetic.cpp:[[@LINE-5]]:5: error: pointer 'p', declared before the loop and set in it, cannot be private to an iteration: a pointer is set once in an iteration, before it is used
  // REFUSED-NEXT: note: declare it in the loop: 'float *p = a + k;'
}
void notIntoData(float *img, int w, int h) {
  int y;
  float *p;
#pragma weft parallel for extent(img: w * h)
  for (y = 0; y < h; y++) {
    float local[4] = {1, 2, 3, 4};
    p = local + 1;
    img[y] = p[0];
  }
  // REFUSED: pointer-arithmetic.cpp:[[@LINE-3]]:9: error: 'p' can point only into captured data of one dimension in a weft loop
  // REFUSED-NEXT: note: set it to an element of such data: 'p = a + k' or 'p = &a[k]'
}
#endif
