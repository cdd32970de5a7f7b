// openacc.h: the benchmark's loops in OpenACC (GCC 12's offload to NVIDIA
// GPUs, gcc-12-offload-nvptx), the other directive-based peer a user would
// reach for. openacc.cpp is built by g++-12 into a shared library where
// that compiler is there (benchmarks/nested.sh), else without OpenACC
// (then it reports why).
#ifndef WEFT_BENCHMARKS_NESTED_OPENACC_H
#define WEFT_BENCHMARKS_NESTED_OPENACC_H

#include <cstddef>
#include <string>

namespace weft::bench::acc {

/// Empty when the loops run on an NVIDIA GPU; else why they would not.
std::string unavailable();
/// Built for offload, but no device: the compute regions run on the host.
bool runsOnHost();

/// Keeps Data[0, Count) on the device (enter data) until release (deleted)
/// or takeBack (copied back to the host).
void keep(const float *Data, std::size_t Count);
void release(const float *Data, std::size_t Count);
void takeBack(float *Data, std::size_t Count);

void sumRows(const float *m, float *out, int rows, int cols);
void sumCols(const float *m, float *out, int rows, int cols);
void matmul(const float *a, const float *b, float *c, int n);
void jacobi(const float *in, float *out, int n);

} // namespace weft::bench::acc

#endif
