// reduction(argmax: v, at) and argmin: the value and index of the best
// element, as `if (x > v) { v = x; at = i; }` finds them, over the outermost
// level (the launch pairs the key with v and at) and an inner one (the
// enclosing level finishes it); ties where the serial loop puts them ('>'
// the first index, '>=' the last), NaNs never chosen, an initial value no
// element beats left alone. On the checked simulator (32- and 64-wide
// warps, a forced split) against the host; the forms refused.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2>&1 | FileCheck %s
// RUN: rm -rf %t.kernels && %weftxx -fsyntax-only -fplugin-arg-weft-emit-dir=%t.kernels %s
// RUN: cat %t.kernels/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_WARP=64 WEFT_SIM_CHECK=1 %t.exe > %t.sim64
// RUN: diff %t.host %t.sim64
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=1 %t.exe 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>
// The kernels reduce the key as any max or min, then pair it back.
// KERNEL: unsigned long long weft_argkey0 = weft::identity<weft::reduce_max, unsigned long long>();
// KERNEL: (weft_argkey0 = weft::max(weft_argkey0, weft::arg_key<true, true>(((float)v.ld({{.*}})), i)));
// KERNEL: weft::block_allreduce<weft::reduce_max>(weft_argkey0
// KERNEL: weft::arg_finish<true, true>(weft_argkey0, best, at);

#include <cmath>
#include <cstdio>
#include <vector>

// CHECK: nest at {{.*}}arg-reductions.cpp:[[@LINE+8]]
// CHECK: param 1 weft_argkey0: reduction target of unsigned long long
// CHECK: reduction(max: weft_argkey0)
// CHECK-NEXT: ($weft_argkey0 = weft::max($weft_argkey0, weft::arg_key<true, true>(float($v[unsigned long(i)]), i)))
int largestFirst(const std::vector<float> &v, float &Best) {
  float best = -INFINITY;
  int at = -1;
#pragma weft parallel for reduction(argmax: best, at)
  for (int i = 0; i < (int)v.size(); ++i)
    if (v[i] > best) {
      best = v[i];
      at = i;
    }
  Best = best;
  return at;
}

// The other order of the comparison and of the assignments, '>=': ties to
// the last index.
// CHECK: nest at {{.*}}arg-reductions.cpp:[[@LINE+6]]
// CHECK: weft::min($weft_argkey0, weft::arg_key<false, false>(int($v[unsigned long(i)]), i))
long smallestLast(std::span<const int> v) {
  int best = 1 << 30;
  long at = -7;
#pragma weft parallel for reduction(argmin: best, at)
  for (long i = 0; i < (long)v.size(); ++i)
    if (best >= v[i]) {
      at = i;
      best = v[i];
    }
  return at * 100000 + best;
}

// No element beats the initial value: v and at stay as they were.
int noneBetter(std::span<const unsigned char> v) {
  unsigned char best = 255;
  int at = 42;
#pragma weft parallel for reduction(argmax: best, at) split(4)
  for (int i = 0; i < (int)v.size(); ++i)
    if (v[i] > best) {
      best = v[i];
      at = i;
    }
  return at * 1000 + best;
}

// Per row, an inner level: the key starts empty before the level and is
// finished into the row's best and at after it.
// CHECK: nest at {{.*}}arg-reductions.cpp:[[@LINE+8]]
// CHECK: decl unsigned long long weft_argkey0 = 0ull
// CHECK-NEXT: level 1 {{.*}}, reduction(max: weft_argkey0)
// CHECK-NEXT: (weft_argkey0 = weft::max(weft_argkey0, weft::arg_key<true, true>(
// CHECK-NEXT: weft::arg_finish<true, true>(weft_argkey0, best, at)
void rowLargest(const std::vector<float> &a, std::vector<int> &where, int n,
                int m) {
#pragma weft parallel for
  for (int r = 0; r < n; ++r) {
    float best = a[r * m];
    int at = 0;
#pragma weft parallel for reduction(argmax: best, at)
    for (int c = 0; c < m; ++c)
      if (a[r * m + c] > best) {
        best = a[r * m + c];
        at = c;
      }
    where[r] = at;
  }
}

// Values of 64 bits take a key of two 64-bit halves (weft::key128), the
// value's order and the index: doubles a float could not tell apart, and
// integers beyond 32 bits.
// CHECK: nest at {{.*}}arg-reductions.cpp:[[@LINE+7]]
// CHECK: param 1 weft_argkey0: reduction target of weft::key128
// CHECK: weft::max($weft_argkey0, weft::arg_key<true, true>(double($v[unsigned long(i)]), i))
long largestDouble(std::span<const double> v, double &out) {
  double best = -1e300;
  long at = -1;
#pragma weft parallel for reduction(argmax: best, at)
  for (long i = 0; i < (long)v.size(); ++i)
    if (v[i] > best) {
      best = v[i];
      at = i;
    }
  out = best;
  return at;
}
long long smallestWide(std::span<const long long> v) {
  long long low = 0;
  int at = -1;
#pragma weft parallel for reduction(argmin: low, at)
  for (int i = 0; i < (int)v.size(); ++i)
    if (v[i] <= low) {
      low = v[i];
      at = i;
    }
  return low + at;
}
// An inner level: the key starts empty (the identity of min) before it.
// CHECK: nest at {{.*}}arg-reductions.cpp:[[@LINE+6]]
// CHECK: decl weft::key128 weft_argkey0 = weft::identity<weft::reduce_min, weft::key128>()
// CHECK: weft::arg_finish<false, true>(weft_argkey0, low, at)
void rowSmallestDouble(const std::vector<double> &a, std::vector<int> &where,
                       int n, int m) {
#pragma weft parallel for
  for (int r = 0; r < n; ++r) {
    double low = 1e300;
    int at = -1;
#pragma weft parallel for reduction(argmin: low, at)
    for (int c = 0; c < m; ++c)
      if (a[r * m + c] < low) {
        low = a[r * m + c];
        at = c;
      }
    where[r] = at;
  }
}

int main() {
  std::vector<float> v(10000);
  for (int i = 0; i < 10000; ++i)
    v[i] = (i * 37) % 1001; // 1000, several times
  v[5000] = NAN;
  v[77] = -0.0f;
  float Best;
  const int At = largestFirst(v, Best);
  std::vector<int> w(5000);
  for (int i = 0; i < 5000; ++i)
    w[i] = ((i * 53) % 97) - 40; // -40, many times
  std::vector<unsigned char> c(3000, 7);
  std::vector<float> m(30 * 700);
  for (int i = 0; i < 30 * 700; ++i)
    m[i] = (i * 7919) % 613;
  std::vector<int> where(30);
  rowLargest(m, where, 30, 700);
  std::printf("%d %g %ld %d\n", At, Best, smallestLast(w), noneBetter(c));
  for (int r = 0; r < 30; ++r)
    std::printf("%d ", where[r]);
  std::printf("\n");
  // 1 + k ulp: as floats all would be 1.
  std::vector<double> d(6000);
  for (int i = 0; i < 6000; ++i)
    d[i] = 1.0 + ((i * 37) % 101) * 2.220446049250313e-16;
  d[3000] = NAN;
  double BestD;
  const long AtD = largestDouble(d, BestD);
  std::vector<long long> l(4000);
  for (int i = 0; i < 4000; ++i)
    l[i] = -5000000000ll - (i * 53) % 89; // ties at the lowest, many times
  std::vector<double> dm(20 * 500);
  for (int i = 0; i < 20 * 500; ++i)
    dm[i] = 1.0 - ((i * 7919) % 613) * 2.220446049250313e-16;
  std::vector<int> whereD(20);
  rowSmallestDouble(dm, whereD, 20, 500);
  std::printf("%ld %.17g %lld\n", AtD, BestD, smallestWide(l));
  for (int r = 0; r < 20; ++r)
    std::printf("%d ", whereD[r]);
  std::printf("\n");
}
// RAN-COUNT-7: calls on sim, 0 on the host

#ifdef REFUSED
long double inLongDouble(std::span<const double> v) {
  long double best = 0;
  int at = 0;
#pragma weft parallel for reduction(argmax: best, at)
  for (int i = 0; i < (int)v.size(); ++i)
    if (v[i] > best) {
      best = v[i];
      at = i;
    }
  return best + at;
  // REFUSED: arg-reductions.cpp:[[@LINE-5]]:16: error: the value of reduction(argmax: best, at) must be a float, a double or an integer of at most 64 bits
}
int wrongWay(std::span<const float> v) {
  float best = 0;
  int at = 0;
#pragma weft parallel for reduction(argmax: best, at)
  for (int i = 0; i < (int)v.size(); ++i)
    if (v[i] < best) {
      best = v[i];
      at = i;
    }
  return at;
  // REFUSED: arg-reductions.cpp:[[@LINE-5]]:14: error: this comparison keeps the smaller value: argmax keeps the larger
}
int notTheIndex(std::span<const float> v) {
  float best = 0;
  int at = 0;
#pragma weft parallel for reduction(argmax: best, at)
  for (int i = 0; i < (int)v.size(); ++i)
    if (v[i] > best) {
      best = v[i];
      at = i + 1;
    }
  return at;
  // REFUSED: arg-reductions.cpp:[[@LINE-5]]:5: error: 'best' and 'at' of reduction(argmax: ...) must be set together, to the compared value and the loop's index
}
int usedElsewhere(std::span<const float> v, std::span<int> out) {
  float best = 0;
  int at = 0;
#pragma weft parallel for reduction(argmax: best, at)
  for (int i = 0; i < (int)v.size(); ++i) {
    if (v[i] > best) {
      best = v[i];
      at = i;
    }
    out[i] = at;
  }
  return at;
  // REFUSED: arg-reductions.cpp:[[@LINE-3]]:14: error: 'at' of reduction(argmax: ...) can be used in the loop only to find the best element
}
int indexUnused(std::span<float> v) {
  float best = 0;
  int at = 0;
#pragma weft parallel for reduction(argmax: best, at)
  for (int i = 0; i < (int)v.size(); ++i)
    v[i] = best;
  return at;
  // REFUSED: arg-reductions.cpp:[[@LINE-4]]:27: error: reduction variable 'at' is not used in the loop
}
int oneName(std::span<const float> v) {
  float best = 0;
#pragma weft parallel for reduction(argmax: best)
  for (int i = 0; i < (int)v.size(); ++i)
    if (v[i] > best)
      best = v[i];
  return best;
  // REFUSED: arg-reductions.cpp:[[@LINE-5]]:37: error: 'argmax' reduces a value and its index
}
#endif
