// spmv: a sparse matrix in compressed sparse rows times a vector, repeated
// as an iterative solver would (the SHOC / Parboil SpMV): one row a thread,
// gathering x through the column indices.
#include "Harness.h"

#include <string>
#include <utility>
#include <vector>

namespace {

struct CsrMatrix {
  int Rows;
  std::vector<int> RowStart; // Rows + 1 offsets into Column and Value
  std::vector<int> Column;
  std::vector<float> Value;
};

void multiply(const CsrMatrix &A, const std::vector<float> &X,
              std::vector<float> &Y) {
#pragma weft parallel for
  for (int R = 0; R < A.Rows; ++R) {
    float Sum = 0;
    for (int K = A.RowStart[R]; K < A.RowStart[R + 1]; ++K)
      Sum += A.Value[K] * X[A.Column[K]];
    Y[R] = Sum;
  }
}

// Rows with 4 to 60 entries: a band around the diagonal and a few far ones.
CsrMatrix generate(int Rows) {
  CsrMatrix A{Rows, {0}, {}, {}};
  sample::Random Rng(19);
  for (int R = 0; R < Rows; ++R) {
    int Count = 4 + Rng.below(57);
    for (int E = 0; E < Count; ++E) {
      int C = E < Count / 2 ? R - Count / 4 + E : Rng.below(Rows);
      A.Column.push_back(C < 0 ? C + Rows : C % Rows);
      A.Value.push_back(Rng.uniform(-1.0f, 1.0f) / Count);
    }
    A.RowStart.push_back(static_cast<int>(A.Column.size()));
  }
  return A;
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int Rows = Opts.Small ? 3000 : 2000000, Products = Opts.Small ? 3 : 20;
  const CsrMatrix A = generate(Rows);
  std::vector<float> Start(Rows);
  sample::Random Rng(23);
  for (float &V : Start)
    V = Rng.uniform(0.0f, 1.0f);
  std::vector<float> X, Y(Rows);
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    X = Start;
    // x <- A x, repeatedly, the matrix and both vectors on the device.
#pragma weft region(A.RowStart, A.Column, A.Value, X, Y)
    for (int P = 0; P < Products; ++P) {
      multiply(A, X, Y);
      std::swap(X, Y);
    }
  });
  return sample::finish(Opts, "spmv",
                        std::to_string(Rows) + " rows, " +
                            std::to_string(A.Value.size()) + " entries, " +
                            std::to_string(Products) + " products",
                        Ms, X, 1e-4);
}
