// Loop orders that hide a nest's reuse are rewritten where every element
// provably sees the same updates in the same order: a sequential loop around
// a marked level moves inside it when each value of the level's index writes
// only elements of its own (PolyBench's i, k, j product becomes the
// output-accumulating product, register-tiled), and adjacent marked levels
// over one range fuse. Where a write could reach another index's elements,
// or a value the loops read could change between them, the loops stay as
// written. On the simulator with its checker, against the host, at sizes
// that are multiples of no tile.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2> /dev/null | FileCheck %s
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_KERNEL_DEFINES="WEFT_TM=2 WEFT_TN=3 WEFT_TILE=5" %t.exe > %t.shape
// RUN: diff %t.host %t.shape
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// PolyBench's gemm in its C89 style: each row of C scaled, then each
// product of a row of A and B added in, k outside j. The loop over k moves
// inside the second loop over j, which then fuses with the first: the
// output-accumulating product.
// CHECK: nest at {{.*}}loop-order.cpp:[[@LINE+17]]
// CHECK: level 0 at {{.*}}: int i in [0, $ni) step 1
// CHECK: level 1 at {{.*}}loop-order.cpp:[[@LINE+17]]:5: int j in [0, $nj) step 1
// CHECK-NEXT: ($C[((i * $nj) + j)] *= $beta)
// CHECK-NEXT: for (sequential)
// CHECK-NEXT: decl int k = 0
// CHECK-NEXT: cond (k < $nk)
// CHECK-NEXT: step (k++)
// CHECK-NEXT: block
// CHECK-NEXT: ($C[((i * $nj) + j)] += (($alpha * $A[((i * $nk) + k)]) * $B[((k * $nj) + j)]))
// CHECK-NEXT: access
// REMARK: loop-order.cpp:[[@LINE+8]]:5: remark: weft: level 1 (j): {{.*}}; the loop over k moved inside the loop over j at line [[#@LINE+12]] (each thread runs it for its own j, whose elements no other j touches); fused with the loop over j at line [[#@LINE+12]] (each j touches only its own elements of what either writes); C[((i * $nj) + j)] kept in a register along its loop; loop over k in tiles of {{.*}}; each thread computes a 8 x 8 register tile
// REMARK-NOT: loop-order.cpp:[[@LINE+11]]:7: remark
void gemm(int ni, int nj, int nk, double alpha, double beta, double *C,
          const double *A, const double *B) {
  int i, j, k;
#pragma weft parallel for extent(C: ni * nj) extent(A: ni * nk) extent(B: nk * nj)
  for (i = 0; i < ni; i++) {
#pragma weft parallel for
    for (j = 0; j < nj; j++)
      C[i * nj + j] *= beta;
    for (k = 0; k < nk; k++) {
#pragma weft parallel for
      for (j = 0; j < nj; j++)
        C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
    }
  }
}

// Marked as OpenMP code marks it, on the outer loop alone: the loops over j,
// found parallel, are levels of their own, then reordered as above.
// REMARK: loop-order.cpp:[[@LINE+5]]:5: remark: weft: level 1 (j): {{.*}}; not marked, found parallel: no two values of j share an element the loop writes; the loop over k moved inside the loop over j at line [[#@LINE+9]] {{.*}}; fused with the loop over j at line [[#@LINE+9]] {{.*}}; each thread computes a 8 x 8 register tile
void gemmOuterMark(int ni, int nj, int nk, double alpha, double beta,
                   double *C, const double *A, const double *B) {
#pragma weft parallel for extent(C: ni * nj) extent(A: ni * nk) extent(B: nk * nj)
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++) {
      const double aik = alpha * A[i * nk + k];
      for (int j = 0; j < nj; j++)
        C[i * nj + j] += aik * B[k * nj + j];
    }
  }
}

// The element of A held in a local for the row of B: the statement before
// the marked loop runs for each j too.
// CHECK: nest at {{.*}}loop-order.cpp:[[@LINE+14]]
// CHECK: level 1 at {{.*}}: int j in [0, $m) step 1
// CHECK-NEXT: ($c[((i * $m) + j)] = float(0))
// CHECK-NEXT: for (sequential)
// CHECK-NEXT: decl int k = 0
// CHECK-NEXT: cond (k < $kk)
// CHECK-NEXT: step (++k)
// CHECK-NEXT: block
// CHECK-NEXT: decl const float r = $a[((i * $kk) + k)]
// CHECK-NEXT: ($c[((i * $m) + j)] += (r * $b[((k * $m) + j)]))
// CHECK-NEXT: access
// REMARK: loop-order.cpp:[[@LINE+5]]:5: remark: weft: level 1 (j): {{.*}}; the loop over k moved inside the loop over j at line [[#@LINE+10]] {{.*}}; fused with the loop over j at line [[#@LINE+10]]
void hoisted(int n, int m, int kk, const float *a, const float *b, float *c) {
#pragma weft parallel for extent(a: n * kk) extent(b: kk * m) extent(c: n * m)
  for (int i = 0; i < n; ++i) {
#pragma weft parallel for
    for (int j = 0; j < m; ++j)
      c[i * m + j] = 0;
    for (int k = 0; k < kk; ++k) {
      const float r = a[i * kk + k];
#pragma weft parallel for
      for (int j = 0; j < m; ++j)
        c[i * m + j] += r * b[k * m + j];
    }
  }
}

// A local of the marked loop named as one the statements before it
// declare keeps a scope of its own.
// CHECK: nest at {{.*}}loop-order.cpp:[[@LINE+10]]
// CHECK: level 1 at {{.*}}: int j in [0, $m) step 1
// CHECK-NEXT: for (sequential)
// CHECK: block
// CHECK-NEXT: decl const float t = $a[((i * 4) + k)]
// CHECK-NEXT: block
// CHECK-NEXT: decl float t = $c[((i * $m) + j)]
// CHECK-NEXT: ($c[((i * $m) + j)] = ((t * 2.0f) + 1.0f))
void scoped(int n, int m, const float *a, float *c) {
#pragma weft parallel for extent(a: n * 4) extent(c: n * m)
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k) {
      const float t = a[i * 4 + k];
#pragma weft parallel for
      for (int j = 0; j < m; ++j) {
        float t = c[i * m + j];
        c[i * m + j] = t * 2.0f + 1.0f;
      }
    }
}

// PolyBench's syrk: the lower triangle, j up to i.
// CHECK: nest at {{.*}}loop-order.cpp:[[@LINE+9]]
// CHECK: level 1 at {{.*}}: int j in [0, i] step 1
// CHECK-NEXT: ($C[((i * $n) + j)] *= $beta)
// CHECK-NEXT: for (sequential)
// CHECK-NOT: level 1
// CHECK: access
void syrk(int n, int m, double alpha, double beta, double *C, const double *A) {
  int i, j, k;
#pragma weft parallel for extent(C: n * n) extent(A: n * m)
  for (i = 0; i < n; i++) {
#pragma weft parallel for
    for (j = 0; j <= i; j++)
      C[i * n + j] *= beta;
    for (k = 0; k < m; k++) {
#pragma weft parallel for
      for (j = 0; j <= i; j++)
        C[i * n + j] += alpha * A[i * m + k] * A[j * m + k];
    }
  }
}

// Three loops over one range, the last two a sequence of steps on what
// the first wrote: one loop, each j's steps in order.
// CHECK: nest at {{.*}}loop-order.cpp:[[@LINE+10]]
// CHECK: level 1 at {{.*}}: int j in [0, $n) step 1
// CHECK-NEXT: ($v[((i * $n) + j)] = float((i + j)))
// CHECK-NEXT: for (sequential)
// CHECK: ($v[((i * $n) + j)] = (($v[((i * $n) + j)] * 0.5f) + 1.0f))
// CHECK-NEXT: ($w[((i * $n) + j)] = ($v[((i * $n) + j)] + float(2)))
// CHECK-NOT: level 1
// CHECK: access
void steps(int n, int count, float *v, float *w) {
#pragma weft parallel for extent(v, w: n * n)
  for (int i = 0; i < n; ++i) {
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      v[i * n + j] = i + j;
    for (int t = 0; t < count; ++t)
#pragma weft parallel for
      for (int j = 0; j < n; ++j)
        v[i * n + j] = v[i * n + j] * 0.5f + 1.0f;
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      w[i * n + j] = v[i * n + j] + 2;
  }
}

// A row's sum stays a loop in its order: making it a level would
// reassociate the sum (and take the loop from the tiling and staging that
// sequential loops get).
// CHECK: nest at {{.*}}loop-order.cpp:[[@LINE+7]]
// CHECK: decl int c = 0
// CHECK-NEXT: for (sequential)
// CHECK: decl float s = float(0)
// CHECK-NEXT: for (sequential)
void counts(int n, int m, const int *a, int *cnt, float *sums, const float *x) {
#pragma weft parallel for extent(a, x: n * m) extent(cnt, sums: n)
  for (int i = 0; i < n; ++i) {
    int c = 0;
    for (int j = 0; j < m; ++j)
      if (a[i * m + j] > 2)
        c++;
    cnt[i] = c;
    float s = 0;
    for (int j = 0; j < m; ++j)
      s += x[i * m + j];
    sums[i] = s;
  }
}

// Rows held apart (std::vectors of std::vectors): element j of row i is
// apart from every other row's, so the product in CPU order marked on i
// alone has its loop over j found parallel and k moved inside it, and a
// transposing copy writes row j of T for each j. Rows of one length are
// one block of rows by columns: the product is register-tiled as the flat
// one is.
using Rows = std::vector<std::vector<float>>;
// REMARK: loop-order.cpp:[[@LINE+6]]:7: remark: weft: level 1 (j): {{.*}}; not marked, found parallel: no two values of j share an element the loop writes; the loop over k moved inside the loop over j at line [[#@LINE+6]] {{.*}}; C[((long(unsigned long(i)) * long($C_cols)) + long(unsigned long(j)))] kept in a register along its loop; {{.*}}; each thread computes a 8 x 8 register tile
// REMARK: loop-order.cpp:[[@LINE+10]]:5: remark: weft: level 1 (j): {{.*}}; not marked, found parallel: no two values of j share an element the loop writes
void rowsProduct(const Rows &A, const Rows &B, Rows &C, Rows &T, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < (int)B.size(); ++k)
      for (int j = 0; j < n; ++j)
        C[i][j] += A[i][k] * B[k][j];
  }
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      T[j][i] = C[i][j] + T[j][i];
}

// Kept as written: each j reads the element its neighbour wrote at the
// step before (a sweep between two rows), the written element follows k as well as j, the
// level reduces, and the inner loop's bound is set inside the outer.
// CHECK: nest at {{.*}}loop-order.cpp:[[@LINE+21]]
// CHECK: level 0
// CHECK-NEXT: for (sequential)
// CHECK: level 1
// CHECK: for (sequential)
// CHECK: level 1
// CHECK: for (sequential)
// CHECK: level 1
// CHECK: for (sequential)
// CHECK: level 1
// CHECK: for (sequential)
// CHECK: level 1
// CHECK: for (sequential)
// CHECK: level 1
// CHECK: access
// REMARK: loop-order.cpp:[[@LINE+6]]:3: remark: weft: level 0 (i)
// REMARK-NOT: moved inside
// REMARK-NOT: fused with
void kept(int n, int steps, float *p, float *v, float *d, float *s,
          const int *lim, float *w) {
#pragma weft parallel for extent(p: 2 * n * (n + 1)) extent(v, w: n * (n + 1)) extent(d: n * steps * n) extent(s: n) extent(lim: n)
  for (int i = 0; i < n; ++i) {
    // REMARK: loop-order.cpp:[[@LINE+3]]:7: remark: weft: level 1 (j): {{.*}}; the loop over t around it stays outside it: it writes p and reaches it at p[((((2 * i) + (t % 2)) * ($n + 1)) + j)] and at p[((((((2 * i) + 1) - (t % 2)) * ($n + 1)) + j) + 1)]
    for (int t = 0; t < steps; ++t) {
#pragma weft parallel for
      for (int j = 0; j < n; ++j)
        p[(2 * i + t % 2) * (n + 1) + j] =
            p[(2 * i + 1 - t % 2) * (n + 1) + j + 1] * 0.5f + 1.0f;
    }
    // REMARK: loop-order.cpp:[[@LINE+3]]:7: remark: weft: level 1 (j): {{.*}}; the loop over t around it stays outside it: it writes d[((((i * $steps) + t) * $n) + j)], which is not a different element for each j
    for (int t = 0; t < steps; ++t) {
#pragma weft parallel for
      for (int j = 0; j < n; ++j)
        d[(i * steps + t) * n + j] = v[i * (n + 1) + j] + t;
    }
    float sum = 0;
    // REMARK: loop-order.cpp:[[@LINE+3]]:7: remark: weft: level 1 (j): {{.*}}; the loop over t around it stays outside it: it reduces
    for (int t = 0; t < steps; ++t) {
#pragma weft parallel for reduction(+: sum)
      for (int j = 0; j < n; ++j)
        sum += d[(i * steps + t) * n + j];
    }
    s[i] = sum;
    // REMARK: loop-order.cpp:[[@LINE+4]]:7: remark: weft: level 1 (j): {{.*}}; the loop over t around it stays outside it: a bound of the two loops reads a value set inside the loop over t
    for (int t = 0; t < steps; ++t) {
      const int upto = lim[i] - t;
#pragma weft parallel for
      for (int j = 0; j < upto; ++j)
        w[i * (n + 1) + j] += 1;
    }
    // REMARK: loop-order.cpp:[[@LINE+3]]:7: remark: weft: level 1 (j): {{.*}}; the loop over t around it stays outside it: an iteration leaves it by continue
    for (int t = 0; t < steps; ++t) {
#pragma weft parallel for
      for (int j = 0; j < n; ++j) {
        if (j % 3 == 0)
          continue;
        w[i * (n + 1) + j] += 2;
      }
    }
    // REMARK: loop-order.cpp:[[@LINE+6]]:7: remark: weft: level 1 (j): {{.*}}; the loop over t around it stays outside it: its steps also run the loop over j at line [[#@LINE+3]]
    for (int t = 0; t < steps; ++t) {
#pragma weft parallel for
      for (int j = 0; j < n; ++j)
        w[i * (n + 1) + j] = w[i * (n + 1) + j] + v[i * (n + 1) + j];
#pragma weft parallel for
      for (int j = 0; j < n; ++j)
        v[i * (n + 1) + j] = w[i * (n + 1) + j + 1];
    }
  }
}

template <typename T> void print(const std::vector<T> &V) {
  double Sum = 0;
  for (T X : V)
    Sum += X;
  std::printf("%.17g", Sum);
  for (std::size_t I = 0; I < V.size(); I += 41)
    std::printf(" %.17g", (double)V[I]);
  std::printf("\n");
}

int main() {
  const int N = 37, M = 29, K = 45, Steps = 3;
  std::vector<double> A(N * K), B(K * M), C(N * M), S(N * N);
  std::vector<float> a(N * K), b(K * M), c(N * M), v(N * (N + 1)),
      w(N * (N + 1)), p(2 * N * (N + 1)), d(N * Steps * N), s(N), x(N * N), y(N * N);
  std::vector<int> lim(N);
  for (int i = 0; i < N * K; ++i)
    A[i] = a[i] = (i % 13) * 0.25 - 1;
  for (int i = 0; i < K * M; ++i)
    B[i] = b[i] = (i % 7) * 0.5 - 1.5;
  for (int i = 0; i < N * M; ++i)
    C[i] = (i % 5) * 0.125;
  for (int i = 0; i < N * N; ++i)
    S[i] = (i % 3) * 0.5;
  for (int i = 0; i < N * (N + 1); ++i)
    v[i] = i % 11, w[i] = i % 4, p[2 * i] = i % 6, p[2 * i + 1] = i % 9;
  for (int i = 0; i < N; ++i)
    lim[i] = (i * 7) % (N - Steps) + Steps;
  gemm(N, M, K, 1.5, 1.25, C.data(), A.data(), B.data());
  std::vector<double> C2(C.size());
  for (int i = 0; i < N * M; ++i)
    C2[i] = (i % 5) * 0.25;
  gemmOuterMark(N, M, K, 0.5, 2.0, C2.data(), A.data(), B.data());
  hoisted(N, M, K, a.data(), b.data(), c.data());
  scoped(N, M, a.data(), c.data());
  syrk(N, K, 0.75, 2.0, S.data(), A.data());
  steps(N, Steps, x.data(), y.data());
  std::vector<int> ints(N * M), cnt(N);
  std::vector<float> sums(N);
  for (int i = 0; i < N * M; ++i)
    ints[i] = i % 7;
  counts(N, M, ints.data(), cnt.data(), sums.data(), c.data());
  kept(N, Steps, p.data(), v.data(), d.data(), s.data(), lim.data(), w.data());
  Rows RA(N, std::vector<float>(K)), RB(K, std::vector<float>(N)),
      RC(N, std::vector<float>(N)), RT(N, std::vector<float>(N, 1.0f));
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < K; ++k)
      RA[i][k] = a[i * K + k], RB[k][i] = b[(k * M + i) % (K * M)];
  rowsProduct(RA, RB, RC, RT, N);
  RT[2].push_back(3.0f); // rows of differing lengths: the offsets' kernels
  rowsProduct(RA, RB, RC, RT, N);
  for (int i = 0; i < N; ++i)
    print(RC[i]), print(RT[i]);
  print(C), print(C2), print(c), print(S), print(x), print(y), print(v), print(w),
      print(p), print(d), print(s), print(cnt), print(sums);
}
