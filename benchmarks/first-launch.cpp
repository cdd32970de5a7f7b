// first-launch.cpp: what a kernel's first launch costs in compilation, with
// and without the disk cache: for each kernel file, the runtime compiler's
// compile (a cold cache) against the cache's load of the stored binary (a
// warm one), side by side in one run. The module load and the launch itself
// need a GPU and are not counted here.
#include "core/KernelCache.h"
#include "gpu/RuntimeCompiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;

static double millisecondsSince(Clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - Start)
      .count();
}

static double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.empty() ? 0 : V[V.size() / 2];
}

int main(int Argc, char **Argv) {
  if (Argc < 3 || !std::strcmp(Argv[1], "--help")) {
    std::fprintf(stderr,
                 "usage: weft-first-launch-bench nvrtc|hiprtc KERNEL.cu...\n"
                 "Times each kernel's compile against a load from the disk "
                 "cache (in $WEFT_CACHE_DIR).\n");
    return 2;
  }
  const bool Hip = !std::strcmp(Argv[1], "hiprtc");
  weft::rt::RuntimeCompiler Compiler(
      Hip ? weft::rt::RuntimeCompiler::Kind::Hiprtc
          : weft::rt::RuntimeCompiler::Kind::Nvrtc);
  std::string Error;
  if (!Compiler.load(Error)) {
    std::printf("SKIPPED: %s is not installed (%s)\n", Compiler.name(),
                Error.c_str());
    return 77;
  }
  const std::string Arch = Hip ? "gfx90a" : "sm_90";
  weft::rt::KernelCache Cache(Hip ? "bench-hip" : "bench-cuda");
  if (!Cache.ready(Error)) {
    std::printf("FAILED: %s\n", Error.c_str());
    return 1;
  }
  std::vector<double> Cold, Warm;
  for (int I = 2; I < Argc; ++I) {
    std::ifstream In(Argv[I]);
    std::stringstream Text;
    Text << In.rdbuf();
    const std::string Name = "bench" + std::to_string(I);
    const std::string Key = Compiler.version() + Arch + Text.str();
    std::vector<char> Binary;
    std::string Log;
    Clock::time_point Start = Clock::now();
    if (!Compiler.compile(Text.str(), Name, Arch, {}, Binary, Log)) {
      std::printf("FAILED: %s\n%s\n", Argv[I], Log.c_str());
      return 1;
    }
    Cold.push_back(millisecondsSince(Start));
    if (std::string Why; !Cache.store(Name, Key, Binary, Why)) {
      std::printf("FAILED: %s\n", Why.c_str());
      return 1;
    }
    Start = Clock::now();
    std::optional<std::vector<char>> Loaded = Cache.load(Name, Key);
    Warm.push_back(millisecondsSince(Start));
    if (!Loaded || *Loaded != Binary) {
      std::printf("FAILED: the cache did not give back %s\n", Argv[I]);
      return 1;
    }
  }
  const double C = median(Cold), W = median(Warm);
  std::printf("%s %s for %s, %zu kernels: compile %.1f ms, disk cache %.3f ms "
              "(medians): the cache saves %.0fx\n",
              Compiler.name(), Compiler.version().c_str(), Arch.c_str(),
              Cold.size(), C, W, W > 0 ? C / W : 0.0);
  return 0;
}
