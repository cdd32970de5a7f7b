// The mark must precede a for loop. The diagnostics show the pragma as the
// user wrote it, not the attribute it expands to in scratch space.
// RUN: not %weftxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=scratch --implicit-check-not="expanded from"
#include <weft/weft.hpp>

void f(std::span<float> y, int n) {
  int i = 0;
  // CHECK: not-a-loop.cpp:[[@LINE+3]]:9: error: '#pragma weft parallel for' must precede a 'for' loop
  // CHECK-NEXT: #pragma weft parallel for
  // CHECK: not-a-loop.cpp:[[@LINE+1]]:9: note: write '#pragma weft parallel for [clauses]' or
#pragma weft parallel for
  while (i < n)
    y[i++] = 1;

  // CHECK: not-a-loop.cpp:[[@LINE+1]]:5: error: 'weft::parallel' must precede a 'for' loop
  [[weft::parallel]] y[0] = 2;

  // CHECK: not-a-loop.cpp:[[@LINE+1]]:9: error: '#pragma weft parallel for' must precede a 'for' loop, not a declaration
#pragma weft parallel for
  int j = 3;
  (void)j;
}

// CHECK: not-a-loop.cpp:[[@LINE+1]]:9: error: '#pragma weft parallel for' must precede a 'for' loop, not a declaration
#pragma weft parallel for
void g();
