// Each launch is a range on a profiler's timeline, named by the loop's
// source location: NVTX's ranges, which Nsight Systems shows by name. The
// test loads an injection library, as Nsight Systems does, that writes
// down each range pushed and popped.
// REQUIRES: nvtx
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: rm -f %t.log
// RUN: env WEFT_BACKEND=sim NVTX_INJECTION64_PATH=%nvtx_recorder WEFT_NVTX_LOG=%t.log %t.exe
// RUN: FileCheck %s < %t.log
// CHECK: push {{.*}}nvtx-ranges.cpp:[[@LINE+13]]:3
// CHECK-NEXT: pop
// CHECK-NEXT: push {{.*}}nvtx-ranges.cpp:[[@LINE+11]]:3
// CHECK-NEXT: pop
// CHECK-NEXT: push {{.*}}nvtx-ranges.cpp:[[@LINE+15]]:3
// CHECK-NEXT: pop
// CHECK-NOT: push
#include <weft/weft.hpp>

#include <vector>

void twice(std::span<float> v) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] *= 2.0f;
}

void offset(std::span<float> v) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] += 1.0f;
}

int main() {
  std::vector<float> v(512, 1.0f);
  twice(v);
  twice(v);
  offset(v);
  return v[0] == 5.0f ? 0 : 1;
}
