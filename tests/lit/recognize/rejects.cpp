// Constructs a weft loop cannot take: one error each, at the offending
// place, with the fix as a note.
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -ferror-limit=0 %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <weft/weft.hpp>

#include <vector>

float GlobalScale;
void opaque(float);

void rejects(std::span<float> y, std::vector<bool> &v, float *p, int n,
             float s) {
  // CHECK: rejects.cpp:[[@LINE+3]]:38: error: 'v' of type 'std::vector<bool>' cannot be captured: std::vector<bool> packs its elements into bits
  // CHECK-NEXT: note: store the elements in one std::vector and index it i * n + j
#pragma weft parallel for
  for (int i = 0; i < n; ++i) y[i] = v[i];

  // CHECK: rejects.cpp:[[@LINE+3]]:31: error: weft cannot know how many elements pointer 'p' points to: its subscript in 'p[int(int((s * float(i))))]' takes values not known at the launch
  // CHECK-NEXT: note: state it in the mark: '#pragma weft parallel for extent(p: n)', n the number of elements
#pragma weft parallel for
  for (int i = 0; i < n; ++i) p[(int)(s * i)] = 0;

  // CHECK: rejects.cpp:[[@LINE+3]]:31: error: global variable 'GlobalScale' cannot be assigned in a weft loop
  // CHECK-NEXT: note: write results to a span, or reduce into a local with reduction(op: v) and assign it after the loop
#pragma weft parallel for
  for (int i = 0; i < 4; ++i) GlobalScale = y[i];

  // CHECK: rejects.cpp:[[@LINE+3]]:47: error: 'break' cannot leave a parallel loop
  // CHECK-NEXT: note: use 'continue' to skip the rest of an iteration
#pragma weft parallel for
  for (int i = 0; i < n; ++i) { if (y[i] < 0) break; y[i] = 1; }

  // CHECK: rejects.cpp:[[@LINE+2]]:47: error: 'return' cannot leave a parallel loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i) { if (y[i] < 0) return; }

  // CHECK: rejects.cpp:[[@LINE+2]]:19: error: the condition of a parallel loop must compare its index with an upper bound
#pragma weft parallel for
  for (int i = 0; n > 0 && i < n; ++i) y[i] = 0;

  // CHECK: rejects.cpp:[[@LINE+2]]:26: error: a parallel loop must step its index forward by a positive constant
#pragma weft parallel for
  for (int i = 0; i < n; i += n) y[i] = 0;

  // CHECK: rejects.cpp:[[@LINE+2]]:35: error: the index of a parallel loop cannot be modified in its body
#pragma weft parallel for
  for (int i = 0; i < n; ++i) { ++i; y[i] = 0; }

  // CHECK: rejects.cpp:[[@LINE+3]]:31: error: assigning to captured variable 's' from parallel iterations is a data race
  // CHECK-NEXT: note: declare the variable inside the loop, or use reduction(op: s)
#pragma weft parallel for
  for (int i = 0; i < n; ++i) s = s * 2 + y[i];

  // CHECK: rejects.cpp:[[@LINE+3]]:31: error: the body of 'opaque' is not visible here, so it cannot be compiled into the kernel
  // CHECK-NEXT: note: define it in this file or in a header
#pragma weft parallel for
  for (int i = 0; i < n; ++i) opaque(y[i]);

  // CHECK: rejects.cpp:[[@LINE+2]]:31: error: exceptions cannot be thrown in a weft loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i) throw 1;

  // CHECK: rejects.cpp:[[@LINE+2]]:33: error: exceptions are not supported in a weft loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i) { try { y[i] = 1; } catch (...) {} }

  // CHECK: rejects.cpp:[[@LINE+6]]:49: error: 'break' cannot leave a parallel loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    switch (i) {
    case 0:
#pragma weft parallel for
      for (int j = 0; j < 4; ++j) { if (j == 2) break; y[j] = 0; }
    }
  }

  static float Bias = 1;
  // CHECK: rejects.cpp:[[@LINE+2]]:31: error: static local variable 'Bias' cannot be assigned in a weft loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i) Bias += y[i];

  // CHECK: rejects.cpp:[[@LINE+2]]:31: error: new and delete cannot be used in a weft loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i) delete &y[i];

  // CHECK: rejects.cpp:[[@LINE+2]]:33: error: 'goto' is not allowed in a weft loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i) { goto done; }
done:


  // CHECK: rejects.cpp:[[@LINE+2]]:23: error: a parallel loop's bounds must be integer expressions of captured scalars, span sizes and constants
#pragma weft parallel for
  for (int i = 0; i < y[0]; ++i) y[i] = 0;

  // CHECK: rejects.cpp:[[@LINE+2]]:8: error: a parallel loop must declare an integer index with an initial value
#pragma weft parallel for
  for (float f = 0; f < n; ++f) y[0] = f;
  ;
}

struct Holder {
  std::span<float> data;
  float scale = 1;
  void run(int n) {
    // CHECK: rejects.cpp:[[@LINE+3]]:33: error: assigning to member 'scale' from parallel iterations is a data race
    // CHECK-NEXT: note: write results to a span
#pragma weft parallel for
    for (int i = 0; i < n; ++i) scale = data[i];
  }
};
