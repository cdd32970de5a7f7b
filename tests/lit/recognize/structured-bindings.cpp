// Structured bindings declared before a marked loop are captured as
// variables are: a span, sizes in the bounds, a scalar in the body, names
// in if and extent clauses. One declared in the loop is an error at its use.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s < %t.err
// RUN: not %weftxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERROR --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

struct Grid {
  std::span<float> Cells;
  int Rows, Cols;
  float Scale;
};

// CHECK: loop at {{.*}}structured-bindings.cpp:[[@LINE+5]]:3: 1 calls on sim, 0 on the host
// CHECK: loop at {{.*}}structured-bindings.cpp:[[@LINE+13]]:3: 1 calls on sim, 1 on the host (last: its if clause was false)
void scaleRows(const Grid &G) {
  auto [Cells, Rows, Cols, Scale] = G;
#pragma weft parallel for
  for (int I = 0; I < Rows; ++I)
#pragma weft parallel for
    for (int J = 0; J < Cols; ++J)
      Cells[I * Cols + J] *= Scale + static_cast<float>(I);
}

float *shifted(float *P, std::pair<int, int> Range) {
  auto [Count, Limit] = Range;
#pragma weft parallel for if(Count > Limit) extent(P: Count)
  for (int I = 0; I < Count; ++I)
    P[I] += static_cast<float>(I % 7);
  return P;
}

#ifdef ERRORS
struct Point {
  float X, Y;
};
void inside(std::span<Point> Points, std::span<float> Out) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Out.size(); ++I) {
    auto [X, Y] = Points[I];
    // ERROR: structured-bindings.cpp:[[@LINE+1]]:14: error: a structured binding declared in a weft loop, or in a function it calls, cannot be used there yet
    Out[I] = X * Y;
  }
}
#endif

int main() {
  std::vector<float> Data(24 * 40);
  for (std::size_t I = 0; I < Data.size(); ++I)
    Data[I] = static_cast<float>(I % 13) * 0.5f;
  scaleRows(Grid{Data, 24, 40, 1.5f});
  shifted(Data.data(), {500, 100});
  shifted(Data.data(), {500, 1000});
  double Sum = 0;
  for (float V : Data)
    Sum += V;
  std::printf("%.9g %.9g %.9g\n", Data[7], Data[24 * 40 - 1], Sum);
}
