// A loop inside the nest whose bounds never let it run (`k = 1; k < 1`,
// left so by a macro or a generator) indexes nothing: its subscripts
// (`out[(k - 1) * n + i]`, -n at its would-be last index) do not size the
// pointer, and the launch runs instead of refusing a pointer "indexed from
// -n" (found by tests/fuzz/nests.py, seed 1208, program 777).
// RUN: %weftxx %s -o %t.exe -fplugin-arg-weft-remarks %weft_link 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_ON_FAULT=error WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.err
#include <weft/weft.hpp>

#include <cstdio>

// REMARK: pointer out without an extent: its subscripts reach out[{{.*}}] to out[n - 1], which{{.*}}pointer a without an extent: its subscripts reach a[0] to a[-1]
// LAUNCH: 1 calls on sim, 0 on the host
void step(const double *a, double *out, int n) {
#pragma weft parallel for
  for (int i = n - 1; i >= 0; i -= 2) {
    for (int k = 1; k < 1; ++k)
      out[(k - 1) * n + i] = out[k * n + i] * 0.5 + a[k * n + i];
    out[i] += 1;
  }
}

int main() {
  static double a[99], out[99];
  for (int i = 0; i < 99; ++i)
    out[i] = i;
  step(a, out, 99);
  std::printf("%g %g %g\n", out[0], out[97], out[98]);
}
