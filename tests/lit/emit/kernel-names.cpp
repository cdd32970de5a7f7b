// Every mapping a loop keeps gets its own kernel, even where two differ
// only in their macros (a register tile of 8 x 8 outputs a thread and one
// of 8 x 1, in the same 16 x 16 block): the remarks name as many distinct
// kernels as mappings, and the emit folder holds that many files.
// RUN: rm -rf %t.k && %weftxx -fsyntax-only -fplugin-arg-weft-remarks -fplugin-arg-weft-emit-dir=%t.k %s 2> %t.r
// RUN: FileCheck %s < %t.r
// RUN: grep -o 'kernel weft_[A-Za-z0-9_]*' %t.r | wc -l > %t.mappings
// RUN: grep -o 'kernel weft_[A-Za-z0-9_]*' %t.r | sort -u | wc -l > %t.names
// RUN: ls %t.k/*.cu | wc -l > %t.files
// RUN: diff %t.mappings %t.names
// RUN: diff %t.mappings %t.files
#include <weft/weft.hpp>

// CHECK: remark: weft: level 1 (j): dim x, block 16, Span(8)
// CHECK: remark: weft: mapping 1 of {{[2-8]}}, for sizes near n = 16; level 0: dim y, block 16, Span(8); level 1: dim x, block 16, Span(1)
void product(std::span<const float> a, std::span<const float> b,
             std::span<float> c, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
