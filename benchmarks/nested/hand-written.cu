// hand-written.cu: the benchmark's loops as a CUDA programmer writes them by
// hand: the baseline weft is measured against. Compiled at run time by NVRTC
// with the options weft's kernels get; launched by main.cpp through the
// driver (grid and block sizes are chosen there).

// sumRows: one block of 256 threads per row, a shared-memory tree at the end.
extern "C" __global__ void sumRows(const float *m, float *out, int rows,
                                   int cols) {
  __shared__ float partial[256];
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    const float *row = m + (long long)r * cols;
    float s = 0;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
      s += row[c];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int width = blockDim.x / 2; width > 0; width /= 2) {
      if (threadIdx.x < width)
        partial[threadIdx.x] += partial[threadIdx.x + width];
      __syncthreads();
    }
    if (threadIdx.x == 0)
      out[r] = partial[0];
    __syncthreads();
  }
}

// sumCols, first step: a 32 x 8 block sums 32 columns over one chunk of the
// rows (the x threads read consecutive columns: coalesced), leaving one
// partial per chunk and column; enough chunks to fill the device.
extern "C" __global__ void sumColsPartial(const float *m, float *partial,
                                          int rows, int cols, int rowsPerChunk) {
  __shared__ float tile[8][33];
  const int c = blockIdx.x * 32 + threadIdx.x;
  const int first = blockIdx.y * rowsPerChunk;
  const int last = min(rows, first + rowsPerChunk);
  float s = 0;
  if (c < cols)
    for (int r = first + threadIdx.y; r < last; r += 8)
      s += m[(long long)r * cols + c];
  tile[threadIdx.y][threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.y == 0 && c < cols) {
    for (int y = 1; y < 8; ++y)
      s += tile[y][threadIdx.x];
    partial[(long long)blockIdx.y * cols + c] = s;
  }
}

// sumCols, second step: each column's chunk partials, in chunk order.
extern "C" __global__ void sumColsCombine(const float *partial, float *out,
                                          int cols, int chunks) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0;
  for (int k = 0; k < chunks; ++k)
    s += partial[(long long)k * cols + c];
  out[c] = s;
}

// The dot product of row i of a and column j of b, n x n, through 32 x 32
// tiles of both in shared memory (the tile of b padded against bank
// conflicts), one output element per thread; every thread of the block
// calls it, in range or not, since it waits at the block's barriers.
__device__ float tiledDot(const float *a, const float *b, int n, int i,
                          int j) {
  __shared__ float ta[32][33], tb[32][33];
  float s = 0;
  for (int k0 = 0; k0 < n; k0 += 32) {
    ta[threadIdx.y][threadIdx.x] =
        i < n && k0 + threadIdx.x < n ? a[(long long)i * n + k0 + threadIdx.x]
                                      : 0.0f;
    tb[threadIdx.y][threadIdx.x] =
        j < n && k0 + threadIdx.y < n ? b[(long long)(k0 + threadIdx.y) * n + j]
                                      : 0.0f;
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      s += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  return s;
}

// matmul: C = A * B, with tiledDot.
extern "C" __global__ void matmul(const float *a, const float *b, float *c,
                                  int n) {
  const int i = blockIdx.y * 32 + threadIdx.y;
  const int j = blockIdx.x * 32 + threadIdx.x;
  const float s = tiledDot(a, b, n, i, j);
  if (i < n && j < n)
    c[(long long)i * n + j] = s;
}

// matmulAcc: C = alpha * A * B + beta * C, the same tiles.
extern "C" __global__ void matmulAcc(const float *a, const float *b, float *c,
                                     int n, float alpha, float beta) {
  const int i = blockIdx.y * 32 + threadIdx.y;
  const int j = blockIdx.x * 32 + threadIdx.x;
  const float s = tiledDot(a, b, n, i, j);
  if (i < n && j < n)
    c[(long long)i * n + j] = alpha * s + beta * c[(long long)i * n + j];
}

// jacobi: one thread per interior point, 32 x 8 blocks.
extern "C" __global__ void jacobi(const float *in, float *out, int n) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
  const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i >= n - 1 || j >= n - 1)
    return;
  const long long at = (long long)i * n + j;
  out[at] = 0.2f * (in[at] + in[at - n] + in[at + n] + in[at - 1] + in[at + 1]);
}

// nbody: one body per thread, 256 a block; the block stages 256 bodies at a
// time in shared memory as float4 (one 128-bit load each), the tail padded
// with massless bodies so that the inner loop runs whole and unrolled. The
// arithmetic is the loop's as written (1 / sqrt, not rsqrtf), so that both
// give the same results.
extern "C" __global__ void nbody(const float4 *p, float *a, int n,
                                 float soft) {
  __shared__ float4 tile[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  const float4 me = i < n ? p[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0, ay = 0, az = 0;
  for (int j0 = 0; j0 < n; j0 += 256) {
    tile[threadIdx.x] = j0 + threadIdx.x < n
                            ? p[j0 + threadIdx.x]
                            : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < 256; ++j) {
      const float4 q = tile[j];
      const float dx = q.x - me.x, dy = q.y - me.y, dz = q.z - me.z;
      const float r2 = dx * dx + dy * dy + dz * dz + soft;
      const float inv = 1.0f / sqrtf(r2);
      const float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) {
    a[3 * (long long)i] = ax;
    a[3 * (long long)i + 1] = ay;
    a[3 * (long long)i + 2] = az;
  }
}

// coulomb: one grid point per thread, 256 along x a block (n a multiple of
// it or not); the block stages 256 atoms at a time in shared memory as
// float4, the tail padded with uncharged atoms far away. The arithmetic is
// the loop's as written.
extern "C" __global__ void coulomb(const float4 *atoms, float *grid,
                                   int natoms, int n, float spacing) {
  __shared__ float4 tile[256];
  const int x = blockIdx.x * 256 + threadIdx.x, y = blockIdx.y,
            z = blockIdx.z;
  float e = 0;
  for (int a0 = 0; a0 < natoms; a0 += 256) {
    tile[threadIdx.x] = a0 + threadIdx.x < natoms
                            ? atoms[a0 + threadIdx.x]
                            : make_float4(1e30f, 1e30f, 1e30f, 0.0f);
    __syncthreads();
#pragma unroll 8
    for (int a = 0; a < 256; ++a) {
      const float4 q = tile[a];
      const float dx = x * spacing - q.x, dy = y * spacing - q.y,
                  dz = z * spacing - q.z;
      e += q.w / sqrtf(dx * dx + dy * dy + dz * dz);
    }
    __syncthreads();
  }
  if (x < n)
    grid[((long long)z * n + y) * n + x] = e;
}

// batchedMatmul: one block of n x n threads a matrix (n <= 32), both
// operands staged in shared memory, one output a thread.
extern "C" __global__ void batchedMatmul(const float *a, const float *b,
                                         float *c, int n) {
  __shared__ float ta[32][33], tb[32][33];
  const long long base = (long long)blockIdx.x * n * n;
  const int i = threadIdx.y, j = threadIdx.x;
  ta[i][j] = a[base + i * n + j];
  tb[i][j] = b[base + i * n + j];
  __syncthreads();
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += ta[i][k] * tb[k][j];
  c[base + i * n + j] = s;
}

// conv5: 32 x 8 outputs a block from a 36 x 12 tile of the image (the
// outputs' 2-element halo on each side) and the filter, both in shared
// memory; one output a thread.
extern "C" __global__ void conv5(const float *in, const float *f, float *out,
                                 int h, int w) {
  __shared__ float tile[12][37], filter[25];
  const int x0 = blockIdx.x * 32, y0 = blockIdx.y * 8;
  const int t = threadIdx.y * 32 + threadIdx.x;
  if (t < 25)
    filter[t] = f[t];
  for (int e = t; e < 12 * 36; e += 256) {
    const int r = e / 36, c = e % 36;
    tile[r][c] = y0 + r < h && x0 + c < w ? in[(long long)(y0 + r) * w + x0 + c]
                                          : 0.0f;
  }
  __syncthreads();
  const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= w - 4 || y >= h - 4)
    return;
  float s = 0;
#pragma unroll
  for (int dy = 0; dy < 5; ++dy)
#pragma unroll
    for (int dx = 0; dx < 5; ++dx)
      s += tile[threadIdx.y + dy][threadIdx.x + dx] * filter[dy * 5 + dx];
  out[(long long)y * (w - 4) + x] = s;
}
