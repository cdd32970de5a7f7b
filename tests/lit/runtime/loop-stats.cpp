// "Did it run on the GPU?": weft::loop_stats counts, per marked loop, the
// calls that ran as a kernel and those that ran the host loop, with why the
// host loop ran; WEFT_VERBOSE=1 prints the counts when the program exits.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim %t.exe | FileCheck --check-prefix=SIM %s
// SIM: scale: 3 on the device, 0 on the host
// SIM-NEXT: total: 2 on the device, 0 on the host
// SIM-NEXT: loops: 2
// RUN: env WEFT_BACKEND=host %t.exe | FileCheck --check-prefix=HOST %s
// HOST: scale: 0 on the device, 3 on the host (WEFT_BACKEND=host)
// HOST-NEXT: total: 0 on the device, 2 on the host (WEFT_BACKEND=host)
// Kernels that fail from the second launch on: each loop falls back, and
// says why.
// RUN: env WEFT_BACKEND=sim WEFT_TEST_FAULT=launch@2 %t.exe 2>/dev/null | FileCheck --check-prefix=FAULT %s
// FAULT: scale: 1 on the device, 2 on the host (kernel weft_loop_stats_L{{[0-9]+}}_{{[0-9a-f]+}} on sim failed: injected fault (WEFT_TEST_FAULT=launch@2))
// FAULT-NEXT: total: 0 on the device, 2 on the host (kernel weft_loop_stats_L{{[0-9]+}}_{{[0-9a-f]+}} on sim failed: injected fault (WEFT_TEST_FAULT=launch@2))
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe 2>&1 >/dev/null | FileCheck --check-prefix=EXIT %s
// EXIT: weft: loop at {{.*}}loop-stats.cpp:[[@LINE+10]]:3: 3 calls on sim, 0 on the host
// EXIT: weft: loop at {{.*}}loop-stats.cpp:[[@LINE+16]]:3: 2 calls on sim, 0 on the host
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

void scale(std::span<float> v, float a) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] *= a;
}

float total(std::span<const float> v) {
  float s = 0;
#pragma weft parallel for reduction(+: s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i];
  return s;
}

int main() {
  std::vector<float> v(1000, 1.0f);
  for (int k = 0; k < 3; ++k)
    scale(v, 2.0f);
  std::printf("sums %g %g\n", total(v), total(v));
  weft::loop_stats_t Loops[4];
  const std::size_t N = weft::loop_stats(Loops, 4);
  for (std::size_t I = 0; I < N && I < 4; ++I) {
    const char *Name = std::strstr(Loops[I].Location, ":2") ? "scale" : "total";
    std::printf("%s: %llu on the device, %llu on the host", Name,
                Loops[I].DeviceRuns, Loops[I].HostRuns);
    if (Loops[I].HostReason)
      std::printf(" (%s)", Loops[I].HostReason);
    std::printf("\n");
  }
  std::printf("loops: %zu\n", N);
}
