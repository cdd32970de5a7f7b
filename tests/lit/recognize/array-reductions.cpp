// reduction(op: a) naming an array, the histogram idiom of old C code:
// iterations combine into a's elements at subscripts known only at run
// time, each update one atomic step (weft::combine_into). Every operator
// and the update forms on 4- and 8-byte elements, 2-D and pointer data, an
// inner level that reduces, and an outer body's update under the warp and
// thread_block strategies (one update per iteration, not one per thread);
// on the checked simulator against the host, with the forms refused.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s 2> /dev/null | FileCheck %s
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe %weft_link -fplugin-arg-weft-emit-dir=%t.k
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
// RUN: env WEFT_BACKEND=sim WEFT_SIM_WARP=64 %t.exe > %t.sim64
// RUN: diff %t.host %t.sim64
// RUN: %weftxx -DRACY %s -o %t.racy %weft_link
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 not %t.racy 2>&1 | FileCheck %s --check-prefix=RACY
// RUN: not %weftxx -fsyntax-only -fno-caret-diagnostics -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
#include <weft/weft.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

// REMARK: remark: weft: level 0 (i): {{.*}}reduction(+: hist) combined by atomic updates of its elements
// CHECK: level 0 at {{.*}}, reduction(+: $hist, atomic)
// CHECK-NEXT: combine(+: $hist[unsigned long(($data[unsigned long(i)] % 16))], 1)
// KERNEL-DAG: weft::combine_into<weft::reduce_add>(hist.at(((unsigned long)(data.ld(((unsigned long)i)) % 16))), (int)(1));
// Without the clause the checker reports the race, and names the fix.
// RACY: weft: error: sim checker: loop iterations are not independent {{.*}} writes element {{[0-9]+}} of span 'hist', which {{.*}} writes; the loop is marked parallel, so their order is undefined; where each adds into it (a histogram), name the array in the mark: reduction(+: hist)
void histogram(const std::vector<int> &data, std::vector<int> &hist, int n) {
#ifdef RACY
#pragma weft parallel for
#else
#pragma weft parallel for reduction(+: hist)
#endif
  for (int i = 0; i < n; ++i)
    ++hist[data[i] % 16];
}

// k-means' new centres: sums and sizes per cluster, the feature loop
// sequential inside.
// CHECK: level 0 at {{.*}}, reduction(+: $sums, atomic), reduction(+: $sizes, atomic)
void centres(std::span<const float> points, std::span<const int> member,
             std::vector<float> &sums, std::vector<int> &sizes, int n,
             int features) {
#pragma weft parallel for reduction(+: sums, sizes)
  for (int p = 0; p < n; ++p) {
    const int c = member[p];
    sizes[c]++;
    for (int f = 0; f < features; ++f)
      sums[c * features + f] += points[p * features + f];
  }
}

// Every operator, every update form; values chosen so that any order of
// the updates gives the host's bits (sums of halves, products of powers of
// two, modular integers).
// CHECK: level 0 at {{.*}}, reduction(+: $sum, atomic), reduction(+: $count, atomic), reduction(min: $lowest, atomic), reduction(min: $least, atomic), reduction(max: $highest, atomic), reduction(max: $most, atomic), reduction(*: $scaled, atomic), reduction(*: $product, atomic), reduction(|: $any, atomic), reduction(&: $all, atomic), reduction(^: $parity, atomic)
void everyOperator(std::span<const int> data, std::vector<double> &sum,
                   std::vector<float> &lowest, std::vector<float> &highest,
                   std::vector<float> &scaled, std::vector<long long> &most,
                   std::vector<long long> &least, std::vector<unsigned> &any,
                   std::vector<unsigned> &all, std::vector<unsigned> &parity,
                   std::vector<unsigned long long> &product,
                   std::vector<int> &count, int n) {
#pragma weft parallel for reduction(+: sum, count) reduction(min: lowest, least) \
    reduction(max: highest, most) reduction(*: scaled, product) \
    reduction(|: any) reduction(&: all) reduction(^: parity)
  for (int i = 0; i < n; ++i) {
    const int b = data[i] % 5;
    const float v = static_cast<float>(data[i] % 23) - 11.0f;
    sum[b] -= 0.5 * i;
    sum[b + 5] = sum[b + 5] + 0.25;
    sum[b + 10] = 1.5 + sum[b + 10];
    sum[b + 15] = sum[b + 15] - 2.0;
    count[b]--;
    --count[b + 5];
    count[b + 10] += i % 3;
    lowest[b] = std::min(lowest[b], v);
    lowest[b + 5] = fminf(v * 2, lowest[b + 5]);
    least[b] = std::min(least[b], static_cast<long long>(data[i]) - 1000);
    highest[b] = std::max(v, highest[b]);
    highest[b + 5] = std::fmax(highest[b + 5], -v);
    most[b] = std::max(most[b], -static_cast<long long>(data[i]) * i);
    scaled[b] *= (i % 2 ? 2.0f : 0.5f);
    product[b] = product[b] * static_cast<unsigned long long>(i % 7 + 1);
    any[i / 32] |= 1u << (i % 32);
    all[b] &= ~(1u << (i % 29));
    parity[b] ^= static_cast<unsigned>(data[i]);
  }
}

// The guarded and conditional forms old code writes for a maximum and a
// minimum.
// CHECK: level 0 at {{.*}}, reduction(max: $hi, atomic), reduction(min: $lo, atomic)
// CHECK-NEXT: decl const int b
// CHECK-NEXT: decl const double v
// CHECK-NEXT: combine(max: $hi[unsigned long(b)], $data[unsigned long(i)])
// CHECK-NEXT: combine(max: $hi[unsigned long((b + 6))], (i % 50))
// CHECK-NEXT: combine(min: $lo[unsigned long(b)], v)
// CHECK-NEXT: combine(min: $lo[unsigned long((b + 6))], (-v))
void guardedForms(std::span<const int> data, std::vector<int> &hi,
                  std::vector<double> &lo, int n) {
#pragma weft parallel for reduction(max: hi) reduction(min: lo)
  for (int i = 0; i < n; ++i) {
    const int b = data[i] % 6;
    const double v = (data[i] % 37) * 0.5 - 9;
    if (data[i] > hi[b])
      hi[b] = data[i];
    if (hi[b + 6] <= i % 50) {
      hi[b + 6] = i % 50;
    }
    lo[b] = v < lo[b] ? v : lo[b];
    lo[b + 6] = lo[b + 6] > -v ? -v : lo[b + 6];
  }
}

// 2-D data and a pointer with its extent.
// CHECK: level 0 at {{.*}}, reduction(+: $grid, atomic), reduction(max: $peak, atomic)
int grid[4][8];
void twoDimensions(std::span<const int> data, int *peak, int n, int m) {
#pragma weft parallel for reduction(+: grid) reduction(max: peak) extent(peak: m)
  for (int i = 0; i < n; ++i) {
    grid[data[i] % 4][(data[i] / 4) % 8] += 1;
    peak[i % m] = std::max(peak[i % m], data[i]);
  }
}

// An inner level reduces; the outer one reads other data only.
// REMARK: remark: weft: level 1 (j): {{.*}}reduction(+: counts) combined by atomic updates of its elements
void innerLevel(std::span<const int> a, std::vector<int> &counts, int n,
                int m) {
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    const int shift = i % 3;
#pragma weft parallel for reduction(+: counts)
    for (int j = 0; j < m; ++j)
      counts[(a[i * m + j] >> shift) % 10] += 1;
  }
}

// The outer body's update after an inner level's sum: made once per row
// under every strategy, though a warp or a block runs the row.
// KERNEL-DAG: if (weft::thread_idx(0) == 0)
void rowSums(std::span<const int> a, std::vector<int> &byRemainder,
             std::vector<int> &rows, int n, int m) {
#pragma weft parallel for strategy(warp) reduction(+: byRemainder)
  for (int i = 0; i < n; ++i) {
    int s = 0;
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < m; ++j)
      s += a[i * m + j];
    byRemainder[s % 7] += 1;
  }
#pragma weft parallel for strategy(thread_block) reduction(+: rows)
  for (int i = 0; i < n; ++i) {
    int s = 0;
#pragma weft parallel for reduction(+: s)
    for (int j = 0; j < m; ++j)
      s += a[i * m + j] % 5;
    rows[s % 3] += s;
  }
}

// Split(k) of a level that updates the array itself: each update once.
void splitLevel(std::span<const int> a, std::vector<int> &bins,
                std::vector<int> &sums, int n, int m) {
#pragma weft parallel for reduction(+: bins)
  for (int i = 0; i < n; ++i) {
    int s = 0;
#pragma weft parallel for reduction(+: s) split(4)
    for (int j = 0; j < m; ++j) {
      s += a[i * m + j];
      bins[a[i * m + j] % 5] += 1;
    }
    sums[i] = s;
  }
}

#ifdef REFUSED
void refused(std::span<const int> data, std::vector<int> &hist,
             std::vector<short> &small, std::vector<float> &f,
             std::span<const int> fixed, std::vector<bool> &flags,
             int n, int m) {
  // REFUSED: array-reductions.cpp:[[@LINE+3]]:5: error: '&&' cannot reduce array 'hist'
#pragma weft parallel for reduction(&&: hist)
  for (int i = 0; i < n; ++i)
    hist[data[i] % 4] += 1;
  // REFUSED: array-reductions.cpp:[[@LINE+3]]:5: error: the elements of array 'small' cannot be reduced with '+' as short
#pragma weft parallel for reduction(+: small)
  for (int i = 0; i < n; ++i)
    small[data[i] % 4] += 1;
  // REFUSED: array-reductions.cpp:[[@LINE+3]]:5: error: the elements of array 'f' cannot be reduced with '|' as float
#pragma weft parallel for reduction(|: f)
  for (int i = 0; i < n; ++i)
    f[data[i] % 4] += 1;
  // REFUSED: array-reductions.cpp:[[@LINE+3]]:15: error: array 'fixed' has const elements, so the loop cannot reduce into them
#pragma weft parallel for reduction(+: hist, fixed)
  for (int i = 0; i < n; ++i)
    hist[i] = fixed[data[i] % 4];
  // REFUSED: array-reductions.cpp:[[@LINE+4]]:9: error: array 'hist' is reduced by a loop of this nest, so the nest may only combine into its elements
  // REFUSED-NEXT: note: read it after the nest, or combine into it in the reducing loop: 'hist[e] += x', '++hist[e]'
#pragma weft parallel for reduction(+: hist)
  for (int i = 0; i < n; ++i)
    if (hist[data[i] % 4] < 3)
      hist[data[i] % 4] += 1;
  // REFUSED: array-reductions.cpp:[[@LINE+3]]:17: error: array 'hist' is reduced by a loop of this nest, so the nest may only combine into its elements
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    int first = hist[i];
#pragma weft parallel for reduction(+: hist)
    for (int j = 0; j < m; ++j)
      hist[(first + j) % 8] += 1;
  }
  // REFUSED: array-reductions.cpp:[[@LINE+4]]:7: error: array 'hist' is reduced by a loop of this nest, so the nest may only combine into its elements
#pragma weft parallel for
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k)
      hist[k] += 1;
#pragma weft parallel for reduction(+: hist)
    for (int j = 0; j < m; ++j)
      hist[j % 8] += 1;
  }
  // REFUSED: array-reductions.cpp:[[@LINE+4]]:23: error: array 'hist' is reduced with '+': inside the loop its elements may only be combined so
  // REFUSED-NEXT: note: write 'hist[e] += x', '++hist[e]'
#pragma weft parallel for reduction(+: hist)
  for (int i = 0; i < n; ++i)
    hist[data[i] % 4] *= 2;
  // A guard that keeps the larger value under reduction(min):
  // REFUSED: array-reductions.cpp:[[@LINE+5]]:25: error: array 'hist' is reduced with 'min': inside the loop its elements may only be combined so
  // REFUSED-NEXT: note: write 'hist[e] = std::min(hist[e], x)', 'if (x < hist[e]) hist[e] = x;'
#pragma weft parallel for reduction(min: hist)
  for (int i = 0; i < n; ++i)
    if (i > hist[data[i] % 4])
      hist[data[i] % 4] = i;
  // REFUSED: array-reductions.cpp:[[@LINE+3]]:23: error: array 'hist' is reduced with 'max': inside the loop its elements may only be combined so
#pragma weft parallel for reduction(max: hist)
  for (int i = 0; i < n; ++i)
    hist[data[i] % 4] = std::min(hist[data[i] % 4], i);
  // REFUSED: array-reductions.cpp:[[@LINE+3]]:32: error: the value of an update of 'hist', which the loop reduces, cannot be used
#pragma weft parallel for reduction(+: hist)
  for (int i = 0; i < n; ++i) {
    int old = hist[data[i] % 4]++;
    hist[0] += old;
  }
  // REFUSED: array-reductions.cpp:[[@LINE+4]]:26: error: a floating value combined into integer array 'hist' is rounded at each update, which the combining order would change
  // REFUSED-NEXT: note: convert it first: 'hist[e] += (int)x'
#pragma weft parallel for reduction(+: hist)
  for (int i = 0; i < n; ++i)
    hist[data[i] % 4] += 0.5f * i;
  // REFUSED: array-reductions.cpp:[[@LINE+2]]:3: error: split(k) cannot divide level 1: an array reduction's update around it would be made once per block of the split; drop split(k)
#pragma weft parallel for reduction(+: hist)
  for (int i = 0; i < n; ++i) {
    int s = 0;
#pragma weft parallel for reduction(+: s) split(4)
    for (int j = 0; j < m; ++j)
      s += data[j];
    hist[s % 4] += 1;
  }
  // REFUSED: array-reductions.cpp:[[@LINE+3]]:5: error: 'flags' of type 'std::vector<bool>' cannot be captured
#pragma weft parallel for reduction(|: flags)
  for (int i = 0; i < n; ++i)
    flags[data[i] % 4] = true;
}
#endif

template <class T> void print(const char *Name, const std::vector<T> &V) {
  std::printf("%s:", Name);
  for (const T &X : V)
    std::printf(" %.17g", static_cast<double>(X));
  std::printf("\n");
}

int main() {
  for (int n : {1, 17, 1000, 4099}) {
    std::vector<int> data(n);
    for (int i = 0; i < n; ++i)
      data[i] = (i * 7919 + 13) % 1009;
    std::vector<int> hist(16, 3);
    histogram(data, hist, n);
    print("hist", hist);

    const int features = 5, k = 3;
    std::vector<float> points(n * features);
    std::vector<int> member(n);
    for (int i = 0; i < n * features; ++i)
      points[i] = static_cast<float>(i % 17) * 0.5f;
    for (int i = 0; i < n; ++i)
      member[i] = data[i] % k;
    std::vector<float> sums(k * features, 0.0f);
    std::vector<int> sizes(k, 0);
    centres(points, member, sums, sizes, n, features);
    print("sums", sums);
    print("sizes", sizes);

    std::vector<double> sum(20, 1.0);
    std::vector<float> lowest(10, 100.0f), highest(10, -100.0f),
        scaled(5, 1.0f);
    std::vector<long long> most(5, -1), least(5, 7);
    std::vector<unsigned> any((n + 31) / 32, 0), all(5, ~0u), parity(5, 1);
    std::vector<unsigned long long> product(5, 3);
    std::vector<int> count(15, 0);
    everyOperator(data, sum, lowest, highest, scaled, most, least, any, all,
                  parity, product, count, n);
    print("sum", sum);
    print("lowest", lowest);
    print("highest", highest);
    print("scaled", scaled);
    print("most", most);
    print("least", least);
    print("any", any);
    print("all", all);
    print("parity", parity);
    print("product", product);
    print("count", count);

    std::vector<int> hi(12, -1);
    std::vector<double> lo(12, 3.0);
    guardedForms(data, hi, lo, n);
    print("hi", hi);
    print("lo", lo);

    const int m = 6;
    std::vector<int> peak(m, -5);
    for (auto &Row : grid)
      for (int &G : Row)
        G = 0;
    twoDimensions(data, peak.data(), n, m);
    std::vector<int> flat(&grid[0][0], &grid[0][0] + 32);
    print("grid", flat);
    print("peak", peak);

    const int rowsOf = 13;
    std::vector<int> a(n * rowsOf);
    for (int i = 0; i < n * rowsOf; ++i)
      a[i] = (i * 31 + 7) % 97;
    std::vector<int> counts(10, 0), byRemainder(7, 0), rows(3, 0);
    innerLevel(a, counts, n, rowsOf);
    rowSums(a, byRemainder, rows, n, rowsOf);
    std::vector<int> bins(5, 0), rowTotals(n, 0);
    splitLevel(a, bins, rowTotals, n, rowsOf);
    print("bins", bins);
    print("rowTotals", rowTotals);
    print("counts", counts);
    print("byRemainder", byRemainder);
    print("rows", rows);
  }
}
