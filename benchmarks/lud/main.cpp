// main.cpp: weft's lud (samples/lud.cpp, compiled here with the plugin) against
// the hand-tuned blocked kernels of hand-tuned.cu, side by side in one run:
// the same matrix, the fastest of ten runs each (the three sides taking
// turns, so that a machine's drift touches all of them), the results
// compared; each side's time from the host's matrix to the host's matrix,
// and its kernels' alone (the data on the device, copies excluded).
// Beside the sample as ported (its diagonal block on the device, a
// sequential loop), the same with the diagonal block on the host (a round
// trip a step).
// Without an NVIDIA GPU the hand-tuned side reports SKIPPED (its kernels
// are still compiled by NVRTC for sm_90 where NVRTC is installed).
// Usage: lud HAND_TUNED_CU [N ...]   (default sizes 1024 2048 4096)

// The sample as it is, its main renamed: decompose() is what is measured.
#define main ludSampleMain
#include "../../samples/lud.cpp"
#undef main

#include "common/DriverSession.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int Runs = 10; // timed, after one that compiles
using weft::bench::CUdeviceptr;
using weft::bench::CUfunction;

// The sample's factorDiagonal without its marks: on the host.
void factorDiagonalOnHost(std::span<float> A, int N, int Offset) {
  for (int I = Offset; I < Offset + BlockSize; ++I) {
    for (int J = I; J < Offset + BlockSize; ++J) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[I * N + K] * A[K * N + J];
      A[I * N + J] -= Sum;
    }
    float Inverse = 1.0f / A[I * N + I];
    for (int J = I + 1; J < Offset + BlockSize; ++J) {
      float Sum = 0;
      for (int K = Offset; K < I; ++K)
        Sum += A[J * N + K] * A[K * N + I];
      A[J * N + I] = (A[J * N + I] - Sum) * Inverse;
    }
  }
}

// The sample with its diagonal block on the host: the block's round trip
// (one 2-D copy each way, two waits) a step.
void decomposeWithHostDiagonal(std::vector<float> &Matrix, int N) {
  std::span<float> A(Matrix);
  weft::region OnDevice(A);
  for (int Offset = 0; Offset < N; Offset += BlockSize) {
    auto Diagonal = weft::submatrix(A, N, Offset, Offset, BlockSize, BlockSize);
    OnDevice.update_host(Diagonal);
    factorDiagonalOnHost(A, N, Offset);
    OnDevice.update_device(Diagonal);
    if (Offset + BlockSize < N) {
      perimeter(A, N, Offset);
      updateTrailing(A, N, Offset);
    }
  }
}

double millisecondsSince(Clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - Start)
      .count();
}

// The sample's decompose() with its steps timed apart from the region's
// copies: weft's kernels alone.
void decomposeTimingSteps(std::vector<float> &Matrix, int N, double &StepsMs) {
  std::span<float> A(Matrix);
  weft::region OnDevice(A);
  weft::synchronize();
  const auto Start = Clock::now();
  for (int Offset = 0; Offset < N; Offset += BlockSize) {
    factorDiagonal(A, N, Offset);
    if (Offset + BlockSize < N) {
      perimeter(A, N, Offset);
      updateTrailing(A, N, Offset);
    }
  }
  weft::synchronize();
  StepsMs = millisecondsSince(Start);
}

// The sample's input for N.
std::vector<float> input(int N) {
  std::vector<float> A(static_cast<std::size_t>(N) * N);
  sample::Random Rng(37);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J)
      A[I * N + J] = Rng.uniform(0.0f, 1.0f) + (I == J ? N : 0);
  return A;
}

struct HandTuned {
  weft::bench::DriverSession Cuda;
  CUfunction Diagonal = nullptr, Perimeter = nullptr, Internal = nullptr;
  std::string Unavailable;

  void open(const std::string &Path) {
    std::ifstream In(Path);
    std::stringstream Text;
    Text << In.rdbuf();
    if (Text.str().empty()) {
      Unavailable = "cannot read " + Path;
      return;
    }
    Unavailable = Cuda.open();
    if (!Unavailable.empty()) {
      std::string Error = Cuda.compile(Text.str(), "hand-tuned.cu", "sm_90");
      Unavailable += Error.empty() ? "; its kernels compile with NVRTC for "
                                     "sm_90"
                                   : "; compiling its kernels: " + Error;
      return;
    }
    if (std::string Error = Cuda.compile(Text.str(), "hand-tuned.cu");
        !Error.empty()) {
      Unavailable = Error;
      return;
    }
    Diagonal = Cuda.function("ludDiagonal");
    Perimeter = Cuda.function("ludPerimeter");
    Internal = Cuda.function("ludInternal");
    if (!Diagonal || !Perimeter || !Internal)
      Unavailable = "a kernel is missing from hand-tuned.cu's module";
  }

  // Decomposes the N x N matrix at Device in place; false on a failed
  // launch.
  bool decompose(CUdeviceptr Device, int N) {
    for (int Offset = 0; Offset < N; Offset += BlockSize) {
      void *Params[] = {&Device, &N, &Offset};
      const unsigned Rest = (N - Offset) / BlockSize - 1;
      if (!Cuda.launch(Diagonal, 1, 1, 32, 32, Params))
        return false;
      if (Rest && (!Cuda.launch(Perimeter, Rest, 1, 64, 1, Params) ||
                   !Cuda.launch(Internal, Rest, Rest, 32, 8, Params)))
        return false;
    }
    return Cuda.synchronize();
  }
};

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::fprintf(stderr, "usage: %s HAND_TUNED_CU [N ...]\n", Argv[0]);
    return 2;
  }
  std::vector<int> Sizes;
  for (int I = 2; I < Argc; ++I)
    Sizes.push_back(std::atoi(Argv[I]));
  if (Sizes.empty())
    Sizes = {1024, 2048, 4096};
  HandTuned Hand;
  Hand.open(Argv[1]);
  std::printf("lud: weft on '%s' against hand-tuned blocked kernels "
              "(block %d), fastest of %d runs, the sides taking turns\n",
              weft::backendName(), BlockSize, Runs);
  if (!Hand.Unavailable.empty())
    std::printf("hand-tuned: SKIPPED (%s)\n", Hand.Unavailable.c_str());
  int Status = 0;
  for (int N : Sizes) {
    if (N % BlockSize) {
      std::printf("lud %d: SKIPPED (not a multiple of %d)\n", N, BlockSize);
      continue;
    }
    const std::vector<float> Input = input(N);
    const double Flops = 2.0 / 3.0 * N * N * N;
    const std::size_t Bytes = Input.size() * sizeof(float);
    const bool WithHand = Hand.Unavailable.empty();
    CUdeviceptr Device = WithHand ? Hand.Cuda.upload(nullptr, Bytes) : 0;
    bool Ok = !WithHand || Device != 0;
    std::vector<float> Weft, OnHost, Result(Input.size());
    double WeftMs = 1e300, StepsMs = 1e300, OnHostMs = 1e300;
    double HandMs = 1e300, KernelsMs = 1e300;
    // Run 0 compiles the kernels (and, tuned, starts the tuning).
    for (int Run = 0; Run <= Runs; ++Run) {
      Weft = Input;
      auto Start = Clock::now();
      decompose(Weft, N);
      weft::synchronize();
      const double Whole = millisecondsSince(Start);
      std::vector<float> Again = Input;
      double Steps = 0;
      decomposeTimingSteps(Again, N, Steps);
      OnHost = Input;
      Start = Clock::now();
      decomposeWithHostDiagonal(OnHost, N);
      weft::synchronize();
      const double WithHostDiagonal = millisecondsSince(Start);
      if (Run) {
        WeftMs = std::min(WeftMs, Whole);
        StepsMs = std::min(StepsMs, Steps);
        OnHostMs = std::min(OnHostMs, WithHostDiagonal);
      }
      if (!WithHand || !Ok)
        continue;
      // Timed as weft's is, from the host's matrix to the host's matrix
      // (its copies in and out included), and its kernels alone.
      Result = Input;
      Start = Clock::now();
      Ok = !Hand.Cuda.Api.MemcpyHtoD(Device, Result.data(), Bytes) &&
           Hand.Cuda.synchronize();
      auto KernelsStart = Clock::now();
      Ok = Ok && Hand.decompose(Device, N);
      const double Kernels = millisecondsSince(KernelsStart);
      Ok = Ok && Hand.Cuda.download(Result.data(), Device, Bytes);
      if (Run) {
        HandMs = std::min(HandMs, millisecondsSince(Start));
        KernelsMs = std::min(KernelsMs, Kernels);
      }
    }
    double Apart = 0;
    for (std::size_t I = 0; I < Weft.size(); ++I)
      Apart = std::max<double>(Apart, std::fabs(OnHost[I] - Weft[I]) /
                                          std::max(1.0f, std::fabs(Weft[I])));
    std::printf("lud %d: weft %.3f ms (%.1f GFLOP/s; its kernels alone %.3f "
                "ms); with the diagonal block on the host %.3f ms (results "
                "%s, max relative difference %.2g)",
                N, WeftMs, Flops / WeftMs / 1e6, StepsMs, OnHostMs,
                Apart <= 1e-3 ? "match" : "WRONG", Apart);
    Status |= Apart > 1e-3;
    if (!WithHand) {
      std::printf("\n");
      continue;
    }
    double MaxError = 0;
    for (std::size_t I = 0; Ok && I < Result.size(); ++I)
      MaxError =
          std::max<double>(MaxError, std::fabs(Result[I] - Weft[I]) /
                                         std::max(1.0f, std::fabs(Result[I])));
    const bool Same = Ok && MaxError <= 1e-3;
    std::printf(", hand-tuned %.3f ms (%.1f GFLOP/s; its kernels alone "
                "%.3f ms): weft/hand %.2f, kernels alone %.2f, with the "
                "diagonal on the host %.2f; results %s (max relative "
                "difference %.2g)\n",
                HandMs, Flops / HandMs / 1e6, KernelsMs, WeftMs / HandMs,
                StepsMs / KernelsMs, OnHostMs / HandMs,
                Same ? "match" : "WRONG", MaxError);
    Status |= !Same;
  }
  return Status;
}
