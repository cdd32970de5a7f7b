// Methods of objects that hold the loop's data, as legacy C++ wraps its
// matrices: `m(i, j)` returning a reference into a std::vector member, an
// accessor called on `this` in a method's own loop and on another object
// of the class, one through a pointer, one on a base class's fields, a
// value computed from fields, one method calling another, a method of
// several statements (compiled in before the statement that calls it),
// rows handed out as pointers (`img[y][x]`, `img.row(y)[x]`), the call's
// other forms (`(*this)(i, j)`, `p->f()`, `(*p).f()`), an accessor that
// asserts its indices, and `&M(i, 0)` passed as a pointer.
// Each becomes the loop's own accesses to the fields it reaches, so the
// fields are captured as the object's members are. On the checked
// simulator against the host; then the calls weft cannot follow, refused.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <cassert>
#include <cstdio>
#include <vector>

class Matrix {
public:
  Matrix(int Rows, int Cols) : Rows(Rows), Cols(Cols), Data(Rows * Cols) {}
  float &operator()(int I, int J) {
    assert(I < Rows && J < Cols);
    return Data[I * Cols + J];
  }
  float operator()(int I, int J) const { return Data[I * Cols + J]; }
  int rows() const { return Rows; }
  int cols() const { return Cols; }

private:
  int Rows, Cols;
  std::vector<float> Data;
};

// The product through operator(): C's element written, A's and B's read.
// CHECK: nest at {{.*}}object-methods.cpp:[[@LINE+10]]
// CHECK-NEXT: param 0 C_Rows: scalar of int
// CHECK-NEXT: param 1 C_Cols: scalar of int
// CHECK-NEXT: param 2 A_Cols: scalar of int
// CHECK-NEXT: param 3 A_Data: read span of const float
// CHECK-NEXT: param 4 B_Data: read span of const float
// CHECK-NEXT: param 5 B_Cols: scalar of int
// CHECK-NEXT: param 6 C_Data: written span of float
void multiply(const Matrix &A, const Matrix &B, Matrix &C) {
#pragma weft parallel for
  for (int I = 0; I < C.rows(); ++I)
    for (int J = 0; J < C.cols(); ++J) {
      float Sum = 0;
      for (int K = 0; K < A.cols(); ++K)
        Sum += A(I, K) * B(K, J);
      C(I, J) = Sum;
    }
}
// The accessor's assert, before the statement that calls it.
// CHECK: if (!bool(((I < $C_Rows) && (J < $C_Cols))))
// CHECK-NEXT: weft::assertion_failed()
// CHECK-NEXT: ($C_Data[unsigned long(((I * $C_Cols) + J))] = Sum)

// `&M(I, 0)` passed to a function taking pointers (compiled in as well).
static float dotRow(const float *Row, const float *X, int N) {
  float Sum = 0;
  for (int K = 0; K < N; ++K)
    Sum += Row[K] * X[K];
  return Sum;
}
// CHECK: nest at {{.*}}object-methods.cpp:[[@LINE+4]]
// CHECK: access $M_Data[{{.*}}] read in level 0: affine I*$M_Cols + weft_in{{[0-9]+}}_K
void matvec(Matrix &M, const std::vector<float> &X, std::vector<float> &Y) {
#pragma weft parallel for
  for (int I = 0; I < M.rows(); ++I)
    Y[I] = dotRow(&M(I, 0), X.data(), M.cols());
}

struct Storage {
  int N = 0;
  std::vector<float> Cells;
};

class Grid : public Storage {
public:
  explicit Grid(int Size) {
    N = Size;
    Cells.resize(Size * Size);
    for (int I = 0; I < Size * Size; ++I)
      Cells[I] = 0.01f * (I % 97);
  }
  float &at(int I, int J) { return Cells[I * N + J]; }
  float at(int I, int J) const { return Cells[I * N + J]; }
  float cross(int I, int J) const {
    return at(I - 1, J) + at(I + 1, J) + at(I, J - 1) + at(I, J + 1);
  }
  // Several statements: compiled in before the statement calling it.
  float clamped(int I, int J) const {
    float V = at(I, J);
    if (V > 0.5f)
      V = 0.5f;
    return V;
  }

  // `this`'s cells read through methods, the other grid's written.
  // CHECK: nest at {{.*}}object-methods.cpp:[[@LINE+9]]
  // CHECK-NEXT: param 0 N: scalar of int
  // CHECK-NEXT: param 1 Cells: read span of const float
  // CHECK-NEXT: param 2 Out_Cells: written span of float
  // CHECK-NEXT: param 3 Out_N: scalar of int
  // CHECK: decl float weft_in0_V = $Cells[unsigned long(((weft_in0_I * $N) + weft_in0_J))]
  // CHECK: ($Out_Cells[unsigned long(((I * $Out_N) + J))] = ((0.25f * ((($Cells[unsigned long((((I - 1) * $N) + J))] + $Cells[unsigned long((((I + 1) * $N) + J))])
  void smoothInto(Grid &Out) const {
#pragma weft parallel for
    for (int I = 1; I < N - 1; ++I)
      for (int J = 1; J < N - 1; ++J) {
        const float Edge = clamped(I, J);
        Out.at(I, J) = 0.25f * cross(I, J) + Edge;
      }
  }
};

// Through a pointer, a method on `this` of each.
void scaleBy(Grid *G, float S) {
#pragma weft parallel for
  for (int I = 0; I < G->N * G->N; ++I)
    G->at(I / G->N, I % G->N) *= S;
}

// Rows handed out by pointer, as C-style classes do: `Out[Y][X]`,
// `In.row(Y)[X]`, of a class template.
template <typename T> class Image {
public:
  Image(int H, int W) : H(H), W(W), Pixels(H * W) {}
  T *operator[](int Y) { return &Pixels[Y * W]; }
  const T *row(int Y) const { return &Pixels[Y * W]; }
  int H, W;

private:
  std::vector<T> Pixels;
};

// CHECK: nest at {{.*}}object-methods.cpp:[[@LINE+3]]
void blur(const Image<float> &In, Image<float> &Out) {
#pragma weft parallel for
  for (int Y = 1; Y < In.H - 1; ++Y)
    for (int X = 0; X < In.W; ++X)
      Out[Y][X] = (In.row(Y - 1)[X] + In.row(Y)[X] + In.row(Y + 1)[X]) / 3;
}
// CHECK: access $Out_Pixels[{{.*}}] write in level 1: affine Y*$Out_W X*1 + 0
// CHECK: access $In_Pixels[{{.*}}] read in level 1: affine Y*$In_W X*1 + -$In_W

// The call's forms: `(*this)(i, j)`, `this->at`, a default argument,
// `(*b).at`, `b->get`; one method calling another through `(*this)`.
struct Square {
  int N;
  std::vector<float> D;
  float &operator()(int I, int J) { return D[I * N + J]; }
  float &at(int I, int J) { return (*this)(I, J); }
  float get(int I, int J, int S = 1) { return S * (*this).D[I * N + J]; }
  // CHECK: nest at {{.*}}object-methods.cpp:[[@LINE+4]]
  // CHECK: ($D[unsigned long(((I * $N) + J))] = ($D[unsigned long(((I * $N) + J))] + (float(2) * $D[unsigned long(((I * $N) + J))])))
  void twice() {
#pragma weft parallel for
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < N; ++J)
        (*this)(I, J) = this->at(I, J) + get(I, J, 2);
  }
};
// CHECK: nest at {{.*}}object-methods.cpp:[[@LINE+4]]
// CHECK: ($B_D[unsigned long(((I * $B_N) + J))] = ($A_D[unsigned long(((J * $A_N) + I))] + (float(1) * $B_D[unsigned long(((I * $B_N) + J))])))
void transposeAdd(Square &A, Square *B) {
#pragma weft parallel for
  for (int I = 0; I < A.N; ++I)
    for (int J = 0; J < A.N; ++J)
      (*B).at(I, J) = A.at(J, I) + B->get(I, J);
}

#ifdef REFUSED
void elements(std::vector<Matrix> &Ms) {
#pragma weft parallel for
  for (int I = 0; I < 10; ++I)
    // REFUSED: object-methods.cpp:[[@LINE+1]]:5: error: 'Matrix::operator()' is called on an object that holds data, which a weft loop reaches as a variable, 'this', or a member of one: not as an element or a local
    Ms[I](0, 0) = 1.0f;
}

void refused(Matrix &M, int K) {
#pragma weft parallel for
  for (int I = 0; I < M.rows(); ++I)
    // REFUSED: object-methods.cpp:[[@LINE+2]]:5: error: 'Matrix::operator()' returns a reference or a pointer into the loop's data, so weft compiles the call into the expression that makes it, which it cannot do here
    // REFUSED-NEXT: note: compute the arguments into locals before the call
    M(I, K++) = 1.0f;
}

void branch(Matrix &M) {
#pragma weft parallel for
  for (int I = 0; I < M.rows(); ++I)
    // REFUSED: object-methods.cpp:[[@LINE+2]]:27: error: 'Matrix::operator()' returns a reference or a pointer
    // REFUSED-NEXT: note: its asserts run before the statement, so make the call outside '?:', '&&' and '||' (or build with NDEBUG)
    M(I, 0) = I > 0 ? 2 * M(I - 1, 0) : 0.0f;
}
#endif

int main() {
  Matrix A(37, 23), B(23, 19), C(37, 19);
  for (int I = 0; I < 37; ++I)
    for (int K = 0; K < 23; ++K)
      A(I, K) = 0.125f * ((I + 3 * K) % 11);
  for (int K = 0; K < 23; ++K)
    for (int J = 0; J < 19; ++J)
      B(K, J) = 0.25f * ((2 * K + J) % 7);
  multiply(A, B, C);
  std::vector<float> X(23), Y(37);
  for (int K = 0; K < 23; ++K)
    X[K] = 0.5f * (K % 5);
  matvec(A, X, Y);
  Grid G(41), Out(41);
  G.smoothInto(Out);
  scaleBy(&Out, 2.0f);
  Image<float> Picture(29, 31), Blurred(29, 31);
  for (int Y = 0; Y < 29; ++Y)
    for (int X = 0; X < 31; ++X)
      Picture[Y][X] = 0.5f * ((X * Y) % 13);
  blur(Picture, Blurred);
  double Total = 0;
  for (int I = 0; I < 37; ++I)
    Total += Y[I] * (1 + I % 4);
  Square P{13, std::vector<float>(169)}, Q{13, std::vector<float>(169)};
  for (int I = 0; I < 169; ++I) {
    P.D[I] = I % 7;
    Q.D[I] = I % 5;
  }
  P.twice();
  transposeAdd(P, &Q);
  for (int I = 0; I < 169; ++I)
    Total += P.D[I] * (I % 3 + 1) + Q.D[I] * (I % 4);
  for (int I = 0; I < 37; ++I)
    for (int J = 0; J < 19; ++J)
      Total += C(I, J) * (1 + (I + J) % 3);
  for (int I = 0; I < 41; ++I)
    for (int J = 0; J < 41; ++J)
      Total += Out.at(I, J) * (1 + I % 5);
  for (int Y = 0; Y < 29; ++Y)
    for (int X = 0; X < 31; ++X)
      Total += Blurred[Y][X] * (1 + X % 4);
  std::printf("total %.3f\n", Total);
}
// RAN-COUNT-7: 1 calls on sim, 0 on the host
