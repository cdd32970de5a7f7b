// A program's macros do not reach weft's headers: with every one- and
// two-character upper-case name and PolyBench's defined on the command line
// (-DN=32, as PolyBench sizes its programs) and C's function-like min and
// max given with -include (as NPB's npb-C.h is), a file with an OpenMP loop
// (the plugin includes <weft/weft.hpp> after both) and a weft loop builds
// and runs as it does without the plugin, with -fopenmp and without.
// REQUIRES: openmp
// RUN: for a in A B C D E F G H I J K L M N O P Q R S T U V W X Y Z; do echo "-D$a=32"; for b in A B C D E F G H I J K L M N O P Q R S T U V W X Y Z 0 1 2 3 4 5 6 7 8 9; do echo "-D$a$b=32"; done; done > %t.flags
// RUN: for m in DATA_TYPE=double MAX=9 MIN=1 TSTEPS=4 SIZE=7 LEN=5 DIM=3; do echo "-D$m"; done >> %t.flags
// RUN: printf '#include <stdio.h>\n#define max(a, b) (((a) > (b)) ? (a) : (b))\n#define min(a, b) (((a) < (b)) ? (a) : (b))\n' > %t.minmax.h
// RUN: %weftxx -fopenmp -std=c++17 -fno-caret-diagnostics -fplugin-arg-weft-remarks @%t.flags -include %t.minmax.h %s -o %t.omp %weft_link %openmp_link 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.omp > %t.omp.sim
// RUN: %clangxx -fopenmp -std=c++17 @%t.flags -include %t.minmax.h %s -o %t.plain %openmp_link && %t.plain | diff %t.omp.sim -
// RUN: %weftxx -std=c++17 @%t.flags -include %t.minmax.h %s -o %t.weft %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.weft | diff %t.omp.sim -
#include <weft/weft.hpp>

// CHECK: user-macros.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i):
// CHECK: user-macros.cpp:[[@LINE+6]]:3: remark: weft: level 0 (i):
void fill(DATA_TYPE *a, DATA_TYPE *b) {
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    a[i] = min(i, 20) * 2.0;
#pragma weft parallel for
  for (int i = 0; i < N; i++)
    b[i] = max(a[i], 10.0) + NI;
}

int main(void) {
  static DATA_TYPE a[N], b[N];
  fill(a, b);
  printf("%g %g %g\n", a[N - 1], b[0], b[N - 1]);
  return 0;
}
