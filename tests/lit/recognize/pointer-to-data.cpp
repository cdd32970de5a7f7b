// Data reached through a pointer to it, as code in Google's style passes
// outputs (`std::vector<float> *out`: `(*out)[i]`, `out->size()`): captured
// as the data the pointer points to, written or read as the loop does, its
// constness the pointee's.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain | diff %t.host -
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: nest at {{.*}}pointer-to-data.cpp:[[@LINE+6]]:3
// CHECK: param 0 out: written span of float
// CHECK: param 1 in: read span of const float
// CHECK: level 0 at {{.*}}: unsigned long i in [unsigned long(0), size($out)) step 1
void Scale(const std::vector<float> &in, float f, std::vector<float> *out) {
#pragma weft parallel for
  for (std::size_t i = 0; i < out->size(); ++i)
    (*out)[i] = in[i] * f;
}

// CHECK: nest at {{.*}}pointer-to-data.cpp:[[@LINE+5]]:3
// CHECK: param 1 sum: read-written span of double
// CHECK: param 2 a: read span of const float
void Accumulate(const std::vector<float> *a, std::vector<double> *sum, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    (*sum)[i] += (*a)[i] + (*a)[(i + 1) % n];
}

int main() {
  std::vector<float> In(1000), Out(1000);
  std::vector<double> Sum(1000, 1.0);
  for (int i = 0; i < 1000; ++i)
    In[i] = i % 7;
  Scale(In, 0.5f, &Out);
  Accumulate(&Out, &Sum, 1000);
  double T = 0;
  for (int i = 0; i < 1000; ++i)
    T += Sum[i] * (i % 3) + Out[i];
  std::printf("%.4f\n", T);
}
// RAN-COUNT-2: calls on sim, 0 on the host
