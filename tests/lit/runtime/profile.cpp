// WEFT_PROFILE: at exit, a line a marked loop with its calls on the device
// and the host, their time, its kernels' time, the bytes they copied and the
// mapping last launched; json:FILE writes the same as JSON. The bytes are
// exact: a loop outside a region copies what it reads in and what it writes
// back on every call (the ledger names that data, and the advice says a
// region would keep it on the device); inside a region its calls copy
// nothing (the region's copies are the region's); a host run inside a
// region brings back what it uses. The second call of a loop outside a
// region runs its host loop, timed, to compare (`nohost`: none does).
// Whether the advice then says the host loop is faster depends on the
// clock (tests/runtime/core/LoopProfileTest.cpp checks the rule itself):
// here only that the host loop was timed.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=1,json:%t.json %t.exe 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/profile-check.py %t.json
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=1,nohost,json:%t.nohost.json %t.exe 2>&1 | FileCheck --check-prefix=NOHOST %s
// RUN: python3 %S/profile-check.py %t.nohost.json nohost
// RUN: env WEFT_BACKEND=host WEFT_PROFILE=json:%t.host.json %t.exe
// RUN: python3 %S/profile-check.py %t.host.json host
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=sometimes %t.exe 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: weft: warning: WEFT_PROFILE: 'sometimes' is not 1, 0, json:FILE or nohost; it is left out
// BAD-NOT: weft: profile
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// 1000 floats read from x, 1000 read and written in y: 8000 bytes in and
// 4000 back a call.
void axpy(std::span<const float> x, std::span<float> y, float a) {
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] += a * x[i];
}

// Inside a region: nothing a call. Its if clause false: a host run, which
// brings y back first (4000 bytes).
void scale(std::span<float> y, float a, bool gpu) {
#pragma weft parallel for if(gpu)
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] *= a;
}

// CHECK: weft: profile (sim; calls on the host's clock, kernels on the simulator's, the host's, bytes both ways by the loop's calls):
// CHECK-NEXT: weft:   {{.*}}profile.cpp:33:3 (axpy): 2 calls on sim in {{.*}} a call), kernels {{.*}} a launch, 1 on the host (its loop {{.*}} a call; last: WEFT_PROFILE timed its host loop on this call); 15.6 KiB to the device, 7.8 KiB back (7.8 KiB and 3.9 KiB a call); 1 kernel loads ({{[01]}} from the disk cache) in {{.*}}; last weft_profile_L33_{{[0-9a-f]+}} (level 0 x 256 Span(1)): grid (4, 1, 1) x block (256, 1, 1)
// CHECK-NEXT: weft:     advice: its data '{{[xy]}}' and '{{[xy]}}' went to the device or back in 2 of its calls (11.7 KiB a call): a region that holds them ('#pragma weft region(...)' or 'weft::region') around the calls of 'axpy' keeps them on the device and copies them once
// CHECK: weft:   {{.*}}profile.cpp:41:3 (scale): 2 calls on sim in {{.*}}, kernels {{.*}} a launch, 1 on the host (its loop {{.*}} a call; last: its if clause was false); 0 B to the device, 3.9 KiB back (0 B and 1.3 KiB a call); 1 kernel loads ({{[01]}} from the disk cache) in {{.*}}; last weft_profile_L41_{{[0-9a-f]+}}
// CHECK-NOT: advice: its data
// NOHOST: weft:   {{.*}}profile.cpp:33:3 (axpy): 3 calls on sim in {{.*}}, 0 on the host; 23.4 KiB to the device, 11.7 KiB back (7.8 KiB and 3.9 KiB a call)
// NOHOST-NEXT: advice: its data '{{[xy]}}' and '{{[xy]}}' went to the device or back in 3 of its calls (11.7 KiB a call)
// NOHOST-NOT: advice: its host loop took
// NOHOST: profile.cpp:41:3 (scale): 2 calls on sim
int main() {
  std::vector<float> x(1000), y(1000);
  for (int i = 0; i < 1000; ++i)
    x[i] = static_cast<float>(i % 7);
  for (int c = 0; c < 3; ++c)
    axpy(x, y, 0.5f);
  {
    weft::region R(y);
    scale(y, 2.0f, true);
    scale(y, 0.5f, true);
    scale(y, 3.0f, false);
  }
  double s = 0;
  for (float v : y)
    s += v;
  std::printf("%g\n", s);
  return 0;
}
