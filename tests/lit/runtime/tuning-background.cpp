// Variants compile on a thread of their own: the launch that picks one runs
// the mapped kernel, untimed, and so do the launches after it until the
// variant is built; the first launch after that times it. The program waits
// between its calls until the variant's object lies in the simulator's
// kernel cache (as a long-running program's loop would go on running), so
// that the compile's speed decides nothing here. Results stay the host's.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=on WEFT_VERBOSE=2 %t.exe 2>&1 > %t.sim | FileCheck %s
// RUN: diff %t.host %t.sim
// CHECK: tuning-background.cpp:[[@LINE+19]]:3: tuning 13: mapping 0: WEFT_BLOCK_X=256: {{[0-9.]+}} us
// CHECK-NEXT: tuning-background.cpp:[[@LINE+18]]:3: tuning 13: compiling mapping 0: WEFT_BLOCK_X=[[VARIANT:[0-9]+]] in the background
// CHECK-NEXT: tuning-background.cpp:[[@LINE+17]]:3: kernel weft_tuning_background_L[[@LINE+17]]_{{[0-9a-f]+}}: grid (20, 1, 1) x block (256, 1, 1)
// CHECK: tuning-background.cpp:[[@LINE+16]]:3: kernel weft_tuning_background_L[[@LINE+16]]_{{[0-9a-f]+}}: grid ({{[0-9]+}}, 1, 1) x block ([[VARIANT]], 1, 1)
// CHECK: tuning-background.cpp:[[@LINE+15]]:3: tuning 13: mapping 0: WEFT_BLOCK_X=[[VARIANT]]: {{[0-9.]+}} us
// CHECK: loop at {{.*}}tuning-background.cpp:[[@LINE+14]]:3: sizes 13: still tuning, 2 of 6 configurations timed
#include <weft/weft.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <thread>
#include <vector>

void relax(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 1; i + 1 < in.size(); ++i)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

/// Compiled kernels in the simulator's cache (none on the host backend).
int compiledKernels() {
  const char *Cache = std::getenv("WEFT_CACHE_DIR");
  std::error_code Error;
  int Count = 0;
  if (Cache)
    for (const auto &Entry : std::filesystem::directory_iterator(
             std::string(Cache) + "/sim", Error))
      Count += Entry.path().extension() == ".so";
  return Count;
}

int main() {
  std::vector<float> A(5000), B(5000, 0.0f);
  for (std::size_t I = 0; I < A.size(); ++I)
    A[I] = static_cast<float>((I * 7919) % 1000);
  // Three calls before tuning, two timing the mapped kernel, and the sixth
  // picks a variant.
  for (int Call = 0; Call < 6; ++Call)
    relax(Call % 2 ? B : A, Call % 2 ? A : B);
  for (int Waited = 0; compiledKernels() == 1 && Waited < 1200; ++Waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  for (int Call = 6; Call < 16; ++Call)
    relax(Call % 2 ? B : A, Call % 2 ? A : B);
  std::printf("%.9g %.9g\n", A[17], A[2500]);
}
