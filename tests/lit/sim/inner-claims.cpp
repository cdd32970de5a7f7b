// A parallel mark one level in is a claim too: the checker tells that
// loop's iterations apart within each outermost iteration, whether the
// mapping runs them on threads or in one thread, and orders them with the
// code before and after them (and with sibling loops).
// RUN: %weftxx %s -o %t %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t shift-threads 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t shift-serial 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t histogram 2>&1 | FileCheck %s --check-prefix=HISTOGRAM
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t siblings 2>&1 | FileCheck %s --check-prefix=SIBLINGS
// RUN: env WEFT_BACKEND=host %t siblings | FileCheck %s --check-prefix=SIBLINGS
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

constexpr int Rows = 8, Cols = 64;

// Each row shifted left in place: iteration j reads what j + 1 writes.
void shiftThreads(std::span<float> m) {
#pragma weft parallel for strategy(thread_block)
  for (int i = 0; i < Rows; ++i) {
#pragma weft parallel for
    for (int j = 0; j + 1 < Cols; ++j)
      m[i * Cols + j] = m[i * Cols + j + 1];
  }
}
void shiftSerial(std::span<float> m) {
#pragma weft parallel for strategy(1d)
  for (int i = 0; i < Rows; ++i) {
#pragma weft parallel for
    for (int j = 0; j + 1 < Cols; ++j)
      m[i * Cols + j] = m[i * Cols + j + 1];
  }
}
// SHIFT: weft: error: sim checker: inner loop iterations are not independent in kernel {{.*}}: iteration {{[0-9]+}} of the loop one level in (outermost iteration {{[0-9]+}}) {{reads|writes}} element {{[0-9]+}} of span 'm', which {{.*}} the inner loop is marked parallel, so their order is undefined

// A histogram per row: iterations of a row add to the same bins.
void histogram(std::span<const int> keys, std::span<int> bins) {
#pragma weft parallel for
  for (int i = 0; i < Rows; ++i) {
#pragma weft parallel for
    for (int j = 0; j < Cols; ++j)
      bins[i * 4 + keys[i * Cols + j] % 4] += 1;
  }
}
// HISTOGRAM: weft: error: sim checker: inner loop iterations are not independent {{.*}} of span 'bins'

// Correct: the second loop reads what the first wrote (its sibling, run
// after it), and the row's code after both reads it too.
void siblings(std::span<const float> in, std::span<float> tmp,
              std::span<float> out, std::span<float> first) {
#pragma weft parallel for
  for (int i = 0; i < Rows; ++i) {
#pragma weft parallel for
    for (int j = 0; j < Cols; ++j)
      tmp[i * Cols + j] = 2 * in[i * Cols + j];
#pragma weft parallel for
    for (int j = 0; j < Cols; ++j)
      out[i * Cols + j] = tmp[i * Cols + Cols - 1 - j] + 1;
    first[i] = tmp[i * Cols] + out[i * Cols];
  }
}
// SIBLINGS-NOT: error
// SIBLINGS: siblings 127 1 127

int main(int Argc, char **Argv) {
  std::vector<float> M(Rows * Cols), Tmp(Rows * Cols), Out(Rows * Cols),
      First(Rows);
  std::vector<int> Keys(Rows * Cols), Bins(Rows * 4);
  for (int I = 0; I < Rows * Cols; ++I) {
    M[I] = static_cast<float>(I % Cols);
    Keys[I] = I;
  }
  if (!std::strcmp(Argv[1], "shift-threads"))
    shiftThreads(M);
  else if (!std::strcmp(Argv[1], "shift-serial"))
    shiftSerial(M);
  else if (!std::strcmp(Argv[1], "histogram"))
    histogram(Keys, Bins);
  else {
    siblings(M, Tmp, Out, First);
    std::printf("siblings %g %g %g\n", Out[0], Out[Cols - 1], First[1]);
  }
}
