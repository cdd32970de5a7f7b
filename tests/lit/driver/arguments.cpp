// Plugin arguments: help, and unknown ones rejected; strategy=S maps every
// nest whose mark names no strategy with S (the mark's own wins; a
// sequential loop's nest, which runs in one block, keeps its own), and the
// program's results do not change with it.
// RUN: %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-help %s 2>&1 | FileCheck %s --check-prefix=HELP
// RUN: not %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-bogus %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-openmp=maybe %s 2>&1 | FileCheck %s --check-prefix=BAD-OPENMP
// RUN: not %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-strategy=fast %s 2>&1 | FileCheck %s --check-prefix=BAD-STRATEGY
// RUN: %weftxx %s -o %t.exe -fplugin-arg-weft-strategy=warp -fplugin-arg-weft-remarks %weft_link 2>&1 | FileCheck %s --check-prefix=WARP
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_ON_FAULT=error %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// HELP: emit-dir=DIR
// HELP: dump-ir
// HELP: remarks
// HELP: strategy=S
// HELP: openmp=on|off
// BAD: error: unknown weft plugin argument 'bogus' (try -fplugin-arg-weft-help)
// BAD-OPENMP: error: unknown weft plugin argument 'openmp=maybe' (try -fplugin-arg-weft-help)
// BAD-STRATEGY: error: weft plugin argument 'strategy=fast': the strategy is auto, 1d, thread_block or warp
// WARP-DAG: arguments.cpp:[[#@LINE+9]]:3: remark: weft: level 0 (i): dim y, block 16, Span(1); warp strategy
// WARP-DAG: arguments.cpp:[[#@LINE+19]]:3: remark: weft: level 0 (i): dim x, block 256, Span(1); 1d strategy
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

void rowSums(std::span<const float> m, std::span<float> out, int cols) {
#pragma weft parallel for
  for (std::size_t i = 0; i < out.size(); ++i) {
    float s = 0;
#pragma weft parallel for reduction(+ : s)
    for (int j = 0; j < cols; ++j)
      s += m[i * cols + j];
    out[i] = s;
  }
}

void rowMaxima(std::span<const float> m, std::span<float> out, int cols) {
#pragma weft parallel for strategy(1d)
  for (std::size_t i = 0; i < out.size(); ++i) {
    float s = m[i * cols];
#pragma weft parallel for reduction(max : s)
    for (int j = 1; j < cols; ++j)
      s = std::max(s, m[i * cols + j]);
    out[i] = s;
  }
}

// Time steps on a small grid: one block runs them in order.
void smooth(std::span<float> g, std::span<const float> w, int rows, int cols) {
#pragma weft sequential for
  for (int t = 0; t < 5; ++t) {
#pragma weft parallel for
    for (int i = 0; i < rows; ++i)
#pragma weft parallel for
      for (int j = 0; j < cols; ++j)
        g[i * cols + j] = g[i * cols + j] * 0.5f + w[i * cols + j] + t;
  }
}

int main() {
  const int rows = 19, cols = 45;
  std::vector<float> m(rows * cols), sums(rows), maxima(rows);
  for (int e = 0; e < rows * cols; ++e)
    m[e] = 0.125f * (e % 29);
  rowSums(m, sums, cols);
  rowMaxima(m, maxima, cols);
  for (int i = 0; i < rows; ++i)
    std::printf("%g %g\n", sums[i], maxima[i]);
  std::vector<float> g(rows * cols, 1.0f);
  smooth(g, m, rows, cols);
  double S = 0;
  for (int e = 0; e < rows * cols; ++e)
    S += g[e] * (e % 5 + 1);
  std::printf("%.4f\n", S);
}
