// Malformed pragmas are errors at the offending token, with a hint.
// RUN: not %weftxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <weft/weft.hpp>

void f(std::span<float> y) {
  // CHECK: pragma-errors.cpp:[[@LINE+2]]:37: error: unknown clause 'colapse'
  // CHECK: note: clauses are reduction(op: var)
#pragma weft parallel for block(64) colapse(2)
  for (int i = 0; i < 4; ++i)
    y[i] = 0;

  // CHECK: pragma-errors.cpp:[[@LINE+2]]:23: error: expected 'for' after '#pragma weft parallel'
  // CHECK: note: write '#pragma weft parallel for [clauses]'
#pragma weft parallel fro
  for (int i = 0; i < 4; ++i)
    y[i] = 0;

  // CHECK: pragma-errors.cpp:[[@LINE+1]]:14: error: expected 'parallel', 'sequential' or 'region' after '#pragma weft'
#pragma weft paralel for
  for (int i = 0; i < 4; ++i)
    y[i] = 0;

  // CHECK: pragma-errors.cpp:[[@LINE+1]]:36: error: expected ')' to close 'block('
#pragma weft parallel for block(128
  for (int i = 0; i < 4; ++i)
    y[i] = 0;

  // CHECK: pragma-errors.cpp:[[@LINE+1]]:37: error: unknown reduction operator
#pragma weft parallel for reduction(-: s)
  for (int i = 0; i < 4; ++i)
    y[i] = 0;

  // CHECK: pragma-errors.cpp:[[@LINE+1]]:33: error: block size must be a power of two up to 1024
#pragma weft parallel for block(100)
  for (int i = 0; i < 4; ++i)
    y[i] = 0;
}
