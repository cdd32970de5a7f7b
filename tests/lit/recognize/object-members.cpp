// Fields of objects the loop does not declare, as legacy code reaches its
// data: `m.rows` and `m.values[k]` on a struct holding vectors, a chain
// (`g.mesh.nodes`), a pointer (`p->n`), `this->mesh.cells`, and two objects
// of one type (each field its own parameter, named after its chain). The
// launch reads them on the host. On the checked simulator against the
// host; then writing a scalar field, refused.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.kernels && %weftxx -fsyntax-only -fplugin-arg-weft-emit-dir=%t.kernels %s
// RUN: cat %t.kernels/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

struct Matrix {
  int Rows, Cols;
  std::vector<float> Values; // Rows x Cols
};

struct Mesh {
  int Count;
  std::vector<float> Nodes;
};

struct Grid {
  Mesh Inner;
  float Scale;
};

// CHECK: nest at {{.*}}object-members.cpp:[[@LINE+7]]
// CHECK-NEXT: param 0 M_Rows: scalar of int
// CHECK-NEXT: param 1 M_Cols: scalar of int
// CHECK-NEXT: param 2 M_Values: read span of const float
// CHECK-NEXT: param 3 Sums: written span of float
void rowSums(const Matrix &M, std::vector<float> &Sums) {
#pragma weft parallel for
  for (int R = 0; R < M.Rows; ++R) {
    float Sum = 0;
    for (int C = 0; C < M.Cols; ++C)
      Sum += M.Values[R * M.Cols + C];
    Sums[R] = Sum;
  }
}

// Two matrices of one type: each field its own parameter.
// CHECK: nest at {{.*}}object-members.cpp:[[@LINE+6]]
// CHECK: param 2 Out_Values: written span of float
// CHECK-NEXT: param 3 A_Values: read span of const float
// CHECK-NEXT: param 4 B_Values: read span of const float
void add(const Matrix &A, const Matrix &B, Matrix &Out) {
#pragma weft parallel for
  for (int I = 0; I < A.Rows * A.Cols; ++I)
    Out.Values[I] = A.Values[I] + B.Values[I];
}

// A chain of fields, and a pointer.
// CHECK: nest at {{.*}}object-members.cpp:[[@LINE+7]]
// CHECK-NEXT: param 0 G_Inner_Count: scalar of int
// CHECK-NEXT: param 1 G_Inner_Nodes: read-written span of float
// CHECK-NEXT: param 2 G_Scale: scalar of float
// KERNEL: (int G_Inner_Count, weft::dspan<float> G_Inner_Nodes, float G_Scale
void scale(Grid *G) {
#pragma weft parallel for
  for (int I = 0; I < G->Inner.Count; ++I)
    G->Inner.Nodes[I] *= G->Scale;
}

class Solver {
public:
  explicit Solver(int N) : Shape{N, std::vector<float>(N)} {
    for (int I = 0; I < N; ++I)
      Shape.Nodes[I] = 0.5f * I;
  }
  // CHECK: nest at {{.*}}object-members.cpp:[[@LINE+5]]
  // CHECK-NEXT: param 0 Shape_Count: scalar of int
  // CHECK-NEXT: param 1 Shape_Nodes: read-written span of float
  void relax() {
#pragma weft parallel for
    for (int I = 1; I < Shape.Count; ++I)
      Shape.Nodes[I] = 0.5f * Shape.Nodes[I] + 1.0f;
  }
  const Mesh &mesh() const { return Shape; }

private:
  Mesh Shape;
};

// Structs held by a const object, each bound to an operator's reference
// parameter: read through a span of const elements, so the checked
// simulator counts the binding as a read (it reported a write before).
struct Charge {
  float Q;
  int Sign;
  Charge operator+(const Charge &O) const { return {Q + O.Q, Sign * O.Sign}; }
};
struct Charges {
  std::vector<Charge> Items;
};
// CHECK: nest at {{.*}}object-members.cpp:[[@LINE+4]]
// CHECK: param {{[0-9]+}} C_Items: read span of const weft_st_Charge
void net(const Charges &C, std::vector<float> &Out) {
#pragma weft parallel for
  for (int I = 0; I < (int)Out.size(); ++I)
    Out[I] = (C.Items[I] + C.Items[0]).Q;
}

#ifdef REFUSED
void refused(Matrix &M) {
#pragma weft parallel for
  for (int I = 0; I < M.Rows; ++I)
    // REFUSED: object-members.cpp:[[@LINE+1]]:7: error: assigning to member 'Cols' from parallel iterations is a data race
    M.Cols = I;
}
#endif

int main() {
  Matrix M{40, 30, std::vector<float>(1200)};
  for (int I = 0; I < 1200; ++I)
    M.Values[I] = 0.25f * (I % 17);
  std::vector<float> Sums(40);
  rowSums(M, Sums);
  Matrix Out{40, 30, std::vector<float>(1200)};
  add(M, M, Out);
  Grid G{{500, std::vector<float>(500, 2.0f)}, 1.5f};
  scale(&G);
  Solver S(300);
  S.relax();
  Charges C{std::vector<Charge>(50, Charge{0.5f, 1})};
  std::vector<float> Net(50);
  net(C, Net);
  double Total = 0;
  for (float V : Sums)
    Total += V;
  for (float V : Out.Values)
    Total += V;
  for (float V : G.Inner.Nodes)
    Total += V;
  for (float V : Net)
    Total += V;
  for (float V : S.mesh().Nodes)
    Total += V;
  std::printf("total %.3f\n", Total);
}
// RAN-COUNT-5: 1 calls on sim, 0 on the host
