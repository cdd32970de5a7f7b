// Both spellings, every clause form: accepted; clauses without an effect
// yet say so.
// RUN: %weftxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

void f(std::span<float> y, int n) {
  // CHECK: accepted-forms.cpp:[[@LINE+2]]:3: warning: clause 'dim' has no effect yet
#pragma weft parallel for block(128), dim(x)
  for (int i = 0; i < n; ++i)
    y[i] = 0;
  // CHECK: accepted-forms.cpp:[[@LINE+3]]:3: warning: clause 'strategy' has no effect yet
  // CHECK: accepted-forms.cpp:[[@LINE+2]]:3: warning: clause 'span' has no effect yet
  [[weft::parallel("strategy(1d) span(all)")]]
  for (int i = 0; i < n; i++)
    y[i] = 1;
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
