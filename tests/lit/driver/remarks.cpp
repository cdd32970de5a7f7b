// -fplugin-arg-weft-remarks explains each level's mapping at its loop: what
// the search chose, the constraints that decided it, what it assumed, and
// what the kernel was generated with.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

void f(std::span<float> y) {
  // CHECK: remarks.cpp:[[@LINE+2]]:3: remark: weft: level 0 (i): dim x, block 64, Span(1); constrained by this loop's dim/block/span/split clauses; {{.*}}idle lanes: extent 8 < block 64; parallelism: {{.*}}; kernel weft_remarks_L[[@LINE+2]]_{{[0-9a-f]+}}
#pragma weft parallel for block(64)
  for (int i = 0; i < 8; ++i)
    y[i] = 1;
}

void sumRows(std::span<const float> m, int rows, int cols,
             std::span<float> out) {
  // CHECK: remarks.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): dim y, block 1, Span(1); {{.*}}parallelism: {{.*}}; the extent of level 0 (i) is assumed to be 1024; the extent of level 1 (j) is assumed to be 1024; kernel {{.*}}
  // CHECK: remarks.cpp:[[@LINE+5]]:5: remark: weft: level 1 (j): dim x, block 1024, Span(all); coalescing: 1 access(es) have unit stride in this index [+{{.*}}]; reduction(+: s) combined through shared memory
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float s = 0;
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < cols; ++j)
      s += m[i * cols + j];
    out[i] = s;
  }
}

void warpStrategy(std::span<const float> m, int rows, int cols,
                  std::span<float> out) {
  // CHECK: remarks.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): dim y, block 16, Span(1); warp strategy (the paper's fixed baseline)
  // CHECK: remarks.cpp:[[@LINE+5]]:5: remark: weft: level 1 (j): dim x, block 32, Span(all); warp strategy (the paper's fixed baseline); coalescing: 1 access(es)
#pragma weft parallel for strategy(warp)
  for (int i = 0; i < rows; ++i) {
    float s = 0;
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < cols; ++j)
      s += m[i * cols + j];
    out[i] = s;
  }
}

#ifdef WITH_MAIN
#include <cstdio>
#include <vector>
int main() {
  std::vector<float> Y(8), M(12 * 40), Out(12), Out2(12);
  for (std::size_t I = 0; I < M.size(); ++I)
    M[I] = static_cast<float>(I % 17);
  f(Y);
  sumRows(M, 12, 40, Out);
  warpStrategy(M, 12, 40, Out2);
  std::printf("%g %g %g %g\n", Y[0], Y[7], Out[11], Out2[3]);
}
#endif
