// crash (exit 139): dataElement held a reference into the per-capture vectors while a subscript captured another variable
// from legacy-data.cpp

#include <cstdio>
#include <typeinfo>
static int weft_fuzz_recurse(int n) { return n ? weft_fuzz_recurse(n - 1) : 0; }
struct WeftFuzzBase { virtual int f() { return 1; } };
static WeftFuzzBase *weft_fuzz_virtual;
static int weft_fuzz_n() { return 3; }

#include <cstdio>
#include <typeinfo>
static int weft_fuzz_recurse(int n) { return n ? weft_fuzz_recurse(n - 1) : 0; }
struct WeftFuzzBase { virtual int f() { return 1; } };
static WeftFuzzBase *weft_fuzz_virtual;
static int weft_fuzz_n() { return 3; }

#include <cstdio>
#include <typeinfo>
static int weft_fuzz_recurse(int n) { return n ? weft_fuzz_recurse(n - 1) : 0; }
struct WeftFuzzBase { virtual int f() { return 1; } };
static WeftFuzzBase *weft_fuzz_virtual;
static int weft_fuzz_n() { return 3; }
// Legacy data held as it was written: a Jacobi sweep over C arrays kept
// resident in a region (update_host of one array between sweeps), a
// std::vector of points reduced through const std::vector&, pointers whose
// extent the mark states (a member and a product of rows and columns), and
// nested std::array rows.
#include <weft/weft.hpp>

#include <array>
#include <cstdio>
#include <vector>

constexpr int N = 130;
static double Grid[N][N], Next[N][N];

void sweep() {
#pragma weft parallel for strategy(fast)
  for (int I = 1; I < N - 1; ++I)
#pragma weft parallel for
    for (int J = 1; J < N - 1; ++J)
      Next[I][J] = 0.25 * (Grid[I - 1][J] + Grid[I + 1][J] + Grid[I][J - 1] +
                           Grid[I][J + 1]);
#pragma weft parallel for
  for (i