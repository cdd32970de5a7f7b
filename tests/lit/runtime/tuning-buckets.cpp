// Tuning across size buckets pays for its compiles out of the loop's time:
// a bucket's first variant is compiled right away only while nothing has
// been compiled yet; after that, what a compile took on average stands for
// the bucket's first one, and a loop of a fraction of a millisecond a call
// runs its start untimed (lud's steps shrink through a bucket a power of
// two, and compiled a variant in each). Results stay those of the host.
// Compiled inline, on the launching thread, so that what is compiled by
// the program's end does not depend on the machine's speed.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_TUNE=on,inline WEFT_VERBOSE=1 %t.exe 2>&1 > %t.sim | FileCheck %s
// RUN: diff %t.host %t.sim
// The first bucket compiled one variant and timed it beside the start; the
// second timed only its start, its first compile paced like any other.
// CHECK-DAG: loop at {{.*}}tuning-buckets.cpp:[[@LINE+10]]:3: sizes 13: still tuning, 2 of 6 configurations timed
// CHECK-DAG: loop at {{.*}}tuning-buckets.cpp:[[@LINE+9]]:3: sizes 14: still tuning, 1 of 6 configurations timed
#include <weft/weft.hpp>

#include <cstdio>
#include <span>
#include <vector>

void relax(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 1; i + 1 < in.size(); ++i)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

int main() {
  for (std::size_t N : {5000u, 10000u}) {
    std::vector<float> A(N), B(N, 0.0f);
    for (std::size_t I = 0; I < A.size(); ++I)
      A[I] = static_cast<float>((I * 7919) % 1000);
    for (int Step = 0; Step < 12; ++Step) {
      relax(A, B);
      relax(B, A);
    }
    std::printf("%.9g %.9g\n", A[17], A[N / 2]);
  }
}
