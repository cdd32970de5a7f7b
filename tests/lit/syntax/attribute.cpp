// [[weft::parallel("clauses")]] is checked like the pragma; errors point into
// the string. The bare [[parallel]] spelling is an unknown attribute.
// RUN: not %weftxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <weft/weft.hpp>

void f(std::span<float> y) {
  // CHECK: attribute.cpp:[[@LINE+1]]:35: error: unknown dimension 'w'
  [[weft::parallel("block(64) dim(w)")]]
  for (int i = 0; i < 4; ++i)
    y[i] = 0;

  // CHECK: attribute.cpp:[[@LINE+2]]:5: error: the argument of 'weft::parallel' must be a string literal
  // CHECK: note: write {{.}}{{.}}weft::parallel("reduction(+: s)"){{.}}{{.}}
  [[weft::parallel(64)]]
  for (int i = 0; i < 4; ++i)
    y[i] = 0;

  // CHECK: attribute.cpp:[[@LINE+2]]:5: warning: unknown attribute 'parallel' ignored
  // CHECK: note: did you mean 'weft::parallel'?
  [[parallel]]
  for (int i = 0; i < 4; ++i)
    y[i] = 0;
}
