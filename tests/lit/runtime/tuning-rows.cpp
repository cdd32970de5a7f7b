// Tuning a loop over rows held apart (a std::vector of std::vectors): calls
// on rows of one length tune among every kernel of the loop, those that
// index the rows as one block of rows by columns and the one that reads
// their offsets; calls on rows of differing lengths tune apart, among the
// configurations of the offsets' kernel alone, which alone is right for
// them. Results stay the host's on the checked simulator.
// RUN: rm -rf %t.cache
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=on,eager WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s < %t.err
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

using Rows = std::vector<std::vector<float>>;

void scale(Rows &Grid, const Rows &Weights) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Grid.size(); ++I)
#pragma weft parallel for
    for (std::size_t J = 0; J < Grid[I].size(); ++J)
      Grid[I][J] = Grid[I][J] * 0.5f + Weights[I][J];
}

double sum(const Rows &R) {
  double S = 0;
  for (const std::vector<float> &Row : R)
    for (std::size_t J = 0; J < Row.size(); ++J)
      S += Row[J] * static_cast<double>(J % 5 + 1);
  return S;
}

int main() {
  Rows Even(48, std::vector<float>(40, 1.0f)), EvenW = Even;
  Rows Ragged(48), RaggedW(48);
  for (std::size_t I = 0; I < Ragged.size(); ++I) {
    Ragged[I].assign(I % 17 + 1, static_cast<float>(I % 3));
    RaggedW[I].assign(I % 17 + 1, 0.25f);
  }
  for (int Call = 0; Call < 24; ++Call) {
    scale(Even, EvenW);
    scale(Ragged, RaggedW);
  }
  std::printf("%.4f %.4f\n", sum(Even), sum(Ragged));
}

// CHECK: sizes ({{[0-9]+}}, 40): mapping {{[0-9]}} of [[ALL:[0-9]]], kernel
// CHECK: sizes ({{[0-9]+}}, -1): mapping [[LAST:[0-9]]] of [[ALL]], kernel {{.*}} (rows of differing lengths, indexed by their offsets)
// CHECK: loop at {{.*}}: 48 calls on sim, 0 on the host
// CHECK-DAG: sizes {{.*}} (rows of differing lengths): tuned, [[N:[0-9]+]] of [[N]] configurations timed: mapping [[LAST]]: WEFT_BLOCK_{{[XY]}}=
// CHECK-DAG: sizes {{[0-9.]+}}: {{still tuning|tuned}}, {{[0-9]+}} of {{[0-9][0-9]+}} configurations timed
