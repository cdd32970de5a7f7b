// Thread coarsening (WEFT_CM) where the loop skips the thread's own
// iteration (a continue, which stays with that iteration) and guards a
// read one past the end: each step reads every tile's element once for all
// the thread's iterations, including the element past the span that the
// block never loaded, which only the guarded branch would use. On the
// checked simulator against the host, with 1 to 4 iterations a thread,
// another tile width and staging off.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.cm1 2> %t.err1
// RUN: count 0 < %t.err1
// RUN: diff %t.host %t.cm1
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES=WEFT_CM=2 %t.exe > %t.cm2 2> %t.err2
// RUN: count 0 < %t.err2
// RUN: diff %t.host %t.cm2
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 WEFT_KERNEL_DEFINES="WEFT_CM=3 WEFT_TILE=7" %t.exe > %t.cm3 2> %t.err3
// RUN: count 0 < %t.err3
// RUN: diff %t.host %t.cm3
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_KERNEL_DEFINES="WEFT_CM=4 WEFT_STAGING=0" %t.exe > %t.cm4 2> %t.err4
// RUN: count 0 < %t.err4
// RUN: diff %t.host %t.cm4
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: loop over j in tiles of {{[0-9]+}} in shared memory: x[j] {{.*}} x[(j + 1)]
void pull(std::span<const float> x, std::span<float> f, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    const float xi = x[i];
    float s = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i)
        continue;
      float d = x[j] - xi;
      if (j + 1 < n)
        d += 0.5f * x[j + 1];
      s += d;
    }
    f[i] = s;
  }
}

int main() {
  for (int n : {1, 5, 300, 1023}) {
    std::vector<float> X(n), F(n);
    for (int I = 0; I < n; ++I)
      X[I] = float((I * 37) % 101) * 0.125f;
    pull(X, F, n);
    double S = 0;
    for (int I = 0; I < n; ++I)
      S += F[I] * (I % 7 + 1);
    std::printf("%d %.6f\n", n, S);
  }
}
