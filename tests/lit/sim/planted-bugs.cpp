// Loops whose parallel mark is a false claim, compiled by the plugin and run
// on the simulator with the checker on: each is caught with the kernel, the
// loop's location and the thread; the correct twin runs clean.
// RUN: %weftxx %s -o %t %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t shift 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t overrun 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t collide 2>&1 | FileCheck %s --check-prefix=COLLIDE
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t tiled 2>&1 | FileCheck %s --check-prefix=TILED
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t windowed 2>&1 | FileCheck %s --check-prefix=WINDOWED
// RUN: env WEFT_BACKEND=sim not %t tiled 2>&1 | FileCheck %s --check-prefix=TILED
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t product 2>&1 | FileCheck %s --check-prefix=PRODUCT
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t twin 2>&1 | FileCheck %s --check-prefix=TWIN
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

void shift(std::span<float> y) {
#pragma weft parallel for
  for (std::size_t i = 0; i + 1 < y.size(); ++i)
    y[i] = y[i + 1];
}
// SHIFT: weft: error: sim checker: loop iterations are not independent in kernel weft_planted_bugs_L[[@LINE-3]]_{{[0-9a-f]+}} (loop at {{.*}}planted-bugs.cpp:[[@LINE-3]]:3), block ({{[0-9]+}},0,0) thread ({{[0-9]+}},0,0): iteration {{[0-9]+}} {{reads|writes}} element {{[0-9]+}} of span 'y'

void overrun(std::span<const int> x, std::span<int> y) {
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] = x[i] + x[i + 1];
}
// OOB: weft: error: sim checker: out-of-bounds access in kernel weft_planted_bugs_L[[@LINE-3]]_{{.*}}: reads element 64 of span 'x', which has 64 elements

void collide(std::span<int> hist, std::span<const int> keys) {
#pragma weft parallel for
  for (std::size_t i = 0; i < keys.size(); ++i)
    hist[keys[i] % 4] += 1;
}
// COLLIDE: weft: error: sim checker: loop iterations are not independent {{.*}} of span 'hist'

// Reads past the end that shared memory serves (a whole block's tile, a
// halo window) are caught as the loop without them would be: the tile's
// load skips elements outside the span, the read still checks its index.
void tiled(std::span<const int> x, std::span<int> y) {
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i) {
    int s = 0;
    for (std::size_t k = 0; k < 70; ++k)
      s += x[k] * static_cast<int>(i);
    y[i] = s;
  }
}
// TILED: weft: error: sim checker: out-of-bounds access in kernel weft_planted_bugs_L[[@LINE-7]]_{{.*}}: reads element 64 of span 'x', which has 64 elements

void windowed(std::span<const int> x, std::span<int> y) {
#pragma weft parallel for block(1)
  for (int r = 0; r < 2; ++r)
#pragma weft parallel for block(32)
    for (int i = 0; i < 32; ++i) {
      int s = 0;
      for (int k = 0; k < 3; ++k)
        s += x[r * 32 + i + k];
      y[r * 32 + i] = s;
    }
}
// WINDOWED: weft: error: sim checker: out-of-bounds access in kernel weft_planted_bugs_L[[@LINE-9]]_{{.*}}: reads element 64 of span 'x', which has 64 elements

// A product whose k runs one past the end (k < n + 1), in register tiles:
// their loads cover the loop's range, not the span's, and check it.
void product(std::span<const float> a, std::span<const float> b,
             std::span<float> c, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n + 1; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
// PRODUCT: weft: error: sim checker: out-of-bounds access in kernel weft_planted_bugs_L[[@LINE-9]]_{{.*}}: reads element {{[0-9]+}} of span '{{a|b}}', which has 4096 elements

void twin(std::span<const int> x, std::span<int> y) {
#pragma weft parallel for
  for (std::size_t i = 1; i + 1 < y.size(); ++i)
    y[i] = x[i - 1] + x[i] + x[i + 1];
}

int main(int Argc, char **Argv) {
  std::vector<float> F(64, 1.0f);
  std::vector<int> X(64, 2), Y(64, 0);
  if (!std::strcmp(Argv[1], "shift"))
    shift(F);
  else if (!std::strcmp(Argv[1], "overrun"))
    overrun(X, Y);
  else if (!std::strcmp(Argv[1], "collide"))
    collide(Y, X);
  else if (!std::strcmp(Argv[1], "tiled"))
    tiled(X, Y);
  else if (!std::strcmp(Argv[1], "windowed"))
    windowed(X, Y);
  else if (!std::strcmp(Argv[1], "product")) {
    std::vector<float> A(64 * 64, 1.0f), B(64 * 64, 1.0f), C(64 * 64);
    product(A, B, C, 64);
  }
  else
    twin(X, Y);
  // TWIN: result 6
  std::printf("result %d\n", Y[5]);
}
