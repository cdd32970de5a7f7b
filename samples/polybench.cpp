// polybench: three kernels as PolyBench/C writes them (gemm, atax,
// jacobi-2d), in its C89 style: indices and scratch values declared at the
// top of each function, arrays behind pointers, sums accumulated into
// elements and variables without clauses. Ported by the marks alone (their
// extents, a reduction over an array, a region for the time loop): the
// plugin makes the C89 variables private to each iteration.
#include "Harness.h"

#include <cstdlib>
#include <span>
#include <string>
#include <vector>

namespace {

// C = alpha A B + beta C, A ni x nk, B nk x nj: each row of C scaled, then
// each product of a row of A and B added into it. The plugin moves the loop
// over k inside the second loop over j and fuses that with the first (the
// remarks say so): the output-accumulating product, register-tiled.
void kernelGemm(int ni, int nj, int nk, double alpha, double beta, double *C,
                const double *A, const double *B) {
  int i, j, k;
#pragma weft parallel for extent(C                                             \
                                 : ni *nj) extent(A                            \
                                                  : ni *nk) extent(B           \
                                                                   : nk *nj)
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

// y = A^T (A x), A nx x ny: tmp = A x a row at a time, each row adding
// its part into every element of y.
void kernelAtax(int nx, int ny, const double *A, const double *x, double *y,
                double *tmp) {
  int i, j;
  for (i = 0; i < ny; i++)
    y[i] = 0;
#pragma weft parallel for extent(A: nx * ny) extent(x, y: ny) extent(tmp: nx) reduction(+: y)
  for (i = 0; i < nx; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < ny; j++)
      tmp[i] = tmp[i] + A[i * ny + j] * x[j];
    for (j = 0; j < ny; j++)
      y[j] = y[j] + A[i * ny + j] * tmp[i];
  }
}

// tsteps sweeps of a five-point average, A to B and back, the arrays kept
// on the device for all of them.
void kernelJacobi2d(int tsteps, int n, double *A, double *B) {
  int t, i, j;
#pragma weft region(std::span(A, n *n), std::span(B, n *n))
  for (t = 0; t < tsteps; t++) {
#pragma weft parallel for extent(A, B : n *n)
    for (i = 1; i < n - 1; i++)
#pragma weft parallel for
      for (j = 1; j < n - 1; j++)
        B[i * n + j] =
            0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + 1 + j] +
                   A[(1 + i) * n + j] + A[(i - 1) * n + j]);
#pragma weft parallel for extent(A, B : n *n)
    for (i = 1; i < n - 1; i++)
#pragma weft parallel for
      for (j = 1; j < n - 1; j++)
        A[i * n + j] =
            0.2 * (B[i * n + j] + B[i * n + j - 1] + B[i * n + 1 + j] +
                   B[(1 + i) * n + j] + B[(i - 1) * n + j]);
  }
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int N = Opts.Small ? 96 : 1024, Steps = Opts.Small ? 5 : 100;
  const std::size_t NN = static_cast<std::size_t>(N) * N;
  // PolyBench's init_array: values from the indices.
  std::vector<double> A0(NN), B0(NN), C0(NN), X(N);
  for (int i = 0; i < N; i++) {
    X[i] = 1 + (i / (double)N);
    for (int j = 0; j < N; j++) {
      A0[i * N + j] = (double)((i * j + 1) % N) / N;
      B0[i * N + j] = (double)(i * (j + 1) % N) / N;
      C0[i * N + j] = (double)((i * j + 2) % N) / N;
    }
  }
  std::vector<double> C, Y(N), Tmp(N), JA, JB;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    C = C0;
    kernelGemm(N, N, N, 1.5, 1.2, C.data(), A0.data(), B0.data());
    kernelAtax(N, N, A0.data(), X.data(), Y.data(), Tmp.data());
    JA = A0;
    JB = B0;
    kernelJacobi2d(Steps, N, JA.data(), JB.data());
  });
  std::vector<double> Result = C;
  Result.insert(Result.end(), Y.begin(), Y.end());
  Result.insert(Result.end(), JA.begin(), JA.end());
  return sample::finish(Opts, "polybench",
                        "gemm, atax and jacobi-2d (" + std::to_string(Steps) +
                            " steps) at n = " + std::to_string(N),
                        Ms, Result, 1e-9);
}
