// A fixed strategy whose baseline, with the levels' own clauses applied,
// breaks a hard constraint of the search is an error at the nest, not a
// kernel: two levels on one dimension (which computed wrong results), a
// block past the device's (which never launched). Found by the random
// nests run under each fixed strategy (-fplugin-arg-weft-strategy).
// RUN: not %weftxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %weftxx -fsyntax-only -fplugin-arg-weft-strategy=warp -DNO_STRATEGY %s 2>&1 | FileCheck %s --check-prefix=ARG --implicit-check-not=error:
#include <weft/weft.hpp>

#include <vector>

#ifdef NO_STRATEGY
#define STRATEGY_WARP
#define STRATEGY_THREAD_BLOCK
#else
#define STRATEGY_WARP strategy(warp)
#define STRATEGY_THREAD_BLOCK strategy(thread_block)
#endif

void sameDimension(std::vector<float> &out, int n0, int n1) {
  // CHECK: strategy-conflicts.cpp:[[@LINE+4]]:3: error: strategy(warp) cannot be met with this nest's clauses: two levels on dimension y
  // CHECK: note: drop the strategy or the dim/block/span/split clauses that it conflicts with
  // ARG: strategy-conflicts.cpp:[[@LINE+2]]:3: error: strategy(warp) cannot be met with this nest's clauses: two levels on dimension y
#pragma weft parallel for STRATEGY_WARP
  for (int i = 0; i < n0; ++i)
#pragma weft parallel for dim(y)
    for (int j = 0; j < n1; ++j)
      out[i * n1 + j] = 1;
}

void tooManyThreads(std::vector<float> &out, int n0, int n1, int n2) {
  // CHECK: strategy-conflicts.cpp:[[@LINE+4]]:3: error: strategy(thread_block) cannot be met with this nest's clauses: its block would hold 16384 threads, more than a block holds (1024)
  // CHECK: note: drop the strategy
  // ARG: strategy-conflicts.cpp:[[@LINE+2]]:3: error: strategy(warp) cannot be met with this nest's clauses: its block would hold 8192 threads
#pragma weft parallel for STRATEGY_THREAD_BLOCK
  for (int i = 0; i < n0; ++i)
#pragma weft parallel for
    for (int j = 0; j < n1; ++j)
#pragma weft parallel for dim(z) block(16)
      for (int k = 0; k < n2; ++k)
        out[(i * n1 + j) * n2 + k] = 2;
}
