// peers.h: the benchmark's loops in the directive-based models a user would
// otherwise reach for, one namespace each, with the same functions:
// omp (clang 19's OpenMP offload, openmp.cpp) and acc (GCC 12's OpenACC,
// openacc.cpp). Each file is built for offload where its compiler is there
// (benchmarks/nested.sh), else without the directives (then it says why).
#ifndef WEFT_BENCHMARKS_NESTED_PEERS_H
#define WEFT_BENCHMARKS_NESTED_PEERS_H

#include <cstddef>
#include <string>

#define WEFT_BENCH_PEER_FUNCTIONS                                              \
  /* Empty when the loops run on an NVIDIA GPU; else why they would not. */    \
  std::string unavailable();                                                   \
  /* Built for offload, but no device: the regions run on the host. */         \
  bool runsOnHost();                                                           \
  /* Keeps Data[0, Count) on the device until release (dropped) or */          \
  /* takeBack (copied back to the host). */                                    \
  void keep(const float *Data, std::size_t Count);                             \
  void release(const float *Data, std::size_t Count);                          \
  void takeBack(float *Data, std::size_t Count);                               \
  void sumRows(const float *m, float *out, int rows, int cols);                \
  void sumCols(const float *m, float *out, int rows, int cols);                \
  void matmul(const float *a, const float *b, float *c, int n);                \
  void matmulAcc(const float *a, const float *b, float *c, int n, float alpha, \
                 float beta);                                                  \
  void jacobi(const float *in, float *out, int n);                             \
  void nbody(const float *p, float *a, int n, float soft);                     \
  void coulomb(const float *atoms, float *grid, int natoms, int n,             \
               float spacing);                                                 \
  void batchedMatmul(const float *a, const float *b, float *c, int batch,      \
                     int n);                                                   \
  void conv5(const float *in, const float *f, float *out, int h, int w);

namespace weft::bench::omp {
WEFT_BENCH_PEER_FUNCTIONS
} // namespace weft::bench::omp

namespace weft::bench::acc {
WEFT_BENCH_PEER_FUNCTIONS
} // namespace weft::bench::acc

#undef WEFT_BENCH_PEER_FUNCTIONS

#endif
