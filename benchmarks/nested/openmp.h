// openmp.h: the benchmark's loops in OpenMP target offload (clang's), the
// peer a user would otherwise reach for. openmp.cpp is built by clang-19
// with -fopenmp --offload-arch where the toolchain is there (see
// benchmarks/nested.sh), else without OpenMP (then it reports why).
#ifndef WEFT_BENCHMARKS_NESTED_OPENMP_H
#define WEFT_BENCHMARKS_NESTED_OPENMP_H

#include <cstddef>
#include <string>

namespace weft::bench::omp {

/// Empty when the loops offload to a device; else why they would not.
std::string unavailable();
/// Built for offload, but no device: the target regions run on the host.
bool runsOnHost();

/// Keeps Data[0, Count) on the device (target enter data) until release
/// (dropped) or takeBack (copied back to the host).
void keep(const float *Data, std::size_t Count);
void release(const float *Data, std::size_t Count);
void takeBack(float *Data, std::size_t Count);

void sumRows(const float *m, float *out, int rows, int cols);
void sumCols(const float *m, float *out, int rows, int cols);
void matmul(const float *a, const float *b, float *c, int n);
void jacobi(const float *in, float *out, int n);

} // namespace weft::bench::omp

#endif
