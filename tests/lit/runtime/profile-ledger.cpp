// WEFT_PROFILE's transfer ledger: two loops that hand their data to each
// other through the host on every step of a time loop (u into v, then v
// back into u) are each told that a region would keep it on the device,
// naming the other loop; the same steps inside a region copy nothing a call
// and get no such advice.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=1,nohost %t.exe 2>&1 | FileCheck %s
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=1,nohost %t.exe region 2>&1 | FileCheck --check-prefix=REGION %s
// CHECK: profile-ledger.cpp:[[SMOOTH:[0-9]+]]:3 (smooth): 4 calls on sim {{.*}}; 31.2 KiB to the device, 15.6 KiB back
// CHECK-NEXT: advice: its data '{{in|out}}' and '{{in|out}}' went to the device or back in 4 of its calls (11.7 KiB a call), passing through the host between it and the loop at {{.*}}profile-ledger.cpp:[[@LINE+21]]:3: a region that holds them ('#pragma weft region(...)' or 'weft::region') around the calls of 'smooth' and those loops keeps them on the device and copies them once
// CHECK: profile-ledger.cpp:[[@LINE+20]]:3 (copyBack): 4 calls on sim {{.*}}; 31.2 KiB to the device, 15.6 KiB back
// CHECK-NEXT: advice: its data '{{from|to}}' and '{{from|to}}' went to the device or back in 4 of its calls (11.7 KiB a call), passing through the host between it and the loop at {{.*}}profile-ledger.cpp:[[SMOOTH]]:3
// REGION: profile-ledger.cpp:{{[0-9]+}}:3 (smooth): 4 calls on sim {{.*}}; 0 B to the device, 0 B back
// REGION-NOT: advice: its data
// REGION: profile-ledger.cpp:{{[0-9]+}}:3 (copyBack): 4 calls on sim {{.*}}; 0 B to the device, 0 B back
// REGION-NOT: advice: its data
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

void smooth(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 1; i + 1 < in.size(); ++i)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

void copyBack(std::span<const float> from, std::span<float> to) {
#pragma weft parallel for
  for (std::size_t i = 0; i < from.size(); ++i)
    to[i] = from[i];
}

void steps(std::vector<float> &u, std::vector<float> &v) {
  for (int Step = 0; Step < 4; ++Step) {
    smooth(u, v);
    copyBack(v, u);
  }
}

int main(int argc, char **argv) {
  std::vector<float> u(1000), v(1000, 0.0f);
  for (int i = 0; i < 1000; ++i)
    u[i] = static_cast<float>(i % 13);
  if (argc > 1 && !std::strcmp(argv[1], "region")) {
    std::span<float> U(u), V(v);
    weft::region R(U, V);
    steps(u, v);
  } else {
    steps(u, v);
  }
  std::printf("%g\n", u[500]);
  return 0;
}
