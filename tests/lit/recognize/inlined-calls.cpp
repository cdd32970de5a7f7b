// Functions that take pointers into the loop's data, as C code factors its
// loops (`y[i] = dot(&A[i * n], x, n);`, Rodinia k-means'
// `euclid_dist_2(pt1, pt2, numdims)`), compiled into the loop at each
// call: the parameters become views into the captured data and locals of
// their own names, so the function's accesses are the loop's (affine in
// its index here) and every analysis sees them (one in an if's condition
// before the if). A call whose evaluation is conditional, a function returning before its end, and a pointer into
// anything but captured data are errors. std::span parameters (and data
// taken by reference) bind to parts of the data the same way.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.sim -
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <array>
#include <cfloat>
#include <cstdio>
#include <span>
#include <vector>

static float dot(const float *a, const float *b, int n) {
  float s = 0;
  for (int k = 0; k < n; k++)
    s += a[k] * b[k];
  return s;
}

// The caller's n passed as the callee's n, each its own local.
// CHECK: nest at {{.*}}inlined-calls.cpp:[[@LINE+9]]:3
// CHECK: decl float weft_in[[C:[0-9]+]]_result
// CHECK: decl const long weft_row{{[0-9]+}}_a = long((i * $n))
// CHECK: decl int weft_in[[C]]_n = $n
// CHECK: (weft_in[[C]]_result = weft_in[[C]]_s)
// CHECK: ($y[i] = weft_in[[C]]_result)
// CHECK: access $A[(weft_row{{[0-9]+}}_a + long(weft_in[[C]]_k))] read in level 0: affine i*$n + weft_in[[C]]_k
void matvec(int m, int n, const float *A, const float *x, float *y) {
#pragma weft parallel for extent(A: m * n) extent(x: n) extent(y: m)
  for (int i = 0; i < m; i++)
    y[i] = dot(&A[i * n], x, n);
}

// C89: the value set into a variable declared before the loop, which
// each iteration sets first (a private of the iteration).
// CHECK: nest at {{.*}}inlined-calls.cpp:[[@LINE+7]]:3
// CHECK: decl float weft_in{{[0-9]+}}_result
// CHECK: decl float d = weft_in{{[0-9]+}}_result
void rowNorms(int m, int n, const float *A, float *norms) {
  int i;
  float d;
#pragma weft parallel for extent(A: m * n) extent(norms: m)
  for (i = 0; i < m; i++) {
    d = dot(&A[i * n], &A[i * n], n);
    norms[i] = d;
  }
}

// Rodinia's k-means helpers, C89 as they are: one calls the other.
float euclid_dist_2(float *pt1, float *pt2, int numdims) {
  int i;
  float ans = 0.0;
  for (i = 0; i < numdims; i++)
    ans += (pt1[i] - pt2[i]) * (pt1[i] - pt2[i]);
  return (ans);
}
int find_nearest_point(float *pt, int nfeatures, float *pts, int npts) {
  int index = 0, i;
  float min_dist = FLT_MAX;
  for (i = 0; i < npts; i++) {
    float dist;
    dist = euclid_dist_2(pt, pts + i * nfeatures, nfeatures);
    if (dist < min_dist) {
      min_dist = dist;
      index = i;
    }
  }
  return (index);
}
// CHECK: nest at {{.*}}inlined-calls.cpp:[[@LINE+6]]:3
// CHECK: decl int weft_in{{[0-9]+}}_result
void assign(float *feature, int npoints, int nfeatures, float *clusters,
            int nclusters, int *membership) {
  int i;
#pragma weft parallel for extent(feature: npoints * nfeatures) extent(clusters: nclusters * nfeatures) extent(membership: npoints)
  for (i = 0; i < npoints; i++)
    membership[i] = find_nearest_point(feature + i * nfeatures, nfeatures,
                                       clusters, nclusters);
}

// A void function writing through its pointer. Its loop, compiled in, is
// found parallel (each k its own element of the row), over the count the
// call passes (`n`, a local set to `cols`: the launch sizes the grid by it).
static void scale(float *row, int n, float f) {
  for (int k = 0; k < n; ++k)
    row[k] *= f;
}
// CHECK: nest at {{.*}}inlined-calls.cpp:[[@LINE+6]]:3
// CHECK: decl int weft_in{{[0-9]+}}_n = $cols
// CHECK: level 1 at {{.*}}inlined-calls.cpp:[[@LINE-5]]:3: int weft_in{{[0-9]+}}_k in [0, $cols) step 1
// CHECK: access $m[(weft_row{{[0-9]+}}_row + long(weft_in{{[0-9]+}}_k))] read-write in level 1: affine r*$cols weft_in{{[0-9]+}}_k*1 + 0
void normalize(std::vector<float> &m, int rows, int cols) {
#pragma weft parallel for
  for (int r = 0; r < rows; ++r)
    scale(&m[r * cols], cols, 1.0f / (r + 1));
}

// Functions taking std::spans, or the data by reference, bound to parts of
// the captured data: a subspan, a span made of a pointer and a count, the
// whole; their size(), first(), last(), subspan() and range-for.
static float dotSpans(std::span<const float> a, std::span<const float> b) {
  float s = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    s += a[k] * b[k];
  return s;
}
static float total(const std::vector<float> &v) {
  float s = 0;
  for (float x : v)
    s += x;
  return s;
}
static float ends(std::span<const float> a) {
  return a.last(2)[0] + a.first(3)[2] +
         dotSpans(a.subspan(1), a.first(a.size() - 1));
}
// CHECK: nest at {{.*}}inlined-calls.cpp:[[@LINE+7]]:3
// CHECK: decl const long weft_row{{[0-9]+}}_a = (0l + long((i * unsigned long($n))))
// CHECK: decl const long weft_row{{[0-9]+}}_a_length = long(unsigned long($n))
// CHECK: access $A[(weft_row{{[0-9]+}}_a + long(weft_in{{[0-9]+}}_k))] read in level 0: affine i*$n + weft_in{{[0-9]+}}_k
void spans(std::span<const float> A, std::span<const float> x,
           std::span<float> y, int n) {
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] = dotSpans(A.subspan(i * n, n), x);
}
void parts(const std::vector<float> &A, const std::vector<float> &x,
           std::vector<float> &y, int n) {
#pragma weft parallel for
  for (int i = 0; i < (int)y.size(); ++i)
    y[i] = dotSpans(std::span(&A[i * n], n), x) + total(x) +
           ends(std::span<const float>(A).subspan(i * n, n));
}

// A row of 2-D data passed as a pointer, as C passes it (`smooth_row(A[i],
// B[i], M)` of `float A[N][M]`, `a[i].data()` of nested std::arrays, and
// `float *row = B[i];`): the row's first element, at i * M.
#define ROWS 40
#define COLS 24
static float A2[ROWS][COLS], B2[ROWS][COLS];
static void smoothRow(const float *in, float *out, int m) {
  out[0] = in[0];
  for (int k = 1; k < m; k++)
    out[k] = 0.5f * (in[k] + in[k - 1]);
}
// CHECK: nest at {{.*}}inlined-calls.cpp:[[@LINE+4]]:3
// CHECK: decl const long weft_row{{[0-9]+}}_in = ((long(i) * 24l) + long(0l))
void allRows() {
#pragma weft parallel for
  for (int i = 0; i < ROWS; i++)
    smoothRow(A2[i], B2[i], COLS);
}
static float sumRow(const float *r, int m) {
  float s = 0;
  for (int k = 0; k < m; k++)
    s += r[k];
  return s;
}
void arrayRows(std::vector<std::array<float, 8>> &a, std::vector<float> &out) {
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); i++) {
    float *row = B2[i];
    out[i] = sumRow(a[i].data(), 8) + row[0];
  }
}

// In an if's condition, which the if always evaluates: compiled in before
// the if.
// CHECK: nest at {{.*}}inlined-calls.cpp:[[@LINE+6]]:3
// CHECK: block
// CHECK: (weft_in{{[0-9]+}}_result = weft_in{{[0-9]+}}_s)
// CHECK-NEXT: if (weft_in{{[0-9]+}}_result > 1.0f)
void signs(int m, int n, const float *A, const float *x, float *y) {
#pragma weft parallel for extent(A: m * n) extent(x: n) extent(y: m)
  for (int i = 0; i < m; i++)
    if (dot(&A[i * n], x, n) > 1.0f)
      y[i] = 1;
    else
      y[i] = -1;
}

int main() {
  const int M = 300, N = 40;
  std::vector<float> A(M * N), x(N), y(M);
  for (int i = 0; i < M * N; ++i)
    A[i] = (i % 13) * 0.125f;
  for (int i = 0; i < N; ++i)
    x[i] = (i % 5) * 0.5f;
  matvec(M, N, A.data(), x.data(), y.data());
  std::vector<float> Signs(M);
  signs(M, N, A.data(), x.data(), Signs.data());
  std::vector<float> Norms(M);
  rowNorms(M, N, A.data(), Norms.data());
  const int Points = 500, Features = 6, Clusters = 4;
  std::vector<float> F(Points * Features), C(Clusters * Features);
  std::vector<int> Membership(Points);
  for (int i = 0; i < Points * Features; ++i)
    F[i] = (i * 37 % 101) * 0.01f;
  for (int i = 0; i < Clusters * Features; ++i)
    C[i] = (i * 13 % 7) * 0.1f;
  assign(F.data(), Points, Features, C.data(), Clusters, Membership.data());
  normalize(F, Points, Features);
  std::vector<float> Y1(M), Y2(M);
  spans(A, x, Y1, N);
  parts(A, x, Y2, N);
  for (int i = 0; i < ROWS; i++)
    for (int k = 0; k < COLS; k++)
      A2[i][k] = (i * 3 + k) % 7;
  allRows();
  std::vector<std::array<float, 8>> Nested(ROWS);
  std::vector<float> Sums(ROWS);
  for (int i = 0; i < ROWS; i++)
    for (int k = 0; k < 8; k++)
      Nested[i][k] = (i + k) % 5;
  arrayRows(Nested, Sums);
  double T = 0;
  for (int i = 0; i < ROWS; i++) {
    T += Sums[i];
    for (int k = 0; k < COLS; k++)
      T += B2[i][k] * (k + 1);
  }
  for (int i = 0; i < M; ++i)
    T += Y1[i] * (i + 1) + Y2[i];
  for (int i = 0; i < M; ++i)
    T += y[i] * (i + 1) + Norms[i] + Signs[i] * (i % 3);
  for (int i = 0; i < Points; ++i)
    T += Membership[i] * (i % 11);
  for (float V : F)
    T += V;
  std::printf("%.4f\n", T);
}
// RAN-COUNT-9: calls on sim, 0 on the host

#ifdef REFUSED
void conditional(int m, int n, const float *A, const float *x, float *y) {
#pragma weft parallel for extent(A: m * n) extent(x: n) extent(y: m)
  for (int i = 0; i < m; i++)
    y[i] = i % 2 ? dot(&A[i * n], x, n) : 0;
  // REFUSED: inlined-calls.cpp:[[@LINE-1]]:20: error: 'dot' takes pointers or spans into the loop's data, so weft compiles it into the loop at each call; this call is not a statement of its own
}
static float firstPositive(const float *a, int n) {
  // REFUSED: inlined-calls.cpp:[[@LINE-1]]:14: error: 'firstPositive' takes pointers or spans into the loop's data, so weft compiles it into the loop at each call, where it may return only at its end
  for (int k = 0; k < n; ++k)
    if (a[k] > 0)
      return a[k];
  return 0;
}
void early(int m, int n, const float *A, float *y) {
#pragma weft parallel for extent(A: m * n) extent(y: m)
  for (int i = 0; i < m; i++)
    y[i] = firstPositive(&A[i * n], n);
}
#endif
