// Loops a program already marks for OpenMP, built with -fopenmp, are
// weft's marked loops: `#pragma omp parallel for` (and `parallel for simd`,
// `parallel loop`) with its reduction, collapse, if, private and
// firstprivate clauses read as weft's, `#pragma omp atomic` updates as
// reductions (an array's, where they update elements), and the directive
// kept as the loop that runs where no launch does. The file does not
// include <weft/weft.hpp>: the plugin includes it. What weft cannot take
// stays with OpenMP, which a remark says (no error: the program is
// OpenMP's); -fplugin-arg-weft-openmp=off leaves every loop to OpenMP.
// Each result is checked on the checked simulator against the host (the
// OpenMP loops behind the launches) and against the build without the
// plugin, all built as C++17 (as OpenMP programs often are); the remarks
// are the same in C++20, and in C++14 every loop stays with OpenMP.
// REQUIRES: openmp
// RUN: %weftxx -fopenmp -fsyntax-only -fno-caret-diagnostics -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %weftxx -fopenmp -std=c++17 %s -o %t.exe %weft_link %openmp_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: FileCheck %s --check-prefix=RAN < %t.err
// RUN: FileCheck %s --check-prefix=DATA < %t.err
// RUN: diff %t.host %t.sim
// RUN: %clangxx -fopenmp -std=c++17 %s -o %t.plain %openmp_link && %t.plain | diff %t.host -
// RUN: %weftxx -fopenmp -fsyntax-only -fplugin-arg-weft-remarks -fplugin-arg-weft-openmp=off %s 2>&1 | count 0
// RUN: %weftxx -fopenmp -std=c++17 -fsyntax-only -fno-caret-diagnostics -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %weftxx -fopenmp -std=c++14 -fsyntax-only -fno-caret-diagnostics -fplugin-arg-weft-remarks %s 2>&1 | FileCheck %s --check-prefix=CXX14
#include <cmath>
#include <cstdio>
#include <vector>

// CXX14: openmp-loops.cpp:{{[0-9]+}}:1: remark: weft: this OpenMP loop stays with OpenMP: weft takes OpenMP loops in C++17 and later
// CXX14-NEXT: note: compile with -std=c++17

// C89: the loop's variables declared at the top, private(...) to OpenMP,
// are private to each iteration (as weft finds them without the clause).
// CHECK: openmp-loops.cpp:[[@LINE+6]]:3: remark: weft: level 0 (i): {{.*}}kernel weft_openmp_loops_L[[@LINE+6]]_
// CHECK: openmp-loops.cpp:[[@LINE+6]]:5: remark: weft: level 1 (j): {{.*}}not marked, found parallel
void matmul(const double *a, const double *b, double *c, int n) {
  int i, j, k;
  double sum;
#pragma omp parallel for private(j, k, sum) schedule(static)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      sum = 0.0;
      for (k = 0; k < n; k++)
        sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}

// CHECK: openmp-loops.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i): {{.*}}reduction(+: s) combined per block{{.*}}, launched when n > 100 (else the loop runs on the host)
double dot(const double *a, const double *b, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) if (n > 100) num_threads(4)
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

// OpenMP's `-` adds the partial results, as `+` does.
// CHECK: openmp-loops.cpp:[[@LINE+5]]:3: remark: weft: level 0 (i): {{.*}}reduction(max: m) combined{{.*}}reduction(+: d) combined
float maxAndDebt(const float *a, int n, float &debt) {
  float m = -1e30f;
  float d = 0;
#pragma omp parallel for reduction(max : m) reduction(- : d) default(shared)
  for (int i = 0; i < n; ++i) {
    m = std::fmax(m, a[i]);
    d -= a[i];
  }
  debt = d;
  return m;
}

// collapse(2): the inner loop is a level as if marked.
// CHECK: openmp-loops.cpp:[[@LINE+5]]:3: remark: weft: level 0 (i):
// CHECK-NOT: found parallel
// CHECK: openmp-loops.cpp:[[@LINE+4]]:5: remark: weft: level 1 (j): dim x
void fill(float *o, int n, int m) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      o[i * m + j] = float(i * 3 + j);
}

// Atomic updates of a histogram's bins are an array's reduction; of a
// counter, a variable's.
// CHECK: openmp-loops.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}reduction(+: bins) combined by atomic updates of its elements
void histogram(const std::vector<int> &x, std::vector<int> &bins) {
#pragma omp parallel for schedule(dynamic, 4)
  for (std::size_t i = 0; i < x.size(); ++i) {
#pragma omp atomic
    bins[x[i] % bins.size()] += 1;
  }
}
// CHECK: openmp-loops.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i): {{.*}}reduction(+: positive) from its updates
int countPositive(const float *a, int n) {
  int positive = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    if (a[i] > 0) {
#pragma omp atomic update
      positive++;
    }
  return positive;
}

// firstprivate of a value the loop only reads; parallel for simd; a
// template's instantiation; a range-based loop.
// CHECK: openmp-loops.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i):
void scaled(const float *a, float *b, int n, float scale) {
#pragma omp parallel for simd firstprivate(scale) simdlen(8)
  for (int i = 0; i < n; ++i)
    b[i] = a[i] * scale;
}
// CHECK: openmp-loops.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}, launched when n > 8 (else the loop runs on the host)
template <class T> void halve(T *o, int n) {
#pragma omp parallel for if (parallel : n > 8)
  for (int i = 0; i < n; ++i)
    o[i] /= T(2);
}
template void halve<float>(float *, int);
// CHECK: openmp-loops.cpp:[[@LINE+3]]:3: remark: weft: level 0
void affine(std::vector<float> &v) {
#pragma omp parallel loop
  for (float &x : v)
    x = x * 3 + 1;
}

// Data in a class reached through its accessor: the launch names the
// class's member where the directive is (inside its region the reference
// is a capture of the region's; named so outside it, code generation
// failed).
struct Store {
  std::vector<float> V;
  float &operator[](int I) { return V[I]; }
  const float &operator[](int I) const { return V[I]; }
};
// CHECK: openmp-loops.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i):
void copyScaled(const Store &In, Store &Out, int n) {
#pragma omp parallel for
  for (int i = n - 1; i > -1; i--)
    Out[i] = In[i] * 2 + 1;
}

// A parallel region holding one worksharing loop is a parallel for: its
// clauses and the loop's; the region stays as the fallback.
// CHECK: openmp-loops.cpp:[[@LINE+6]]:5: remark: weft: level 0 (i): {{.*}}reduction(+: s) combined
float regionOfOneLoop(const float *a, float *o, int n, float scale) {
  float s = 0;
#pragma omp parallel shared(o) firstprivate(scale) if (n > 4)
  {
#pragma omp for reduction(+ : s) schedule(static) nowait
    for (int i = 0; i < n; ++i) {
      o[i] = a[i] * scale;
      s += a[i];
    }
  }
  return s;
}
// A region of several worksharing loops: its team launches each one
// (tests/lit/syntax/openmp-regions.cpp).
// CHECK: openmp-loops.cpp:[[@LINE+6]]:5: remark: weft: level 0 (i):
// CHECK: openmp-loops.cpp:[[@LINE+8]]:5: remark: weft: level 0 (i):
void regionOfTwoLoops(float *o, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      o[i] = float(i);
#pragma omp for
    for (int i = 0; i < n; ++i)
      o[i] += 1;
  }
}

// A weft mark under the directive says how weft maps the loop; the
// directive stays its fallback.
// CHECK: openmp-loops.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i): dim x, block 64
void marked(float *o, int n) {
#pragma omp parallel for
#pragma weft parallel for block(64)
  for (int i = 0; i < n; ++i)
    o[i] = float(i % 5);
}

// What stays with OpenMP, and why.
// CHECK: openmp-loops.cpp:[[@LINE+4]]:26: remark: weft: this OpenMP loop stays with OpenMP: weft does not take the 'lastprivate' clause of '#pragma omp parallel for'
// CHECK-NEXT: note: set the variable after the loop from the last iteration
float lastOne(const float *a, float *b, int n) {
  float t = 0;
#pragma omp parallel for lastprivate(t)
  for (int i = 0; i < n; ++i) {
    t = a[i] * 2;
    b[i] = t;
  }
  return t;
}
// CHECK: openmp-loops.cpp:[[@LINE+5]]:5: remark: weft: this OpenMP loop stays with OpenMP: 't' is each OpenMP thread's own (private), yet the loop combines into it
float privateSum(const float *a, int n) {
  float t = 0;
#pragma omp parallel for private(t)
  for (int i = 0; i < n; ++i)
    t += a[i];
  return t;
}
// `#pragma omp simd` over an inner loop: the loop, a level where weft
// proves it one, else in order in each thread (a row's sum).
// CHECK: openmp-loops.cpp:[[@LINE+6]]:3: remark: weft: level 0 (i):
// CHECK: openmp-loops.cpp:[[@LINE+7]]:5: remark: weft: level 1 (j): {{.*}}not marked, found parallel
// CHECK: openmp-loops.cpp:[[@LINE+12]]:3: remark: weft: level 0 (i): {{.*}}kernel
// CHECK-NOT: level 1
void simdInside(float *o, const float *a, int n, int m) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp simd simdlen(8)
    for (int j = 0; j < m; ++j)
      o[i * m + j] = a[i * m + j] * 2;
  }
}
void rowSums(const float *a, float *sums, int n, int m) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    float s = 0;
#pragma omp simd reduction(+ : s)
    for (int j = 0; j < m; ++j)
      s += a[i * m + j];
    sums[i] = s;
  }
}
// CHECK: openmp-loops.cpp:[[@LINE+4]]:1: remark: weft: this OpenMP loop stays with OpenMP: '#pragma omp critical' is not supported inside a weft nest
void critical(const float *a, int n, float &best) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical
    {
      if (a[i] > best)
        best = a[i];
    }
  }
}
// A reduction clause on a value each iteration sets first before it adds
// (Rodinia's backprop writes one on its layer's scratch sum): private to
// the iteration, where nothing after the directive reads it; read after,
// the directive's combining is the program's, and it stays with OpenMP.
// CHECK: openmp-loops.cpp:[[@LINE+6]]:3: remark: weft: level 0 (j): {{.*}}kernel weft_openmp_loops_L[[@LINE+6]]_
// CHECK-NOT: reduction(+: sum)
void layerForward(const float *in, const float *w, float *out, int n1, int n2) {
  float sum;
  int j, k;
#pragma omp parallel for shared(in, w, out) private(k) reduction(+ : sum) schedule(static)
  for (j = 1; j <= n2; j++) {
    sum = 0.0;
    for (k = 0; k <= n1; k++)
      sum += w[k * (n2 + 1) + j] * in[k];
    out[j] = 1.0f / (1.0f + std::exp(-sum));
  }
}
// Rodinia backprop's bpnn_layerforward itself: the weights a float ** of
// rows, gathered by the bounds of its subscripts.
// CHECK: openmp-loops.cpp:[[@LINE+9]]:3: remark: weft: level 0 (j): {{.*}}rows conn without an extent: its subscripts reach rows 0 to n1 and columns 0 to n2, which the launch gathers
static float squash(float x) { return 1.0f / (1.0f + std::exp(-x)); }
void bpnnLayerforward(float *l1, float *l2, float **conn, int n1, int n2) {
  float sum;
  int j, k;
  /*** Set up thresholding unit ***/
  l1[0] = 1.0;
#pragma omp parallel for shared(conn, n1, n2, l1) private(k, j) reduction(+ : sum) schedule(static)
  /*** For each unit in second layer ***/
  for (j = 1; j <= n2; j++) {
    /*** Compute weighted sum of its inputs ***/
    sum = 0.0;
    for (k = 0; k <= n1; k++) {
      sum += conn[k][j] * l1[k];
    }
    l2[j] = squash(sum);
  }
}
// CHECK: openmp-loops.cpp:[[@LINE+6]]:5: remark: weft: this OpenMP loop stays with OpenMP: each iteration sets 'sum' anew, so the directive's reduction combines the last value of each OpenMP thread; the value the loop leaves in it is read after the loop
// CHECK-NEXT: note: declare 'sum' inside the loop if its value after the loop is unused
float scratchReadAfter(const float *a, float *o, int n) {
  float sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i) {
    sum = a[i] * 2;
    o[i] = sum;
  }
  return sum;
}
// Target directives' loops: launched where OpenMP holds none of their data
// on a device (its offload runtime says; this program stands in for it,
// with a device 1 that holds Mapped), else the directive runs. Not where
// the loop writes what a map clause moves to the device alone, nor where
// it reads a declare-target variable (whose device copy the region reads).
static const void *Mapped = nullptr;
extern "C" int omp_target_is_present(const void *P, int Device) {
  return Device == 1 && P && P == Mapped;
}
extern "C" int omp_get_default_device(void) { return 1; }
// CHECK: openmp-loops.cpp:[[@LINE+3]]:3: remark: weft: level 0 (i): {{.*}}, where OpenMP holds none of the loop's data on a device (else the directive runs, on OpenMP's offload)
void offloaded(const float *a, float *o, int n) {
#pragma omp target teams distribute parallel for map(to : a[0 : n]) map(from : o[0 : n]) num_teams(8) thread_limit(64)
  for (int i = 0; i < n; ++i)
    o[i] = a[i] * 2 + float(i);
}
// A weft mark under a target directive: launched under the same test.
// CHECK: openmp-loops.cpp:[[@LINE+4]]:3: remark: weft: level 0 (i): dim x, block 128{{.*}}, where OpenMP holds none of the loop's data on a device
void offloadedMarked(float *o, int n) {
#pragma omp target parallel for map(tofrom : o[0 : n])
#pragma weft parallel for block(128)
  for (int i = 0; i < n; ++i)
    o[i] = o[i] + 1;
}
// CHECK: openmp-loops.cpp:[[@LINE+4]]:5: remark: weft: this OpenMP loop stays with OpenMP: the loop writes 'o', which the directive maps to the device alone (map(to) or map(alloc)): OpenMP never copies it back, and the launch would
void mappedIn(float *o, int n) {
#pragma omp target parallel for map(to : o[0 : n])
  for (int i = 0; i < n; ++i)
    o[i] = 0;
}
#pragma omp declare target
static float Table[4] = {1, 2, 3, 4};
#pragma omp end declare target
// CHECK: openmp-loops.cpp:[[@LINE+4]]:13: remark: weft: this OpenMP loop stays with OpenMP: 'Table' is declared for the device (declare target)
void declaredTarget(float *o, int n) {
#pragma omp target teams loop map(tofrom : o[0 : n])
  for (int i = 0; i < n; ++i)
    o[i] += Table[i % 4];
}
// CHECK: openmp-loops.cpp:[[@LINE+4]]:1: remark: weft: this OpenMP loop stays with OpenMP: weft takes atomic updates of a variable or of an element of an array a variable names
void atomicThrough(int *const *rows, const int *x, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    *rows[x[i]] += 1;
  }
}

// The eighteen loops weft takes run on the simulator (dot's second call, of 50,
// on the host by its if clause, offloaded's and offloadedMarked's second
// by their data on a device);
// those that stay with OpenMP never launch.
// RAN-COUNT-20: weft: loop at {{.*}}openmp-loops.cpp:{{[0-9]+}}:{{[35]}}: 1 calls on sim, {{[01]}} on the host
// RAN-NOT: weft: loop at
// DATA-COUNT-2: weft: loop at {{.*}}openmp-loops.cpp:{{[0-9]+}}:3: 1 calls on sim, 1 on the host (last: OpenMP holds its data on a device)
int main() {
  const int n = 48;
  std::vector<double> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = i % 7;
    b[i] = i % 5 - 2;
  }
  matmul(a.data(), b.data(), c.data(), n);
  double cs = 0;
  for (double v : c)
    cs += v;
  std::printf("matmul %g\n", cs);
  std::printf("dot %g %g\n", dot(a.data(), b.data(), n * n),
              dot(a.data(), b.data(), 50));

  std::vector<float> f(1000), g(1000);
  for (int i = 0; i < 1000; ++i)
    f[i] = float((i * 37) % 101 - 50);
  float debt = 0;
  const float m = maxAndDebt(f.data(), 1000, debt);
  std::printf("max %g debt %g\n", m, debt);

  std::vector<float> o(30 * 41);
  fill(o.data(), 30, 41);
  std::printf("fill %g %g\n", o[0], o[30 * 41 - 1]);

  std::vector<int> x(3000), bins(23);
  for (int i = 0; i < 3000; ++i)
    x[i] = (i * 13) % 97;
  histogram(x, bins);
  for (int v : bins)
    std::printf("%d ", v);
  std::printf("\npositive %d\n", countPositive(f.data(), 1000));

  scaled(f.data(), g.data(), 1000, 4.0f);
  halve(g.data(), 1000);
  affine(g);
  marked(o.data(), 30 * 41);
  std::printf("region %g", regionOfOneLoop(f.data(), g.data(), 1000, 0.5f));
  regionOfTwoLoops(o.data(), 30 * 41);
  std::printf(" %g %g\n", g[999], o[100]);
  Store In{f}, Out{std::vector<float>(1000)};
  copyScaled(In, Out, 1000);
  std::printf("store %g %g\n", Out[0], Out[999]);
  double gs = 0, os = 0;
  for (float v : g)
    gs += v;
  for (float v : o)
    os += v;
  std::printf("scaled %g marked %g\n", gs, os);

  std::printf("last %g\n", lastOne(f.data(), g.data(), 1000));
  std::printf("private %g\n", privateSum(f.data(), 1000));
  simdInside(o.data(), f.data(), 10, 41);
  std::vector<float> sums(24);
  rowSums(f.data(), sums.data(), 24, 41);
  float best = -100;
  critical(f.data(), 1000, best);
  offloaded(f.data(), g.data(), 1000);
  const float First = g[999];
  Mapped = f.data(); // as `#pragma omp target enter data` would
  offloaded(f.data(), g.data(), 500);
  Mapped = nullptr;
  offloadedMarked(g.data(), 1000);
  Mapped = g.data();
  offloadedMarked(g.data(), 1000);
  Mapped = nullptr;
  std::printf("target %g %g\n", First, g[499]);
  mappedIn(g.data(), 10);
  declaredTarget(g.data(), 10);
  std::printf("others %g %g %g %g %g\n", o[40], best, g[999], sums[0],
              sums[23]);
  std::vector<float> layer(11);
  layerForward(f.data(), g.data(), layer.data(), 30, 10);
  std::printf("layer %g %g %g\n", layer[1], layer[5], layer[10]);
  std::vector<float *> conn(31);
  for (int k = 0; k < 31; ++k)
    conn[k] = g.data() + 11 * k; // rows of 11 from one block
  bpnnLayerforward(f.data(), layer.data(), conn.data(), 30, 10);
  std::printf("bpnn %g %g %g\n", layer[1], layer[5], layer[10]);
  // (What it returns depends on OpenMP's threads.)
  (void)scratchReadAfter(f.data(), o.data(), 100);
  std::printf("scratch %g\n", o[99]);
}
