// heat: the steady temperatures of a plate whose edges are held at fixed
// temperatures (Laplace's equation by Jacobi sweeps until no point moves
// more than a tolerance), an OpenMP program as it was written for a
// multicore CPU: C89 locals, `private`, `collapse` and a `max` reduction.
// Ported by adding one line, the region that keeps the plate on the device
// between sweeps: built with -fopenmp and the plugin, weft takes its
// `#pragma omp parallel for` loops as marked loops, and OpenMP's threads
// run them where no launch does. Built without the plugin it is the
// OpenMP program it was (the time the speed line compares with).
// sample flags: -fopenmp
#include "Harness.h"

#include <cmath>
#include <string>
#include <vector>

namespace {

/// Sweeps T (N x N, its edges fixed) until no point changes by more than
/// Tolerance, or MaxSweeps times; returns the sweeps made.
int relax(std::vector<double> &T, int N, double Tolerance, int MaxSweeps) {
  std::vector<double> Next(T);
  int Sweep = 0;
  double Change = Tolerance + 1;
  int i, j;
#pragma weft region(T, Next)
  while (Change > Tolerance && Sweep < MaxSweeps) {
#pragma omp parallel for private(j) collapse(2)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        Next[i * N + j] = 0.25 * (T[(i - 1) * N + j] + T[(i + 1) * N + j] +
                                  T[i * N + j - 1] + T[i * N + j + 1]);
    Change = 0;
#pragma omp parallel for private(j) reduction(max : Change)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++) {
        double D = std::fabs(Next[i * N + j] - T[i * N + j]);
        if (D > Change)
          Change = D;
        T[i * N + j] = Next[i * N + j];
      }
    Sweep++;
  }
  return Sweep;
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int N = Opts.Small ? 48 : 2048, MaxSweeps = Opts.Small ? 300 : 1000;
  std::vector<double> T;
  int Sweeps = 0;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    // Hot along the top edge, warm spots on the left one, cold elsewhere.
    T.assign(static_cast<std::size_t>(N) * N, 0.0);
    for (int X = 0; X < N; ++X)
      T[X] = 100;
    for (int Y = 0; Y < N; ++Y)
      T[static_cast<std::size_t>(Y) * N] = (Y / 8) % 2 ? 40 : 0;
    Sweeps = relax(T, N, 1e-3, MaxSweeps);
  });
  T.push_back(Sweeps); // the same sweeps, or the results differ anyway
  return sample::finish(Opts, "heat",
                        std::to_string(N) + " x " + std::to_string(N) + ", " +
                            std::to_string(Sweeps) + " sweeps",
                        Ms, T, 1e-12);
}
