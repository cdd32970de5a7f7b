// -fplugin-arg-weft-remarks explains each loop's mapping at the loop.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

void f(std::span<float> y) {
  // CHECK: remarks.cpp:[[@LINE+2]]:3: remark: weft: kernel weft_remarks_L[[@LINE+2]]_{{[0-9a-f]+}}; level 0: dim x, block 64, Span(1) [block size 64 requested by block(...)]
#pragma weft parallel for block(64)
  for (int i = 0; i < 8; ++i)
    y[i] = 1;
}

#ifdef WITH_MAIN
#include <cstdio>
int main() {
  float Data[8] = {};
  f(Data);
  std::printf("%g %g\n", Data[0], Data[7]);
}
#endif
