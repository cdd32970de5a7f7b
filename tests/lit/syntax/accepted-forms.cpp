// Both spellings, every clause form: accepted, and the mapping clauses
// shape the mapping the remarks report.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

void f(std::span<float> y, int n) {
  // CHECK: accepted-forms.cpp:[[@LINE+2]]:3: remark: weft: level 0 (i): dim x, block 128, Span(1); constrained by this loop's dim/block/span/split clauses
#pragma weft parallel for block(128), dim(x)
  for (int i = 0; i < n; ++i)
    y[i] = 0;
  // CHECK: accepted-forms.cpp:[[@LINE+2]]:3: remark: weft: level 0 (i): dim x, block 256, Span(all); 1d strategy (the paper's fixed baseline); constrained by this loop's dim/block/span/split clauses
  [[weft::parallel("strategy(1d) span(all)")]]
  for (int i = 0; i < n; i++)
    y[i] = 1;
  // CHECK: accepted-forms.cpp:[[@LINE+2]]:3: remark: weft: level 0 (v): dim x
  [[weft::parallel]]
  for (auto &v : y)
    v = 2;
}

#ifdef WITH_MAIN
#include <cstdio>
int main() {
  float Data[300];
  f(Data, 300);
  std::printf("%g %g %g\n", Data[0], Data[150], Data[299]);
}
#endif
