// Tiles the whole block reads (the n-body case): in a one-level nest (or
// the innermost level of a chain whose outer levels a block shares), a
// sequential loop whose reads follow its own index alone is walked in tiles
// that the block loads together into shared memory, waits, and reads from
// there; every thread of the block walks the tiles, in range or not. Sizes
// that are multiples of no tile; checked on the simulator with 32- and
// 64-wide warps, other tile widths and block sizes, and staging off. Where
// the loop allows, each thread computes WEFT_CM iterations of its level
// (thread coarsening: each shared element read once for all of them), 1 by
// default, tunable to 2 and 4: run also with 2, 3 and 4, with other tiles,
// warps and staging off. With one iteration a thread, its guard is tested
// once for the tile, outside the loop over it.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat $(grep -l 'dspan<const float> px' %t.k/*.cu) | FileCheck %s --check-prefix=KERNEL
// RUN: cat $(grep -l 'dspan<const weft_st_Particle' %t.k/*.cu) | FileCheck %s --check-prefix=STRUCT
// RUN: cat $(grep -l 'int gz' %t.k/*.cu | head -1) | FileCheck %s --check-prefix=THREE
// RUN: cat $(grep -l 'WEFT_BLOCK_X 32' %t.k/*.cu) | FileCheck %s --check-prefix=ROWS
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64 2> %t.err64
// RUN: count 0 < %t.err64
// RUN: diff %t.host %t.sim64
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_TILE=7 %t.exe > %t.t7 2> %t.err.t7
// RUN: count 0 < %t.err.t7
// RUN: diff %t.host %t.t7
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_TILE=600 %t.exe > %t.t600 2> %t.err.t600
// RUN: count 0 < %t.err.t600
// RUN: diff %t.host %t.t600
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_STAGING=0 %t.exe > %t.off 2> %t.err.off
// RUN: count 0 < %t.err.off
// RUN: diff %t.host %t.off
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_CM=2 %t.exe > %t.cm2 2> %t.err.cm2
// RUN: count 0 < %t.err.cm2
// RUN: diff %t.host %t.cm2
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 WEFT_KERNEL_DEFINES="WEFT_CM=3 WEFT_TILE=7" %t.exe > %t.cm3 2> %t.err.cm3
// RUN: count 0 < %t.err.cm3
// RUN: diff %t.host %t.cm3
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES="WEFT_CM=4 WEFT_STAGING=0" %t.exe > %t.cm4 2> %t.err.cm4
// RUN: count 0 < %t.err.cm4
// RUN: diff %t.host %t.cm4
#include <weft/weft.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

// The common form: coordinates in arrays of their own, the body's own
// coordinates read before the loop.
// CHECK: remark: weft: level 0 (i): dim x, block {{[0-9]+}}, Span(1){{.*}}; loop over j in tiles of {{[0-9]+}} in shared memory: px[j] (shared by the {{[0-9]+}} threads along x) py[j] (shared by {{.*}}) pz[j] (shared by {{.*}}) m[j] (shared by {{.*}})
void accelerations(std::span<const float> px, std::span<const float> py,
                   std::span<const float> pz, std::span<const float> m,
                   std::span<float> ax, std::span<float> ay,
                   std::span<float> az, int n, float soft) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    const float xi = px[i], yi = py[i], zi = pz[i];
    float fx = 0, fy = 0, fz = 0;
    for (int j = 0; j < n; ++j) {
      const float dx = px[j] - xi, dy = py[j] - yi, dz = pz[j] - zi;
      const float r2 = dx * dx + dy * dy + dz * dz + soft;
      const float inv = 1.0f / std::sqrt(r2);
      const float s = m[j] * inv * inv * inv;
      fx += dx * s;
      fy += dy * s;
      fz += dz * s;
    }
    ax[i] = fx;
    ay[i] = fy;
    az[i] = fz;
  }
}
// The body's own initializers are guarded (an out-of-range thread would
// read past the spans), one per iteration of the thread; the block loads
// each tile, waits, reads each element once and computes from it for each
// iteration in range, and waits again; the rest where in range.
// KERNEL: WEFT_SHARED weft::shared_array<float, (WEFT_STAGING ? WEFT_TILE : 1)> weft_tile0;
// KERNEL: weft_b0 += (weft::index_t)weft::grid_dim(0) * WEFT_BLOCK_X * WEFT_CM) {
// KERNEL-NEXT: bool weft_on[WEFT_CM];
// KERNEL-NEXT: float xi[WEFT_CM];
// KERNEL: weft_on[weft_u] = weft_t0 < weft_count0;
// KERNEL: xi[weft_u] = weft_on[weft_u] ? (float)(px.ld(
// KERNEL: fx[weft_u] = ((float)0);
// KERNEL: #if WEFT_STAGING
// KERNEL-NEXT: for (weft::index_t weft_k0 = (weft::index_t)(0); weft_k0 < (weft::index_t)(n); weft_k0 += WEFT_TILE) {
// KERNEL-NEXT: for (weft::index_t weft_kk = (weft::index_t)weft::linear_thread(); weft_kk < WEFT_TILE; weft_kk += WEFT_BLOCK_THREADS)
// KERNEL-NEXT: if (weft_k0 + weft_kk < (weft::index_t)(n)) {
// KERNEL-NEXT: const weft::index_t weft_at =
// KERNEL-NEXT: if (weft_at >= 0 && weft_at < (weft::index_t)px.size())
// KERNEL-NEXT: weft_tile0[weft_kk] = px.ld(weft_at);
// KERNEL: weft::barrier();
// KERNEL-NEXT: const weft::index_t weft_ke = (weft::index_t)(n) < weft_k0 + WEFT_TILE ? (weft::index_t)(n) : weft_k0 + WEFT_TILE;
// KERNEL-NEXT: if (WEFT_CM > 1 || weft_on[0]) {
// KERNEL-NEXT: #pragma unroll 4
// KERNEL-NEXT: for (int j = (int)weft_k0; j < (int)weft_ke; ++j) {
// KERNEL-NEXT: const float weft_v0 = weft_tile0.ld((weft::index_t)(j) - weft_k0);
// KERNEL: for (int weft_u = 0; weft_u < WEFT_CM; ++weft_u)
// KERNEL-NEXT: if (weft_on[weft_u]) {
// KERNEL: (WEFT_SPAN_READ(px, (((unsigned long)j)), weft_v0) - xi[weft_u])
// KERNEL: (fx[weft_u] += (dx * s));
// KERNEL: weft::barrier();
// KERNEL: #else
// KERNEL: #endif
// KERNEL: if (weft_on[weft_u]) {
// KERNEL: (ax[{{.*}}] = fx[weft_u]);

struct Particle {
  float x, y, z, m;
};

// Structs, a loop that skips the body itself, an output accumulated in
// the span (kept in a register along the loop), and a read past the last
// element that the loop guards: the block loads only what is in the span.
// CHECK: remark: weft: level 0 (i): {{.*}}; p[i] kept in a register along its loop{{.*}}; loop over j in tiles of {{[0-9]+}} in shared memory: in[j] (shared by {{.*}}) in[(j + 1)] (shared by {{.*}})
void potentials(std::span<const Particle> in, std::span<float> p, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    const Particle me = in[i];
    p[i] = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i)
        continue;
      const Particle other = in[j];
      const float dx = other.x - me.x, dy = other.y - me.y;
      p[i] += other.m / std::sqrt(dx * dx + dy * dy + 1.0f);
      if (j + 1 < n)
        p[i] += 0.001f * in[j + 1].z;
    }
  }
}
// STRUCT: WEFT_SHARED weft::shared_array<weft_st_Particle_{{[0-9a-f]+}}, (WEFT_STAGING ? WEFT_TILE : 1)> weft_tile0;
// STRUCT: float weft_reg0 = weft_active ? p.ld(

// Coulomb's potential on a grid flattened into one level: atoms as
// (x, y, z, q) quadruples read at 4 * a + c.
// CHECK: remark: weft: level 0 (g): {{.*}}; loop over a in tiles of {{[0-9]+}} in shared memory: atoms[(4 * a)] {{.*}} atoms[((4 * a) + 1)] {{.*}} atoms[((4 * a) + 2)] {{.*}} atoms[((4 * a) + 3)]
void coulomb(std::span<const float> atoms, std::span<float> grid, int natoms,
             int gx, int gy, float spacing) {
#pragma weft parallel for
  for (int g = 0; g < gx * gy; ++g) {
    const int x = g % gx, y = g / gx;
    float e = 0;
    for (int a = 0; a < natoms; ++a) {
      const float dx = x * spacing - atoms[4 * a];
      const float dy = y * spacing - atoms[4 * a + 1];
      const float dz = 0.5f - atoms[4 * a + 2];
      e += atoms[4 * a + 3] / std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    grid[g] = e;
  }
}

// Coulomb's potential as KTT writes it: three parallel levels, the outer
// two one thread a block along their dimensions (a block shares z and y),
// the atoms' reads following a alone; the grid's first and last points out
// of the loop's reach only through the outer indices' bounds.
// CHECK: remark: weft: level 0 (z): dim {{[yz]}}, block 1,
// CHECK: remark: weft: level 1 (y): dim {{[yz]}}, block 1,
// CHECK: remark: weft: level 2 (x): dim x, block {{[0-9]+}}, Span(1){{.*}}; loop over a in tiles of {{[0-9]+}} in shared memory: atoms[(4 * a)]
void coulomb3d(std::span<const float> atoms, std::span<float> grid,
               int natoms, int gx, int gy, int gz, float spacing) {
#pragma weft parallel for
  for (int z = 0; z < gz; ++z)
#pragma weft parallel for
    for (int y = 0; y < gy; ++y)
#pragma weft parallel for
      for (int x = 0; x < gx; ++x) {
        float e = 0;
        for (int a = 0; a < natoms; ++a) {
          const float dx = x * spacing - atoms[4 * a];
          const float dy = y * spacing - atoms[4 * a + 1];
          const float dz = z * spacing - atoms[4 * a + 2];
          e += atoms[4 * a + 3] / std::sqrt(dx * dx + dy * dy + dz * dz);
        }
        grid[(z * gy + y) * gx + x] = e;
      }
}
// THREE: for (weft::index_t weft_b2 = (weft::index_t)weft::block_idx(0) * WEFT_BLOCK_X * WEFT_CM; weft_b2 < weft_count2;
// THREE-NEXT: bool weft_on[WEFT_CM];
// THREE: const weft::index_t weft_t2 = weft_b2 + (weft::index_t)weft_u * WEFT_BLOCK_X + weft::thread_idx(0);
// THREE-NEXT: const int x =
// THREE-NEXT: weft_on[weft_u] = weft_t2 < weft_count2 && weft_in1;
// THREE: weft::barrier();

// The same with four rows of y a block: the block walks y together too
// (its threads past the last row still reach the barriers), and the tiles
// follow a alone.
// CHECK: remark: weft: level 2 (x): dim x, block 32, Span(1){{.*}}; loop over a in tiles of {{[0-9]+}} in shared memory: atoms[(4 * a)]
void coulombRows(std::span<const float> atoms, std::span<float> grid,
                 int natoms, int gx, int gy, int gz, float spacing) {
#pragma weft parallel for
  for (int z = 0; z < gz; ++z)
#pragma weft parallel for block(4)
    for (int y = 0; y < gy; ++y)
#pragma weft parallel for block(32)
      for (int x = 0; x < gx; ++x) {
        float e = 0;
        for (int a = 0; a < natoms; ++a) {
          const float dx = x * spacing - atoms[4 * a];
          const float dy = y * spacing - atoms[4 * a + 1];
          const float dz = z * spacing - atoms[4 * a + 2];
          e += atoms[4 * a + 3] / std::sqrt(dx * dx + dy * dy + dz * dz);
        }
        grid[(z * gy + y) * gx + x] = e;
      }
}
// ROWS: for (weft::index_t weft_b1 = (weft::index_t)weft::block_idx({{[12]}}) * WEFT_BLOCK_{{[YZ]}}; weft_b1 < weft_count1;
// ROWS: const bool weft_in1 = weft_t1 < weft_count1 && weft_in0;
// ROWS: weft_on[weft_u] = weft_t2 < weft_count2 && weft_in1;
// ROWS: weft::barrier();

// Not tiled: the loop's bounds follow the thread (a triangle), a loop that
// breaks, and reads that follow the thread's index.
// CHECK: remark: weft: level 0 (i): dim x, block {{[0-9]+}}, Span(1); {{[^;]*}}; {{[^;]*}}; score {{[^;]*}}; the extent
void prefixSums(std::span<const float> a, std::span<float> out, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int j = 0; j <= i; ++j)
      s += a[j];
    out[i] = s;
  }
}
// CHECK: remark: weft: level 0 (i): dim x, block {{[0-9]+}}, Span(1); {{[^;]*}}; {{[^;]*}}; score {{[^;]*}}; the extent
void firstAbove(std::span<const float> a, std::span<int> out, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    int found = -1;
    for (int j = 0; j < n; ++j)
      if (a[j] > static_cast<float>(i)) {
        found = j;
        break;
      }
    out[i] = found;
  }
}

int main() {
  double Check = 0;
  for (int N : {1, 17, 300, 1023}) {
    std::vector<float> X(N), Y(N), Z(N), M(N), AX(N), AY(N), AZ(N);
    for (int I = 0; I < N; ++I) {
      X[I] = static_cast<float>(I % 13) * 0.37f;
      Y[I] = static_cast<float>(I % 7) * 0.91f;
      Z[I] = static_cast<float>(I % 5) * 1.3f;
      M[I] = 1.0f + static_cast<float>(I % 3);
    }
    accelerations(X, Y, Z, M, AX, AY, AZ, N, 0.01f);
    for (int I = 0; I < N; ++I)
      Check += AX[I] * (I % 3) + AY[I] - AZ[I] * 0.5;
    std::printf("accelerations %d: %.4f\n", N, Check);
  }
  for (int N : {1, 17, 300}) {
    std::vector<Particle> In(N);
    std::vector<float> P(N);
    for (int I = 0; I < N; ++I)
      In[I] = {static_cast<float>(I % 11), static_cast<float>(I % 4) * 2.5f,
               static_cast<float>(I % 9), 0.5f + static_cast<float>(I % 2)};
    potentials(In, P, N);
    for (int I = 0; I < N; ++I)
      Check += P[I] * (1 + I % 4);
    std::printf("potentials %d: %.4f\n", N, Check);
  }
  {
    const int Atoms = 37, GX = 19, GY = 23;
    std::vector<float> A(4 * Atoms), G(GX * GY);
    for (int I = 0; I < Atoms; ++I) {
      A[4 * I] = static_cast<float>(I % 5) + 0.25f;
      A[4 * I + 1] = static_cast<float>(I % 7) - 0.5f;
      A[4 * I + 2] = static_cast<float>(I % 3) + 1.0f;
      A[4 * I + 3] = (I % 2 ? 1.0f : -1.0f) * (1 + I % 4);
    }
    coulomb(A, G, Atoms, GX, GY, 0.5f);
    for (int I = 0; I < GX * GY; ++I)
      Check += G[I] * (1 + I % 5);
    std::printf("coulomb: %.4f\n", Check);
  }
  {
    const int Atoms = 300, GX = 37, GY = 5, GZ = 3;
    std::vector<float> A(4 * Atoms), G(GX * GY * GZ);
    for (int I = 0; I < Atoms; ++I) {
      A[4 * I] = static_cast<float>(I % 17) * 0.3f + 0.1f;
      A[4 * I + 1] = static_cast<float>(I % 5) - 0.35f;
      A[4 * I + 2] = static_cast<float>(I % 3) * 1.7f + 0.2f;
      A[4 * I + 3] = (I % 3 ? 1.0f : -2.0f);
    }
    coulomb3d(A, G, Atoms, GX, GY, GZ, 0.45f);
    for (int I = 0; I < GX * GY * GZ; ++I)
      Check += G[I] * (1 + I % 3);
    std::printf("coulomb3d: %.4f\n", Check);
    coulombRows(A, G, Atoms, GX, GY, GZ, 0.45f);
    for (int I = 0; I < GX * GY * GZ; ++I)
      Check += G[I] * (1 + I % 5);
    std::printf("coulombRows: %.4f\n", Check);
  }
  {
    const int N = 70;
    std::vector<float> A(N), S(N);
    std::vector<int> F(N);
    for (int I = 0; I < N; ++I)
      A[I] = static_cast<float>((I * 37) % 101);
    prefixSums(A, S, N);
    firstAbove(A, F, N);
    for (int I = 0; I < N; ++I)
      Check += S[I] + F[I];
    std::printf("others: %.4f\n", Check);
  }
}
