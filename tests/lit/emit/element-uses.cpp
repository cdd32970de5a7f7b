// What the IR says of an element's use means one thing everywhere: read
// (its value), bound (a const reference or a const method's object: read
// through it) or written. A bound element is neither kept in a register and
// stored back (a const span's store would not compile, a writable span's
// would add a write the loop never makes) nor a write that only the leader
// of the threads inside may make (the others would miss the local it sets).
// A statement that does write data and set a local at once keeps the
// levels inside it off the threads. Each loop must run on the checked
// simulator (nothing on stderr: no fallback, no fault) and match the host.
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*_L46_*.cu | FileCheck %s --check-prefix=CONST
// RUN: cat %t.k/*_L59_*.cu | FileCheck %s --check-prefix=STRUCT
// RUN: cat %t.k/*_L74_*.cu | FileCheck %s --check-prefix=OUTER
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_ON_FAULT=error %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_ON_FAULT=error WEFT_SIM_ORDER=forward %t.exe > %t.fwd
// RUN: diff %t.host %t.fwd
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

struct Vec3 {
  float x, y, z;
  float sum() const { return x + y + z; }
  float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  float bump() {
    x += 1;
    return x;
  }
};
static float weighted(const Vec3 &v) { return v.x + 2 * v.y + 3 * v.z; }
static float plusOne(const float &v) { return v + 1; }

// An element of a const span read into a temporary a method is called on,
// and passed to a const reference, in a sequential loop: read, no store.
// CONST-NOT: w[i] =
// CONST-NOT: w[(i)] =
// CONST: for
// CONST-NOT: w[i] =
void constReads(std::span<const float> w, std::span<const Vec3> p,
                std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 0; i < out.size(); ++i) {
    float acc = 0.0f;
    for (int q = 0; q < 4; ++q)
      acc += Vec3{w[i], 1.0f, float(q)}.dot(p[i]) + plusOne(w[i] + 1.0f);
    out[i] = acc;
  }
}

// A field of a const span's struct element in such a temporary.
// STRUCT-NOT: p[i + 1] =
// STRUCT-NOT: p[(i + 1)] =
void structReads(std::span<const Vec3> p, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    float acc = 0.0f;
    for (int q = 0; q < 4; ++q)
      acc += Vec3{1.0f, p[i + 1].x, float(q)}.dot(p[i]);
    out[i] = acc;
  }
}

// A private local set through const calls on an element, in an outer
// level, in a branch and a switch: every thread sets it, none is guarded.
// OUTER-NOT: == 0)
// OUTER: weft_fn_sum
void outerCalls(std::span<const Vec3> p, std::span<float> out, int rows,
                int cols) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float s = 0, t = 0;
    Vec3 v{1, 2, 3};
    s = p[i].sum();
    s += v.dot(p[i]);
    if (i % 2)
      t = weighted(p[i]);
    else
      t = p[i].sum();
    switch (i % 3) {
    case 0:
      s += Vec3{1, 1, 1}.dot(p[i]);
      break;
    default:
      s -= 1;
    }
#pragma weft parallel for
    for (int j = 0; j < cols; ++j)
      out[i * cols + j] = s + t + j;
  }
}

// An element written by a method in an outer level's initializer, and in a
// statement that sets a local: once per row, the value read by every j.
void outerWrites(std::span<Vec3> p, std::span<float> out, int rows, int cols) {
#pragma weft parallel for
  for (int i = 0; i < rows; ++i) {
    float s = p[i].bump();
    float t = 0;
    t = p[i].bump();
#pragma weft parallel for
    for (int j = 0; j < cols; ++j)
      out[i * cols + j] = s + 2 * t + j;
  }
}

// A conditional's arm written: the element it takes.
void conditionalWrites(std::span<float> a, std::span<float> b) {
#pragma weft parallel for
  for (std::size_t i = 0; i < a.size(); ++i)
    (i % 2 ? a[i] : b[i]) = 7.0f + i;
}

static double checksum(const std::vector<float> &v) {
  double S = 0;
  for (std::size_t e = 0; e < v.size(); ++e)
    S += v[e] * double(e % 7 + 1);
  return S;
}

int main() {
  const int rows = 31, cols = 57;
  std::vector<float> w(100), out(100);
  std::vector<Vec3> p(100);
  for (int i = 0; i < 100; ++i) {
    w[i] = 0.5f + 0.25f * (i % 9);
    p[i] = {1.0f + 0.5f * (i % 7), 0.5f, 0.25f * (i % 3)};
  }
  constReads(w, p, out);
  std::printf("const reads: %.4f\n", checksum(out));
  structReads(p, out);
  std::printf("struct reads: %.4f\n", checksum(out));
  std::vector<float> grid(rows * cols);
  outerCalls(p, grid, rows, cols);
  std::printf("outer calls: %.4f\n", checksum(grid));
  outerWrites(p, grid, rows, cols);
  double moved = 0;
  for (const Vec3 &v : p)
    moved += v.x;
  std::printf("outer writes: %.4f, elements %.4f\n", checksum(grid), moved);
  std::vector<float> a(37), b(37);
  conditionalWrites(a, b);
  std::printf("conditional writes: %.4f %.4f\n", checksum(a), checksum(b));
}
