// Calls a kernel cannot make: one error each, at the call, with the fix.
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>
#include <iostream>
#include <vector>

float external(float);
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
float Scale = 2;
float scaled(float v) { return v * Scale; }
struct Shape {
  virtual float area(float) const;
};

void f(std::span<float> y, const Shape &s, int n) {
  // CHECK: functions-rejected.cpp:[[@LINE+3]]:38: error: the body of 'external' is not visible here, so it cannot be compiled into the kernel
  // CHECK-NEXT: note: define it in this file or in a header
#pragma weft parallel for
  for (int i = 0; i < n; ++i) y[i] = external(y[i]);

  // CHECK: functions-rejected.cpp:10:43: error: recursive call to 'fact' cannot be compiled into a kernel
  // CHECK-NEXT: note: rewrite the recursion as a loop
  // CHECK: functions-rejected.cpp:[[@LINE+2]]:38: note: called from the weft loop here
#pragma weft parallel for
  for (int i = 0; i < n; ++i) y[i] = fact(i);

  // CHECK: functions-rejected.cpp:[[@LINE+3]]:31: error: I/O is not supported in a weft loop
  // CHECK-NEXT: note: kernels cannot print
#pragma weft parallel for
  for (int i = 0; i < n; ++i) std::printf("%f\n", y[i]);

  // CHECK: functions-rejected.cpp:[[@LINE+2]]:41: error: I/O is not supported in a weft loop
#pragma weft parallel for
  for (int i = 0; i < n; ++i) std::cout << y[i];

  // CHECK: functions-rejected.cpp:[[@LINE+3]]:40: error: virtual call to 'Shape::area' cannot be made from a weft loop
  // CHECK-NEXT: note: call a non-virtual function
#pragma weft parallel for
  for (int i = 0; i < n; ++i) y[i] = s.area(y[i]);

  // CHECK: functions-rejected.cpp:[[@LINE+2]]:16: error: a lambda called from a weft loop captures 'k' by copy, which the function changes: the copy may hold an older value
  int k = 3;
  auto addK = [k](float v) { return v + k; };
  ++k;
#pragma weft parallel for
  for (int i = 0; i < n; ++i) y[i] = addK(y[i]);

  // CHECK: functions-rejected.cpp:12:36: error: global variable 'Scale' cannot be used in a function called from a weft loop
  // CHECK: functions-rejected.cpp:[[@LINE+2]]:38: note: called from the weft loop here
#pragma weft parallel for
  for (int i = 0; i < n; ++i) y[i] = scaled(y[i]);
}

// A method of a type that holds data (not a struct of arithmetic fields),
// on objects that are elements of other data.
struct Counter {
  std::vector<int> seen;
  int count() const { return static_cast<int>(seen.size()); }
};
void counts(std::span<int> y, const std::vector<Counter> &cs, int n) {
  // CHECK: functions-rejected.cpp:[[@LINE+2]]:44: error: 'Counter::count' is called on an object that holds data, which a weft loop reaches as a variable, 'this', or a member of one: not as an element or a local
#pragma weft parallel for
  for (int i = 0; i < n; ++i) y[i] = cs[i].count();
}

// Operators and constructors: a reference returned to other than the
// object, a constructor whose body is elsewhere.
struct Point {
  float X, Y;
  Point(float X0, float Y0);
  // CHECK: functions-rejected.cpp:[[@LINE+2]]:10: error: 'Point::operator[]' is called from a weft loop, so it may return a reference only to its object ('return *this;') or to its first parameter
  // CHECK-NEXT: note: return the value instead
  float &operator[](int I) { return I == 0 ? X : Y; }
};
struct Weight {
  float W;
};
inline Weight &heavier(Weight &A, Weight &B) { return A.W < B.W ? B : A; }
std::ostream &operator<<(std::ostream &OS, const Weight &W) {
  return OS << W.W;
}
void points(std::span<Point> P, std::span<Weight> W) {
  // CHECK: functions-rejected.cpp:[[@LINE+2]]:46: note: called from the weft loop here
#pragma weft parallel for
  for (std::size_t I = 0; I < P.size(); ++I) P[I][1] = 2;
  // CHECK: functions-rejected.cpp:[[@LINE+3]]:53: error: the body of 'Point::Point' is not visible here, so it cannot be compiled into the kernel
  // CHECK-NEXT: note: define it in this file or in a header
#pragma weft parallel for
  for (std::size_t I = 0; I < P.size(); ++I) P[I] = Point(1, 2);
  // CHECK: functions-rejected.cpp:[[@LINE-12]]:16: error: 'heavier' is called from a weft loop, so it may return a reference only to its object ('return *this;') or to its first parameter
  // CHECK: functions-rejected.cpp:[[@LINE+2]]:46: note: called from the weft loop here
#pragma weft parallel for
  for (std::size_t I = 0; I < W.size(); ++I) heavier(W[I], W[0]).W = 1;
  // CHECK: functions-rejected.cpp:[[@LINE+2]]:56: error: I/O is not supported in a weft loop
#pragma weft parallel for
  for (std::size_t I = 0; I < W.size(); ++I) std::cout << W[I];
}
