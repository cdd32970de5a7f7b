// Run-time tuning: from a loop's fourth launch the runtime times
// configurations of its tuning space (here the block sizes the descriptor
// offers: two launches each, variants compiled on first use), then keeps
// the fastest and stores it beside the kernel cache: a second run starts
// tuned. Results stay those of the host, bit for bit. A floating-point sum
// is tuned only with WEFT_TUNE=reductions (another grouping changes its
// bits); WEFT_TUNE=0 turns tuning off. On the simulator it is off unless
// asked for (its timings say nothing about a GPU's). Two simulator threads
// (its multiprocessors), so that no grid here starts with smaller blocks
// (tuning-start.cpp) on a machine with more cores.
// RUN: rm -rf %t.k %t.cache %t.cache2 %t.rec && mkdir %t.rec
// RUN: %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=on,eager WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck %s < %t.err
// Without eager, a variant is compiled only once the loop has run, at its
// fastest so far, as long as the variants before took to compile (the
// process's first compile goes ahead at once): these loops (a fraction of
// a millisecond a call, a compile a tenth of a second or more) get no
// further in 24 calls: the mapped kernel and one variant are timed, then
// the faster runs on, and nothing is stored. Inline: compiled on the
// launching thread.
// RUN: rm -rf %t.cache3 && env WEFT_CACHE_DIR=%t.cache3 WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_TUNE=on,inline WEFT_VERBOSE=2 %t.exe 2>&1 > %t.lazy | FileCheck %s --check-prefix=LAZY
// RUN: diff %t.host %t.lazy
// By default that variant compiles on a thread of its own: the launch that
// picks it runs the mapped kernel, untimed, as do those after it until it
// is built (the program may end first; tuning-background.cpp waits).
// RUN: rm -rf %t.cache4 && env WEFT_CACHE_DIR=%t.cache4 WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_TUNE=on WEFT_VERBOSE=2 %t.exe 2>&1 > %t.ahead | FileCheck %s --check-prefix=AHEAD
// RUN: diff %t.host %t.ahead
// The second run takes the stored result and times nothing.
// RUN: env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=on,eager WEFT_VERBOSE=2 %t.exe > %t.again 2> %t.again.err
// RUN: diff %t.host %t.again
// RUN: FileCheck %s --check-prefix=AGAIN < %t.again.err
// RUN: env WEFT_CACHE_DIR=%t.cache %weft_tune list | FileCheck %s --check-prefix=LIST
// RUN: env WEFT_CACHE_DIR=%t.cache %weft_tune export %t.exported
// RUN: env WEFT_CACHE_DIR=%t.cache2 %weft_tune import %t.exported | FileCheck %s --check-prefix=IMPORT
// RUN: env WEFT_CACHE_DIR=%t.cache2 WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=on,eager WEFT_VERBOSE=1 %t.exe 2>&1 >/dev/null | FileCheck %s --check-prefix=AGAIN
// Opted in, the sum is tuned too, within a budget of three configurations.
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_SIM_CHECK=1 WEFT_TUNE=reductions,eager,budget=3 WEFT_VERBOSE=1 %t.exe 2>&1 >/dev/null | FileCheck %s --check-prefix=REDUCTIONS
// A recording times every configuration; the searchers replay it.
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_TUNE=record=%t.rec WEFT_VERBOSE=1 %t.exe 2>&1 >/dev/null | FileCheck %s --check-prefix=RECORD
// RUN: %weft_tune replay --seeds 3 %t.rec/*.txt | FileCheck %s --check-prefix=REPLAY
// RUN: env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_TUNE=0 WEFT_VERBOSE=1 %t.exe > %t.off 2> %t.off.err
// RUN: diff %t.host %t.off
// RUN: not grep tuned %t.off.err
// RUN: rm -rf %t.cache && env WEFT_CACHE_DIR=%t.cache WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_VERBOSE=1 %t.exe > %t.default 2> %t.default.err
// RUN: diff %t.host %t.default
// RUN: not grep tuned %t.default.err
// RUN: env WEFT_BACKEND=sim WEFT_SIM_THREADS=2 WEFT_TUNE=budget=x,sideways %t.exe 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// CHECK: tuning.cpp:[[@LINE+27]]:3: sizes 13: tuned: mapping 0: WEFT_BLOCK_X={{32|64|128|256|512|1024}} (6 of 6 configurations; {{[0-9.]+}} us, mapped {{[0-9.]+}} us)
// CHECK-NOT: tuned
// CHECK: loop at {{.*}}tuning.cpp:[[@LINE+25]]:3: sizes 13: tuned, 6 of 6 configurations timed: mapping 0: WEFT_BLOCK_X=
// AGAIN: tuning.cpp:[[@LINE+24]]:3: sizes 13: tuned before ({{.*}}tuning): mapping 0: WEFT_BLOCK_X=
// AGAIN-NOT: {{[0-9]}}: tuning
// LIST: 1 tuned configurations in {{.*}}tuning
// LIST-NEXT: tuning.cpp:[[@LINE+21]]:3  sizes 13  on weft simulator (sim (checked), {{[0-9]+}} multiprocessors)
// LIST-NEXT: mapping 0 (weft_tuning_L[[@LINE+20]]_{{[0-9a-f]+}}), values {{[0-9]+}}: {{[0-9.]+}} us (mapped {{[0-9.]+}} us), 6 configurations timed
// IMPORT: 1 tuned configurations kept in {{.*}}cache2/tuning
// REDUCTIONS-DAG: tuning.cpp:[[@LINE+18]]:3: sizes 13: tuned: mapping 0: WEFT_BLOCK_X={{[0-9]+}} (3 of 6 configurations;
// REDUCTIONS-DAG: tuning.cpp:[[@LINE+24]]:3: sizes 13: tuned: mapping 0: {{.*}}(3 of {{[0-9]+}} configurations;
// RECORD: tuning.cpp:[[@LINE+16]]:3: tuning recorded in {{.*}}rec/weft_tuning_L[[@LINE+16]]_{{[0-9a-f]+}}.13.txt
// REPLAY: tuning.cpp:[[@LINE+15]]:3, sizes 13, on weft simulator (sim, {{[0-9]+}} multiprocessors): 6 configurations (6 timed), best {{[0-9.]+}} us
// REPLAY-NEXT: exhaustive 95% of best after {{[0-9.]+}} configurations; within 20: 100.0% of best
// LAZY: tuning.cpp:[[@LINE+13]]:3: tuning 13: mapping 0: WEFT_BLOCK_X=256: {{[0-9.]+}} us
// LAZY: tuning.cpp:[[@LINE+12]]:3: tuning 13: mapping 0: WEFT_BLOCK_X={{32|64|128|512}}: {{[0-9.]+}} us
// LAZY-NOT: tuned
// LAZY: loop at {{.*}}tuning.cpp:[[@LINE+10]]:3: sizes 13: still tuning, 2 of 6 configurations timed; fastest so far mapping 0: WEFT_BLOCK_X=
// AHEAD: tuning.cpp:[[@LINE+9]]:3: tuning 13: mapping 0: WEFT_BLOCK_X=256: {{[0-9.]+}} us
// AHEAD-NEXT: tuning.cpp:[[@LINE+8]]:3: tuning 13: compiling mapping 0: WEFT_BLOCK_X={{32|64|128|512}} in the background
// AHEAD-NEXT: tuning.cpp:[[@LINE+7]]:3: kernel weft_tuning_L[[@LINE+7]]_{{[0-9a-f]+}}: grid (20, 1, 1) x block (256, 1, 1)
// AHEAD-NOT: tuned
// AHEAD: loop at {{.*}}tuning.cpp:[[@LINE+5]]:3: sizes 13: still tuning
// BAD: WEFT_TUNE: 'budget=x' ignored
// BAD: WEFT_TUNE: 'sideways' ignored
void relax(std::span<const float> in, std::span<float> out) {
#pragma weft parallel for
  for (std::size_t i = 1; i + 1 < in.size(); ++i)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

double total(std::span<const float> v) {
  double s = 0;
#pragma weft parallel for reduction(+: s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * 0.001;
  return s;
}

int main() {
  std::vector<float> A(5000), B(5000, 0.0f);
  for (std::size_t I = 0; I < A.size(); ++I)
    A[I] = static_cast<float>((I * 7919) % 1000);
  double Sum = 0;
  for (int Step = 0; Step < 12; ++Step) {
    relax(A, B);
    relax(B, A);
    Sum += total(A);
  }
  std::printf("%.9g %.9g %.9g\n", A[17], A[2500], Sum);
}
