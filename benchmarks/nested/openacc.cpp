// openacc.cpp: the benchmark's loops as an OpenACC user writes them: the
// outer loop over gangs, an inner reduction over vector lanes, two parallel
// loops collapsed; data kept on the device by enter data.
#include "peers.h"

#include <cmath>

#ifdef _OPENACC
#include <openacc.h>
#endif

namespace weft::bench::acc {

std::string unavailable() {
#ifndef _OPENACC
  return "built without OpenACC (needs gcc-12-offload-nvptx)";
#else
  if (acc_get_num_devices(acc_device_nvidia) == 0)
    return "no OpenACC device (the compute regions ran on the host, "
           "checked, not timed)";
  int OnDevice = 0;
#pragma acc parallel num_gangs(1) copyout(OnDevice)
  OnDevice = acc_on_device(acc_device_not_host);
  if (!OnDevice)
    return "an OpenACC region fell back to the host";
  return {};
#endif
}

bool runsOnHost() {
#ifndef _OPENACC
  return false;
#else
  return acc_get_num_devices(acc_device_nvidia) == 0;
#endif
}

void keep(const float *Data, std::size_t Count) {
#pragma acc enter data copyin(Data [0:Count])
}

void release(const float *Data, std::size_t Count) {
#pragma acc exit data delete (Data [0:Count])
}

void takeBack(float *Data, std::size_t Count) {
#pragma acc exit data copyout(Data [0:Count])
}

void sumRows(const float *m, float *out, int rows, int cols) {
  const long long size = static_cast<long long>(rows) * cols;
#pragma acc parallel loop gang present(m [0:size], out [0:rows])
  for (int r = 0; r < rows; ++r) {
    float s = 0;
#pragma acc loop vector reduction(+ : s)
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c];
    out[r] = s;
  }
}

void sumCols(const float *m, float *out, int rows, int cols) {
  const long long size = static_cast<long long>(rows) * cols;
#pragma acc parallel loop gang vector present(m [0:size], out [0:cols])
  for (int c = 0; c < cols; ++c) {
    float s = 0;
    for (int r = 0; r < rows; ++r)
      s += m[r * cols + c];
    out[c] = s;
  }
}

void matmul(const float *a, const float *b, float *c, int n) {
  const long long size = static_cast<long long>(n) * n;
#pragma acc parallel loop collapse(2)                                          \
    present(a [0:size], b [0:size], c [0:size])
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
#pragma acc parallel loop collapse(2)                                          \
    present(a [0:size], b [0:size], c [0:size])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      c[i * n + j] *= beta;
      for (int k = 0; k < n; ++k)
        c[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
    }
}

void jacobi(const float *in, float *out, int n) {
  const long long size = static_cast<long long>(n) * n;
#pragma acc parallel loop collapse(2) present(in [0:size], out [0:size])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] =
          0.2f * (in[i * n + j] + in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                  in[i * n + j - 1] + in[i * n + j + 1]);
}

void nbody(const float *p, float *a, int n, float soft) {
  const long long bodies = n;
#pragma acc parallel loop present(p [0:4 * bodies], a [0:3 * bodies])
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
#pragma acc parallel loop collapse(3)                                          \
    present(atoms [0:4 * natoms], grid [0:points])
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
#pragma acc parallel loop collapse(3)                                          \
    present(a [0:size], b [0:size], c [0:size])
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
#pragma acc parallel loop collapse(2) copyin(f [0:25])                         \
    present(in [0:size], out [0:outs])
  for (int y = 0; y < h - 4; ++y)
    for (int x = 0; x < w - 4; ++x) {
      float s = 0;
      for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx)
          s += in[(y + dy) * w + x + dx] * f[dy * 5 + dx];
      out[y * (w - 4) + x] = s;
    }
}

} // namespace weft::bench::acc
