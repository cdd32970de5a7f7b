// Reduction clauses: what they may name, and how the loop may use them.
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <weft/weft.hpp>

#include <algorithm>

void f(std::span<const float> m, int rows, int cols, std::span<float> out,
       float total) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float s = 0;
    // CHECK: reductions.cpp:[[@LINE+3]]:47: error: the partial value of reduction variable 's' cannot be used inside the loop
    // CHECK-NEXT: note: combine into it with 'v += ...' only
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < cols; ++j) { out[j] = s; s += m[j]; }
    out[i] = s;
  }

#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float s = 0;
    // CHECK: reductions.cpp:[[@LINE+2]]:38: error: reduction variable 's' must be combined with 'v += ...' inside the loop
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < cols; ++j) s *= m[j];
    out[i] = s;
  }

#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float s = 0;
    // CHECK: reductions.cpp:[[@LINE+2]]:38: error: reduction variable 's' must be combined with 'v = std::max(v, ...)' inside the loop
#pragma weft parallel for reduction(max: s)
    for (int j = 0; j < cols; ++j) s = m[j];
    out[i] = s;
  }

  // CHECK: reductions.cpp:[[@LINE+3]]:27: error: reduction variable 'nothing' is not used in the loop
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
#pragma weft parallel for reduction(+: nothing)
    for (int j = 0; j < cols; ++j) out[j] = 1;
  }

#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    // CHECK: reductions.cpp:[[@LINE+3]]:36: error: the reduction of an inner parallel loop must go into a variable declared in the enclosing loop's body
    // CHECK-NEXT: note: declare 'total' inside the outer loop, or reduce the outer loop too
#pragma weft parallel for reduction(+: total)
    for (int j = 0; j < cols; ++j) total += m[j];
  }

#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float s = 0;
    // CHECK: reductions.cpp:[[@LINE+2]]:36: error: reduction variable 's' must be an integer
#pragma weft parallel for reduction(^: s)
    for (int j = 0; j < cols; ++j) s += m[j];
    out[i] = s;
  }

  // CHECK: reductions.cpp:[[@LINE+10]]:11: error: a weft nest has at most 4 parallel levels
#pragma weft parallel for
  for (int a = 0; a < 2; ++a)
#pragma weft parallel for
    for (int b = 0; b < 2; ++b)
#pragma weft parallel for
      for (int c = 0; c < 2; ++c)
#pragma weft parallel for
        for (int d = 0; d < 2; ++d)
#pragma weft parallel for
          for (int e = 0; e < 2; ++e)
            out[a + b + c + d + e] = 0;
}

// Run-time-sized per-iteration arrays are sized before the launch: by
// captured values only.
#include <vector>
void g(std::span<int> out, int bins) {
  // CHECK: reductions.cpp:[[@LINE+3]]:3: error: per-iteration arrays of run-time size (here 'h[unsigned long(($bins + b))]') must be sized by values the loop captures
  // CHECK-NEXT: note: give the array a constant size, or one computed from captured variables and span sizes only (an upper bound will do)
#pragma weft parallel for
  for (int b = 0; b < 4; ++b) {
#pragma weft parallel for
    for (int c = 0; c < 4; ++c) {
      std::vector<int> h(bins + b);
      out[b * 4 + c] = h[0];
    }
  }
  // CHECK: reductions.cpp:[[@LINE+3]]:22: error: a std::vector in a weft loop must be sized where it is declared
#pragma weft parallel for
  for (int b = 0; b < 4; ++b) {
    std::vector<int> empty;
    out[b] = 0;
  }
}

// An inner parallel loop writing a local of the enclosing level otherwise
// than by updates of one operator (inferred-reductions.cpp), without a
// reduction clause, is a race between the inner iterations.
void h(std::span<const float> m, std::span<float> out, int rows, int cols) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float acc = 0;
    // CHECK: reductions.cpp:[[@LINE+3]]:36: error: assigning to 'acc', declared outside this parallel loop, from its iterations is a data race
    // CHECK-NEXT: note: declare it inside the loop, or use reduction(op: acc)
#pragma weft parallel for
    for (int j = 0; j < cols; ++j) acc = acc * 0.5f + m[i * cols + j];
    out[i] = acc;
  }
}

// Min and max forms that do not keep the better value, or use the partial
// value otherwise, stay errors (reduction-idioms.cpp has the accepted ones).
void idioms(std::span<const float> v, std::span<float> out, int n) {
  float m = 0;
  // CHECK: reductions.cpp:[[@LINE+3]]:33: error: reduction variable 'm' must be combined with 'v = std::max(v, ...)' inside the loop
  // CHECK-NEXT: note: also accepted: 'v = std::fmax(v, x)', 'v = x > v ? x : v', 'if (x > v) v = x;'; any other use of the partial value depends on the order of the iterations
#pragma weft parallel for reduction(max: m)
  for (int i = 0; i < n; ++i) m = v[i] > m ? m : v[i];
  // A guard that compares another value than the one assigned.
  // CHECK: reductions.cpp:[[@LINE+3]]:42: error: the partial value of reduction variable 'm' cannot be used inside the loop
  // CHECK-NEXT: note: combine into it with 'v = std::max(v, ...)' or 'if (x > v) v = x;' only
#pragma weft parallel for reduction(max: m)
  for (int i = 0; i < n; ++i) if (v[i] > m) m = v[i] + 1;
  // An else branch.
  // CHECK: reductions.cpp:[[@LINE+3]]:16: error: the partial value of reduction variable 'm' cannot be used inside the loop
#pragma weft parallel for reduction(max: m)
  for (int i = 0; i < n; ++i)
    if (v[i] > m) m = v[i]; else out[i] = 0;
  // The wrong direction for min.
  // CHECK: reductions.cpp:[[@LINE+3]]:42: error: the partial value of reduction variable 'm' cannot be used inside the loop
  // CHECK-NEXT: note: combine into it with 'v = std::min(v, ...)' or 'if (x < v) v = x;' only
#pragma weft parallel for reduction(min: m)
  for (int i = 0; i < n; ++i) if (v[i] > m) m = v[i];
  out[0] = m;
}
