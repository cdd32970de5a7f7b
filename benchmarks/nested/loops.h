// loops.h: the benchmark's loops, one set of functions per mapping strategy
// (loops.cpp built once for each) and the host reference.
#ifndef WEFT_BENCHMARKS_NESTED_LOOPS_H
#define WEFT_BENCHMARKS_NESTED_LOOPS_H

#include <span>
#include <vector>

namespace weft::bench {

#define WEFT_BENCH_DECLARE(SUFFIX)                                             \
  void sumRows##SUFFIX(std::span<const float> m, std::span<float> out,         \
                       int rows, int cols);                                    \
  void sumCols##SUFFIX(std::span<const float> m, std::span<float> out,         \
                       int rows, int cols);                                    \
  void matmul##SUFFIX(std::span<const float> a, std::span<const float> b,      \
                      std::span<float> c, int n);                              \
  void matmulAcc##SUFFIX(std::span<const float> a, std::span<const float> b,   \
                         std::span<float> c, int n, float alpha, float beta);  \
  void matmulKj##SUFFIX(std::span<const float> a, std::span<const float> b,    \
                        std::span<float> c, int n, float alpha, float beta);   \
  void matmulRowsKj##SUFFIX(const std::vector<std::vector<float>> &a,          \
                            const std::vector<std::vector<float>> &b,          \
                            std::span<float> c, int n, float alpha,            \
                            float beta);                                       \
  void jacobi##SUFFIX(std::span<const float> in, std::span<float> out, int n); \
  void nbody##SUFFIX(std::span<const float> p, std::span<float> a, int n,      \
                     float soft);                                              \
  void coulomb##SUFFIX(std::span<const float> atoms, std::span<float> grid,    \
                       int natoms, int n, float spacing);                      \
  void batchedMatmul##SUFFIX(std::span<const float> a,                         \
                             std::span<const float> b, std::span<float> c,     \
                             int batch, int n);                                \
  void conv5##SUFFIX(std::span<const float> in, std::span<const float> f,      \
                     std::span<float> out, int h, int w);

WEFT_BENCH_DECLARE(_auto)
WEFT_BENCH_DECLARE(_1d)
WEFT_BENCH_DECLARE(_thread_block)
WEFT_BENCH_DECLARE(_warp)
WEFT_BENCH_DECLARE(_host)

#undef WEFT_BENCH_DECLARE

} // namespace weft::bench

#endif
