// A level sized only inside the kernel (its bound reads an outer index) is
// not given a guessed 1024 iterations, and the sizes the launch can read
// that size whole levels (n0 and n2 here, not n1, which only bounds the
// kernel-sized level) are the ones its scenarios vary: a 2-iteration level
// gets a block near its size, not 1024 threads of which 1022 idle at every
// sequential step (on the simulator: seconds, not a minute).
// RUN: %weftxx %s -o %t.exe -fplugin-arg-weft-remarks %weft_link 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_ON_FAULT=error WEFT_VERBOSE=1 timeout 120 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.err
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

// REMARK: the extent of level 1 (j) is assumed to be 32 (a warp: it is known only inside the kernel)
// REMARK: mapping 1 of {{[0-9]+}}, for sizes near n0 = {{[0-9]+}}, n2 = {{[0-9]+}}
// LAUNCH: kernel weft_kernel_only_extents_L{{[0-9]+}}_{{[0-9a-f]+}}: grid
// LAUNCH-NOT: block (1024
// LAUNCH: 1 calls on sim, 0 on the host
void rowMins(std::span<const int> b, std::span<int> out, int n0, int n1,
             int n2) {
#pragma weft parallel for
  for (int i = 0; i < n0; ++i) {
    int best = 1 << 30;
#pragma weft parallel for reduction(min : best)
    for (int j = i % 4; j < n1; ++j) {
      int lo = 1 << 30;
#pragma weft parallel for reduction(min : lo)
      for (int k = 0; k < n2; ++k)
        lo = std::min(lo, b[(i * n1 + j) * n2 + k]);
      out[i * n1 + j] = lo;
      best = std::min(best, lo);
    }
    out[i * n1] = best;
  }
}

int main() {
  const int n0 = 257, n1 = 100, n2 = 2;
  std::vector<int> b(n0 * n1 * n2), out(n0 * n1);
  for (int e = 0; e < n0 * n1 * n2; ++e)
    b[e] = (e * 7919) % 1009;
  rowMins(b, out, n0, n1, n2);
  long long S = 0;
  for (int e = 0; e < n0 * n1; ++e)
    S += (long long)out[e] * (e % 13 + 1);
  std::printf("%lld\n", S);
}
