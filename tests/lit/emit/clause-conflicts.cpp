// Mapping clauses that no mapping can meet are errors at the loop whose
// clause the search cannot meet, naming the clause and the rule it breaks:
// a block smaller than a warp, a level spread over blocks beside other code
// in the loop around it, levels of half a warp that code follows, and more
// threads than a block holds. The clauses
// meet where they can (the last nest).
// RUN: not %weftxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cassert>
#include <vector>

void smallBlock(std::vector<float> &out) {
  // CHECK: clause-conflicts.cpp:[[@LINE+3]]:3: error: the clause block(8) of this loop cannot be met: the block would hold fewer threads than a warp (32), whose other lanes would idle; the block sizes of a nest's levels multiply
  // CHECK: note: drop block(8) and let the search choose (-fplugin-arg-weft-remarks shows what it chose)
#pragma weft parallel for block(8)
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = 1;
}

void besideOtherCode(std::vector<float> &out, const std::vector<float> &in,
                     int n, int m) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    out[i * m] = in[i * m];
    // CHECK: clause-conflicts.cpp:[[@LINE+3]]:5: error: the clause span(8) of this loop cannot be met: the kernel generator builds no such mapping of this nest
    // CHECK: note: drop span(8)
#pragma weft parallel for span(8)
    for (int j = 1; j < m; ++j)
      out[i * m + j] = in[i * m + j] * 2;
  }
}

// Levels of 16 threads beside code of the loop around them (an assert
// before the second): a block of a warp or more would need each to wait
// for its own threads apart from the block's other rows, which the
// generator builds no way to; that, not the warp a block of fewer threads
// would waste, is what the error says.
void halfWarpsBesideCode(std::vector<float> &out, const std::vector<float> &a,
                         int n, int m) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    // CHECK: clause-conflicts.cpp:[[@LINE+2]]:5: error: the clause block(16) of this loop cannot be met: the kernel generator builds no such mapping of this nest ({{.*}}a level that combines a reduction, or that code of the loop around it follows, needs a warp or the whole block
#pragma weft parallel for block(16)
    for (int j = 0; j < m; ++j)
      out[i * m + j] = 0;
    for (int k = 0; k < 3; ++k) {
      assert(i * 3 + k < int(a.size()));
      const float aik = a[i * 3 + k];
#pragma weft parallel for block(16)
      for (int j = 0; j < m; ++j)
        out[i * m + j] += aik * k;
    }
  }
}

void tooManyThreads(std::vector<float> &out, int n, int m) {
  // CHECK: clause-conflicts.cpp:[[@LINE+3]]:3: error: the clause block(64) of this loop cannot be met: with the other levels' clauses it asks for more than a block holds (1024 threads
  // CHECK: note: drop block(64)
#pragma weft parallel for block(64)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for block(64)
    for (int j = 0; j < m; ++j)
      out[i * m + j] = 1;
}

void met(std::vector<float> &out, int n, int m) {
#pragma weft parallel for block(8)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for block(32) span(4)
    for (int j = 0; j < m; ++j)
      out[i * m + j] = 1;
}
