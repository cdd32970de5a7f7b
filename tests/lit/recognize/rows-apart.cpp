// Rows held apart: a std::vector of std::vectors (rows of any lengths,
// empty ones too), as C++ code often holds a matrix, a jagged table or a
// graph's adjacency lists; and rows held as pointers (float **, rows
// allocated one by one as C code does) whose mark states how many rows of
// how many elements: extent(w: rows, cols). The kernel sees the rows one after another in
// one block and a parameter of row offsets: element j of row i is
// element rows[i] + j; a row's size() is the difference of two offsets and
// the outer size() one offset fewer than the offsets (and beside it, for
// rows of one length, a kernel that indexes element j of row i as i *
// cols + j, cols their common length, which the launch passes); a row
// bound to a
// reference or a pointer (auto &Row = a[i]) is indexed through a local of
// its index, and a range-based for over a row or over captured data runs
// as an index loop; rows held as
// pointers are all one length, a parameter the subscript is affine in
// (i * w_columns + j). The launch gathers
// the rows into one copy and scatters what the kernel wrote back. On the
// checked simulator against the host (also with 64-wide warps); then the
// forms refused, with their fixes.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: rm -rf %t.kernels && %weftxx -fsyntax-only -fplugin-arg-weft-emit-dir=%t.kernels %s
// RUN: cat %t.kernels/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: cat %t.kernels/*.desc | FileCheck %s --check-prefix=DESC
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_SIM_WARP=64 %t.exe > %t.sim64
// RUN: diff %t.host %t.sim64
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <array>
#include <cstdio>
#include <vector>

// CHECK: nest at {{.*}}rows-apart.cpp:[[@LINE+15]]
// CHECK: param 0 A: read-written span of float
// CHECK: param 1 A_rows: read span of const unsigned long
// CHECK: param 2 A_cols: scalar of long
// CHECK: param 3 B: read span of const float
// CHECK: param 4 B_rows: read span of const unsigned long
// CHECK: param 5 B_cols: scalar of long
// CHECK: level 0 {{.*}}: unsigned long I in [unsigned long(0), (size($A_rows) - 1l))
// REMARK: rows-apart.cpp:[[@LINE+9]]:5: remark: weft: level 1 (J): dim x, {{.*}}coalescing: 2 access(es) have unit stride in this index
// KERNEL-DAG: (weft::dspan<float> A, weft::dspan<const unsigned long> A_rows, long A_cols, weft::dspan<const float> B, weft::dspan<const unsigned long> B_rows, long B_cols,
// KERNEL-DAG: A[(((long)A_rows.ld(I)) + ((long)J))] =
// KERNEL-DAG: A[((((long)I) * ((long)A_cols)) + ((long)J))] =
void scale(std::vector<std::vector<float>> &A,
           const std::vector<std::vector<float>> &B) {
#pragma weft parallel for
  for (std::size_t I = 0; I < A.size(); ++I)
#pragma weft parallel for
    for (std::size_t J = 0; J < A[I].size(); ++J)
      A[I][J] = 2 * A[I][J] + B[I][J % B[I].size()];
}
// DESC-DAG: param inout f32 A
// DESC-DAG: rows 0 1
// DESC-DAG: uniform 2

// A graph's adjacency lists, read down a sequential loop; a reduction over
// every neighbour.
int gather(const std::vector<std::vector<int>> &Adjacent,
           const std::vector<float> &X, std::vector<float> &Y) {
  int Edges = 0;
#pragma weft parallel for reduction(+ : Edges)
  for (std::size_t I = 0; I < Adjacent.size(); ++I) {
    float Sum = 0;
    for (std::size_t K = 0; K < Adjacent[I].size(); ++K) {
      Sum += X[Adjacent[I][K]];
      ++Edges;
    }
    Y[I] = Sum;
  }
  return Edges;
}

// Rows of points (std::array inside the rows), each moved to its row's
// first point; rows of structs.
struct Particle {
  float Mass, Charge;
};
void points(std::vector<std::vector<std::array<float, 3>>> &Clusters,
            std::vector<std::vector<Particle>> &Groups) {
#pragma weft parallel for
  for (int C = 0; C < static_cast<int>(Clusters.size()); ++C)
#pragma weft parallel for
    for (int P = 1; P < static_cast<int>(Clusters[C].size()); ++P)
      for (int D = 0; D < 3; ++D)
        Clusters[C][P][D] -= Clusters[C][0][D];
#pragma weft parallel for
  for (std::size_t G = 0; G < Groups.size(); ++G)
    for (std::size_t P = 0; P < Groups[G].size(); ++P)
      Groups[G][P].Charge = Groups[G][P].Mass * static_cast<float>(G);
}

// Numerical Recipes' matrices: a pointer to rows allocated one by one.
float **matrix(int Rows, int Cols) {
  float **M = new float *[Rows];
  for (int I = 0; I < Rows; ++I)
    M[I] = new float[Cols];
  return M;
}

// KERNEL-DAG: (int N, int M, weft::dspan<float> W, int W_columns, float F,
// KERNEL-DAG: W[((((long)J) * ((long)W_columns)) + ((long)K))] =
// REMARK: rows-apart.cpp:[[@LINE+8]]:5: remark: weft: level 1 (K): dim x, {{.*}}coalescing: 2 access(es) have unit stride in this index
// DESC-DAG: param inout f32 W
// DESC-DAG: param scalar i32 W_columns
// DESC-DAG: rows 2
void adjust(float **W, int N, int M, float F) {
#pragma weft parallel for extent(W: N, M)
  for (int J = 0; J < N; ++J)
#pragma weft parallel for
    for (int K = 0; K < M; ++K)
      W[J][K] = W[J][K] * F + static_cast<float>(J - K) / 64;
}

// A layer of backprop: the weights' rows as pointers, read-only (their
// length an expression), the input tiled in shared memory.
// REMARK: rows-apart.cpp:[[@LINE+3]]:3: remark: weft: level 0 (J): {{.*}}loop over K in tiles of {{[0-9]+}} in shared memory: In[K]
void layer(float *const *W, const float *In, float *Out, int N, int M) {
#pragma weft parallel for extent(W: N, M * 1) extent(In: M) extent(Out: N)
  for (int J = 0; J < N; ++J) {
    float Sum = 0;
    for (int K = 0; K < M; ++K)
      Sum += W[J][K] * In[K];
    Out[J] = Sum;
  }
}

// Rows bound to references and pointers, as loops over rows name them:
// each keeps its row's index in a local, and indexes (and sizes) through it.
// KERNEL-DAG: const long weft_row0_Row = ((long)I);
// KERNEL-DAG: Grid[((((long)weft_row0_Line) * 20l) + ((long)J))] +=
// KERNEL-DAG: W[((((long)weft_row0_Row) * ((long)W_columns)) + ((long)J))] =
constexpr int GridRows = 30, GridCols = 20;
float Grid[GridRows][GridCols], Prev[GridRows][GridCols];
void viewRows(std::vector<std::vector<float>> &A,
              const std::vector<std::vector<float>> &B) {
#pragma weft parallel for
  for (std::size_t I = 0; I < A.size(); ++I) {
    auto &Row = A[I];
    const std::vector<float> &Ref = B[I];
    for (std::size_t J = 0; J < Row.size(); ++J)
      Row[J] = Row[J] * 2 + Ref[J % Ref.size()];
  }
}
void viewGrid() {
#pragma weft parallel for
  for (int I = 0; I < GridRows; ++I) {
    float *Line = Grid[I];
    const auto &Above = Prev[I > 0 ? I - 1 : 0];
#pragma weft parallel for
    for (int J = 0; J < GridCols; ++J)
      Line[J] += 0.5f * Above[J];
  }
}
void viewPointers(float **W, int Rows, int Cols) {
#pragma weft parallel for extent(W: Rows, Cols)
  for (int I = 0; I < Rows; ++I) {
    float *Row = W[I];
    for (int J = 0; J < Cols; ++J)
      Row[J] = Row[J] * 0.5f + J;
  }
}

// Range-based loops inside the nest: over a row (written in the loop, or
// bound to a name), by value, by const reference and by reference, and
// over captured data of one dimension (every body against this one).
// KERNEL-DAG: for (long weft_k0 = 0l; (weft_k0 < ((long)((long)(((long)Rows_rows.ld((((long)weft_row0) + 1l))) - ((long)Rows_rows.ld(weft_row0)))))); (++weft_k0))
// KERNEL-DAG: const weft_st_Point_{{[0-9a-f]+}} &Other = Cloud[weft_k0];
struct Point {
  float X, Mass;
};
double rangeLoops(const std::vector<std::vector<float>> &Rows,
                  std::vector<std::vector<int>> &Counts,
                  const std::vector<Point> &Cloud, std::vector<float> &Out,
                  std::vector<float> &Pull) {
  double Total = 0;
#pragma weft parallel for reduction(+ : Total)
  for (std::size_t I = 0; I < Rows.size(); ++I) {
    float S = 0;
    for (float X : Rows[I])
      S += X;
    const auto &Row = Rows[I];
    for (const float &X : Row)
      S += X * 0.5f;
    for (int &C : Counts[I])
      C += static_cast<int>(I);
    Out[I] = S;
    Total += S;
  }
#pragma weft parallel for
  for (std::size_t I = 0; I < Cloud.size(); ++I) {
    float F = 0;
    for (const Point &Other : Cloud)
      F += Other.Mass * (Other.X - Cloud[I].X);
    Pull[I] = F;
  }
  return Total;
}

// Range-based loops over rows inside the nest (k-means' centres as a vector
// of vectors, a 2-D array's rows): each row a view, its index in a local.
// KERNEL-DAG: const long weft_row{{[0-9]+}}_Centre = weft_k{{[0-9]+}};
void nearest(const std::vector<std::vector<float>> &Centres,
             const std::vector<float> &Points, std::vector<float> &Best,
             std::vector<float> &Far) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Best.size(); ++I) {
    float Closest = 1e30f;
    for (const auto &Centre : Centres) {
      float D = 0;
      for (std::size_t J = 0; J < Centre.size(); ++J)
        D += (Points[I] - Centre[J]) * (Points[I] - Centre[J]);
      Closest = std::min(Closest, D);
    }
    Best[I] = Closest;
    float Sum = 0;
    for (const auto &Line : Grid)
      Sum += Line[I % GridCols];
    Far[I] = Sum;
  }
}

int main() {
  std::vector<std::vector<float>> A(300), B(300);
  for (std::size_t I = 0; I < A.size(); ++I) {
    A[I].resize((I * 37) % 101); // some rows empty
    B[I].resize(1 + I % 5);
    for (std::size_t J = 0; J < A[I].size(); ++J)
      A[I][J] = static_cast<float>(I + J);
    for (std::size_t J = 0; J < B[I].size(); ++J)
      B[I][J] = static_cast<float>(J);
  }
  scale(A, B);
  double S = 0;
  for (std::size_t I = 0; I < A.size(); ++I)
    for (std::size_t J = 0; J < A[I].size(); ++J)
      S += A[I][J] * static_cast<double>(1 + (I + J) % 7);
  std::printf("scale: %.1f\n", S);

  std::vector<std::vector<int>> Adjacent(500);
  std::vector<float> X(500), Y(500);
  for (int I = 0; I < 500; ++I) {
    X[I] = static_cast<float>(I % 17);
    for (int K = 0; K < (I * I) % 23; ++K)
      Adjacent[I].push_back((I * 7 + K * 13) % 500);
  }
  const int Edges = gather(Adjacent, X, Y);
  double T = 0;
  for (int I = 0; I < 500; ++I)
    T += Y[I] * (I % 3 + 1);
  std::printf("gather: %d edges, %.1f\n", Edges, T);

  std::vector<std::vector<std::array<float, 3>>> Clusters(40);
  std::vector<std::vector<Particle>> Groups(30);
  for (int C = 0; C < 40; ++C)
    for (int P = 0; P < C % 9; ++P)
      Clusters[C].push_back({static_cast<float>(C), static_cast<float>(P),
                             static_cast<float>(C * P % 5)});
  for (int G = 0; G < 30; ++G)
    for (int P = 0; P < G % 4 + 1; ++P)
      Groups[G].push_back({static_cast<float>(P + 1), 0});
  points(Clusters, Groups);
  double U = 0;
  for (const auto &C : Clusters)
    for (const auto &P : C)
      U += P[0] + 2 * P[1] + 3 * P[2];
  for (const auto &G : Groups)
    for (const Particle &P : G)
      U += P.Charge;
  std::printf("points: %.1f\n", U);

  const int N = 70, M = 45;
  float **W = matrix(N, M);
  float In[M], Out[N];
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < M; ++J)
      W[I][J] = static_cast<float>((I * 3 + J) % 11) / 8;
  for (int J = 0; J < M; ++J)
    In[J] = static_cast<float>(J % 5) / 4;
  adjust(W, N, M, 0.5f);
  layer(W, In, Out, N, M);
  double V = 0;
  for (int I = 0; I < N; ++I) {
    V += Out[I] * (I % 3 + 1);
    for (int J = 0; J < M; ++J)
      V += W[I][J] * (J % 2 + 1);
  }
  std::printf("rows as pointers: %.4f\n", V);

  viewRows(A, B);
  for (int I = 0; I < GridRows; ++I)
    for (int J = 0; J < GridCols; ++J) {
      Grid[I][J] = static_cast<float>(I * J % 7);
      Prev[I][J] = static_cast<float>(I + J);
    }
  viewGrid();
  viewPointers(W, N, M);
  double Named = 0;
  for (std::size_t I = 0; I < A.size(); ++I)
    for (std::size_t J = 0; J < A[I].size(); ++J)
      Named += A[I][J] * static_cast<double>(J + 1);
  for (int I = 0; I < GridRows; ++I)
    for (int J = 0; J < GridCols; ++J)
      Named += Grid[I][J] * (I + 1);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < M; ++J)
      Named += W[I][J] * (J + 2);
  std::printf("rows bound to names: %.4f\n", Named);

  std::vector<std::vector<int>> Counts(A.size());
  for (std::size_t I = 0; I < A.size(); ++I)
    Counts[I].assign(I % 4, static_cast<int>(I));
  std::vector<Point> Cloud(64);
  for (int I = 0; I < 64; ++I)
    Cloud[I] = {I * 0.5f, 1.0f + I % 3};
  std::vector<float> RowTotals(A.size()), Pull(Cloud.size());
  double Ranged = rangeLoops(A, Counts, Cloud, RowTotals, Pull);
  for (std::size_t I = 0; I < A.size(); ++I) {
    Ranged += RowTotals[I] * static_cast<double>(I % 5);
    for (int C : Counts[I])
      Ranged += C;
  }
  for (int I = 0; I < 64; ++I)
    Ranged += Pull[I] * (I % 7);
  std::printf("range loops: %.4f\n", Ranged);

  std::vector<std::vector<float>> Centres(5);
  for (std::size_t C = 0; C < Centres.size(); ++C)
    Centres[C].assign(3 + C, static_cast<float>(C) * 1.5f);
  std::vector<float> Points(100), Best(100), Far(100);
  for (int I = 0; I < 100; ++I)
    Points[I] = static_cast<float>(I % 11) * 0.5f;
  nearest(Centres, Points, Best, Far);
  double Near = 0;
  for (int I = 0; I < 100; ++I)
    Near += Best[I] * (I % 3 + 1) + Far[I];
  std::printf("range loops over rows: %.4f\n", Near);
}
// RAN-COUNT-12: calls on sim, 0 on the host

#ifdef REFUSED
void rowsOfRows(std::vector<std::vector<std::vector<float>>> &M) {
#pragma weft parallel for
  for (std::size_t I = 0; I < M.size(); ++I)
    M[I][0][0] = 0;
  // REFUSED: rows-apart.cpp:[[@LINE-2]]:31: error: 'M' of type 'std::vector<std::vector<std::vector<float>{{ ?}}>{{ ?}}>' cannot be captured: rows of std::vectors are not blocks of elements
  // REFUSED-NEXT: note: store the elements in one std::vector and index it i * n + j
}
void aRowAsAnObject(std::vector<std::vector<float>> &M, std::vector<float> &Out) {
#pragma weft parallel for
  for (std::size_t I = 0; I < M.size(); ++I)
    Out[I] = M[I].front();
  // REFUSED: rows-apart.cpp:[[@LINE-1]]:19: error: calls to 'std::vector<float>::front' are not supported in a weft loop
}
void overTheRows(std::vector<std::vector<float>> &M) {
#pragma weft parallel for
  for (auto &Row : M)
    Row[0] = 0;
  // REFUSED: rows-apart.cpp:[[@LINE-2]]:20: error: a range-based parallel loop must iterate over a variable holding elements
  // REFUSED-NEXT: note: for nested arrays, loop over the rows' index instead
}
void rowPointersWithoutTheirLength(float **P, int N) {
#pragma weft parallel for extent(P: N)
  for (int I = 0; I < N; ++I)
    P[I][0] = 0;
  // REFUSED: rows-apart.cpp:[[@LINE-1]]:5: error: 'P' holds pointers ('float *'): the device cannot follow them
  // REFUSED-NEXT: note: state its rows and their length in the mark: 'extent(P: rows, columns)'
}
void aRowLengthForElements(float *P, int N) {
#pragma weft parallel for extent(P: N, 4)
  for (int I = 0; I < N; ++I)
    P[I] = 0;
  // REFUSED: rows-apart.cpp:[[@LINE-3]]:40: error: 'P' points to elements: a row length in 'extent' is for rows held as pointers
  // REFUSED-NEXT: note: write extent(P: n) for n elements
}
void pointersInAVector(std::vector<float *> &P, int N) {
#pragma weft parallel for
  for (int I = 0; I < N; ++I)
    P[I][0] = 0;
  // REFUSED: rows-apart.cpp:[[@LINE-1]]:5: error: 'P' holds pointers ('float *'): the device cannot follow them
  // REFUSED-NEXT: note: state its rows and their length in the mark: 'extent(P: rows, columns)'
}
void aRowAsAPointer(float (&G)[4][4], std::vector<float> &Out) {
#pragma weft parallel for
  for (int I = 0; I < 4; ++I) {
    float *Line = G[I];
    Out[I] = *Line;
  }
  // REFUSED: rows-apart.cpp:[[@LINE-2]]:14: error: pointers are not supported in a weft loop
}
void overRowsOfAGrid(float (&G)[4][4], std::vector<float> &Out) {
#pragma weft parallel for
  for (int I = 0; I < 4; ++I)
    for (auto Row : G)
      Out[I] += Row[0];
  // REFUSED: rows-apart.cpp:[[@LINE-2]]:15: error: a range-based 'for' over rows inside a weft loop must bind each row to a reference
  // REFUSED-NEXT: note: write 'const auto &Row' (or 'auto &' to write it)
}
void regionOfRowPointers(float **P) {
  weft::region R(P);
  // REFUSED: error: static assertion failed{{.*}}: weft::region takes std::span, std::vector, std::array, C arrays, std::mdspan and std::vectors of std::vectors; for a pointer p to n elements, pass std::span(p, n)
}
#endif
