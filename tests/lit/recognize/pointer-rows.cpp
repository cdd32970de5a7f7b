// Rows allocated one by one whose pointers a container holds: a
// std::vector<float *> and a float *[N], with the mark stating how many rows
// of how many elements (extent(v: rows, cols)), as for a float **. The
// launch gathers the rows into one block; the kernel indexes it affinely
// (i * v_columns + j), also through a row bound to a pointer; a region keeps
// them through weft::rows. Row j of a transposing copy marked on its outer
// loop alone is apart from every other row (the rows are of the length the
// mark states): the loop over j is found parallel. Against the host on the
// checked simulator; then
// what is refused: no extent, and the container's size() (the clause's row
// count is the size). A float ** without an extent clause (Rodinia
// backprop's weights, as its OpenMP loops index them) is gathered by the
// bounds of its subscripts, its rows' length set at the launch: refused
// where a subscript has none.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx %s -o %t.plain && %t.plain > %t.plain.out && diff %t.host %t.plain.out
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
// RUN: %weftxx -fsyntax-only -fno-caret-diagnostics -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe 2>&1 > /dev/null | FileCheck %s --check-prefix=RAN
// Two row pointers to one row, written: the launch would write a copy of
// each; the host loop runs, with one warning.
// RUN: %weftxx -DALIASED %s -o %t.aliased %weft_link
// RUN: env WEFT_BACKEND=host %t.aliased > %t.aliased.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.aliased > %t.aliased.sim 2> %t.aliased.err
// RUN: diff %t.aliased.host %t.aliased.sim
// RUN: FileCheck %s --check-prefix=ALIASED < %t.aliased.err
// ALIASED: warning: {{.*}}pointer-rows.cpp:{{[0-9]+}}:3: the kernel writes 'W', and this call passes rows of it that overlap one another; calls passing such arguments run the loop on the host
// ALIASED-NOT: warning
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

// CHECK: nest at {{.*}}pointer-rows.cpp:[[@LINE+6]]:3
// CHECK: param {{[0-9]+}} Rows: read-written span of float
// CHECK: param {{[0-9]+}} Rows_columns: scalar of int
// KERNEL-DAG: Rows[((((long)((unsigned long)I)) * ((long)Rows_columns)) + ((long)J))] =
void scale(std::vector<float *> &Rows, int N, int M, float F) {
#pragma weft parallel for extent(Rows: N, M)
  for (int I = 0; I < N; ++I)
#pragma weft parallel for
    for (int J = 0; J < M; ++J)
      Rows[I][J] = Rows[I][J] * F + static_cast<float>(I - J) / 16;
}

// A fixed table of row pointers, one row bound to a name.
constexpr int Bands = 6;
void smooth(float *(&Band)[Bands], std::vector<float> &Out, int M) {
#pragma weft parallel for extent(Band: Bands, M)
  for (int I = 0; I < Bands; ++I) {
    const float *Row = Band[I];
    float S = 0;
    for (int J = 0; J < M; ++J)
      S += Row[J] * static_cast<float>(J % 3);
    Out[I] = S;
  }
}

// CHECK: nest at {{.*}}pointer-rows.cpp:[[@LINE+4]]:3
// CHECK: level 1 at {{.*}}pointer-rows.cpp:[[@LINE+4]]:5: int J in [0, $M) step 1
void transpose(float **A, float **T, int M) {
#pragma weft parallel for extent(A, T: M, M)
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < M; ++J)
      T[J][I] = A[I][J] * 2 + static_cast<float>(I);
}

// The layer's weights, rows 0 to N1 of columns 0 to N2 (column 0 unread):
// gathered as the subscripts say.
// CHECK: nest at {{.*}}pointer-rows.cpp:[[@LINE+7]]:3
// CHECK: param {{[0-9]+}} W: read span of float
// CHECK: param {{[0-9]+}} W_columns: scalar of long
// REMARK: pointer-rows.cpp:[[@LINE+4]]:3: remark: weft: level 0 (J): {{.*}}; rows W without an extent: its subscripts reach rows 0 to N1 and columns 0 to N2, which the launch gathers
// RAN-DAG: weft: loop at {{.*}}pointer-rows.cpp:[[@LINE+3]]:3: 1 calls on sim, 0 on the host
void layerForward(float **W, const float *In, float *Out, int N1, int N2) {
#pragma weft parallel for
  for (int J = 1; J <= N2; J++) {
    float Sum = 0;
    for (int K = 0; K <= N1; K++)
      Sum += W[K][J] * In[K];
    Out[J] = Sum / (1 + (Sum < 0 ? -Sum : Sum));
  }
}
// Written too, in two float **s, from column 1.
// RAN-DAG: weft: loop at {{.*}}pointer-rows.cpp:[[@LINE+4]]:3: 1 calls on sim, 0 on the host
void adjustWeights(float **W, float **OldW, const float *Delta,
                   const float *Ly, int NDelta, int NLy) {
#pragma weft parallel for
  for (int J = 1; J <= NDelta; J++)
    for (int K = 0; K <= NLy; K++) {
      const float New = 0.3f * Delta[J] * Ly[K] + 0.3f * OldW[K][J];
      W[K][J] += New;
      OldW[K][J] = New;
    }
}

#ifdef REFUSED
void unknownRow(float **W, const int *Pick, int N) {
#pragma weft parallel for
  for (int I = 0; I < N; ++I)
    W[Pick[I]][0] = 1;
  // REFUSED: pointer-rows.cpp:[[@LINE-1]]:5: error: weft cannot know how many rows of how many elements 'W' points to: its subscript in 'W[{{.*}}]' takes values not known at the launch
  // REFUSED-NEXT: note: state its rows and their length in the mark: '#pragma weft parallel for extent(W: rows, columns)'
}
void noExtent(std::vector<float *> &P, int N) {
#pragma weft parallel for
  for (int I = 0; I < N; ++I)
    P[I][0] = 0;
  // REFUSED: pointer-rows.cpp:[[@LINE-1]]:5: error: 'P' holds pointers ('float *'): the device cannot follow them
  // REFUSED-NEXT: note: state its rows and their length in the mark: 'extent(P: rows, columns)'
}
void sizeOfRows(std::vector<float *> &P, int N, int M) {
#pragma weft parallel for extent(P: N, M)
  for (std::size_t I = 0; I < P.size(); ++I)
    P[I][0] = 0;
  // REFUSED: pointer-rows.cpp:[[@LINE-2]]:31: error: the size of rows held as pointers is the row count the 'extent' clause states
  // REFUSED-NEXT: note: use that count
}
#endif

int main() {
  const int N = 40, M = 33;
  std::vector<float *> Rows(N);
  for (int I = 0; I < N; ++I) {
    Rows[I] = new float[M];
    for (int J = 0; J < M; ++J)
      Rows[I][J] = static_cast<float>((I * 7 + J) % 9) / 4;
  }
  scale(Rows, N, M, 0.5f);
  {
    weft::region Kept(weft::rows(Rows.data(), N, M));
    for (int Step = 0; Step < 5; ++Step)
      scale(Rows, N, M, 1.5f);
  }
  double S = 0;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < M; ++J)
      S += Rows[I][J] * (J % 4 + 1);
  std::printf("vector of rows: %.4f\n", S);

  float *Band[Bands];
  for (int I = 0; I < Bands; ++I) {
    Band[I] = new float[M];
    for (int J = 0; J < M; ++J)
      Band[I][J] = static_cast<float>(I + J % 5);
  }
  std::vector<float> Out(Bands);
  smooth(Band, Out, M);
  double T = 0;
  for (int I = 0; I < Bands; ++I)
    T += Out[I] * (I + 1);
  std::printf("table of rows: %.2f\n", T);

  std::vector<float *> Transposed(N);
  for (int I = 0; I < N; ++I)
    Transposed[I] = new float[N]();
  transpose(Rows.data(), Transposed.data(), std::min(N, M));
  double U = 0;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J)
      U += Transposed[I][J] * (J % 3 + 1);
  std::printf("transposed: %.3f\n", U);

  const int N1 = 17, N2 = 12;
  float **W = new float *[N1 + 1], **OldW = new float *[N1 + 1];
  for (int K = 0; K <= N1; ++K) {
    W[K] = new float[N2 + 1];
    OldW[K] = new float[N2 + 1]();
    for (int J = 0; J <= N2; ++J)
      W[K][J] = static_cast<float>((K * 5 + J * 3) % 11) / 8 - 0.5f;
  }
  std::vector<float> In(N1 + 1), Layer(N2 + 1);
  for (int K = 0; K <= N1; ++K)
    In[K] = static_cast<float>(K % 4) / 3;
  layerForward(W, In.data(), Layer.data(), N1, N2);
  adjustWeights(W, OldW, Layer.data(), In.data(), N2, N1);
  double L = 0, V = 0;
  for (int J = 1; J <= N2; ++J)
    L += Layer[J] * J;
  for (int K = 0; K <= N1; ++K)
    for (int J = 0; J <= N2; ++J)
      V += (W[K][J] + OldW[K][J]) * ((K + J) % 3 + 1);
  std::printf("layer: %.4f weights: %.4f\n", L, V);
#ifdef ALIASED
  float *Same[] = {W[1], W[1]};
  adjustWeights(Same, OldW, Layer.data(), In.data(), N2, 1);
  double A = 0;
  for (int J = 0; J <= N2; ++J)
    A += W[1][J] * (J + 1);
  std::printf("aliased: %.4f\n", A);
#endif
}
