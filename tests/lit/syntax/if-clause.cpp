// if(condition): an expression of the variables in scope at the loop and
// constants, with C's operators; the outermost marked loop's clause. What it
// cannot take is an error, with a hint, where the clause wrote it (a name
// not in scope, an operator, the condition), in the pragma's line or the
// attribute's string.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not %weftxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
#include <weft/weft.hpp>

#include <vector>

enum Size { Small = 100 };
int GlobalLimit = 4096;

struct Grid {
  std::span<float> Cells;
  int Width = 0;
  bool Enabled = true;
  void clear(long N, unsigned Flags, const float *Hint) {
    // REMARK: if-clause.cpp:[[@LINE+2]]:5: remark: weft: level 0 (I): {{.*}}; kernel weft_if_clause_L{{[0-9]+}}_{{[0-9a-f]+}}, launched when Enabled && N * Width > GlobalLimit || !(Flags & 1u) && Hint (else the loop runs on the host)
#pragma weft parallel for if(Enabled && N * Width > GlobalLimit || !(Flags & 1u) && Hint)
    for (long I = 0; I < N; ++I)
      Cells[I] = 0;
    [[weft::parallel("if(N >= Small && true)")]]
    for (long I = 0; I < N; ++I)
      Cells[I] = 1;
  }
};

// A class template's constants, and a member function template's.
template <int Limit, bool Enabled> struct Blur {
  template <long Scale> void run(std::span<float> Cells, int N) {
#pragma weft parallel for if(Enabled && N * Scale > Limit)
    for (int I = 0; I < N; ++I)
      Cells[I] *= 0.5f;
  }
};
template void Blur<64, true>::run<2>(std::span<float>, int);

#ifdef ERRORS
struct Options {
  bool Gpu;
};

void errors(std::span<float> Y, int N, Options Opt, std::vector<int> V) {
  // CHECK-DAG: if-clause.cpp:[[@LINE+2]]:36: error: 'if' takes variables, their members and constants, not calls or elements
  // CHECK-DAG: note: a condition is an expression of variables and constants with C's operators, such as if(n * m > 4096 && !debug); compute anything else into a variable before the loop
#pragma weft parallel for if(V.size() > 100)
  for (int I = 0; I < N; ++I)
    Y[I] = 0;

  // CHECK-DAG: if-clause.cpp:[[@LINE+1]]:27: error: expected a number or a variable in 'if'
  [[weft::parallel("if(N >)")]]
  for (int I = 0; I < N; ++I)
    Y[I] = 1;

  // CHECK-DAG: if-clause.cpp:[[@LINE+2]]:30: error: no variable 'Count' is visible at this loop (in 'if')
  // CHECK-DAG: note: 'if' takes the variables in scope at the loop (in a lambda, those it captures) and constants
#pragma weft parallel for if(Count > 8)
  for (int I = 0; I < N; ++I)
    Y[I] = 2;

  // In the attribute's string too, the name as written.
  // CHECK-DAG: if-clause.cpp:[[@LINE+2]]:33: error: no variable 'Limit' is visible at this loop (in 'if')
  // CHECK-DAG: note: 'if' takes the variables in scope at the loop (in a lambda, those it captures) and constants
  [[weft::parallel("if(N > 4 && Limit)")]]
  for (int I = 0; I < N; ++I)
    Y[I] = 2;

  // CHECK-DAG: if-clause.cpp:[[@LINE+2]]:30: error: the condition 'Opt' of 'if' is of type 'Options', not a number, bool or pointer
  // CHECK-DAG: note: compute the condition into a bool before the loop
#pragma weft parallel for if(Opt)
  for (int I = 0; I < N; ++I)
    Y[I] = 3;

  // CHECK-DAG: if-clause.cpp:[[@LINE+4]]:27: error: an if clause belongs on the outermost marked loop: the nest runs as one kernel or on the host as a whole
  // CHECK-DAG: note: move if(...) to the mark of the nest's first loop
#pragma weft parallel for
  for (int I = 0; I < N; ++I)
#pragma weft parallel for if(N > 64)
    for (int J = 0; J < N; ++J)
      Y[I * N + J] = 4;
}
#endif
