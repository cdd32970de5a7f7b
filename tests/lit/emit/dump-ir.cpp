// -fplugin-arg-weft-dump-ir prints the nest IR: captures classified by use,
// the level's bounds, and the body.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
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

#ifdef WITH_MAIN
#include <cstdio>
#include <vector>
int main() {
  std::vector<double> In(500), Out(500, 0.0), Acc(500, 1.0);
  for (int I = 0; I < 500; ++I)
    In[I] = (I % 17) - 8.5;
  stencil(In, Out, Acc, 0.5);
  double S = 0, T = 0;
  for (int I = 0; I < 500; ++I) {
    S += Out[I] * (I % 5);
    T += Acc[I];
  }
  std::printf("%.17g %.17g\n", S, T);
}
#endif
