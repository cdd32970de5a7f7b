// Both spellings, every clause form: accepted; clauses without an effect
// yet say so.
// RUN: %weftxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
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
