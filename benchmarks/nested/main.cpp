// main.cpp: weft on nested loops against hand-written CUDA, Lee et al.'s
// fixed mappings, OpenMP offload and OpenACC (and cuBLAS for the matrix
// products), side by side in one run: each round times one call of every
// variant in turn (launch and synchronize, data resident on the device),
// medians are compared, and every variant's result is checked against the
// loops built without the plugin. Memory-bound cases print GB/s and the
// fraction of a device-to-device copy measured in the same run; matrix
// products TFLOP/s.
// Usage: nested [--small] [--rounds N] HAND_WRITTEN.cu
#include "loops.h"
#include "peers.h"

#include "common/DriverSession.h"

#include <weft/weft.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using namespace weft::bench;
using Clock = std::chrono::steady_clock;

namespace {

using SumFn = void (*)(std::span<const float>, std::span<float>, int, int);
using MatmulFn = void (*)(std::span<const float>, std::span<const float>,
                          std::span<float>, int);
using MatmulAccFn = void (*)(std::span<const float>, std::span<const float>,
                             std::span<float>, int, float, float);
using MatmulRowsFn = void (*)(const std::vector<std::vector<float>> &,
                              const std::vector<std::vector<float>> &,
                              std::span<float>, int, float, float);
using JacobiFn = void (*)(std::span<const float>, std::span<float>, int);
using NbodyFn = void (*)(std::span<const float>, std::span<float>, int, float);
using CoulombFn = void (*)(std::span<const float>, std::span<float>, int, int,
                           float);
using BatchedFn = void (*)(std::span<const float>, std::span<const float>,
                           std::span<float>, int, int);
using ConvFn = void (*)(std::span<const float>, std::span<const float>,
                        std::span<float>, int, int);

/// The loops of loops.cpp under one mapping strategy.
struct Strategy {
  const char *Name;
  SumFn SumRows, SumCols;
  MatmulFn Matmul;
  MatmulAccFn MatmulAcc, MatmulKj;
  MatmulRowsFn MatmulRowsKj;
  JacobiFn Jacobi;
  NbodyFn Nbody;
  CoulombFn Coulomb;
  BatchedFn Batched;
  ConvFn Conv5;
};
const Strategy Strategies[] = {
    {"weft", sumRows_auto, sumCols_auto, matmul_auto, matmulAcc_auto,
     matmulKj_auto, matmulRowsKj_auto, jacobi_auto, nbody_auto, coulomb_auto,
     batchedMatmul_auto, conv5_auto},
    {"weft 1d", sumRows_1d, sumCols_1d, matmul_1d, matmulAcc_1d, matmulKj_1d,
     matmulRowsKj_1d, jacobi_1d, nbody_1d, coulomb_1d, batchedMatmul_1d,
     conv5_1d},
    {"weft thread_block", sumRows_thread_block, sumCols_thread_block,
     matmul_thread_block, matmulAcc_thread_block, matmulKj_thread_block,
     matmulRowsKj_thread_block, jacobi_thread_block, nbody_thread_block,
     coulomb_thread_block, batchedMatmul_thread_block, conv5_thread_block},
    {"weft warp", sumRows_warp, sumCols_warp, matmul_warp, matmulAcc_warp,
     matmulKj_warp, matmulRowsKj_warp, jacobi_warp, nbody_warp, coulomb_warp,
     batchedMatmul_warp, conv5_warp},
};
constexpr std::size_t NumStrategies = std::size(Strategies);

/// A directive-based peer: its loops and its device data.
struct DirectivePeer {
  const char *Name;
  std::string (*Unavailable)();
  bool (*RunsOnHost)();
  void (*Keep)(const float *, std::size_t);
  void (*Release)(const float *, std::size_t);
  void (*TakeBack)(float *, std::size_t);
  void (*SumRows)(const float *, float *, int, int);
  void (*SumCols)(const float *, float *, int, int);
  void (*Matmul)(const float *, const float *, float *, int);
  void (*MatmulAcc)(const float *, const float *, float *, int, float, float);
  void (*Jacobi)(const float *, float *, int);
  void (*Nbody)(const float *, float *, int, float);
  void (*Coulomb)(const float *, float *, int, int, float);
  void (*Batched)(const float *, const float *, float *, int, int);
  void (*Conv5)(const float *, const float *, float *, int, int);
};
const DirectivePeer Peers[] = {
    {"openmp", omp::unavailable, omp::runsOnHost, omp::keep, omp::release,
     omp::takeBack, omp::sumRows, omp::sumCols, omp::matmul, omp::matmulAcc,
     omp::jacobi, omp::nbody, omp::coulomb, omp::batchedMatmul, omp::conv5},
    {"openacc", acc::unavailable, acc::runsOnHost, acc::keep, acc::release,
     acc::takeBack, acc::sumRows, acc::sumCols, acc::matmul, acc::matmulAcc,
     acc::jacobi, acc::nbody, acc::coulomb, acc::batchedMatmul, acc::conv5},
};
constexpr std::size_t NumPeers = std::size(Peers);

/// Each peer's availability (empty: it runs on the GPU), found in a fresh
/// process of this program (--probe-peer P): an offload runtime that
/// crashes on its first region takes only the probe down, not the run. Not
/// a fork: an offload runtime initializes the driver when the program
/// loads, and a forked child cannot use a driver its parent initialized.
std::string PeerUnavailable[NumPeers];

/// A peer whose runtime crashed in the probe is not called at all.
bool peerUsable(std::size_t P) {
  return PeerUnavailable[P].find("crashed") == std::string::npos;
}

void probePeers() {
  char Self[4096];
  const ssize_t Length = readlink("/proc/self/exe", Self, sizeof Self - 1);
  for (std::size_t P = 0; P < NumPeers; ++P) {
    if (Length <= 0) {
      PeerUnavailable[P] = Peers[P].Unavailable();
      continue;
    }
    const std::string Command =
        "'" + std::string(Self, Length) + "' --probe-peer " + std::to_string(P);
    std::fflush(stdout);
    FILE *Child = popen(Command.c_str(), "r");
    if (!Child) {
      PeerUnavailable[P] = Peers[P].Unavailable();
      continue;
    }
    std::string Why;
    char Buffer[512];
    for (std::size_t N; (N = std::fread(Buffer, 1, sizeof Buffer, Child)) > 0;)
      Why.append(Buffer, N);
    const int Status = pclose(Child);
    if (Status == -1 || !WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
      Why = "its offload runtime crashed on the first target region (" +
            (Status != -1 && WIFSIGNALED(Status)
                 ? "signal " + std::to_string(WTERMSIG(Status))
                 : "exit " + std::to_string(WEXITSTATUS(Status))) +
            ")";
    PeerUnavailable[P] = Why;
  }
}

struct Options {
  bool Small = false;
  int Rounds = 20, Warmup = 12;
  /// Calls of weft's own mapping before the warm-up, whatever they take:
  /// enough for its run-time tuning to time its whole space
  /// (WEFT_TUNE=record) before anything is measured.
  int TuneCalls = 0;
  std::string HandWritten;
  /// The cases to run (",sum,matmul,"); empty: all.
  std::string Cases;
  bool runs(const char *Case) const {
    return Cases.empty() ||
           Cases.find("," + std::string(Case) + ",") != std::string::npos;
  }
};

/// One way of running a case's loop: its timings and its result.
struct Variant {
  std::string Name;
  std::string Skip;          // why it is not timed, if it is not
  std::function<void()> Run; // set also when not timed: run once, checked
  std::vector<float> Result;
  std::vector<double> Ms;
  bool Checked = false, Correct = false;
  double median() const {
    std::vector<double> V = Ms;
    std::sort(V.begin(), V.end());
    return V.empty() ? 0 : V[V.size() / 2];
  }
};

/// The hand-written kernels, compiled once for the device.
struct HandWritten {
  DriverSession Cuda;
  std::string Unavailable; // empty when they run
  bool Broken = false;     // NVRTC rejects them: the benchmark fails
  CUfunction SumRows = nullptr, SumColsPartial = nullptr,
             SumColsCombine = nullptr, Matmul = nullptr, MatmulAcc = nullptr,
             Jacobi = nullptr, Nbody = nullptr, Coulomb = nullptr,
             Batched = nullptr, Conv5 = nullptr;
  unsigned Multiprocessors = 132;
  /// A device-to-device copy's rate, bytes read plus bytes written, in
  /// GB/s: the memory-bound cases' ceiling.
  double CopyGBs = 0;

  void open(const std::string &Path) {
    std::ifstream In(Path);
    std::stringstream Text;
    Text << In.rdbuf();
    if (!In || Text.str().empty()) {
      Unavailable = "cannot read " + Path;
      return;
    }
    Unavailable = Cuda.open();
    if (!Unavailable.empty()) {
      // Still make sure the text compiles, where NVRTC is installed.
      if (std::string Error =
              Cuda.compile(Text.str(), "hand-written.cu", "sm_90");
          !Error.empty() && Error.rfind("no NVRTC", 0) != 0) {
        Unavailable += "; and the kernels do not compile: " + Error;
        Broken = true;
      } else if (Error.empty())
        Unavailable += "; its kernels compile with NVRTC for sm_90";
      return;
    }
    if (std::string Error = Cuda.compile(Text.str(), "hand-written.cu");
        !Error.empty()) {
      Unavailable = Error;
      Broken = true;
      return;
    }
    int Sms = 0;
    CUdevice Device = 0;
    if (!Cuda.Api.DeviceGet(&Device, 0) &&
        !Cuda.Api.DeviceGetAttribute(
            &Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Device))
      Multiprocessors = static_cast<unsigned>(Sms);
    SumRows = Cuda.function("sumRows");
    SumColsPartial = Cuda.function("sumColsPartial");
    SumColsCombine = Cuda.function("sumColsCombine");
    Matmul = Cuda.function("matmul");
    MatmulAcc = Cuda.function("matmulAcc");
    Jacobi = Cuda.function("jacobi");
    Nbody = Cuda.function("nbody");
    Coulomb = Cuda.function("coulomb");
    Batched = Cuda.function("batchedMatmul");
    Conv5 = Cuda.function("conv5");
    if (!SumRows || !SumColsPartial || !SumColsCombine || !Matmul ||
        !MatmulAcc || !Jacobi || !Nbody || !Coulomb || !Batched || !Conv5)
      Unavailable = "a hand-written kernel is missing from its module";
    else
      measureCopy();
  }

  /// Copies of 512 MiB, device to device: the median rate of 7.
  void measureCopy() {
    const std::size_t Bytes = std::size_t(512) << 20;
    const CUdeviceptr From = Cuda.upload(nullptr, Bytes),
                      To = Cuda.upload(nullptr, Bytes);
    if (!From || !To)
      return;
    std::vector<double> Rates;
    for (int I = 0; I < 8; ++I) {
      const Clock::time_point Start = Clock::now();
      Cuda.copy(To, From, Bytes);
      Cuda.synchronize();
      const double Seconds =
          std::chrono::duration<double>(Clock::now() - Start).count();
      if (I > 0) // the first warms up
        Rates.push_back(2.0 * Bytes / Seconds / 1e9);
    }
    std::sort(Rates.begin(), Rates.end());
    CopyGBs = Rates[Rates.size() / 2];
  }
};

/// cuBLAS, loaded at run time from the CUDA toolkit (or the path in
/// WEFT_BENCH_CUBLAS): sgemm in FP32, TF32 off (its default math mode).
struct Cublas {
  std::string Unavailable = "no GPU";
  void *Handle = nullptr;
  int (*Sgemm)(void *, int, int, int, int, int, const float *, const float *,
               int, const float *, int, const float *, float *, int) = nullptr;

  void open() {
    std::vector<std::string> Names;
    if (const char *Path = std::getenv("WEFT_BENCH_CUBLAS"))
      Names.push_back(Path);
    for (const char *N : {"libcublas.so.13", "libcublas.so.12", "libcublas.so",
                          "/usr/local/cuda/lib64/libcublas.so.13",
                          "/usr/local/cuda/lib64/libcublas.so.12"})
      Names.push_back(N);
    std::string Error;
    if (!Library.open(Names, Error)) {
      Unavailable = "no cuBLAS (" + Error + ")";
      return;
    }
    int (*Create)(void **) = nullptr;
    if (!Library.get("cublasCreate_v2", Create) ||
        !Library.get("cublasSgemm_v2", Sgemm) || Create(&Handle) != 0) {
      Unavailable = Library.path() + " has no usable cublasSgemm_v2";
      return;
    }
    Unavailable.clear();
  }
  /// C = Alpha * A * B + Beta * C for row-major N x N matrices: in cuBLAS's
  /// column-major terms, C^T = B^T * A^T.
  void gemm(CUdeviceptr A, CUdeviceptr B, CUdeviceptr C, int N, float Alpha,
            float Beta) {
    Sgemm(Handle, 0, 0, N, N, N, &Alpha, reinterpret_cast<const float *>(B), N,
          reinterpret_cast<const float *>(A), N, &Beta,
          reinterpret_cast<float *>(C), N);
  }

private:
  weft::rt::DynamicLibrary Library;
};

std::vector<float> randomData(std::size_t Count, unsigned Seed) {
  std::mt19937 Gen(Seed);
  std::uniform_real_distribution<float> Dist(0.0f, 1.0f);
  std::vector<float> V(Count);
  for (float &X : V)
    X = Dist(Gen);
  return V;
}

/// Rounds of one call of each variant in turn, after the warm-up calls.
/// A variant that is not timed but can run, runs once. A variant whose
/// second call takes over 50 ms (the fixed mappings' worst cases) is timed
/// over 3 rounds only.
void measure(std::vector<Variant> &Variants, const Options &O) {
  std::vector<int> Rounds(Variants.size(), O.Rounds);
  for (std::size_t I = 0; I < Variants.size(); ++I) {
    Variant &V = Variants[I];
    if (!V.Skip.empty()) {
      if (V.Run)
        V.Run();
      continue;
    }
    if (V.Name == "weft")
      for (int T = 0; T < O.TuneCalls; ++T)
        V.Run();
    for (int W = 0; W < O.Warmup; ++W) {
      const Clock::time_point Start = Clock::now();
      V.Run();
      if (W == 1 &&
          std::chrono::duration<double, std::milli>(Clock::now() - Start)
                  .count() > 50) {
        Rounds[I] = std::min(O.Rounds, 3);
        break;
      }
    }
  }
  for (int R = 0; R < O.Rounds; ++R)
    for (std::size_t I = 0; I < Variants.size(); ++I) {
      Variant &V = Variants[I];
      if (!V.Skip.empty() || R >= Rounds[I])
        continue;
      const Clock::time_point Start = Clock::now();
      V.Run();
      V.Ms.push_back(
          std::chrono::duration<double, std::milli>(Clock::now() - Start)
              .count());
    }
}

/// Compares each variant's result with the reference: |x - ref| within
/// Tolerance of max(1, |ref|) everywhere (at the indices in Where, if any).
void check(std::vector<Variant> &Variants, const std::vector<float> &Reference,
           double Tolerance, const std::vector<std::size_t> &Where = {}) {
  for (Variant &V : Variants) {
    if (!V.Run)
      continue;
    V.Checked = true;
    V.Correct = V.Result.size() == Reference.size();
    auto Close = [&](std::size_t I) {
      return std::abs(double(V.Result[I]) - Reference[I]) <=
             Tolerance * std::max(1.0, std::abs(double(Reference[I])));
    };
    if (Where.empty())
      for (std::size_t I = 0; V.Correct && I < Reference.size(); ++I)
        V.Correct = Close(I);
    else
      for (std::size_t I : Where)
        V.Correct = V.Correct && Close(I);
  }
}

int Failures = 0;
bool OnGpu = false; // ratios only from a GPU's times
std::vector<double> VersusCuda, VersusFixed, VersusPeer[NumPeers];

/// What one call moves and computes: Bytes (read plus written, each once)
/// for the memory-bound cases, Flops for the compute-bound.
struct Work {
  double Bytes = 0, Flops = 0;
};
double CopyGBs = 0; // the device-to-device copy's rate, measured

/// GB/s and the fraction of a copy's rate, or TFLOP/s.
std::string rate(const Work &W, double Ms) {
  char Text[64] = "-";
  if (W.Flops > 0)
    std::snprintf(Text, sizeof Text, "%.2f TFLOP/s", W.Flops / Ms / 1e9);
  else if (W.Bytes > 0 && CopyGBs > 0)
    std::snprintf(Text, sizeof Text, "%.0f GB/s %3.0f%%", W.Bytes / Ms / 1e6,
                  100 * W.Bytes / Ms / 1e6 / CopyGBs);
  else if (W.Bytes > 0)
    std::snprintf(Text, sizeof Text, "%.0f GB/s", W.Bytes / Ms / 1e6);
  return Text;
}

void report(const std::string &Case, const std::vector<Variant> &Variants,
            const Work &W) {
  const Variant *Cuda = nullptr, *Peer[NumPeers] = {}, *Weft = &Variants[0];
  double BestFixed = 0;
  for (const Variant &V : Variants) {
    if (V.Name == "cuda" && V.Skip.empty())
      Cuda = &V;
    for (std::size_t P = 0; P < NumPeers; ++P)
      if (V.Name == Peers[P].Name && V.Skip.empty())
        Peer[P] = &V;
    if (V.Name.rfind("weft ", 0) == 0 && V.Skip.empty() &&
        (BestFixed == 0 || V.median() < BestFixed))
      BestFixed = V.median();
  }
  for (const Variant &V : Variants) {
    if (V.Checked && !V.Correct)
      ++Failures;
    const char *Verdict = !V.Checked ? "-" : V.Correct ? "ok" : "WRONG";
    if (!V.Skip.empty()) {
      std::printf("%-31s %-18s %10s %9s %-18s %-5s SKIPPED: %s\n", Case.c_str(),
                  V.Name.c_str(), "-", "-", "-", Verdict, V.Skip.c_str());
      continue;
    }
    char Ratio[32] = "-";
    if (Cuda)
      std::snprintf(Ratio, sizeof Ratio, "%.2fx", V.median() / Cuda->median());
    std::printf("%-31s %-18s %10.4f %9s %-18s %s\n", Case.c_str(),
                V.Name.c_str(), V.median(), Ratio,
                OnGpu ? rate(W, V.median()).c_str() : "-", Verdict);
  }
  if (!Weft->Skip.empty() || Weft->Ms.empty() || !OnGpu)
    return;
  if (Cuda)
    VersusCuda.push_back(Weft->median() / Cuda->median());
  if (BestFixed > 0)
    VersusFixed.push_back(Weft->median() / BestFixed);
  for (std::size_t P = 0; P < NumPeers; ++P)
    if (Peer[P])
      VersusPeer[P].push_back(Weft->median() / Peer[P]->median());
}

double geometricMean(const std::vector<double> &V) {
  double Log = 0;
  for (double X : V)
    Log += std::log(X);
  return std::exp(Log / V.size());
}

/// The variants of one case: weft under each strategy, then the baselines.
/// Each weft variant writes its own output vector, which Outputs holds.
std::vector<Variant>
weftVariants(std::vector<std::vector<float>> &Outputs, std::size_t OutSize,
             std::function<void(const Strategy &, std::span<float>)> Call) {
  std::vector<Variant> Variants;
  Outputs.assign(NumStrategies, std::vector<float>(OutSize, 0.0f));
  for (std::size_t S = 0; S < NumStrategies; ++S) {
    Variant V;
    V.Name = Strategies[S].Name;
    std::span<float> Out(Outputs[S]);
    // Launches into a region do not wait for the kernel; a call is timed
    // to its end, as the hand-written kernels' are.
    V.Run = [Call, &Strat = Strategies[S], Out] {
      Call(Strat, Out);
      weft::synchronize();
    };
    Variants.push_back(std::move(V));
  }
  return Variants;
}

/// The hand-written variant: inputs uploaded once, the output read back.
Variant cudaVariant(HandWritten &H, std::function<void()> Run) {
  Variant V;
  V.Name = "cuda";
  V.Skip = H.Unavailable;
  if (V.Skip.empty())
    V.Run = [&H, Run] {
      Run();
      H.Cuda.synchronize();
    };
  return V;
}

/// The directive-based peers' variants, each writing its own output in
/// Outputs (zeros first). Without a device an offload build still runs (on
/// the host): checked, not timed.
void addPeerVariants(std::vector<Variant> &Variants,
                     std::vector<std::vector<float>> &Outputs,
                     std::size_t OutSize,
                     std::function<void(const DirectivePeer &, float *)> Call) {
  Outputs.assign(NumPeers, std::vector<float>(OutSize, 0.0f));
  for (std::size_t P = 0; P < NumPeers; ++P) {
    Variant V;
    V.Name = Peers[P].Name;
    V.Skip = PeerUnavailable[P];
    float *Out = Outputs[P].data();
    // WEFT_BENCH_HOST_PEERS=0 leaves a peer that runs on the host unrun: a
    // 4096^3 product on the host takes minutes a GPU run cannot spare.
    static const bool HostPeers =
        !std::getenv("WEFT_BENCH_HOST_PEERS") ||
        std::strcmp(std::getenv("WEFT_BENCH_HOST_PEERS"), "0");
    if (V.Skip.empty() || (HostPeers && peerUsable(P) && Peers[P].RunsOnHost()))
      V.Run = [Call, &Peer = Peers[P], Out] { Call(Peer, Out); };
    Variants.push_back(std::move(V));
  }
}

/// Times the variants with their data resident on the device (weft's in
/// regions, the peers' in their data regions), then gathers each variant's
/// result: weft's outputs, the hand-written kernels' CudaOut, the peers'.
void measureResident(std::vector<Variant> &Variants,
                     std::initializer_list<const std::vector<float> *> Inputs,
                     std::vector<std::vector<float>> &WeftOut,
                     std::vector<std::vector<float>> &PeerOut, HandWritten &H,
                     CUdeviceptr CudaOut, const Options &O) {
  {
    std::vector<std::unique_ptr<weft::region>> Resident;
    for (const std::vector<float> *In : Inputs) {
      Resident.push_back(
          std::make_unique<weft::region>(std::span<const float>(*In)));
      for (std::size_t P = 0; P < NumPeers; ++P)
        if (peerUsable(P))
          Peers[P].Keep(In->data(), In->size());
    }
    weft::region Outputs{
        std::span<float>(WeftOut[0]), std::span<float>(WeftOut[1]),
        std::span<float>(WeftOut[2]), std::span<float>(WeftOut[3])};
    for (std::size_t P = 0; P < NumPeers; ++P)
      if (peerUsable(P))
        Peers[P].Keep(PeerOut[P].data(), PeerOut[P].size());
    measure(Variants, O);
    for (std::size_t P = 0; P < NumPeers; ++P) {
      if (!peerUsable(P))
        continue;
      for (const std::vector<float> *In : Inputs)
        Peers[P].Release(In->data(), In->size());
      Peers[P].TakeBack(PeerOut[P].data(), PeerOut[P].size());
    }
  }
  const std::size_t Size = WeftOut[0].size();
  for (std::size_t S = 0; S < NumStrategies; ++S)
    Variants[S].Result = WeftOut[S];
  if (H.Unavailable.empty()) {
    Variants[NumStrategies].Result.resize(Size);
    H.Cuda.download(Variants[NumStrategies].Result.data(), CudaOut,
                    Size * sizeof(float));
  }
  for (std::size_t P = 0; P < NumPeers; ++P)
    Variants[NumStrategies + 1 + P].Result = PeerOut[P];
}

/// sumRows or sumCols of a Rows x Cols matrix.
void sumCase(bool Rows, int NumRows, int NumCols, HandWritten &H,
             const Options &O) {
  const std::size_t Size = std::size_t(NumRows) * NumCols;
  const std::size_t OutSize = Rows ? NumRows : NumCols;
  const std::vector<float> M = randomData(Size, 1);
  std::vector<float> Reference(OutSize);
  (Rows ? sumRows_host : sumCols_host)(M, Reference, NumRows, NumCols);

  std::vector<std::vector<float>> WeftOut;
  auto Call = [&](const Strategy &S, std::span<float> Out) {
    (Rows ? S.SumRows : S.SumCols)(M, Out, NumRows, NumCols);
  };
  std::vector<Variant> Variants = weftVariants(WeftOut, OutSize, Call);

  // Hand-written: one 256-thread block per row; for columns, enough row
  // chunks to give the device four blocks an SM, then their combination.
  CUdeviceptr DM = 0, DOut = 0, DPartial = 0;
  int RowsPerChunk = NumRows, Chunks = 1;
  const unsigned ColumnBlocks = (NumCols + 31) / 32;
  if (H.Unavailable.empty()) {
    Chunks = std::clamp<int>((4 * H.Multiprocessors + ColumnBlocks - 1) /
                                 ColumnBlocks,
                             1, std::max(1, NumRows / 64));
    RowsPerChunk = (NumRows + Chunks - 1) / Chunks;
    DM = H.Cuda.upload(M.data(), Size * sizeof(float));
    DOut = H.Cuda.upload(nullptr, OutSize * sizeof(float));
    DPartial = H.Cuda.upload(nullptr, std::size_t(Chunks) * NumCols * 4);
  }
  Variants.push_back(cudaVariant(H, [&] {
    int R = NumRows, C = NumCols, RPC = RowsPerChunk, K = Chunks;
    if (Rows) {
      void *P[] = {&DM, &DOut, &R, &C};
      H.Cuda.launch(H.SumRows, std::min(NumRows, 1 << 20), 1, 256, 1, P);
      return;
    }
    void *P[] = {&DM, &DPartial, &R, &C, &RPC};
    H.Cuda.launch(H.SumColsPartial, ColumnBlocks, Chunks, 32, 8, P);
    void *Q[] = {&DPartial, &DOut, &C, &K};
    H.Cuda.launch(H.SumColsCombine, (NumCols + 255) / 256, 1, 256, 1, Q);
  }));

  std::vector<std::vector<float>> PeerOut;
  addPeerVariants(
      Variants, PeerOut, OutSize, [&](const DirectivePeer &P, float *Out) {
        (Rows ? P.SumRows : P.SumCols)(M.data(), Out, NumRows, NumCols);
      });

  measureResident(Variants, {&M}, WeftOut, PeerOut, H, DOut, O);
  check(Variants, Reference, 2e-3);
  report(std::string(Rows ? "sumRows" : "sumCols") + " [" +
             std::to_string(NumRows) + " x " + std::to_string(NumCols) + "]",
         Variants, {4.0 * (Size + OutSize), 0});
}

/// cuBLAS's sgemm on the hand-written kernels' device copies: its own
/// output, read back after the timed rounds.
Variant cublasVariant(Cublas &B, HandWritten &H, CUdeviceptr A, CUdeviceptr Bm,
                      CUdeviceptr C, int N, float Alpha, float Beta) {
  Variant V;
  V.Name = "cublas";
  V.Skip = H.Unavailable.empty() ? B.Unavailable : H.Unavailable;
  if (V.Skip.empty())
    V.Run = [&B, &H, A, Bm, C, N, Alpha, Beta] {
      B.gemm(A, Bm, C, N, Alpha, Beta);
      H.Cuda.synchronize();
    };
  return V;
}

/// An N x N matrix product, checked at 64 sampled elements (in double):
/// C = A * B as written with a local accumulator, or BLAS's C = alpha * A *
/// B + beta * C accumulating in C, written with k inside j or (KOutside)
/// outside it, as CPU code orders it, also with A and B held as
/// std::vectors of std::vectors (RowsKOutside; weft's loops only: the
/// hand-written kernel and the peers run their accumulating form). Beta is
/// 0, so that repeated calls give the same result to check; each call still
/// reads C.
enum class ProductForm { Local, Accumulate, KOutside, RowsKOutside };
void matmulCase(int N, ProductForm Form, HandWritten &H, Cublas &B,
                const Options &O) {
  const bool Accumulate = Form != ProductForm::Local;
  const std::size_t Size = std::size_t(N) * N;
  const float Alpha = Accumulate ? 1.5f : 1.0f, Beta = 0.0f;
  const std::vector<float> A = randomData(Size, 2), Bm = randomData(Size, 3),
                           C0 = randomData(Size, 6);
  std::vector<float> Reference(Size, 0.0f);
  std::vector<std::size_t> Where;
  std::mt19937 Gen(4);
  for (int S = 0; S < 64; ++S) {
    const std::size_t I = Gen() % N, J = Gen() % N;
    double Sum = 0;
    for (int K = 0; K < N; ++K)
      Sum += double(A[I * N + K]) * Bm[K * N + J];
    Reference[I * N + J] = static_cast<float>(Alpha * Sum);
    Where.push_back(I * N + J);
  }

  // The rows form: A and B as rows of N, kept on the device in a region as
  // the flat inputs are.
  std::vector<std::vector<float>> ARows, BRows;
  if (Form == ProductForm::RowsKOutside)
    for (int I = 0; I < N; ++I) {
      ARows.emplace_back(A.begin() + std::size_t(I) * N,
                         A.begin() + std::size_t(I + 1) * N);
      BRows.emplace_back(Bm.begin() + std::size_t(I) * N,
                         Bm.begin() + std::size_t(I + 1) * N);
    }
  std::vector<std::vector<float>> WeftOut;
  auto Call = [&](const Strategy &S, std::span<float> Out) {
    if (Form == ProductForm::RowsKOutside)
      S.MatmulRowsKj(ARows, BRows, Out, N, Alpha, Beta);
    else if (Form == ProductForm::KOutside)
      S.MatmulKj(A, Bm, Out, N, Alpha, Beta);
    else if (Accumulate)
      S.MatmulAcc(A, Bm, Out, N, Alpha, Beta);
    else
      S.Matmul(A, Bm, Out, N);
  };
  std::vector<Variant> Variants = weftVariants(WeftOut, Size, Call);
  if (Accumulate)
    for (std::vector<float> &Out : WeftOut)
      Out = C0;

  CUdeviceptr DA = 0, DB = 0, DC = 0, DBlas = 0;
  if (H.Unavailable.empty()) {
    DA = H.Cuda.upload(A.data(), Size * 4);
    DB = H.Cuda.upload(Bm.data(), Size * 4);
    DC = H.Cuda.upload(C0.data(), Size * 4);
    DBlas = H.Cuda.upload(C0.data(), Size * 4);
  }
  Variants.push_back(cudaVariant(H, [&] {
    int Extent = N;
    float Al = Alpha, Be = Beta;
    void *P[] = {&DA, &DB, &DC, &Extent};
    void *Q[] = {&DA, &DB, &DC, &Extent, &Al, &Be};
    const unsigned Tiles = (N + 31) / 32;
    H.Cuda.launch(Accumulate ? H.MatmulAcc : H.Matmul, Tiles, Tiles, 32, 32,
                  Accumulate ? Q : P);
  }));
  std::vector<std::vector<float>> PeerOut;
  addPeerVariants(Variants, PeerOut, Size,
                  [&](const DirectivePeer &P, float *Out) {
                    if (Accumulate)
                      P.MatmulAcc(A.data(), Bm.data(), Out, N, Alpha, Beta);
                    else
                      P.Matmul(A.data(), Bm.data(), Out, N);
                  });
  if (Accumulate)
    for (std::vector<float> &Out : PeerOut)
      Out = C0;
  Variants.push_back(
      cublasVariant(B, H, DA, DB, DBlas, N, Alpha, Accumulate ? Beta : 0));

  {
    weft::region RowsHeld(ARows, BRows);
    measureResident(Variants, {&A, &Bm}, WeftOut, PeerOut, H, DC, O);
  }
  if (Variants.back().Skip.empty()) {
    Variants.back().Result.resize(Size);
    H.Cuda.download(Variants.back().Result.data(), DBlas, Size * 4);
  }
  check(Variants, Reference, 1e-4, Where);
  report(std::string(Form == ProductForm::RowsKOutside ? "matmul, rows i k j ["
                     : Form == ProductForm::KOutside   ? "matmul, i k j ["
                     : Accumulate                      ? "matmul, C += ["
                                                       : "matmul [") +
             std::to_string(N) + " x " + std::to_string(N) + "]",
         Variants, {0, 2.0 * N * double(N) * N});
}

/// One Jacobi step on an N x N grid (the output's border stays as it was).
void jacobiCase(int N, HandWritten &H, const Options &O) {
  const std::size_t Size = std::size_t(N) * N;
  const std::vector<float> In = randomData(Size, 5);
  std::vector<float> Reference(Size, 0.0f);
  jacobi_host(In, Reference, N);

  std::vector<std::vector<float>> WeftOut;
  auto Call = [&](const Strategy &S, std::span<float> Out) {
    S.Jacobi(In, Out, N);
  };
  std::vector<Variant> Variants = weftVariants(WeftOut, Size, Call);

  CUdeviceptr DIn = 0, DOut = 0;
  const std::vector<float> Zeros(Size, 0.0f);
  if (H.Unavailable.empty()) {
    DIn = H.Cuda.upload(In.data(), Size * 4);
    DOut = H.Cuda.upload(Zeros.data(), Size * 4);
  }
  Variants.push_back(cudaVariant(H, [&] {
    int Extent = N;
    void *P[] = {&DIn, &DOut, &Extent};
    const unsigned Interior = N > 2 ? N - 2 : 0;
    H.Cuda.launch(H.Jacobi, (Interior + 31) / 32, (Interior + 7) / 8, 32, 8, P);
  }));
  std::vector<std::vector<float>> PeerOut;
  addPeerVariants(
      Variants, PeerOut, Size,
      [&](const DirectivePeer &P, float *Out) { P.Jacobi(In.data(), Out, N); });

  measureResident(Variants, {&In}, WeftOut, PeerOut, H, DOut, O);
  check(Variants, Reference, 1e-5);
  report("jacobi [" + std::to_string(N) + " x " + std::to_string(N) + "]",
         Variants, {2.0 * 4 * (N - 2.0) * (N - 2.0), 0});
}

/// N bodies' accelerations, checked at 64 sampled bodies (in double); 20
/// floating-point operations an interaction, as is usual for n-body.
void nbodyCase(int N, HandWritten &H, const Options &O) {
  const float Soft = 0.01f;
  std::vector<float> P = randomData(std::size_t(4) * N, 7);
  for (int I = 0; I < N; ++I)
    P[4 * I + 3] = 0.5f + std::fabs(P[4 * I + 3]); // positive masses
  const std::size_t OutSize = std::size_t(3) * N;
  std::vector<float> Reference(OutSize, 0.0f);
  std::vector<std::size_t> Where;
  std::mt19937 Gen(8);
  for (int S = 0; S < 64 && S < N; ++S) {
    const std::size_t I = Gen() % N;
    double A[3] = {0, 0, 0};
    for (int J = 0; J < N; ++J) {
      double D[3], R2 = Soft;
      for (int C = 0; C < 3; ++C) {
        D[C] = double(P[4 * J + C]) - P[4 * I + C];
        R2 += D[C] * D[C];
      }
      const double Inv = 1.0 / std::sqrt(R2);
      for (int C = 0; C < 3; ++C)
        A[C] += D[C] * P[4 * J + 3] * Inv * Inv * Inv;
    }
    for (int C = 0; C < 3; ++C) {
      Reference[3 * I + C] = static_cast<float>(A[C]);
      Where.push_back(3 * I + C);
    }
  }

  std::vector<std::vector<float>> WeftOut;
  auto Call = [&](const Strategy &S, std::span<float> Out) {
    S.Nbody(P, Out, N, Soft);
  };
  std::vector<Variant> Variants = weftVariants(WeftOut, OutSize, Call);

  CUdeviceptr DP = 0, DA = 0;
  if (H.Unavailable.empty()) {
    DP = H.Cuda.upload(P.data(), P.size() * 4);
    DA = H.Cuda.upload(nullptr, OutSize * 4);
  }
  Variants.push_back(cudaVariant(H, [&] {
    int Bodies = N;
    float S = Soft;
    void *Args[] = {&DP, &DA, &Bodies, &S};
    H.Cuda.launch(H.Nbody, (N + 255) / 256, 1, 256, 1, Args);
  }));
  std::vector<std::vector<float>> PeerOut;
  addPeerVariants(Variants, PeerOut, OutSize,
                  [&](const DirectivePeer &Peer, float *Out) {
                    Peer.Nbody(P.data(), Out, N, Soft);
                  });

  measureResident(Variants, {&P}, WeftOut, PeerOut, H, DA, O);
  check(Variants, Reference, 1e-3, Where);
  report("nbody [" + std::to_string(N) + " bodies]", Variants,
         {0, 20.0 * N * double(N)});
}

/// Coulomb's potential on an N^3 grid from Atoms atoms, checked at 64
/// sampled points (in double); 10 floating-point operations an interaction
/// (3 subtractions, 3 multiplications, 2 additions, a square root and a
/// division, each counted once).
void coulombCase(int N, int Atoms, HandWritten &H, const Options &O) {
  const float Spacing = 0.1f;
  std::vector<float> A = randomData(std::size_t(4) * Atoms, 9);
  for (int I = 0; I < Atoms; ++I) {
    for (int C = 0; C < 3; ++C) // inside the grid, off its points
      A[4 * I + C] = (A[4 * I + C] * (N - 1) + 0.37f) * Spacing;
    A[4 * I + 3] = A[4 * I + 3] - 0.5f; // charges of both signs
  }
  const std::size_t Points = std::size_t(N) * N * N;
  std::vector<float> Reference(Points, 0.0f);
  std::vector<std::size_t> Where;
  std::mt19937 Gen(10);
  for (int S = 0; S < 64; ++S) {
    const std::size_t P = Gen() % Points;
    const double X = double(P % N) * Spacing, Y = double(P / N % N) * Spacing,
                 Z = double(P / N / N) * Spacing;
    double E = 0;
    for (int I = 0; I < Atoms; ++I) {
      const double DX = X - A[4 * I], DY = Y - A[4 * I + 1],
                   DZ = Z - A[4 * I + 2];
      E += A[4 * I + 3] / std::sqrt(DX * DX + DY * DY + DZ * DZ);
    }
    Reference[P] = static_cast<float>(E);
    Where.push_back(P);
  }

  std::vector<std::vector<float>> WeftOut;
  auto Call = [&](const Strategy &S, std::span<float> Out) {
    S.Coulomb(A, Out, Atoms, N, Spacing);
  };
  std::vector<Variant> Variants = weftVariants(WeftOut, Points, Call);

  CUdeviceptr DA = 0, DGrid = 0;
  if (H.Unavailable.empty()) {
    DA = H.Cuda.upload(A.data(), A.size() * 4);
    DGrid = H.Cuda.upload(nullptr, Points * 4);
  }
  Variants.push_back(cudaVariant(H, [&] {
    int Count = Atoms, Extent = N;
    float S = Spacing;
    void *Args[] = {&DA, &DGrid, &Count, &Extent, &S};
    H.Cuda.launch(H.Coulomb, (N + 255) / 256, N, 256, 1, Args, N);
  }));
  std::vector<std::vector<float>> PeerOut;
  addPeerVariants(Variants, PeerOut, Points,
                  [&](const DirectivePeer &Peer, float *Out) {
                    Peer.Coulomb(A.data(), Out, Atoms, N, Spacing);
                  });

  measureResident(Variants, {&A}, WeftOut, PeerOut, H, DGrid, O);
  check(Variants, Reference, 1e-3, Where);
  report("coulomb [" + std::to_string(N) + "^3, " + std::to_string(Atoms) +
             " atoms]",
         Variants, {0, 10.0 * double(Points) * Atoms});
}

/// Batch products of N x N matrices (N <= 32), checked everywhere (in
/// double).
void batchedCase(int Batch, int N, HandWritten &H, const Options &O) {
  const std::size_t Size = std::size_t(Batch) * N * N;
  const std::vector<float> A = randomData(Size, 11), B = randomData(Size, 12);
  std::vector<float> Reference(Size);
  for (int P = 0; P < Batch; ++P)
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < N; ++J) {
        double Sum = 0;
        for (int K = 0; K < N; ++K)
          Sum += double(A[(std::size_t(P) * N + I) * N + K]) *
                 B[(std::size_t(P) * N + K) * N + J];
        Reference[(std::size_t(P) * N + I) * N + J] = static_cast<float>(Sum);
      }

  std::vector<std::vector<float>> WeftOut;
  auto Call = [&](const Strategy &S, std::span<float> Out) {
    S.Batched(A, B, Out, Batch, N);
  };
  std::vector<Variant> Variants = weftVariants(WeftOut, Size, Call);

  CUdeviceptr DA = 0, DB = 0, DC = 0;
  if (H.Unavailable.empty()) {
    DA = H.Cuda.upload(A.data(), Size * 4);
    DB = H.Cuda.upload(B.data(), Size * 4);
    DC = H.Cuda.upload(nullptr, Size * 4);
  }
  Variants.push_back(cudaVariant(H, [&] {
    int Extent = N;
    void *Args[] = {&DA, &DB, &DC, &Extent};
    H.Cuda.launch(H.Batched, Batch, 1, N, N, Args);
  }));
  std::vector<std::vector<float>> PeerOut;
  addPeerVariants(Variants, PeerOut, Size,
                  [&](const DirectivePeer &Peer, float *Out) {
                    Peer.Batched(A.data(), B.data(), Out, Batch, N);
                  });

  measureResident(Variants, {&A, &B}, WeftOut, PeerOut, H, DC, O);
  check(Variants, Reference, 1e-4);
  report("batched matmul [" + std::to_string(Batch) + " x " +
             std::to_string(N) + "^2]",
         Variants, {0, 2.0 * double(Size) * N});
}

/// A 5 x 5 convolution over an N x N image, checked everywhere (in
/// double); 2 floating-point operations a tap.
void conv5Case(int N, HandWritten &H, const Options &O) {
  const std::size_t Size = std::size_t(N) * N,
                    OutSize = std::size_t(N - 4) * (N - 4);
  const std::vector<float> In = randomData(Size, 13), F = randomData(25, 14);
  std::vector<float> Reference(OutSize);
  for (int Y = 0; Y < N - 4; ++Y)
    for (int X = 0; X < N - 4; ++X) {
      double S = 0;
      for (int DY = 0; DY < 5; ++DY)
        for (int DX = 0; DX < 5; ++DX)
          S += double(In[std::size_t(Y + DY) * N + X + DX]) * F[DY * 5 + DX];
      Reference[std::size_t(Y) * (N - 4) + X] = static_cast<float>(S);
    }

  std::vector<std::vector<float>> WeftOut;
  auto Call = [&](const Strategy &S, std::span<float> Out) {
    S.Conv5(In, F, Out, N, N);
  };
  std::vector<Variant> Variants = weftVariants(WeftOut, OutSize, Call);

  CUdeviceptr DIn = 0, DF = 0, DOut = 0;
  if (H.Unavailable.empty()) {
    DIn = H.Cuda.upload(In.data(), Size * 4);
    DF = H.Cuda.upload(F.data(), 25 * 4);
    DOut = H.Cuda.upload(nullptr, OutSize * 4);
  }
  Variants.push_back(cudaVariant(H, [&] {
    int Rows = N, Cols = N;
    void *Args[] = {&DIn, &DF, &DOut, &Rows, &Cols};
    H.Cuda.launch(H.Conv5, (N - 4 + 31) / 32, (N - 4 + 7) / 8, 32, 8, Args);
  }));
  std::vector<std::vector<float>> PeerOut;
  addPeerVariants(Variants, PeerOut, OutSize,
                  [&](const DirectivePeer &Peer, float *Out) {
                    Peer.Conv5(In.data(), F.data(), Out, N, N);
                  });

  measureResident(Variants, {&In, &F}, WeftOut, PeerOut, H, DOut, O);
  check(Variants, Reference, 1e-4);
  report("conv 5x5 [" + std::to_string(N) + " x " + std::to_string(N) + "]",
         Variants, {0, 50.0 * double(OutSize)});
}

} // namespace

int main(int Argc, char **Argv) {
  // The probe of one peer, in a process of its own (probePeers).
  if (Argc == 3 && !std::strcmp(Argv[1], "--probe-peer")) {
    const std::size_t P = std::strtoul(Argv[2], nullptr, 10);
    if (P >= NumPeers)
      return 2;
    const std::string Why = Peers[P].Unavailable();
    std::fwrite(Why.data(), 1, Why.size(), stdout);
    return 0;
  }
  Options O;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--small")) {
      O.Small = true;
      O.Rounds = 1;
      O.Warmup = 0;
    } else if (!std::strcmp(Argv[I], "--rounds") && I + 1 < Argc) {
      O.Rounds = std::max(1, std::atoi(Argv[++I]));
    } else if (!std::strcmp(Argv[I], "--tune-calls") && I + 1 < Argc) {
      O.TuneCalls = std::max(0, std::atoi(Argv[++I]));
    } else if (!std::strcmp(Argv[I], "--cases") && I + 1 < Argc) {
      O.Cases = "," + std::string(Argv[++I]) + ",";
    } else if (Argv[I][0] != '-') {
      O.HandWritten = Argv[I];
    } else {
      std::fprintf(stderr, "usage: nested [--small] [--rounds N] "
                           "[--tune-calls N] [--cases LIST] HAND_WRITTEN.cu\n");
      return 2;
    }
  }
  if (O.HandWritten.empty()) {
    std::fprintf(stderr, "usage: nested [--small] [--rounds N] "
                         "[--tune-calls N] [--cases LIST] HAND_WRITTEN.cu\n");
    return 2;
  }
  probePeers();
  HandWritten H;
  H.open(O.HandWritten);
  CopyGBs = H.CopyGBs;
  Cublas Blas;
  if (H.Unavailable.empty())
    Blas.open();

  // Warm weft's backend up before the first case (its first launch picks
  // the device).
  std::vector<float> Probe(64, 1.0f), ProbeOut(64);
  sumRows_auto(Probe, ProbeOut, 8, 8);
  const std::string Backend = weft::backendName();
  OnGpu = Backend == "cuda" || Backend == "hip";
  std::printf("weft backend: %s; %d rounds after %d warm-up calls; times are "
              "medians in ms of one call (launch and synchronize)%s\n",
              Backend.c_str(), O.Rounds, O.Warmup,
              OnGpu ? ""
                    : " (not a GPU: weft's times here are not GPU figures)");
  // Every variant waits for the device as a program of its own would.
  if (H.Unavailable.empty())
    if (const std::string Was = H.Cuda.defaultScheduling(); !Was.empty())
      std::printf("the device's waits in this process were set to %s (by an "
                  "offload runtime: LLVM's OpenMP sets blocking sync); put "
                  "back to the driver's default\n",
                  Was.c_str());
  if (CopyGBs > 0)
    std::printf("device-to-device copy of 512 MiB: %.0f GB/s (read + "
                "written): the memory-bound cases' ceiling\n",
                CopyGBs);
  std::printf("%-31s %-18s %10s %9s %-18s %s\n", "case", "variant", "ms",
              "vs cuda", "rate", "check");

  const int Scale = O.Small ? 64 : 1;
  const int Shapes[][2] = {{65536, 1024}, {8192, 8192}, {1024, 65536}};
  for (bool Rows : {true, false})
    for (const auto &S : Shapes)
      if (O.runs("sum"))
        sumCase(Rows, S[0] / Scale, O.Small ? S[1] / 16 : S[1], H, O);
  for (ProductForm Form : {ProductForm::Local, ProductForm::Accumulate,
                           ProductForm::KOutside, ProductForm::RowsKOutside})
    for (int N : {2048, 4096})
      if (O.runs("matmul"))
        matmulCase(O.Small ? N / 32 + 3 : N, Form, H, Blas, O);
  for (int N : {4096, 16384})
    if (O.runs("jacobi"))
      jacobiCase(O.Small ? N / 64 + 2 : N, H, O);
  for (int N : {16384, 65536})
    if (O.runs("nbody"))
      nbodyCase(O.Small ? N / 64 + 3 : N, H, O);
  for (const auto &[N, Atoms] : {std::pair{128, 512}, std::pair{64, 4096}})
    if (O.runs("coulomb"))
      coulombCase(O.Small ? N / 8 + 3 : N, O.Small ? Atoms / 16 + 5 : Atoms, H,
                  O);
  for (const auto &[Batch, N] : {std::pair{32768, 16}, std::pair{8192, 32}})
    if (O.runs("batched"))
      batchedCase(O.Small ? Batch / 256 : Batch, N, H, O);
  for (int N : {4096, 8192})
    if (O.runs("conv"))
      conv5Case(O.Small ? N / 64 + 5 : N, H, O);

  if (!VersusCuda.empty())
    std::printf("weft / hand-written CUDA, geometric mean over %zu cases: "
                "%.2fx\n",
                VersusCuda.size(), geometricMean(VersusCuda));
  if (!VersusFixed.empty())
    std::printf("weft / best fixed mapping, geometric mean over %zu cases: "
                "%.2fx\n",
                VersusFixed.size(), geometricMean(VersusFixed));
  for (std::size_t P = 0; P < NumPeers; ++P)
    if (!VersusPeer[P].empty())
      std::printf("weft / %s, geometric mean over %zu cases: %.2fx\n",
                  Peers[P].Name, VersusPeer[P].size(),
                  geometricMean(VersusPeer[P]));
  // On a GPU a peer built for it that still runs on the host is a broken
  // measurement, not a skipped one.
  for (std::size_t P = 0; P < NumPeers; ++P) {
    const std::string &Why = PeerUnavailable[P];
    if (OnGpu && !Why.empty() && Why.rfind("built without", 0) != 0) {
      std::printf("FAILED: the %s peer did not run on the GPU: %s\n",
                  Peers[P].Name, Why.c_str());
      ++Failures;
    }
  }
  if (Failures)
    std::printf("FAILED: %d results differ from the loops built without the "
                "plugin, or peers did not run\n",
                Failures);
  if (H.Broken)
    std::printf("FAILED: the hand-written kernels do not compile\n");
  return Failures || H.Broken ? 1 : 0;
}
