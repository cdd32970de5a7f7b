// launch-overhead.cpp: the cost of weft launches with resident data (inside
// a weft::region: no copies) against raw driver launches (cuLaunchKernel) of
// the same kernel text on the same data, side by side in one run: dependent
// launches without a wait between them (weft's default in a region; the
// driver's launches queue likewise), and each followed by a synchronize.
// Needs an NVIDIA GPU; built with the plugin by launch-overhead.sh.
// Usage: launch-overhead KERNEL.cu (the marked loop's kernel, as emitted)
#include <weft/weft.hpp>

#include "common/DriverSession.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace weft::rt;
using Clock = std::chrono::steady_clock;

void scale(std::span<float> y, float a) {
#pragma weft parallel for block(256)
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] = y[i] * a + 1.0f;
}

namespace {

constexpr std::size_t Elements = 1 << 14;
constexpr int Launches = 2000, Rounds = 7;

int skip(const std::string &Why) {
  std::printf("SKIPPED: %s\n", Why.c_str());
  return 77;
}
int fail(const std::string &Why) {
  std::printf("FAILED: %s\n", Why.c_str());
  return 1;
}

/// The same kernel, launched through the driver by hand.
struct RawLaunch {
  weft::bench::DriverSession Cuda;
  CUfunction Function = nullptr;
  struct {
    CUdeviceptr Data;
    unsigned long long Extent;
  } Span{};
  float A = 0.5f;
  long long Lower = 0, Count = Elements;
  void *Params[4] = {&Span, &A, &Lower, &Count};

  std::string init(const std::string &Name, const std::string &Text) {
    if (std::string Why = Cuda.open(); !Why.empty())
      return Why;
    if (std::string Why = Cuda.compile(Text, Name); !Why.empty())
      return Why;
    const std::vector<float> Host(Elements, 1.0f);
    Function = Cuda.function(Name.c_str());
    const CUdeviceptr Data = Cuda.upload(Host.data(), Elements * sizeof(float));
    if (!Function || !Data)
      return "loading the kernel failed";
    Span = {Data, Elements};
    return {};
  }
  bool launch() {
    const unsigned Blocks = (Elements + 255) / 256;
    return Cuda.launch(Function, Blocks, 1, 256, 1, Params);
  }
  /// The same on the calling thread's default stream (CU_STREAM_PER_THREAD)
  /// instead of the legacy one weft uses: what another stream would save.
  bool launchPerThread() {
    const unsigned Blocks = (Elements + 255) / 256;
    return !Cuda.Api.LaunchKernel(Function, Blocks, 1, 1, 256, 1, 1, 0,
                                  reinterpret_cast<CUstream>(0x2), Params,
                                  nullptr);
  }
};

/// Launches times Launch, each followed by Wait when WaitEach, else one
/// Wait at the end; microseconds per launch, waits included.
template <class Fn, class WaitFn>
double microsecondsPerLaunch(Fn &&Launch, WaitFn &&Wait, bool WaitEach) {
  const Clock::time_point Start = Clock::now();
  for (int I = 0; I < Launches; ++I) {
    Launch();
    if (WaitEach)
      Wait();
  }
  Wait();
  return std::chrono::duration<double, std::micro>(Clock::now() - Start)
             .count() /
         Launches;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 2)
    return fail("usage: launch-overhead KERNEL.cu");
  std::ifstream In(Argv[1]);
  std::stringstream Text;
  Text << In.rdbuf();
  const std::string Source = Text.str();
  // The raw launch passes the parameters as the kernel declares them.
  const std::string Expected = "(weft::dspan<float> y, float a, weft::index_t "
                               "weft_lo0, weft::index_t weft_count0)";
  const std::size_t At = Source.find("WEFT_KERNEL(");
  if (At == std::string::npos || Source.find(Expected) == std::string::npos)
    return fail(std::string(Argv[1]) +
                " is not the kernel of scale() with "
                "parameters " +
                Expected);
  const std::string Name =
      Source.substr(At + 12, Source.find(',', At) - At - 12);

  RawLaunch Raw;
  if (std::string Why = Raw.init(Name, Source); !Why.empty())
    return skip(Why);

  std::vector<float> Y(Elements, 1.0f);
  const std::span<float> Ys(Y);
  weft::region Resident(Ys);
  // Compiles (or loads from the cache) the kernel, and lets run-time
  // tuning settle where it is on (launch-overhead.sh turns it off: the raw
  // launch runs the mapped geometry).
  for (int I = 0; I < 20; ++I)
    scale(Y, 0.5f);
  weft::synchronize();
  if (std::strcmp(weft::backendName(), "cuda") != 0)
    return skip(std::string("weft runs on ") + weft::backendName());
  const weft::transfer_stats_t Before = weft::transfer_stats();
  auto WeftLaunch = [&] { scale(Y, 0.5f); };
  auto WeftWait = [] { weft::synchronize(); };
  auto RawLaunch = [&] { Raw.launch(); };
  auto RawWait = [&] { Raw.Cuda.synchronize(); };
  auto PerThreadLaunch = [&] { Raw.launchPerThread(); };
  std::vector<double> Weft, Driver, WeftEach, DriverEach, PerThread;
  for (int R = 0; R < Rounds; ++R) {
    Weft.push_back(microsecondsPerLaunch(WeftLaunch, WeftWait, false));
    Driver.push_back(microsecondsPerLaunch(RawLaunch, RawWait, false));
    WeftEach.push_back(microsecondsPerLaunch(WeftLaunch, WeftWait, true));
    DriverEach.push_back(microsecondsPerLaunch(RawLaunch, RawWait, true));
    PerThread.push_back(microsecondsPerLaunch(PerThreadLaunch, RawWait, false));
  }
  const weft::transfer_stats_t After = weft::transfer_stats();
  if (After.ToDevice != Before.ToDevice || After.ToHost != Before.ToHost)
    return fail("the region's data was copied during the timed launches");
  const double W = median(Weft), D = median(Driver), WE = median(WeftEach),
               DE = median(DriverEach);
  std::printf("%d dependent launches, %zu floats, medians of %d rounds "
              "(us per launch):\n",
              Launches, Elements, Rounds);
  std::printf("  without a wait between launches: weft %.2f us, raw driver "
              "%.2f us: weft adds %.2f us (goal: at most 3 us a launch, "
              "amortized: %s)\n",
              W, D, W - D, W <= 3.0 ? "met" : "NOT met");
  std::printf("  each launch followed by a synchronize: weft %.2f us, raw "
              "driver %.2f us: weft adds %.2f us\n",
              WE, DE, WE - DE);
  std::printf("  raw driver on the per-thread default stream, without a "
              "wait: %.2f us\n",
              median(PerThread));
  return 0;
}
