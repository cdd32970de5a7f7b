// Parallel loops that count down, as legacy code often writes them
// (`for (int i = n - 1; i >= 0; --i)`): their iterations are independent,
// so the level is the same indices counted up, from the lower bound to the
// initial value (inclusive; one more than the bound where it is strict).
// By more than one (`i -= 2`), from the least index the loop reaches. An
// unsigned index compared `>= 0` never ends and is refused, as is one
// counting down by more than one (it may wrap past 0). On the checked
// simulator against the host.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

// CHECK: nest at {{.*}}descending-loops.cpp:[[@LINE+4]]
// CHECK: level 0 at {{.*}}: int i in [0, ({{.*}}size($v){{.*}} - 1)] step 1 (written counting down){{$}}
void scale(std::vector<float> &v) {
#pragma weft parallel for
  for (int i = (int)v.size() - 1; i >= 0; --i)
    v[i] = v[i] * 2 + 1;
}

// A strict bound, a post-decrement; an inner level counting down too.
// CHECK: nest at {{.*}}descending-loops.cpp:[[@LINE+5]]
// CHECK: level 0 at {{.*}}: int i in [($n + 1), ($n + $m)] step 1 (written counting down){{$}}
// CHECK: level 1 at {{.*}}: int j in [0, ($m - 1)] step 1 (written counting down){{$}}
void shifted(std::span<float> out, int n, int m) {
#pragma weft parallel for
  for (int i = n + m; i > n; i--)
#pragma weft parallel for
    for (int j = m - 1; 0 <= j; j -= 1)
      out[(i - n - 1) * m + j] = static_cast<float>(i * 3 - j);
}

// A reduction over a loop counting down with i = i - 1.
// CHECK: nest at {{.*}}descending-loops.cpp:[[@LINE+5]]
// CHECK: level 0 at {{.*}}: long i in [long(0), {{.*}}] step 1 (written counting down), reduction(+: S)
double total(std::span<const double> x) {
  double S = 0;
#pragma weft parallel for reduction(+ : S)
  for (long i = (long)x.size() - 1; i >= 0; i = i - 1)
    S += x[i];
  return S;
}

// Ties: counting down, '>' keeps the greatest index among equal values
// and '>=' the least, as the loop written runs them.
// CHECK: nest at {{.*}}descending-loops.cpp:[[@LINE+5]]
// CHECK: (written counting down)
int lastOfMax(std::span<const int> v) {
  int Best = -1, At = -1;
#pragma weft parallel for reduction(argmax : Best, At)
  for (int i = (int)v.size() - 1; i >= 0; --i)
    if (v[i] > Best) {
      Best = v[i];
      At = i;
    }
  return At;
}
int firstOfMin(std::span<const int> v) {
  int Best = 1000, At = -1;
#pragma weft parallel for reduction(argmin : Best, At)
  for (int i = (int)v.size() - 1; i >= 0; --i)
    if (v[i] <= Best) {
      Best = v[i];
      At = i;
    }
  return At;
}

// By two and by three: from the least index the loop reaches (lo plus
// what is left of hi - lo in steps; past hi where hi < lo) to the first.
// CHECK: level 0 at {{.*}}: int i in [(0 + ((((($n - 1) - 0) % 2) + 2) % 2)), ($n - 1)] step 2 (written counting down){{$}}
void everyOther(std::span<float> v, int n) {
#pragma weft parallel for
  for (int i = n - 1; i >= 0; i -= 2)
    v[i] = v[i] * 2.0f + 1.0f;
}
// CHECK: level 0 at {{.*}}: int i in [(($lo + 1) + (((($hi - ($lo + 1)) % 3) + 3) % 3)), $hi] step 3 (written counting down){{$}}
void everyThird(std::span<float> v, int lo, int hi) {
#pragma weft parallel for
  for (int i = hi; i > lo; i = i - 3)
    v[i] += 0.5f;
}

int main() {
  std::vector<float> V(1000);
  for (int I = 0; I < 1000; ++I)
    V[I] = static_cast<float>(I % 17);
  scale(V);
  std::vector<float> Out(37 * 5, -1.0f);
  shifted(Out, 7, 5);
  shifted(Out, 7, 0); // no iterations at the inner level
  std::vector<double> X(513);
  for (int I = 0; I < 513; ++I)
    X[I] = 0.5 * (I % 9);
  double Sum = 0;
  for (float F : V)
    Sum += F;
  for (float F : Out)
    Sum += F;
  std::printf("%.3f %.3f\n", Sum, total(X));
  for (int N : {0, 1, 2, 7, 64, 1000}) {
    std::vector<float> W(std::max(N, 12));
    for (std::size_t I = 0; I < W.size(); ++I)
      W[I] = static_cast<float>(I % 5);
    everyOther(W, N);
    everyThird(W, 2, static_cast<int>(W.size()) - 1);
    everyThird(W, 5, 3); // none
    double S = 0;
    for (std::size_t I = 0; I < W.size(); ++I)
      S += W[I] * static_cast<double>(I % 7 + 1);
    std::printf("by steps %d: %.2f\n", N, S);
  }
  std::vector<int> Ties(2000);
  for (int I = 0; I < 2000; ++I)
    Ties[I] = I % 100 == 37 ? 9 : (I % 100 == 61 ? -3 : I % 5);
  // The greatest 9 is at 1937, the least -3 first met counting down at 61.
  std::printf("%d %d\n", lastOfMax(Ties), firstOfMin(Ties));
}
// RUN: FileCheck %s --check-prefix=OUT < %t.sim
// OUT: 1937 61
// RAN-COUNT-7: calls on sim, 0 on the host

#ifdef REFUSED
void neverEnds(std::span<float> v, unsigned n) {
  // REFUSED: descending-loops.cpp:[[@LINE+3]]:30: error: an unsigned index is never below 0: this loop does not end
  // REFUSED-NEXT: note: count down with 'i > 0' and use 'i - 1', or count up
#pragma weft parallel for
  for (unsigned i = n - 1; i >= 0; --i)
    v[i] = 0;
}

void unsignedByTwo(std::span<float> v, unsigned n) {
  // REFUSED: descending-loops.cpp:[[@LINE+3]]:35: error: an unsigned index counting down by more than one may pass below 0 and wrap around
  // REFUSED-NEXT: note: use a signed index, or count up
#pragma weft parallel for
  for (unsigned i = n - 1; i > 0; i -= 2)
    v[i] = 0;
}

#endif
