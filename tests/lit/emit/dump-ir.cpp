// -fplugin-arg-weft-dump-ir prints the nest IR: captures classified by use,
// the level's bounds, and the body.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
#include <weft/weft.hpp>

#include <cmath>

void stencil(std::span<const double> in, std::span<double> out,
             std::span<double> acc, double w) {
#pragma weft parallel for
  for (long i = 1; i < (long)in.size() - 1; ++i) {
    double s = 0;
    for (int k = -1; k <= 1; ++k)
      s += in[i + k];
    out[i] = w * s;
    acc[i] += std::abs(s);
  }
}
// CHECK: nest at {{.*}}dump-ir.cpp:[[@LINE-8]]:3
// CHECK-NEXT: param 0 in: read span of const double
// CHECK-NEXT: param 1 out: written span of double
// CHECK-NEXT: param 2 w: scalar of double
// CHECK-NEXT: param 3 acc: read-written span of double
// CHECK-NEXT: level 0 at {{.*}}: long i in [long(1), (long(long(size($in))) - long(1))) step 1
// CHECK-NEXT: decl double s = double(0)
// CHECK-NEXT: for (sequential)
// CHECK-NEXT: decl int k = (-1)
// CHECK-NEXT: cond (k <= 1)
// CHECK-NEXT: step (++k)
// CHECK-NEXT: block
// CHECK-NEXT: (s += $in[unsigned long((i + long(k)))])
// CHECK-NEXT: ($out[unsigned long(i)] = ($w * s))
// CHECK-NEXT: ($acc[unsigned long(i)] += weft::abs(s))
