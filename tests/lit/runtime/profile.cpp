// WEFT_PROFILE: at exit, a line a marked loop with its calls on the device
// and the host, their time, the bytes they copied and the mapping last
// launched; json:FILE writes the same as JSON. The bytes are exact: a loop
// outside a region copies what it reads in and what it writes back on
// every call (and the advice says a region would keep it on the device);
// inside a region its calls copy nothing (the region's copies are the
// region's); a host run inside a region brings back what it uses.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=1,json:%t.json %t.exe 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/profile-check.py %t.json
// RUN: env WEFT_BACKEND=host WEFT_PROFILE=json:%t.host.json %t.exe
// RUN: python3 %S/profile-check.py %t.host.json host
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=sometimes %t.exe 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: weft: warning: WEFT_PROFILE: 'sometimes' is not 1, 0 or json:FILE; it is left out
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

// CHECK: weft: profile (sim; times on the host's clock, bytes both ways by the loop's calls):
// CHECK-NEXT: weft:   {{.*}}profile.cpp:26:3: 3 calls on sim in {{.*}} a call), 0 on the host; 23.4 KiB to the device, 11.7 KiB back (7.8 KiB and 3.9 KiB a call); 1 kernel loads in {{.*}}; last weft_profile_L26_{{[0-9a-f]+}}: grid (4, 1, 1) x block (256, 1, 1)
// CHECK-NEXT: weft:     advice: its calls copy its data to the device and back each time (7.8 KiB and 3.9 KiB a call): a region around the code that calls it ('#pragma weft region(...)' or 'weft::region') keeps the data on the device between the calls
// CHECK-NEXT: weft:   {{.*}}profile.cpp:34:3: 2 calls on sim in {{.*}}, 1 on the host (last: its if clause was false); 0 B to the device, 3.9 KiB back (0 B and 1.3 KiB a call); 1 kernel loads in {{.*}}; last weft_profile_L34_{{[0-9a-f]+}}
// CHECK-NOT: advice
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
