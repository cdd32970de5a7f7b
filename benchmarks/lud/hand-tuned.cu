// hand-tuned.cu: blocked LU decomposition without pivoting as a CUDA
// programmer writes it by hand, the reference for samples/lud.cpp. Per step
// of 32 columns: the diagonal block in one thread block (shared memory, a
// barrier per column), the perimeter (each thread block one block of the
// block row and one of the block column, against the diagonal block in
// shared memory), and the trailing update (each thread block a 32 x 32
// tile of outputs from two shared tiles, four outputs a thread). Compiled
// at run time by NVRTC with the options weft's kernels get.
#define TILE 32

// The diagonal block at (offset, offset): 32 x 32 threads, one element
// each, right-looking in shared memory.
extern "C" __global__ void ludDiagonal(float *a, int n, int offset) {
  __shared__ float s[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float *block = a + (long long)offset * n + offset;
  s[ty][tx] = block[(long long)ty * n + tx];
  __syncthreads();
  for (int k = 0; k < TILE - 1; ++k) {
    if (ty > k && tx == k)
      s[ty][k] /= s[k][k];
    __syncthreads();
    if (ty > k && tx > k)
      s[ty][tx] -= s[ty][k] * s[k][tx];
    __syncthreads();
  }
  block[(long long)ty * n + tx] = s[ty][tx];
}

// The perimeter: thread block b solves the b-th block right of the diagonal
// (U = L^-1 A, a column a thread, warp 0) and the b-th below it (L = A U^-1,
// a row a thread, warp 1).
extern "C" __global__ void ludPerimeter(float *a, int n, int offset) {
  __shared__ float diag[TILE][TILE + 1];
  __shared__ float row[TILE][TILE + 1];
  __shared__ float col[TILE][TILE + 1];
  const int t = threadIdx.x; // 0 .. 63
  const int other = offset + (blockIdx.x + 1) * TILE;
  for (int i = t / TILE; i < TILE; i += 2) {
    const int j = t % TILE;
    diag[i][j] = a[(long long)(offset + i) * n + offset + j];
    row[i][j] = a[(long long)(offset + i) * n + other + j];
    col[i][j] = a[(long long)(other + i) * n + offset + j];
  }
  __syncthreads();
  if (t < TILE) {
    for (int i = 1; i < TILE; ++i) {
      float sum = 0;
      for (int k = 0; k < i; ++k)
        sum += diag[i][k] * row[k][t];
      row[i][t] -= sum;
    }
  } else {
    const int r = t - TILE;
    for (int j = 0; j < TILE; ++j) {
      float sum = 0;
      for (int k = 0; k < j; ++k)
        sum += col[r][k] * diag[k][j];
      col[r][j] = (col[r][j] - sum) / diag[j][j];
    }
  }
  __syncthreads();
  for (int i = t / TILE; i < TILE; i += 2) {
    const int j = t % TILE;
    a[(long long)(offset + i) * n + other + j] = row[i][j];
    a[(long long)(other + i) * n + offset + j] = col[i][j];
  }
}

// The trailing update: block (bx, by) of 32 x 8 threads updates the tile at
// block row by + 1 and block column bx + 1 past the diagonal, each thread
// four outputs a column apart by 8 rows.
extern "C" __global__ void ludInternal(float *a, int n, int offset) {
  __shared__ float left[TILE][TILE + 1];
  __shared__ float top[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = offset + (blockIdx.y + 1) * TILE;
  const int col0 = offset + (blockIdx.x + 1) * TILE;
  for (int i = ty; i < TILE; i += 8) {
    left[i][tx] = a[(long long)(row0 + i) * n + offset + tx];
    top[i][tx] = a[(long long)(offset + i) * n + col0 + tx];
  }
  __syncthreads();
  float sum[4] = {0, 0, 0, 0};
  for (int k = 0; k < TILE; ++k) {
    const float u = top[k][tx];
#pragma unroll
    for (int r = 0; r < 4; ++r)
      sum[r] += left[ty + 8 * r][k] * u;
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    a[(long long)(row0 + ty + 8 * r) * n + col0 + tx] -= sum[r];
}
