// A region holding rows held apart (std::vectors of std::vectors, rows of
// different lengths, swapped between steps): a 30-step loop gathers them
// into the device once and scatters them back once, their row offsets
// copied once beside them, where the same loop outside a region moves them
// every step; update_host brings them back in the middle, a host loop (an
// if clause that is false) reads and writes them there, and the next launch
// sends its writes; the pragma form too; and rows held as pointers (a
// float **) kept by weft::rows. Those launches are not waited for, and a
// fault a later wait reports is redone on the host. A failure inside the
// region scatters the rows back, and the host loops carry on with them.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe | FileCheck %s
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim %t.exe > %t.sim
// RUN: grep result %t.host > %t.host.result
// RUN: grep result %t.sim > %t.sim.result
// RUN: diff %t.host.result %t.sim.result
// Launches over rows a region holds are not waited for: the pragma's 30
// steps and the pointers' 20 wait once each.
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=2 %t.exe 2>&1 >/dev/null | FileCheck %s --check-prefix=ASYNC
// ASYNC-DAG: weft: synchronized 30 launches in flight
// ASYNC-DAG: weft: synchronized 20 launches in flight
// A fault only the first wait reports: the launches in flight redone on the
// host over the rows' host copies (their offsets recomputed), the host's
// results, one warning.
// RUN: env WEFT_BACKEND=sim WEFT_TEST_FAULT=deferred %t.exe > %t.deferred 2> %t.deferred.err
// RUN: grep result %t.deferred | diff %t.host.result -
// RUN: grep -c "redone on the host" %t.deferred.err | grep -qx 1
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CXX=/bin/false %t.exe > %t.fail 2> %t.err
// RUN: FileCheck %s --check-prefix=FAIL < %t.err
// RUN: grep result %t.fail > %t.fail.result
// RUN: diff %t.host.result %t.fail.result
#include <weft/weft.hpp>

#include <cstdio>
#include <utility>
#include <vector>

using Rows = std::vector<std::vector<float>>;

void smooth(const Rows &Cur, Rows &Next, bool OnDevice) {
#pragma weft parallel for if(OnDevice)
  for (std::size_t I = 0; I < Cur.size(); ++I)
#pragma weft parallel for
    for (std::size_t J = 1; J + 1 < Cur[I].size(); ++J)
      Next[I][J] = 0.5f * Cur[I][J] + 0.25f * (Cur[I][J - 1] + Cur[I][J + 1]) +
                   1.0f / 64;
}

Rows start() {
  Rows Cells(50);
  for (std::size_t I = 0; I < Cells.size(); ++I) {
    Cells[I].resize(I % 3 == 0 ? 0 : 10 + I); // some rows empty
    for (std::size_t J = 0; J < Cells[I].size(); ++J)
      Cells[I][J] = static_cast<float>((I + J) % 8);
  }
  return Cells;
}

double checksum(const Rows &Cells) {
  double S = 0;
  for (std::size_t I = 0; I < Cells.size(); ++I)
    for (std::size_t J = 0; J < Cells[I].size(); ++J)
      S += Cells[I][J] * static_cast<double>(1 + (I + J) % 5);
  return S;
}

double run(bool InRegion) {
  Rows Cur = start(), Next = start();
  double Middle = 0;
  const weft::transfer_stats_t Before = weft::transfer_stats();
  if (InRegion) {
    weft::region Kept(Cur, Next);
    for (int Step = 0; Step < 30; ++Step) {
      smooth(Cur, Next, Step != 20); // step 20 on the host
      std::swap(Cur, Next);
      if (Step == 10) {
        Kept.update_host(Cur);
        Middle = checksum(Cur);
      }
    }
  } else {
    for (int Step = 0; Step < 30; ++Step) {
      smooth(Cur, Next, Step != 20);
      std::swap(Cur, Next);
    }
  }
  const weft::transfer_stats_t After = weft::transfer_stats();
  std::printf("%s: to device %llu, to host %llu\n",
              InRegion ? "region" : "no region",
              After.ToDevice - Before.ToDevice, After.ToHost - Before.ToHost);
  std::printf("result middle %.4f\n", Middle);
  return checksum(Cur);
}

double runPragma() {
  Rows Cur = start(), Next = start();
  const weft::transfer_stats_t Before = weft::transfer_stats();
#pragma weft region(Cur, Next)
  for (int Step = 0; Step < 30; ++Step) {
    smooth(Cur, Next, true);
    std::swap(Cur, Next);
  }
  const weft::transfer_stats_t After = weft::transfer_stats();
  std::printf("pragma: to device %llu, to host %llu\n",
              After.ToDevice - Before.ToDevice, After.ToHost - Before.ToHost);
  return checksum(Cur);
}

// Rows held as pointers (float **, a row allocated at a time), kept by a
// region through weft::rows over 20 steps.
void decay(float **W, int N, int M) {
#pragma weft parallel for extent(W: N, M)
  for (int I = 0; I < N; ++I)
#pragma weft parallel for
    for (int J = 0; J < M; ++J)
      W[I][J] = 0.75f * W[I][J] + static_cast<float>(I - J) / 32;
}

double runPointers(bool InRegion) {
  const int N = 20, M = 30;
  float **W = new float *[N];
  for (int I = 0; I < N; ++I) {
    W[I] = new float[M];
    for (int J = 0; J < M; ++J)
      W[I][J] = static_cast<float>((I * J) % 9);
  }
  const weft::transfer_stats_t Before = weft::transfer_stats();
  if (InRegion) {
    weft::region Kept(weft::rows(W, N, M));
    for (int Step = 0; Step < 20; ++Step)
      decay(W, N, M);
  } else {
    for (int Step = 0; Step < 20; ++Step)
      decay(W, N, M);
  }
  const weft::transfer_stats_t After = weft::transfer_stats();
  std::printf("%s: to device %llu, to host %llu\n",
              InRegion ? "pointers in a region" : "pointers",
              After.ToDevice - Before.ToDevice, After.ToHost - Before.ToHost);
  double S = 0;
  for (int I = 0; I < N; ++I) {
    for (int J = 0; J < M; ++J)
      S += W[I][J] * (1 + (I + J) % 3);
    delete[] W[I];
  }
  delete[] W;
  return S;
}

int main() {
  // Two sets of 33 rows of 10 + I floats (I below 50, not a multiple of 3):
  // 1147 floats, 4588 bytes a set, and 51 row offsets, 408 bytes. In the
  // region: both sets and their offsets in once (9992), Cur back at
  // update_host, both back for the host loop of step 20, Next (which it
  // wrote) in again for step 21, and both back at the end.
  // CHECK: region: to device 14580, to host 22940
  // Outside a region, each of the 29 launches moves both sets in, with
  // their offsets, and Next back.
  // CHECK: no region: to device 289768, to host 133052
  // CHECK: pragma: to device 9992, to host 9176
  const double R = run(true);
  const double P = run(false);
  const double Q = runPragma();
  std::printf("result %.4f %.4f %.4f\n", R, P, Q);
  // 20 rows of 30 floats, 2400 bytes, once each way (and 21 row offsets,
  // 168 bytes, which rows of one length do not need); every step without.
  // CHECK: pointers in a region: to device 2568, to host 2400
  // CHECK: pointers: to device 48000, to host 48000
  std::printf("result %.4f %.4f\n", runPointers(true), runPointers(false));
}
// FAIL: weft: warning: {{.*}}kernel weft_region_rows_L{{[0-9]+}}_{{[0-9a-f]+}} on sim failed: the host compiler failed {{.*}}; the loop runs on the host (resident data copied back: regions end here)
// FAIL: weft: warning: {{.*}}kernel weft_region_rows_L{{[0-9]+}}_{{[0-9a-f]+}} on sim failed: the host compiler failed {{.*}}; the loop runs on the host (resident data copied back: regions end here)
// FAIL-NOT: warning
