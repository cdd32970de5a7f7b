// Whole-block tiles that read fields of one record (p[4 * j + c]: n-body's
// x, y, z and mass) share one shared array of whole records, loaded by the
// block as one run of consecutive elements and read a record at a time
// (16 or 8 bytes: NVRTC's PTX for n-body has one ld.shared.v4.f32 an
// iteration where four tiles had four loads). Most of a record must be read
// (3 of 4, 2 of 2); a span whose last record is cut short is loaded only as
// far as it reaches. Checked on the simulator at sizes that are multiples
// of no tile, with other tile widths and three iterations a thread.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat $(grep -l 'dspan<const float> xyz' %t.k/*.cu) | FileCheck %s --check-prefix=QUADS
// RUN: cat $(grep -l 'dspan<const double> w' %t.k/*.cu) | FileCheck %s --check-prefix=PAIRS
// RUN: cat $(grep -l 'dspan<const float> q' %t.k/*.cu) | FileCheck %s --check-prefix=SPARSE
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 WEFT_KERNEL_DEFINES="WEFT_TILE=7 WEFT_CM=3" %t.exe > %t.t7 2> %t.err.t7
// RUN: count 0 < %t.err.t7
// RUN: diff %t.host %t.t7
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_STAGING=0 %t.exe > %t.off 2> %t.err.off
// RUN: count 0 < %t.err.off
// RUN: diff %t.host %t.off
#include <weft/weft.hpp>

#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

// Three fields of records of four (the fourth, unread, is loaded with them;
// the span's last record lacks it).
// CHECK: record-tiles.cpp:[[@LINE+13]]:3: remark: weft: level 0 (i): {{.*}} in shared memory: xyz[(4 * j)] (shared by the {{[0-9]+}} threads along x; element 0 of records of 4, read whole) xyz[((4 * j) + 1)] ({{.*}}; element 1 of records of 4, read whole) xyz[((4 * j) + 2)] ({{.*}}; element 2 of records of 4, read whole)
// QUADS: WEFT_SHARED weft::shared_array<float, (WEFT_STAGING ? WEFT_TILE * 4 : 1)> weft_tile0;
// QUADS-NOT: weft_tile1;
// QUADS: for (weft::index_t weft_kk = (weft::index_t)weft::linear_thread(); weft_kk < WEFT_TILE * 4; weft_kk += WEFT_BLOCK_THREADS)
// QUADS-NEXT: if (weft_k0 + weft_kk / 4 < (weft::index_t)(n)) {
// QUADS-NEXT: const weft::index_t weft_at = (weft::index_t)(((unsigned long)(4 * ((int)(weft_k0 + weft_kk / 4))))) + weft_kk % 4;
// QUADS-NEXT: if (weft_at >= 0 && weft_at < (weft::index_t)xyz.size())
// QUADS-NEXT: weft_tile0[weft_kk] = xyz.ld(weft_at);
// QUADS: const float weft_v0 = weft_tile0.ld(((weft::index_t)(j) - weft_k0) * 4 + 0);
// QUADS-NEXT: const float weft_v1 = weft_tile0.ld(((weft::index_t)(j) - weft_k0) * 4 + 1);
// QUADS-NEXT: const float weft_v2 = weft_tile0.ld(((weft::index_t)(j) - weft_k0) * 4 + 2);
void nearest(std::span<const float> xyz, std::span<float> d, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    float best = 1e30f;
    for (int j = 0; j < n; ++j) {
      const float dx = xyz[4 * j] - 0.5f * i, dy = xyz[4 * j + 1] - 0.25f,
                  dz = xyz[4 * j + 2] + 0.125f * (i % 7);
      best = std::fmin(best, dx * dx + dy * dy + dz * dz);
    }
    d[i] = best;
  }
}

// Pairs of doubles (16 bytes), the pair's second element read first.
// CHECK: record-tiles.cpp:[[@LINE+7]]:3: remark: weft: level 0 (i): {{.*}} in shared memory: w[((2 * j) + 1)] ({{.*}}; element 1 of records of 2, read whole) w[(2 * j)] ({{.*}}; element 0 of records of 2, read whole)
// PAIRS: WEFT_SHARED weft::shared_array<double, (WEFT_STAGING ? WEFT_TILE * 2 : 1)> weft_tile1;
// PAIRS-NOT: weft_tile0;
// PAIRS: const double weft_v0 = weft_tile1.ld(((weft::index_t)(j) - weft_k0) * 2 + 1);
// PAIRS-NEXT: const double weft_v1 = weft_tile1.ld(((weft::index_t)(j) - weft_k0) * 2 + 0);
void weigh(std::span<const double> w, std::span<double> out, int n, int m) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < m; ++j)
      s += w[2 * j + 1] * (i + 1) - w[2 * j] / (i + 2);
    out[i] = s;
  }
}

// Two fields of four: tiles of their own, no record.
// CHECK: record-tiles.cpp:[[@LINE+5]]:3: remark: weft: level 0 (i): {{.*}} in shared memory: q[(4 * j)] (shared by the {{[0-9]+}} threads along x) q[((4 * j) + 2)] (shared by the {{[0-9]+}} threads along x);
// SPARSE: WEFT_SHARED weft::shared_array<float, (WEFT_STAGING ? WEFT_TILE : 1)> weft_tile0;
// SPARSE-NEXT: WEFT_SHARED weft::shared_array<float, (WEFT_STAGING ? WEFT_TILE : 1)> weft_tile1;
void sparse(std::span<const float> q, std::span<float> out, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int j = 0; j < n; ++j)
      s += q[4 * j] * (i % 5) + q[4 * j + 2];
    out[i] = s;
  }
}

int main() {
  for (int n : {17, 1000}) {
    std::vector<float> xyz(4 * n - 1), d(n), q(4 * n), out(n);
    for (std::size_t I = 0; I < xyz.size(); ++I)
      xyz[I] = static_cast<float>((I * 37) % 101) / 7.0f;
    for (std::size_t I = 0; I < q.size(); ++I)
      q[I] = static_cast<float>((I * 13) % 29) / 3.0f;
    nearest(xyz, d, n);
    sparse(q, out, n);
    std::vector<double> w(2 * (n + 3)), o(n);
    for (std::size_t I = 0; I < w.size(); ++I)
      w[I] = static_cast<double>((I * 7) % 23) / 5.0;
    weigh(w, o, n, n + 3);
    double Sum = 0;
    for (int I = 0; I < n; ++I)
      Sum += d[I] + out[I] + o[I];
    std::printf("%d %.6f %.6f %.6f %.9g\n", n, d[0], out[n - 1], o[n / 2], Sum);
  }
}
