// Claims the plugin can check: a parallel loop whose iterations provably
// write one element (in every iteration, at an index that does not involve
// the loop's own) gets a warning at the write naming two such iterations.
// Where the analysis cannot decide (a guarded write, a subscript through a
// sequential loop's index, unless the loop is found parallel and made a
// level) it says nothing; correct loops (scatters through
// a permutation, blocks of an inner loop whose bounds move with the outer
// index, too) get no warning.
// RUN: %weftxx -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
#include <weft/weft.hpp>

void conflicts(std::span<const float> a, std::span<const float> x,
               std::span<float> y, std::span<float> out, int n) {
  // CHECK: write-conflicts.cpp:[[@LINE+4]]:5: warning: iterations i = 0 and i = 1 of the parallel loop over 'i' both write this element of 'out': its index does not depend on 'i'
  // CHECK-NEXT: note: accumulate into a local with a reduction clause and write it once, or mark the loop whose index the element follows
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    out[0] = a[i];

  // The transposed matrix-vector product marked on the wrong loop.
  // CHECK: write-conflicts.cpp:[[@LINE+6]]:7: warning: iterations i = 1 and i = 2 of the parallel loop over 'i' both write this element of 'y'
  // CHECK-NEXT: note: combine into it with a reduction clause naming the array (reduction(+: y), atomic updates), accumulate into a local and write it once, or mark the loop whose index the element follows
#pragma weft parallel for
  for (int i = 1; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      y[j] += a[i * n + j] * x[i];

  // One level in: every j writes the row's element.
  // CHECK: write-conflicts.cpp:[[@LINE+5]]:7: warning: iterations j = 0 and j = 1 of the parallel loop over 'j' both write this element of 'out'
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      out[i] = a[i * n + j];
}

void undecided(std::span<const float> a, std::span<const float> x,
               std::span<float> y, std::span<float> out, int n) {
  // Only one iteration writes.
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    if (i == 0)
      out[0] = a[i];
  // A subscript through a sequential loop's index (a loop whose
  // iterations share y, so no level of its own).
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      y[j] += a[i * n + j] * y[(j + 1) % n];
}

void decidedByTheInnerLoop(std::span<const float> a, std::span<const float> x,
                           std::span<float> y, int n) {
  // Marked on the outer loop alone: the loop over j, found parallel, is a
  // level, whose every i writes y[j].
  // CHECK: write-conflicts.cpp:[[@LINE+4]]:7: warning: iterations i = 0 and i = 1 of the parallel loop over 'i' both write this element of 'y'
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      y[j] += a[i * n + j] * x[i];
}

// Each block writes its own elements (Rodinia cfd's step factors): the
// inner loop's bounds move with blk, though its subscript does not read it.
void blocks(const float *x, float *y, int n) {
#pragma weft parallel for
  for (int blk = 0; blk < n / 8; ++blk) {
    int start = blk * 8;
    int end = (blk + 1) * 8;
    for (int i = start; i < end; i++)
      y[i] = 2.0f * x[i];
  }
#pragma weft parallel for
  for (int blk = 0; blk < n / 8; ++blk)
    for (int i = blk * 8; i < blk * 8 + 8; i++)
      y[i] += x[i];
}

void correct(std::span<const float> a, std::span<float> out,
             std::span<float> c, int n, float &total) {
  // The transposed product with its columns combined atomically.
#pragma weft parallel for reduction(+: out)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      out[j] += a[i * n + j];
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    float s = 0;
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < n; ++j)
      s += a[i * n + j];
    out[i] = s;
  }
#pragma weft parallel for
  for (int i = 0; i < n; ++i)
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      c[i * n + j] = a[j * n + i];
  float t = 0;
#pragma weft parallel for reduction(+: t)
  for (int i = 0; i < n; ++i)
    t += a[i];
  total = t;
}

// Scatters through an index the data gives (a permutation): the local
// holding it changes with the iteration, whether it is initialized,
// assigned, or computed from another such local.
void scatters(std::span<const int> perm, std::span<const float> a,
              std::span<float> out, int n) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    const int r = perm[i];
    out[r] = a[i];
  }
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    int r;
    r = perm[i] * 2;
    out[r] = a[i];
  }
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    const int r = perm[i];
    const int s = r / 2 + 1;
    out[s] = a[i];
  }
}
