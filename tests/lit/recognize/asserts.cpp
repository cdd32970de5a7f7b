// assert(...) in a loop body, as legacy code checks its invariants: the
// kernel checks it too (a failure stops the kernel: the simulator reports
// it, a GPU's launch fails and the host loop's own assert speaks); built
// with NDEBUG it is gone, as on the host. `(void)x;` is dropped, and a
// discarded expression that does something still does it.
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: not env WEFT_BACKEND=sim %t.exe broken 2> %t.broken
// RUN: FileCheck %s --check-prefix=BROKEN < %t.broken
// RUN: %weftxx -DNDEBUG %s -o %t.ndebug %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.ndebug broken > %t.ndebug.out
// RUN: %clangxx -DNDEBUG %s -o %t.plain && %t.plain broken | diff %t.ndebug.out -
#include <weft/weft.hpp>

#include <cassert>
#include <cstdio>
#include <cstring>
#include <vector>

// KERNEL: if ((!((bool)((v.ld(i) >= ((float)0)) && true))))
// KERNEL-NEXT: weft::assertion_failed();
// BROKEN: weft: error: assertion failed in kernel {{.*}} (loop at {{.*}}asserts.cpp:[[@LINE+5]]:3), block {{.*}}: an assert(...) of the loop's body does not hold
int scale(std::vector<float> &v, float f) {
  int Checked = 0;
  (void)f;
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i) {
    assert(v[i] >= 0 && "inputs are non-negative");
    int Steps = 0;
    (void)++Steps;
    v[i] = v[i] * 2 + static_cast<float>(Steps);
  }
  return Checked;
}

int main(int argc, char **argv) {
  std::vector<float> v(100);
  for (int i = 0; i < 100; ++i)
    v[i] = i * 0.5f;
  if (argc > 1 && !std::strcmp(argv[1], "broken"))
    v[37] = -1;
  scale(v, 2);
  double s = 0;
  for (float x : v)
    s += x;
  std::printf("%.1f\n", s);
}
