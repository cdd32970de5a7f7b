// Structs written as C++ value types: constructors (member initializers,
// a body, a delegating one, default arguments and `return;`), default
// member initializers, operators as members and as free functions (a
// compound assignment returning *this, a comparison, a unary minus, one
// template instantiated twice), implicit conversions through a constructor
// and a conversion function, applied to locals and to span elements.
// Each becomes a device function; results match the host loop's exactly
// (the values are exact in float), on the checked simulator with 32- and
// 64-wide warps.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64
// RUN: diff %t.host %t.sim64
// RUN: %clangxx %s -o %t.plain && %t.plain > %t.plain.out && diff %t.host %t.plain.out
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

struct Vec3 {
  float x, y, z;
  Vec3() : x(0), y(0), z(0) {}
  Vec3(float X, float Y, float Z = 1) : x(X), y(Y), z(Z) {}
  explicit Vec3(float S) : Vec3(S, S, S) {}
  Vec3 operator-(const Vec3 &O) const { return Vec3(x - O.x, y - O.y, z - O.z); }
  Vec3 operator-() const { return {-x, -y, -z}; }
  Vec3 &operator+=(const Vec3 &O) {
    x += O.x;
    y += O.y;
    z += O.z;
    return *this;
  }
  bool operator<(const Vec3 &O) const { return dot(*this) < O.dot(O); }
  float dot(const Vec3 &O) const { return x * O.x + y * O.y + z * O.z; }
};
inline Vec3 operator*(float S, const Vec3 &V) { return Vec3(S * V.x, S * V.y, S * V.z); }
inline Vec3 operator+(const Vec3 &A, const Vec3 &B) { return {A.x + B.x, A.y + B.y, A.z + B.z}; }
// A free compound assignment: the reference it returns is its first
// parameter.
inline Vec3 &operator*=(Vec3 &V, float S) {
  V.x *= S;
  V.y *= S;
  V.z *= S;
  return V;
}

// A default member initializer, and a constructor that returns early.
struct Cell {
  float Heat = 20.0f;
  int Count = 1;
  Cell() = default;
  Cell(float H, int C) {
    Heat = H;
    if (C < 0)
      return;
    Count = C;
  }
};

// Converted to and from float implicitly.
struct Kelvin {
  float K;
  Kelvin(float Celsius) : K(Celsius + 273.0f) {}
  operator float() const { return K - 273.0f; }
};

template <class T> struct Pair {
  T A, B;
  Pair operator+(const Pair &O) const { return {A + O.A, B + O.B}; }
};

// CHECK: nest at {{.*}}value-types.cpp:[[@LINE+10]]:3
// CHECK-DAG: function weft_fn_Vec3_{{[0-9a-f]+}} (Vec3::Vec3): weft_st_Vec3_{{[0-9a-f]+}}(float X, float Y, float Z)
// CHECK-DAG: function weft_fn_op_minus_{{[0-9a-f]+}} (Vec3::operator-): weft_st_Vec3_{{[0-9a-f]+}}(const weft_st_Vec3_{{[0-9a-f]+}}& weft_self, const weft_st_Vec3_{{[0-9a-f]+}}& O)
// CHECK-DAG: function weft_fn_op_plus_eq_{{[0-9a-f]+}} (Vec3::operator+=): weft_st_Vec3_{{[0-9a-f]+}}&(weft_st_Vec3_{{[0-9a-f]+}}& weft_self, const weft_st_Vec3_{{[0-9a-f]+}}& O)
// CHECK-DAG: function weft_fn_op_star_{{[0-9a-f]+}} (operator*): weft_st_Vec3_{{[0-9a-f]+}}(float S, const weft_st_Vec3_{{[0-9a-f]+}}& V)
// KERNEL-DAG: WEFT_DEVICE weft_st_Vec3_{{[0-9a-f]+}} &weft_fn_op_plus_eq_{{[0-9a-f]+}}(weft_st_Vec3_{{[0-9a-f]+}} &weft_self, const weft_st_Vec3_{{[0-9a-f]+}} &O) {
// KERNEL-DAG: WEFT_DEVICE weft_st_Vec3_{{[0-9a-f]+}} &weft_fn_op_star_eq_{{[0-9a-f]+}}(weft_st_Vec3_{{[0-9a-f]+}} &V, float S) {
// KERNEL-DAG: weft_st_Vec3_{{[0-9a-f]+}} weft_self = weft_st_Vec3_{{[0-9a-f]+}}{};
void pulls(const std::vector<Vec3> &Pos, std::vector<Vec3> &Acc) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Pos.size(); ++I) {
    Vec3 A;
    for (std::size_t J = 0; J < Pos.size(); ++J) {
      Vec3 D = Pos[J] - Pos[I];
      A += 0.5f * D;
      if (D < Vec3(1.0f))
        (A += -D) += Vec3(0, 0.25f); // z defaults to 1
    }
    Acc[I] = A + Vec3(0, 0, -1);
    (Acc[I] *= 0.5f) += Vec3(2.0f);
  }
}

// CHECK: nest at {{.*}}value-types.cpp:[[@LINE+3]]:3
void cells(std::vector<Cell> &Out, std::span<const float> In) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Out.size(); ++I) {
    Cell C;      // 20, 1
    Cell D{};    // 20, 1
    Cell E(In[I], static_cast<int>(I % 3) - 1);
    Kelvin T = In[I];
    Out[I].Heat = C.Heat + D.Heat + E.Heat + T;
    Out[I].Count = C.Count + D.Count + E.Count;
  }
}

// CHECK: nest at {{.*}}value-types.cpp:[[@LINE+3]]:3
void pairs(std::span<Pair<float>> F, std::span<Pair<int>> N) {
#pragma weft parallel for
  for (std::size_t I = 0; I < F.size(); ++I) {
    F[I] = F[I] + Pair<float>{0.5f, 1.5f};
    N[I] = N[I] + N[I];
  }
}

int main() {
  std::vector<Vec3> Pos(200), Acc(200);
  for (int I = 0; I < 200; ++I)
    Pos[I] = Vec3(I % 7, (I % 5) * 0.5f, (I % 3) * 0.25f);
  pulls(Pos, Acc);
  double S = 0;
  for (const Vec3 &A : Acc)
    S += A.x + 2 * A.y + 3 * A.z;
  std::printf("pulls: %.4f\n", S);

  std::vector<Cell> Out(50);
  std::vector<float> In(50);
  for (int I = 0; I < 50; ++I)
    In[I] = I * 0.5f;
  cells(Out, In);
  double H = 0;
  long C = 0;
  for (const Cell &X : Out) {
    H += X.Heat;
    C += X.Count;
  }
  std::printf("cells: %.2f %ld\n", H, C);

  std::vector<Pair<float>> F(30, Pair<float>{1.0f, 2.0f});
  std::vector<Pair<int>> N(30, Pair<int>{3, 4});
  pairs(F, N);
  std::printf("pairs: %.2f %d\n", F[7].A + F[7].B, N[9].A + N[9].B);
}
