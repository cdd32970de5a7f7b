// `#pragma weft sequential for` and [[weft::sequential("clauses")]]: a loop
// whose iterations run in order on the device, one block of threads sharing
// the marked loops inside each iteration. It takes if(...) and extent(...);
// mapping and reduction clauses belong on the loops inside. It must mark an
// index loop outside any nest; without a marked loop inside it runs on one
// thread, which is said.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s --check-prefix=IR
// The parser's diagnostics come first, the recognizer's after the function.
// RUN: not %weftxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
#include <weft/weft.hpp>

// IR: nest at {{.*}}sequential.cpp:[[@LINE+6]]:3 (sequential)
// IR: level 0 at {{.*}}: int weft_sequential in [0, 1) step 1
// IR-NEXT: for (sequential)
// IR: level 1 at {{.*}}sequential.cpp:[[@LINE+6]]:5: int i in [(k + 1), $n) step 1
void pragmaForm(std::span<float> a, int n) {
#pragma weft sequential for if(n > 8)
  for (int k = 0; k < n; ++k) {
    const float pivot = a[k * n + k];
#pragma weft parallel for
    for (int i = k + 1; i < n; ++i)
      a[i * n + k] /= pivot;
  }
}

// IR: nest at {{.*}}sequential.cpp:[[@LINE+4]]:3 (sequential)
// IR: level 1 at {{.*}}: int j in [0, $n) step 1
void attributeForm(std::span<float> x, int n, int steps) {
  [[weft::sequential]]
  for (int t = 0; t < steps; ++t) {
#pragma weft parallel for
    for (int j = 0; j < n; ++j)
      x[j] = x[j] * 0.5f + 1;
  }
}

#ifdef ERRORS
void errors(std::span<float> y, int n) {
  // CHECK-DAG: sequential.cpp:[[@LINE+2]]:39: error: 'block' does not apply to a sequential loop: its iterations run in order, in one block of threads
  // CHECK-DAG: note: a sequential loop takes if(...) and extent(...)
#pragma weft sequential for if(n > 1) block(64)
  for (int k = 0; k < n; ++k) {
#pragma weft parallel for
    for (int i = 0; i < n; ++i)
      y[i] += 1;
  }

  // CHECK-DAG: sequential.cpp:[[@LINE+1]]:23: error: 'reduction' does not apply to a sequential loop
  [[weft::sequential("reduction(+: s)")]]
  for (int k = 0; k < n; ++k)
    y[k] = 0;

  // CHECK-DAG: sequential.cpp:[[@LINE+2]]:9: error: '#pragma weft sequential for' must precede an index loop, not a range-based 'for'
  // CHECK-DAG: note: write the loop as 'for (int i = lo; i < hi; ++i)'
#pragma weft sequential for
  for (float &v : y)
    v = 0;

  // CHECK-DAG: sequential.cpp:[[@LINE+2]]:25: error: expected 'for' after '#pragma weft sequential'
  // CHECK-DAG: note: write '#pragma weft parallel for [clauses]', '#pragma weft sequential for [clauses]' or '#pragma weft region(spans...)'
#pragma weft sequential loop
  for (int k = 0; k < n; ++k)
    y[k] = 0;

  // CHECK-DAG: sequential.cpp:[[@LINE+4]]:26: error: a sequential loop cannot be marked inside a weft nest: there, a loop without a mark already runs in order
  // CHECK-DAG: note: remove '#pragma weft sequential for'; or mark this loop alone, outside the nest
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    [[weft::sequential]] for (int k = 0; k < 4; ++k)
      y[i] += k;
  }

  // CHECK-DAG: sequential.cpp:[[@LINE+3]]:3: warning: this sequential loop has no marked loop inside: it runs on one thread of the device
  // CHECK-DAG: note: mark its parallel loops with '#pragma weft parallel for', or remove the mark to run it on the host
#pragma weft sequential for
  for (int k = 1; k < n; ++k)
    y[k] += y[k - 1];

  // CHECK-DAG: sequential.cpp:[[@LINE+2]]:5: warning: unknown attribute 'sequential' ignored
  // CHECK-DAG: note: did you mean 'weft::sequential'?
  [[sequential]]
  for (int k = 0; k < n; ++k)
    y[k] = 0;

  // Two marks on one loop: the second is an error, in either order.
  // CHECK-DAG: sequential.cpp:[[@LINE+3]]:9: error: '#pragma weft sequential for' marks a loop that has a weft mark already
  // CHECK-DAG: note: keep one mark: 'parallel' for a loop whose iterations are independent, 'sequential' for one whose iterations run in order
#pragma weft parallel for
#pragma weft sequential for
  for (int k = 0; k < n; ++k)
    y[k] = 1;
  // CHECK-DAG: sequential.cpp:[[@LINE+1]]:26: error: 'weft::parallel' marks a loop that has a weft mark already
  [[weft::sequential]] [[weft::parallel]]
  for (int k = 0; k < n; ++k)
    y[k] = 2;
}
#endif
