// -fplugin-arg-weft-remarks explains each loop's mapping at the loop.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s
#include <weft/weft.hpp>

void f(std::span<float> y) {
  // CHECK: remarks.cpp:[[@LINE+2]]:3: remark: weft: kernel weft_remarks_L[[@LINE+2]]_{{[0-9a-f]+}}; level 0: dim x, block 64, Span(1) [block size 64 requested by block(...)]
#pragma weft parallel for block(64)
  for (int i = 0; i < 8; ++i)
    y[i] = 1;
}
