// Launches timed for tuning whose data stays on the device in a region are
// timed there, between marks in the device's queue (a GPU's events), and
// return without waiting, as untimed ones do: no launch in flight is waited
// for while the configurations are timed, until the region ends. Where data
// must come back (no region), a timed launch waits, as tuning.cpp shows.
// The simulator runs each launch to its end, so its marks are the host's
// clock. Results stay the host's.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=on,eager,budget=3 WEFT_VERBOSE=2 %t.exe 2>&1 > %t.sim | FileCheck %s
// RUN: diff %t.host %t.sim
// Without a region every launch waits, timed or not.
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_TUNE=on,eager,budget=3 WEFT_VERBOSE=2 %t.exe apart 2>&1 > %t.apart | FileCheck %s --check-prefix=APART
// RUN: diff %t.host %t.apart
// CHECK-NOT: synchronized
// CHECK: tuning-marks.cpp:[[@LINE+17]]:3: tuning 13: mapping 0: WEFT_BLOCK_X=256: {{[0-9.]+}} us
// CHECK-NOT: synchronized
// CHECK: tuning-marks.cpp:[[@LINE+15]]:3: tuning 13: mapping 0: WEFT_BLOCK_X={{[0-9]+}}: {{[0-9.]+}} us
// CHECK-NOT: synchronized
// CHECK: tuning-marks.cpp:[[@LINE+13]]:3: sizes 13: tuned: mapping 0: WEFT_BLOCK_X={{[0-9]+}} (3 of 6 configurations;
// CHECK-NOT: synchronized
// CHECK: synchronized 20 launches in flight
// APART: tuning-marks.cpp:[[@LINE+10]]:3: sizes 13: tuned: mapping 0: WEFT_BLOCK_X={{[0-9]+}} (3 of 6 configurations;
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

void relax(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 1; i + 1 < in.size(); ++i)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

void steps(std::vector<float> &A, std::vector<float> &B) {
  for (int Step = 0; Step < 10; ++Step) {
    relax(A, B);
    relax(B, A);
  }
}

int main(int Argc, char **Argv) {
  std::vector<float> A(5000), B(5000, 0.0f);
  for (std::size_t I = 0; I < A.size(); ++I)
    A[I] = static_cast<float>((I * 7919) % 1000);
  if (Argc > 1 && !std::strcmp(Argv[1], "apart")) {
    steps(A, B);
  } else {
    weft::region OnDevice(A, B);
    steps(A, B);
  }
  std::printf("%.9g %.9g\n", A[17], A[2500]);
}
