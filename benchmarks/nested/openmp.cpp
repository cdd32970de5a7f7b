// openmp.cpp: the benchmark's loops as an OpenMP offload user writes them:
// `target teams distribute parallel for` over the parallel loops (collapsed
// where there are two), data kept on the device by `target enter data`.
#include "peers.h"

#ifdef _OPENMP
#include <cmath>
#include <dlfcn.h>
#include <omp.h>
#endif

namespace weft::bench::omp {

#ifdef _OPENMP
namespace {
/// The device code is LLVM IR that the offload runtime compiles at the
/// first launch with the process's libLLVM (nested.sh says why), but
/// Debian's libomptarget 19 registers no target for it ("Unable to find
/// target for this triple (no targets are registered)"): register NVPTX's
/// before any target region runs.
struct RegisterNvptx {
  RegisterNvptx() {
    void *LLVM = dlopen("libLLVM.so.19.1", RTLD_LAZY | RTLD_GLOBAL);
    if (!LLVM)
      LLVM = dlopen("libLLVM-19.so", RTLD_LAZY | RTLD_GLOBAL);
    if (!LLVM)
      return;
    for (const char *Name :
         {"LLVMInitializeNVPTXTargetInfo", "LLVMInitializeNVPTXTarget",
          "LLVMInitializeNVPTXTargetMC", "LLVMInitializeNVPTXAsmPrinter"})
      if (auto *Init = reinterpret_cast<void (*)()>(dlsym(LLVM, Name)))
        Init();
  }
} Registered;
} // namespace
#endif

std::string unavailable() {
#ifndef _OPENMP
  return "built without OpenMP offload (needs clang-tools-19, the CUDA "
         "toolkit's ptxas, and clang 19's offload runtime: "
         "benchmarks/fetch-openmp.sh)";
#else
  if (omp_get_num_devices() == 0)
    return "no OpenMP offload device (the target regions ran on the host, "
           "checked, not timed)";
  int OnHost = 1;
#pragma omp target map(from : OnHost)
  OnHost = omp_is_initial_device();
  if (OnHost)
    return "an OpenMP target region fell back to the host";
  return {};
#endif
}

bool runsOnHost() {
#ifndef _OPENMP
  return false;
#else
  return omp_get_num_devices() == 0;
#endif
}

void keep(const float *Data, std::size_t Count) {
#pragma omp target enter data map(to : Data [0:Count])
}

void release(const float *Data, std::size_t Count) {
#pragma omp target exit data map(release : Data [0:Count])
}

void takeBack(float *Data, std::size_t Count) {
#pragma omp target exit data map(from : Data [0:Count])
}

void sumRows(const float *m, float *out, int rows, int cols) {
  const long long size = static_cast<long long>(rows) * cols;
#pragma omp target teams distribute parallel for map(to                        \
                                                     : m [0:size])             \
    map(from                                                                   \
        : out [0:rows])
  for (int r = 0; r < rows; ++r) {
    float s = 0;
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c];
    out[r] = s;
  }
}

void sumCols(const float *m, float *out, int rows, int cols) {
  const long long size = static_cast<long long>(rows) * cols;
#pragma omp target teams distribute parallel for map(to                        \
                                                     : m [0:size])             \
    map(from                                                                   \
        : out [0:cols])
  for (int c = 0; c < cols; ++c) {
    float s = 0;
    for (int r = 0; r < rows; ++r)
      s += m[r * cols + c];
    out[c] = s;
  }
}

void matmul(const float *a, const float *b, float *c, int n) {
  const long long size = static_cast<long long>(n) * n;
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to                                                                     \
        : a [0:size], b [0:size]) map(from                                     \
                                      : c [0:size])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

void matmulAcc(const float *a, const float *b, float *c, int n, float alpha,
               float beta) {
  const long long size = static_cast<long long>(n) * n;
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to                                                                     \
        : a [0:size], b [0:size]) map(tofrom                                   \
                                      : c [0:size])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      c[i * n + j] *= beta;
      for (int k = 0; k < n; ++k)
        c[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
    }
}

void jacobi(const float *in, float *out, int n) {
  const long long size = static_cast<long long>(n) * n;
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to                                                                     \
        : in [0:size]) map(tofrom                                              \
                           : out [0:size])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] =
          0.2f * (in[i * n + j] + in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                  in[i * n + j - 1] + in[i * n + j + 1]);
}

void nbody(const float *p, float *a, int n, float soft) {
  const long long bodies = n;
#pragma omp target teams distribute parallel for map(to                        \
                                                     : p [0:4 * bodies])       \
    map(tofrom                                                                 \
        : a [0:3 * bodies])
  for (int i = 0; i < n; ++i) {
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

void coulomb(const float *atoms, float *grid, int natoms, int n,
             float spacing) {
  const long long points = static_cast<long long>(n) * n * n;
#pragma omp target teams distribute parallel for collapse(3)                   \
    map(to                                                                     \
        : atoms [0:4 * natoms]) map(tofrom                                     \
                                    : grid [0:points])
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
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

void batchedMatmul(const float *a, const float *b, float *c, int batch, int n) {
  const long long size = static_cast<long long>(batch) * n * n;
#pragma omp target teams distribute parallel for collapse(3)                   \
    map(to                                                                     \
        : a [0:size], b [0:size]) map(tofrom                                   \
                                      : c [0:size])
  for (int p = 0; p < batch; ++p)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float s = 0;
        for (int k = 0; k < n; ++k)
          s += a[(p * n + i) * n + k] * b[(p * n + k) * n + j];
        c[(p * n + i) * n + j] = s;
      }
}

void conv5(const float *in, const float *f, float *out, int h, int w) {
  const long long size = static_cast<long long>(h) * w,
                  outs = static_cast<long long>(h - 4) * (w - 4);
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to                                                                     \
        : in [0:size], f [0:25]) map(tofrom                                    \
                                     : out [0:outs])
  for (int y = 0; y < h - 4; ++y)
    for (int x = 0; x < w - 4; ++x) {
      float s = 0;
      for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx)
          s += in[(y + dy) * w + x + dx] * f[dy * 5 + dx];
      out[y * (w - 4) + x] = s;
    }
}

} // namespace weft::bench::omp
