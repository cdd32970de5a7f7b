// A reduction over the outermost level into a captured scalar is in the IR
// (a reduction target parameter); generating it is not done yet: an error
// says so, and without the plugin's mark the loop would run as written.
// RUN: not %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
#include <weft/weft.hpp>

double dot(std::span<const double> a, std::span<const double> b) {
  double s = 0;
  int hits = 0;
#pragma weft parallel for reduction(+: s) reduction(+: hits)
  for (std::size_t i = 0; i < a.size(); ++i) {
    s += a[i] * b[i];
    if (a[i] > 0)
      ++hits;
  }
  return s + hits;
}
// CHECK: nest at {{.*}}outer-reduction.cpp:12:3
// CHECK-NEXT: param 0 a: read span of const double
// CHECK-NEXT: param 1 s: reduction target of double
// CHECK-NEXT: param 2 hits: reduction target of int
// CHECK-NEXT: param 3 b: read span of const double
// CHECK-NEXT: level 0 at {{.*}}, reduction(+: s), reduction(+: hits)
// CHECK-NEXT: ($s += ($a[i] * $b[i]))
// CHECK: (++$hits)
// ERR: outer-reduction.cpp:12:3: error: reductions over the outermost parallel loop (into 's') are not generated yet
