// if(condition): the loop runs on the device when the condition holds and
// the host loop runs otherwise, counted in weft::loop_stats with the reason.
// The condition is evaluated once, before the loop. Inside a region, a host
// loop finds the device's results on the host (the ranges it uses copied
// back first), and what it writes reaches the device before the next launch
// that needs it, and is not overwritten when the region ends.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=sim %t.exe | FileCheck %s --check-prefixes=CHECK,SIM
// RUN: env WEFT_BACKEND=host %t.exe | FileCheck %s --check-prefixes=CHECK,HOST
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

int Evaluations = 0;
int threshold() { return ++Evaluations, 64; }

void scale(std::span<float> V, int N, float A) {
  const int Limit = threshold();
#pragma weft parallel for if(N >= Limit)
  for (int I = 0; I < N; ++I)
    V[I] *= A;
}

struct Smoother {
  bool OnDevice = true;
  double MinWork = 1e3;
  // A member and a floating-point constant in the condition; the attribute
  // spelling; a nest.
  void run(std::span<const float> In, std::span<float> Out, int Rows,
           int Cols) {
    const double Work = double(Rows) * Cols;
    [[weft::parallel("if(OnDevice && Work > MinWork * 0.5)")]]
    for (int R = 0; R < Rows; ++R)
#pragma weft parallel for
      for (int C = 0; C < Cols; ++C)
        Out[R * Cols + C] = In[R * Cols + C] * 0.5f + R;
  }
};

// A sequential loop takes if() too.
void prefixSteps(std::span<float> V, int Steps, bool Device) {
#pragma weft sequential for if(Device)
  for (int S = 0; S < Steps; ++S) {
#pragma weft parallel for
    for (int I = 0; I < 32; ++I)
      V[I] += S;
  }
}

// A template's constants, in the condition and in an extent.
template <int MinSize, bool Enabled, std::size_t Size>
void fill(float *P, int N) {
#pragma weft parallel for if(Enabled && N >= MinSize) extent(P: Size)
  for (int I = 0; I < N; ++I)
    P[I] += I * 0.25f;
}

void report() {
  weft::loop_stats_t Loops[8];
  const std::size_t N = weft::loop_stats(Loops, 8);
  for (std::size_t I = 0; I < N && I < 8; ++I) {
    std::printf("%s: %llu on the device, %llu on the host",
                std::strstr(Loops[I].Location, "if-clause.cpp:"),
                Loops[I].DeviceRuns, Loops[I].HostRuns);
    if (Loops[I].HostReason)
      std::printf(" (%s)", Loops[I].HostReason);
    std::printf("\n");
  }
}

double checksum(const std::vector<float> &V) {
  double S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I] * double(I % 13 + 1);
  return S;
}

int main() {
  std::vector<float> X(256, 1.0f), Y(256, 0.0f);
  scale(X, 16, 2.0f);  // the host loop
  scale(X, 256, 3.0f); // the device
  std::printf("scaled: %.1f, condition evaluated %d times\n", checksum(X),
              Evaluations);
  // CHECK: scaled: 5613.0, condition evaluated 2 times

  Smoother Sm;
  Sm.run(X, Y, 16, 16); // 256 > 500: no, the host
  Sm.run(X, Y, 4, 32);  // the host
  Sm.MinWork = 10;
  Sm.run(X, Y, 16, 16); // the device
  Sm.OnDevice = false;
  Sm.run(X, Y, 16, 16); // the host
  std::printf("smoothed: %.1f\n", checksum(Y));
  // CHECK: smoothed: 16194.5

  // In a region: the device scales X; the host loop reads X and writes Y;
  // the device reads Y; the host loop writes X again before the region
  // ends, and the region keeps the host's X.
  {
    weft::region R(X, Y);
    const auto Before = weft::transfer_stats();
    scale(X, 256, 2.0f);  // device
    Sm.run(X, Y, 16, 16); // host: X back (1 KiB; no kernel wrote Y), Y host-newer
    Sm.OnDevice = true;
    Sm.run(Y, X, 16, 16); // device: Y to the device first (1 KiB)
    scale(X, 8, 10.0f);   // host: X back (1 KiB), X host-newer
    const auto After = weft::transfer_stats();
    std::printf("in the region: %llu bytes to the device, %llu to the host\n",
                After.ToDevice - Before.ToDevice, After.ToHost - Before.ToHost);
    // SIM: in the region: 1024 bytes to the device, 2048 to the host
    // HOST: in the region: 0 bytes to the device, 0 to the host
  }
  std::printf("after the region: %.1f %.1f\n", checksum(X), checksum(Y));
  // CHECK: after the region: 23860.5 19001.0

  std::vector<float> P(32, 0.0f);
  prefixSteps(P, 4, false);
  prefixSteps(P, 4, true);
  std::printf("steps: %.1f\n", checksum(P));
  // CHECK: steps: 2436.0

  // In a lambda, the variables it captures.
  int Limit = 16;
  auto Halve = [&P, Limit](int N) {
#pragma weft parallel for if(N > Limit)
    for (int I = 0; I < N; ++I)
      P[I] *= 0.5f;
  };
  Halve(32);
  Halve(8);
  std::printf("halved: %.1f\n", checksum(P));
  // CHECK: halved: 1110.0

  fill<8, true, 32>(P.data(), 32);  // the device
  fill<64, true, 32>(P.data(), 32); // the host
  fill<8, false, 32>(P.data(), 32); // the host
  std::printf("filled: %.1f\n", checksum(P));
  // CHECK: filled: 3551.2

  report();
  // SIM: if-clause.cpp:[[@LINE-121]]:3: 2 on the device, 2 on the host (its if clause was false)
  // SIM-NEXT: if-clause.cpp:[[@LINE-109]]:5: 2 on the device, 4 on the host (its if clause was false)
  // SIM-NEXT: if-clause.cpp:[[@LINE-100]]:3: 1 on the device, 1 on the host (its if clause was false)
  // SIM-NEXT: if-clause.cpp:[[@LINE-18]]:5: 1 on the device, 1 on the host (its if clause was false)
  // The instantiations' kernels are one: one loop.
  // SIM-NEXT: if-clause.cpp:[[@LINE-92]]:3: 1 on the device, 2 on the host (its if clause was false)
  // HOST: if-clause.cpp:[[@LINE-127]]:3: 0 on the device, 4 on the host (its if clause was false)
  // HOST-NEXT: if-clause.cpp:[[@LINE-115]]:5: 0 on the device, 6 on the host (WEFT_BACKEND=host)
}
