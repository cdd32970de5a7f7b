// weft-report diff: the loops of a newer profile that newly run on the
// host, copy more a call, or got slower, with exit status 1, so that a
// project can keep its offload in CI; 0 where nothing regressed, 2 on a
// file that is no profile. Here the same program run with its loop in a
// region (no copies a call), without one (its data in and back each call),
// and on the host.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=json:%t.region.json %t.exe region
// RUN: env WEFT_BACKEND=sim WEFT_PROFILE=json:%t.plain.json %t.exe
// RUN: env WEFT_BACKEND=host WEFT_PROFILE=json:%t.host.json %t.exe region
// RUN: not %weft_report diff --slower 1e9 %t.region.json %t.plain.json > %t.out1
// RUN: FileCheck --check-prefix=BYTES %s < %t.out1
// BYTES: bytes: {{.*}}profile-diff.cpp:[[@LINE+28]]:3 copies 8000 bytes a call to the device, 0 before
// BYTES-NEXT: bytes: {{.*}}profile-diff.cpp:[[@LINE+27]]:3 copies 4000 bytes a call back, 0 before
// BYTES-NEXT: 2 regressions
// RUN: %weft_report diff --slower 1e9 %t.plain.json %t.region.json | FileCheck --check-prefix=NONE %s
// NONE: 0 regressions
// RUN: not %weft_report diff --slower 1e9 %t.region.json %t.host.json | FileCheck --check-prefix=HOST %s
// HOST: host: {{.*}}profile-diff.cpp:[[@LINE+22]]:3 now runs 4 of 4 calls on the host (last: WEFT_BACKEND=host)
// HOST: 1 regressions
// Times are noise here (the checks above set --slower out of reach): a
// profile whose loop took ten times as long a call, written from another.
// RUN: python3 -c "import json, sys; d = json.load(open(sys.argv[1])); l = d['loops'][0]; l['device_seconds'] = 10 * l['device_seconds'] + 1; json.dump(d, open(sys.argv[2], 'w'))" %t.plain.json %t.slow.json
// RUN: not %weft_report diff %t.plain.json %t.slow.json | FileCheck --check-prefix=SLOWER %s
// SLOWER: slower: {{.*}}profile-diff.cpp:{{[0-9]+}}:3 takes {{.*}} s a call on the device, {{.*}} s before
// RUN: %weft_report show %t.plain.json | FileCheck --check-prefix=SHOW %s
// SHOW: weft profile (sim; times on the host's clock)
// SHOW-NEXT: {{.*}}profile-diff.cpp:[[@LINE+13]]:3 (axpy): 3 calls on sim in {{.*}} s, 1 on the host (last: WEFT_PROFILE timed its host loop on this call); 24000 bytes to the device, 12000 back; kernels {{.*}} s a launch
// SHOW-NEXT: advice: its data '{{[xy]}}' and '{{[xy]}}' went to the device or back in 3 of its calls (11.7 KiB a call)
// RUN: echo '{}' > %t.bad.json
// RUN: not %weft_report diff %t.bad.json %t.plain.json 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: weft-report: {{.*}}bad.json: not a weft profile of version 1 or 2
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

void axpy(std::span<const float> x, std::span<float> y, float a) {
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] += a * x[i];
}

int main(int argc, char **argv) {
  std::vector<float> x(1000, 1.0f), y(1000, 0.0f);
  std::span<const float> X(x);
  std::span<float> Y(y);
  if (argc > 1 && !std::strcmp(argv[1], "region")) {
    weft::region R(X, Y);
    for (int step = 0; step < 4; ++step)
      axpy(X, Y, 0.5f);
  } else {
    for (int step = 0; step < 4; ++step)
      axpy(X, Y, 0.5f);
  }
  std::printf("%g\n", y[0]);
  return 0;
}
