// Register tiles over a body with asserts (a bounds-checked accessor's, as
// legacy code writes them): each thread's outputs past the nest's extents
// are computed on zeros and never stored, and must not run the asserts
// either (their indices run past the arrays). Checked on the simulator
// against the host at sizes that are multiples of no tile.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cassert>
#include <cstdio>
#include <tuple>
#include <vector>

struct Checked {
  std::vector<float> v;
  int n;
  float &at(int e) {
    assert(e >= 0 && e < n);
    return v[e];
  }
  const float &at(int e) const {
    assert(e >= 0 && e < n);
    return v[e];
  }
};

// CHECK: register-tile-asserts.cpp:[[@LINE+6]]:5: remark: weft: level 1 (j): {{.*}}each thread computes a {{[0-9]+}} x {{[0-9]+}} register tile of outputs
void product(const Checked &a, const Checked &b, Checked &c, int m, int n,
             int p) {
#pragma weft parallel for
  for (int i = 0; i < m; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < p; ++k)
        acc += a.at(i * p + k) * b.at(k * n + j);
      c.at(i * n + j) = acc;
    }
}

// The asserts run only for the outputs in range.
// KERNEL: if (weft_t0 < weft_count0 && weft_t1 < weft_count1){{$}}
// KERNEL-NEXT: {
// KERNEL-NEXT: if ((!((bool)({{.*}} < a_n)))))
// KERNEL-NEXT: weft::assertion_failed();
int main() {
  for (auto [M, N, P] : {std::tuple{33, 2, 16}, std::tuple{17, 70, 9},
                         std::tuple{130, 129, 33}}) {
    Checked A{std::vector<float>(M * P), M * P}, B{std::vector<float>(P * N), P * N},
        C{std::vector<float>(M * N), M * N};
    for (int I = 0; I < M * P; ++I)
      A.v[I] = static_cast<float>(I % 7) * 0.5f;
    for (int I = 0; I < P * N; ++I)
      B.v[I] = static_cast<float>(I % 5) * 0.25f;
    product(A, B, C, M, N, P);
    double S = 0;
    for (int I = 0; I < M * N; ++I)
      S += C.v[I] * static_cast<double>(I % 3 + 1);
    std::printf("%d x %d x %d: %.4f\n", M, N, P, S);
  }
}
