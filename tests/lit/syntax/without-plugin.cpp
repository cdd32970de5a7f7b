// Without the plugin the file compiles and the loops run serially.
// RUN: %clangxx -Wno-unknown-pragmas -Wno-unknown-attributes %s -o %t && %t | FileCheck %s
#include <weft/weft.hpp>

#include <cstdio>

int main() {
  float Data[8] = {};
  std::span<float> Y(Data);
#pragma weft parallel for block(64)
  for (int i = 0; i < 8; ++i)
    Y[i] = 2.0f * i;
  [[weft::parallel("reduction(+: s)")]]
  for (float &v : Y)
    v += 1;
  // CHECK: 1 15
  std::printf("%g %g\n", Y[0], Y[7]);
}
