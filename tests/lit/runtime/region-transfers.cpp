// weft::region (or `#pragma weft region(...)` before a statement) keeps its
// spans on the device: a 40-step time loop moves each grid once each way,
// where the same loop outside a region moves them every step. A failure inside a region brings the data back to the host, where
// the loops carry on with it.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim %t.exe | FileCheck %s
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CXX=/bin/false %t.exe > %t.fail 2> %t.err
// RUN: FileCheck %s --check-prefix=FAIL < %t.err
// RUN: grep result %t.host > %t.host.result
// RUN: grep result %t.fail > %t.fail.result
// RUN: diff %t.host.result %t.fail.result
#include <weft/weft.hpp>

#include <cstdio>
#include <utility>
#include <vector>

void relax(std::span<const float> In, std::span<float> Out, int N) {
#pragma weft parallel for
  for (int I = 1; I < N - 1; ++I)
#pragma weft parallel for
    for (int J = 1; J < N - 1; ++J)
      Out[I * N + J] = 0.25f * (In[(I - 1) * N + J] + In[(I + 1) * N + J] +
                                In[I * N + J - 1] + In[I * N + J + 1]);
}

double run(bool InRegion) {
  const int N = 64;
  std::vector<float> A(N * N, 0.0f), B(N * N, 0.0f);
  for (int I = 0; I < N; ++I)
    A[I] = B[I] = 100.0f;
  std::span<float> Cur(A), Next(B);
  const weft::transfer_stats_t Before = weft::transfer_stats();
  {
    weft::region Grids(InRegion ? Cur : std::span<float>(),
                       InRegion ? Next : std::span<float>());
    for (int Step = 0; Step < 40; ++Step) {
      relax(Cur, Next, N);
      std::swap(Cur, Next);
    }
  }
  const weft::transfer_stats_t After = weft::transfer_stats();
  std::printf("%s: to device %llu, to host %llu\n",
              InRegion ? "region" : "no region",
              After.ToDevice - Before.ToDevice, After.ToHost - Before.ToHost);
  double S = 0;
  for (int I = 0; I < N * N; ++I)
    S += Cur[I] * (I % 7 + 1);
  return S;
}

// The pragma form: the region lives as long as the statement after it.
double runPragma() {
  const int N = 64;
  std::vector<float> A(N * N, 0.0f), B(N * N, 0.0f);
  for (int I = 0; I < N; ++I)
    A[I] = B[I] = 100.0f;
  std::span<float> Cur(A), Next(B);
  const weft::transfer_stats_t Before = weft::transfer_stats();
#pragma weft region(Cur, Next)
  for (int Step = 0; Step < 40; ++Step) {
    relax(Cur, Next, N);
    std::swap(Cur, Next);
  }
  const weft::transfer_stats_t After = weft::transfer_stats();
  std::printf("pragma: to device %llu, to host %llu\n",
              After.ToDevice - Before.ToDevice, After.ToHost - Before.ToHost);
  double S = 0;
  for (int I = 0; I < N * N; ++I)
    S += Cur[I] * (I % 7 + 1);
  return S;
}

int main() {
  // Two grids of 64 x 64 floats: 16384 bytes each.
  // CHECK: region: to device 32768, to host 32768
  const double R = run(true);
  // Every step copies In and Out in (Out: its untouched border stays) and
  // Out back.
  // CHECK: no region: to device 1310720, to host 655360
  const double P = run(false);
  // CHECK: pragma: to device 32768, to host 32768
  const double Q = runPragma();
  std::printf("result %.4f %.4f %.4f\n", R, P, Q);
}
// FAIL: weft: warning: {{.*}}kernel weft_region_transfers_L{{[0-9]+}}_{{[0-9a-f]+}} on sim failed: the host compiler failed {{.*}}; the loop runs on the host (resident data copied back: regions end here)
// FAIL-NOT: warning
