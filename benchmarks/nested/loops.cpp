// loops.cpp: the nested loops of the benchmark as a user writes them. Built
// once per mapping strategy (WEFT_BENCH_STRATEGY: the analysis's own choice,
// or one of Lee et al.'s fixed baselines) with WEFT_BENCH_SUFFIX naming the
// functions, and once without the plugin (the host reference).
#include "loops.h"

#include <weft/weft.hpp>

#include <cmath>

#define WEFT_BENCH_CAT2(A, B) A##B
#define WEFT_BENCH_CAT(A, B) WEFT_BENCH_CAT2(A, B)
#define WEFT_BENCH_NAME(F) WEFT_BENCH_CAT(F, WEFT_BENCH_SUFFIX)

namespace weft::bench {

// Lee et al.'s sumRows and sumCols (their figure: [64K,1K], [8K,8K], [1K,64K]).
void WEFT_BENCH_NAME(sumRows)(std::span<const float> m, std::span<float> out,
                              int rows, int cols) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int r = 0; r < rows; ++r) {
    float s = 0;
#pragma weft parallel for reduction(+ : s)
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c];
    out[r] = s;
  }
}

void WEFT_BENCH_NAME(sumCols)(std::span<const float> m, std::span<float> out,
                              int rows, int cols) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int c = 0; c < cols; ++c) {
    float s = 0;
#pragma weft parallel for reduction(+ : s)
    for (int r = 0; r < rows; ++r)
      s += m[r * cols + c];
    out[c] = s;
  }
}

// A matrix product written the textbook way: rows and columns parallel, the
// dot product sequential (tiled through shared memory by weft).
void WEFT_BENCH_NAME(matmul)(std::span<const float> a, std::span<const float> b,
                             std::span<float> c, int n) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int i = 0; i < n; ++i) {
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
  }
}

// The other common form, BLAS's sgemm: accumulating in the output
// (C = alpha * A * B + beta * C).
void WEFT_BENCH_NAME(matmulAcc)(std::span<const float> a,
                                std::span<const float> b, std::span<float> c,
                                int n, float alpha, float beta) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int i = 0; i < n; ++i) {
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      c[i * n + j] *= beta;
      for (int k = 0; k < n; ++k)
        c[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
    }
  }
}

// The same, in the order CPU code (PolyBench's gemm) writes it: the row of
// C scaled, then each step of k adding a row of B into it. weft moves the
// loop over k inside the second loop over j and fuses the two.
void WEFT_BENCH_NAME(matmulKj)(std::span<const float> a,
                               std::span<const float> b, std::span<float> c,
                               int n, float alpha, float beta) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int i = 0; i < n; ++i) {
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      c[i * n + j] *= beta;
    for (int k = 0; k < n; ++k) {
#pragma weft parallel for
      for (int j = 0; j < n; ++j)
        c[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
    }
  }
}

// The same again with A and B held as C++ code often holds a matrix, a
// std::vector of std::vectors (a[i][k]): rows of one length, which weft
// indexes as one block of rows by columns.
void WEFT_BENCH_NAME(matmulRowsKj)(const std::vector<std::vector<float>> &a,
                                   const std::vector<std::vector<float>> &b,
                                   std::span<float> c, int n, float alpha,
                                   float beta) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int i = 0; i < n; ++i) {
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      c[i * n + j] *= beta;
    for (int k = 0; k < n; ++k) {
#pragma weft parallel for
      for (int j = 0; j < n; ++j)
        c[i * n + j] += alpha * a[i][k] * b[k][j];
    }
  }
}

// One step of a 5-point Jacobi stencil on an n x n grid (its border kept).
void WEFT_BENCH_NAME(jacobi)(std::span<const float> in, std::span<float> out,
                             int n) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int i = 1; i < n - 1; ++i) {
#pragma weft parallel for
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] =
          0.2f * (in[i * n + j] + in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                  in[i * n + j - 1] + in[i * n + j + 1]);
  }
}

// n-body: each body's acceleration from all n (softened), bodies as
// (x, y, z, mass) quadruples in p, accelerations as (x, y, z) triples in a.
// One level is marked; the loop over j stays sequential (tiled through
// shared memory by weft: every thread of a block reads the same p[4 * j]).
void WEFT_BENCH_NAME(nbody)(std::span<const float> p, std::span<float> a, int n,
                            float soft) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int i = 0; i < n; ++i) {
    const float xi = p[4 * i], yi = p[4 * i + 1], zi = p[4 * i + 2];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
      const float dx = p[4 * j] - xi, dy = p[4 * j + 1] - yi,
                  dz = p[4 * j + 2] - zi;
      const float r2 = dx * dx + dy * dy + dz * dz + soft;
      const float inv = 1.0f / std::sqrt(r2);
      const float s = p[4 * j + 3] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    a[3 * i] = ax;
    a[3 * i + 1] = ay;
    a[3 * i + 2] = az;
  }
}

// Coulomb's potential on an n^3 grid from natoms atoms (x, y, z, charge),
// as the KTT benchmark set has it: three parallel levels, the loop over the
// atoms sequential (its reads follow a alone: tiled for the whole block).
void WEFT_BENCH_NAME(coulomb)(std::span<const float> atoms,
                              std::span<float> grid, int natoms, int n,
                              float spacing) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int z = 0; z < n; ++z)
#pragma weft parallel for
      for (int y = 0; y < n; ++y)
#pragma weft parallel for
          for (int x = 0; x < n; ++x) {
    float e = 0;
    for (int a = 0; a < natoms; ++a) {
      const float dx = x * spacing - atoms[4 * a];
      const float dy = y * spacing - atoms[4 * a + 1];
      const float dz = z * spacing - atoms[4 * a + 2];
      e += atoms[4 * a + 3] / std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    grid[(z * n + y) * n + x] = e;
  }
}

// A batch of small n x n matrix products, row-major, one after another.
void WEFT_BENCH_NAME(batchedMatmul)(std::span<const float> a,
                                    std::span<const float> b,
                                    std::span<float> c, int batch, int n) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int p = 0; p < batch; ++p)
#pragma weft parallel for
      for (int i = 0; i < n; ++i)
#pragma weft parallel for
          for (int j = 0; j < n; ++j) {
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += a[(p * n + i) * n + k] * b[(p * n + k) * n + j];
    c[(p * n + i) * n + j] = s;
  }
}

// A 2-D convolution with a 5 x 5 filter over an h x w image (its valid
// part: (h - 4) x (w - 4) outputs).
void WEFT_BENCH_NAME(conv5)(std::span<const float> in, std::span<const float> f,
                            std::span<float> out, int h, int w) {
  [[weft::parallel(WEFT_BENCH_STRATEGY)]] for (int y = 0; y < h - 4; ++y)
#pragma weft parallel for
      for (int x = 0; x < w - 4; ++x) {
    float s = 0;
    for (int dy = 0; dy < 5; ++dy)
      for (int dx = 0; dx < 5; ++dx)
        s += in[(y + dy) * w + x + dx] * f[dy * 5 + dx];
    out[y * (w - 4) + x] = s;
  }
}

} // namespace weft::bench
