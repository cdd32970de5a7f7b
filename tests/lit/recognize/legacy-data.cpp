// Data as legacy code holds it: std::vector (by reference, const or not),
// pointers with the extent the mark states (several pointers sharing one,
// a member, an expression of the variables in scope), C arrays (global and
// local, one and two dimensions), nested std::array and a std::vector of
// std::array. Each is captured as one flat block of elements; subscripts
// of nested arrays are flattened row-major, so the affine analysis sees
// one index. On the checked simulator against the host; then an extent
// clause that names no pointer the loop indexes. (Pointers without an
// extent clause: inferred-extents.cpp.)
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.kernels && %weftxx -fsyntax-only -fplugin-arg-weft-emit-dir=%t.kernels %s
// RUN: cat %t.kernels/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>
// Every capture is a span parameter of the kernel; nested arrays are
// indexed flat.
// KERNEL: (int n, weft::dspan<float> out, weft::dspan<const float> a, weft::dspan<const float> b,
// KERNEL: Global.ld(((((long)i) * 48l) + ((long)j)))

#include <array>
#include <cstdio>
#include <vector>

constexpr int Rows = 64, Cols = 48;
float Global[Rows][Cols]; // as old C code holds its matrices

// CHECK: nest at {{.*}}legacy-data.cpp:[[@LINE+6]]
// CHECK: param 0 v: written span of float
// CHECK: param 1 w: read span of const float
// CHECK: level 0 {{.*}}: unsigned long i in [unsigned long(0), size($v))
void vectors(std::vector<float> &v, const std::vector<float> &w, float f) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = w[i] * f;
}

// CHECK: nest at {{.*}}legacy-data.cpp:[[@LINE+6]]
// CHECK: param 1 out: written span of float
// CHECK: param 2 a: read span of const float
// CHECK: param 3 b: read span of const float
void pointers(float *out, const float *a, const float *b, int n) {
#pragma weft parallel for extent(out, a, b: n)
  for (int i = 0; i < n; ++i)
    out[i] = a[i] + b[i];
}

// A matrix behind a pointer, its extent a product; the loop over each row,
// found parallel, a level of its own (the affine form keeps the run-time
// stride).
// CHECK: nest at {{.*}}legacy-data.cpp:[[@LINE+4]]
// CHECK: access $c[((i * $cols) + j)] write in level 1: affine i*$cols j*1 + 0
void matrixPointer(double *c, const double *a, int rows, int cols) {
#pragma weft parallel for extent(c, a: rows * cols)
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      c[i * cols + j] = a[i * cols + j] + 1;
}

// CHECK: nest at {{.*}}legacy-data.cpp:[[@LINE+9]]
// CHECK: param 0 b: written span of double
// CHECK: param 1 a: read span of float
// CHECK: param 2 Global: read span of float
// CHECK: access $b[{{.*}}] write in level 1: affine i*48 j*1 + 0
// CHECK: access $a[((long(i) * 48l) + long(j))] read in level 1: affine i*48 j*1 + 0
// CHECK: access $Global[((long(i) * 48l) + long(j))] read in level 1: affine i*48 j*1 + 0
void twoDimensions(float (&a)[Rows][Cols], std::array<std::array<double, Cols>, Rows> &b) {
#pragma weft parallel for
  for (int i = 0; i < Rows; ++i)
#pragma weft parallel for
    for (int j = 0; j < Cols; ++j)
      b[i][j] = a[i][j] * 2 + Global[i][j];
}

// size() counts rows: the elements over the row's 3.
// CHECK: nest at {{.*}}legacy-data.cpp:[[@LINE+5]]
// CHECK: [unsigned long(0), (size($p) / 3l))
// CHECK: access $p[{{.*}}] read in level 0: affine i*3 + 2
void points(const std::vector<std::array<float, 3>> &p, std::vector<float> &s) {
#pragma weft parallel for
  for (std::size_t i = 0; i < p.size(); ++i)
    s[i] = p[i][0] + p[i][1] + p[i][2];
}

// A subscript that captures another variable while the row's is read (a
// fuzzer found the recognizer reading freed memory here).
void gather(float (&m)[4][8], std::span<const int> cols, std::span<float> out) {
#pragma weft parallel for
  for (int i = 0; i < 4; ++i)
    out[i] = m[i][cols[i]];
}

// A member pointer with a member extent; a range-for over a vector.
struct Cells {
  float *Data;
  int Count;
  void bump() {
#pragma weft parallel for extent(Data: Count)
    for (int i = 0; i < Count; ++i)
      Data[i] += 1;
  }
};
void doubleAll(std::vector<float> &v) {
#pragma weft parallel for
  for (float &x : v)
    x *= 2;
}

// The innermost declaration of a name is the extent's (n is 5 here, m 9),
// and the reduction reads through a pointer.
float sumFirst(const float *p) {
  {
    int n = 3;
    (void)n;
  }
  int n = 5;
  float s = 0;
  {
    int m = 9;
#pragma weft parallel for extent(p: n + m) reduction(+: s)
    for (int i = 0; i < n + m; ++i)
      s += p[i];
  }
  return s;
}

// A local C array and an element reduction into a std::vector.
void rowSums(const std::vector<float> &a, std::vector<float> &sums, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    sums[i] = 0;
#pragma weft parallel for reduction(+: sums[i])
    for (int j = 0; j < n; ++j)
      sums[i] += a[i * n + j];
  }
}

// The same through pointers: the element of a built-in subscript stands in
// for its local too (the fuzzer found it written straight to memory from
// every iteration of the inner loop).
// CHECK: nest at {{.*}}legacy-data.cpp:[[@LINE+6]]
// CHECK: decl float weft_reduced_sums0 = $sums[i]
// CHECK: (weft_reduced_sums0 += $a[((i * $n) + j)])
// CHECK: ($sums[i] = weft_reduced_sums0)
void rowSumsPointer(const float *a, float *sums, int n) {
#pragma weft parallel for extent(a: n * n) extent(sums: n)
  for (int i = 0; i < n; ++i) {
    sums[i] = 0;
#pragma weft parallel for reduction(+: sums[i])
    for (int j = 0; j < n; ++j)
      sums[i] += a[i * n + j];
  }
}

// Parameters declared as arrays, as C code declares them: pointers whose
// declaration says how many rows, the extent they are taken with.
// CHECK: nest at {{.*}}legacy-data.cpp:[[@LINE+6]]
// CHECK: param 0 c: written span of double
// CHECK: access $a[((long(i) * 48l) + long(j))] read in level 1: affine i*48 j*1 + 0
void declaredArrays(const double a[Rows][Cols], double c[Rows][Cols],
                    float v[Rows]) {
#pragma weft parallel for
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j)
      c[i][j] = a[i][j] * v[i];
}

// Pointer fields of structs, behind a pointer or global, as C code holds
// its images: the clause names them as the loop does (and an if clause
// may read fields too).
struct Image {
  int W, H;
  float *Pix;
};
struct Scene {
  Image Img;
  int Frames;
};
Image Screen;
void fields(Scene *S) {
#pragma weft parallel for extent(S->Img.Pix: S->Img.W * S->Img.H)
  for (int i = 0; i < S->Img.W * S->Img.H; ++i)
    S->Img.Pix[i] *= S->Frames;
#pragma weft parallel for extent(Screen.Pix: Screen.W * Screen.H) if(Screen.W > 0)
  for (int i = 0; i < Screen.W * Screen.H; ++i)
    Screen.Pix[i] += 1;
}

// Globals and static locals the loop only reads are captured by value at
// the launch, as locals are.
float Gain = 1.5f;
int Width = 7;
// CHECK: nest at {{.*}}legacy-data.cpp:[[@LINE+7]]
// CHECK: param {{[0-9]+}} Width: scalar of int
// CHECK: param {{[0-9]+}} Gain: scalar of float
// CHECK: param {{[0-9]+}} Offset: scalar of float
void globals(std::vector<float> &out) {
  static float Offset = 0.25f;
#pragma weft parallel for
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = (i % Width) * Gain + Offset;
}

int main() {
  std::vector<float> v(1000), w(1000);
  for (int i = 0; i < 1000; ++i)
    w[i] = i;
  vectors(v, w, 0.5f);
  std::vector<float> o(777), a(777, 1.5f), b(777);
  for (int i = 0; i < 777; ++i)
    b[i] = i;
  pointers(o.data(), a.data(), b.data(), 777);
  std::vector<double> c(30 * 20), d(30 * 20, 2.0);
  matrixPointer(c.data(), d.data(), 30, 20);
  static float A[Rows][Cols];
  static std::array<std::array<double, Cols>, Rows> B;
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j) {
      A[i][j] = i - j;
      Global[i][j] = i * j;
    }
  twoDimensions(A, B);
  std::vector<std::array<float, 3>> P(500);
  for (int i = 0; i < 500; ++i)
    P[i] = {float(i), 1.f, 2.f};
  std::vector<float> S(500);
  points(P, S);
  Cells Cs{o.data(), 700};
  Cs.bump();
  doubleAll(v);
  const float Sum = sumFirst(b.data());
  float Table[4][8];
  for (int i = 0; i < 32; ++i)
    Table[i / 8][i % 8] = i;
  const int Picks[4] = {7, 0, 3, 5};
  float Gathered[4];
  gather(Table, Picks, Gathered);
  std::vector<float> M(40 * 40, 0.25f), Sums(40);
  rowSums(M, Sums, 40);
  std::vector<float> PointerSums(40);
  rowSumsPointer(M.data(), PointerSums.data(), 40);
  static double DA[Rows][Cols], DC[Rows][Cols];
  float DV[Rows];
  for (int i = 0; i < Rows; ++i) {
    DV[i] = i % 7;
    for (int j = 0; j < Cols; ++j)
      DA[i][j] = i + 0.5 * j;
  }
  declaredArrays(DA, DC, DV);
  std::vector<float> Pixels(60, 1.5f);
  Scene Sc{{6, 10, Pixels.data()}, 3};
  Screen = {5, 12, Pixels.data()};
  fields(&Sc);
  Screen.W = 4;
  fields(&Sc);
  std::vector<float> G(300);
  globals(G);
  Gain = 3;
  globals(G);
  double Total = 0;
  for (float x : G)
    Total += x;
  for (float x : Pixels)
    Total += x;
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j)
      Total += DC[i][j];
  for (float x : v)
    Total += x;
  for (float x : o)
    Total += x;
  for (double x : c)
    Total += x;
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j)
      Total += B[i][j];
  for (float x : S)
    Total += x;
  std::printf("%.2f %g %g %g %g %g %g %g\n", Total, Sum, o[699], o[700],
              B[63][47], Sums[39], Gathered[0], Gathered[3] + PointerSums[17]);
}
// RAN-COUNT-15: calls on sim, 0 on the host

#ifdef REFUSED
void unusedExtent(float *p, int n) {
#pragma weft parallel for extent(p, r: n)
  for (int i = 0; i < n; ++i)
    p[i] = 0;
  // REFUSED: legacy-data.cpp:[[@LINE-3]]:27: warning: the extent clause names 'r', which the loop does not index as a pointer
}
// Rows held as pointers without their length (taken with it:
// pointer-rows.cpp), and pointers to pointers.
void vectorOfPointers(std::vector<float *> &m, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    m[i][0] = 0;
  // REFUSED: legacy-data.cpp:[[@LINE-1]]:5: error: 'm' holds pointers ('float *'): the device cannot follow them
  // REFUSED-NEXT: note: state its rows and their length in the mark: 'extent(m: rows, columns)'
}
void vectorOfPointersToPointers(std::vector<float **> &m, int n) {
#pragma weft parallel for extent(m: n, 4)
  for (int i = 0; i < n; ++i)
    m[i][0][0] = 0;
  // REFUSED: legacy-data.cpp:[[@LINE-1]]:5: error: 'm' holds pointers ('float **'): the device cannot follow them
  // REFUSED-NEXT: note: hold the elements in one block (a std::vector of n * m, a 2-D array, or a std::vector of std::vectors) and index it i * m + j
}
void aRow(float (&a)[4][4], std::vector<float> &out) {
#pragma weft parallel for
  for (int i = 0; i < 4; ++i)
    out[i] = a[i] == nullptr;
  // REFUSED: legacy-data.cpp:[[@LINE-1]]:14: error: 'a' has 2 dimensions: a weft loop indexes its elements, not its rows
  // REFUSED-NEXT: note: index every dimension, as in a[i][j]
}
// A copy of a row into a per-iteration array would start it empty: refused.
void copyRow(const std::vector<std::array<float, 3>> &p, std::vector<float> &out) {
#pragma weft parallel for
  for (std::size_t i = 0; i < p.size(); ++i) {
    std::array<float, 3> q = p[i];
    out[i] = q[0];
  }
  // REFUSED: legacy-data.cpp:[[@LINE-3]]:26: error: per-iteration array 'q' can start from a list of values only
  // REFUSED-NEXT: note: copy the elements one by one, or index the source directly
}
void unknownField(Scene *S) {
#pragma weft parallel for extent(S->Img.Pix: S->Img.Width)
  for (int i = 0; i < 4; ++i)
    S->Img.Pix[i] = 0;
  // REFUSED: legacy-data.cpp:[[@LINE-3]]:46: error: 'S->Img.Width' in 'extent' names no field 'Width' of 'Image'
  // REFUSED-NEXT: note: 'extent' takes variables and the fields of structs they hold or point to
}
void unknownName(float *p) {
#pragma weft parallel for extent(p: count)
  for (int i = 0; i < 4; ++i)
    p[i] = 0;
  // REFUSED: legacy-data.cpp:[[@LINE-3]]:37: error: no variable 'count' is visible at this loop
}
void notAnInteger(float *p, float f) {
#pragma weft parallel for extent(p: f * 2)
  for (int i = 0; i < 4; ++i)
    p[i] = 0;
  // REFUSED: legacy-data.cpp:[[@LINE-3]]:37: error: the extent 'f * 2' of 'p' is not an integer
}
void innerExtent(float *p, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for extent(p: n * n)
    for (int j = 0; j < n; ++j)
      p[i * n + j] = 0;
  // REFUSED: legacy-data.cpp:[[@LINE-3]]:27: error: an extent clause belongs on the outermost marked loop
}
void badSyntax(float *p, int n) {
#pragma weft parallel for extent(p n)
  for (int i = 0; i < n; ++i)
    p[i] = 0;
  // REFUSED: legacy-data.cpp:[[@LINE-3]]:36: error: expected ':' after the pointers of 'extent'
}
// The launch reads a global's element in the bounds once: the loop may
// not write the array it is part of (a pointer member's data is apart, as
// fields() above shows).
int Dims[4];
void boundsWritten() {
#pragma weft parallel for
  for (int i = 0; i < Dims[0]; ++i)
    Dims[i + 1] = i;
  // REFUSED: legacy-data.cpp:[[@LINE-2]]:23: error: the loop's bounds read 'Dims', which the loop writes
  // REFUSED-NEXT: note: compute the bound into a local variable before the loop
}
void regionOfPointer(float *p) {
  weft::region R(p);
  // REFUSED: error: static assertion failed{{.*}}: weft::region takes std::span, std::vector, std::array, C arrays, std::mdspan and std::vectors of std::vectors; for a pointer p to n elements, pass std::span(p, n)
}
#endif
