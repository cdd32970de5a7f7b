// A span copied in only when the kernel reads it: a span written at every
// element (the outermost loop over exactly its size, an unconditional
// assignment; or a grid whose rows times columns the runtime finds equal
// to its size) is not copied in; one written in places is, so that what the
// kernel skips keeps its value.
// RUN: %weftxx -fsyntax-only -Xclang -ast-dump -Xclang -ast-dump-filter=fill %s | FileCheck %s --check-prefix=DESC
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim %t.exe | FileCheck %s
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim
// RUN: grep result %t.host > %t.host.result
// RUN: grep result %t.sim > %t.sim.result
// RUN: diff %t.host.result %t.sim.result
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

void fillAll(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = 2 * in[i];
}
// DESC: param out f32 out\nparam in f32 in\n

void fillSome(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (in[i] < 0)
      continue;
    out[i] = 2 * in[i];
  }
}
// DESC: param inout f32 out\nparam in f32 in\n

// A grid written everywhere: the plugin claims it, the runtime checks the
// claim against the real extents (rows * cols == size) at each launch.
void fillGrid(std::span<const float> in, std::span<float> out, int rows,
              int cols) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i)
#pragma weft parallel for
    for (int j = 0; j < cols; ++j)
      out[i * cols + j] = in[j] + i;
}
// DESC: param scalar i32 rows\nparam scalar i32 cols\nparam inout f32 out\nparam in f32 in\ncovers 2 (arg 1) (arg 1)\n

int main() {
  std::vector<float> In(1000), Out(1000, -7.0f);
  for (int I = 0; I < 1000; ++I)
    In[I] = static_cast<float>(I % 9) - 2;
  weft::transfer_stats_t A = weft::transfer_stats();
  fillAll(In, Out);
  weft::transfer_stats_t B = weft::transfer_stats();
  // CHECK: fillAll: to device 4000, to host 4000
  std::printf("fillAll: to device %llu, to host %llu\n",
              B.ToDevice - A.ToDevice, B.ToHost - A.ToHost);
  std::vector<float> Some(1000, -7.0f);
  fillSome(In, Some);
  weft::transfer_stats_t C = weft::transfer_stats();
  // CHECK: fillSome: to device 8000, to host 4000
  std::printf("fillSome: to device %llu, to host %llu\n",
              C.ToDevice - B.ToDevice, C.ToHost - B.ToHost);
  // 20 x 50 fills all 1000 elements of Grid: only In is copied in. 19 x 50
  // leaves the last row as it was: Partial is copied in too.
  std::vector<float> Grid(1000, -1.0f), Partial(1000, -1.0f);
  fillGrid(In, Grid, 20, 50);
  weft::transfer_stats_t D = weft::transfer_stats();
  // CHECK: fillGrid 20x50: to device 4000, to host 4000
  std::printf("fillGrid 20x50: to device %llu, to host %llu\n",
              D.ToDevice - C.ToDevice, D.ToHost - C.ToHost);
  fillGrid(In, Partial, 19, 50);
  weft::transfer_stats_t E = weft::transfer_stats();
  // CHECK: fillGrid 19x50: to device 8000, to host 4000
  std::printf("fillGrid 19x50: to device %llu, to host %llu\n",
              E.ToDevice - D.ToDevice, E.ToHost - D.ToHost);
  double S = 0;
  for (int I = 0; I < 1000; ++I)
    S += Out[I] + 3 * Some[I] + Grid[I] * 0.5 + Partial[I] * 0.25;
  std::printf("result %.2f\n", S);
}
