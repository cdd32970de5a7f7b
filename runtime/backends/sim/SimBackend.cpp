// SimBackend.cpp: the simulator backend (WEFT_BACKEND=sim): the same kernel
// text as the GPU backends, compiled for the CPU with device.h's simulator
// dialect, run by the GridExecutor. Built as libweft-sim.so, which the runtime
// loads only when this backend is chosen.
#include "core/Backend.h"
#include "core/Diagnostics.h"
#include "sim/GridExecutor.h"
#include "sim/HostCompiler.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <thread>

namespace weft::rt::sim {
namespace {

/// Appended to each kernel: the simulator's per-kernel state and an entry
/// point that unpacks the launch's parameter array into the kernel's
/// parameters, whatever their types.
/// Entry points for the kernel (and its combining kernel, if any): each
/// takes the parameters as cuLaunchKernel does.
std::string glue(const std::string &Kernel, const std::string &Combine) {
  std::string Entries = "extern \"C\" void weft_sim_entry(void **Params) {\n"
                        "  weft_sim_invoke(&" +
                        Kernel + ", Params);\n}\n";
  if (!Combine.empty())
    Entries += "extern \"C\" void weft_sim_entry_combine(void **Params) {\n"
               "  weft_sim_invoke(&" +
               Combine + ", Params);\n}\n";
  return R"(
#include <cstddef>
#include <type_traits>
#include <utility>
namespace weft {
thread_local sim_thread_state *sim_current;
sim_hooks sim_hook_table;
}
template <class... P, std::size_t... I>
static void weft_sim_call(void (*K)(P...), void **Params,
                          std::index_sequence<I...>) {
  K(*static_cast<std::remove_cv_t<std::remove_reference_t<P>> *>(Params[I])...);
}
template <class... P>
static void weft_sim_invoke(void (*K)(P...), void **Params) {
  weft_sim_call(K, Params, std::index_sequence_for<P...>{});
}
extern "C" weft::sim_thread_state **weft_sim_current_slot() {
  return &weft::sim_current;
}
extern "C" weft::sim_hooks *weft_sim_hooks() { return &weft::sim_hook_table; }
)" + Entries;
}

bool environmentFlag(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && std::strcmp(V, "0") != 0;
}

class SimBackend final : public Backend {
public:
  SimBackend()
      : Check(environmentFlag("WEFT_SIM_CHECK")), Reverse(reverseOrder(Check)),
        Executor(threadCount()) {
    const char *W = std::getenv("WEFT_SIM_WARP");
    Props.WarpSize = W && std::strcmp(W, "64") == 0 ? 64 : 32;
    Props.Architecture = Check ? "sim (checked)" : "sim";
    Props.Name = "weft simulator";
    Props.MultiprocessorCount = Executor.threads();
    Props.MaxThreadsPerBlock = 1024;
  }

  const char *name() const override { return "sim"; }
  const DeviceProperties &properties() const override { return Props; }

  Status getKernel(const KernelInfo &Info, const char *Source,
                   const std::vector<std::string> &Defines,
                   const std::string &Function, KernelHandle &Handle) override {
    std::string Error;
    bool FromCache = false;
    void *Library = Compiler.compileAndLoad(
        Info.Name, std::string(Source) + glue(Info.Name, Info.Combine.Name),
        flags(Defines), FromCache, Error);
    if (!Library)
      return Error;
    CachedLoads += FromCache;
    auto K = std::make_unique<SimKernel>();
    K->Name = Function;
    K->Location = Info.Location;
    for (const ParamInfo &P : Info.Params) {
      K->ParamNames.push_back(P.Name);
      K->ParamIsSpan.push_back(P.isSpan());
    }
    using HooksFn = weft::sim_hooks *(*)();
    auto Hooks = reinterpret_cast<HooksFn>(::dlsym(Library, "weft_sim_hooks"));
    K->Entry = reinterpret_cast<void (*)(void **)>(
        ::dlsym(Library, Function == Info.Name ? "weft_sim_entry"
                                               : "weft_sim_entry_combine"));
    K->CurrentSlot = reinterpret_cast<weft::sim_thread_state **(*)()>(
        ::dlsym(Library, "weft_sim_current_slot"));
    if (!Hooks || !K->Entry || !K->CurrentSlot)
      return "the compiled kernel lacks the simulator's entry points";
    installHooks(*Hooks());
    Handle = K.get();
    Kernels.push_back(std::move(K));
    return {};
  }

  bool precompiles() const override { return true; }
  Status precompile(const KernelInfo &Info, const std::string &Source,
                    const std::vector<std::string> &Defines) override {
    std::string Error;
    Compiler.precompile(Info.Name, Source + glue(Info.Name, Info.Combine.Name),
                        flags(Defines), Error);
    return Error;
  }

  Status allocate(std::size_t Bytes, DevicePtr &Ptr) override {
    void *P = allocateBuffer(Bytes);
    if (!P)
      return "out of host memory for the simulated device";
    Ptr = reinterpret_cast<DevicePtr>(P);
    return {};
  }
  void release(DevicePtr Ptr) override {
    releaseBuffer(reinterpret_cast<void *>(Ptr));
  }
  Status copyToDevice(DevicePtr Dst, const void *Src,
                      std::size_t Bytes) override {
    std::memcpy(reinterpret_cast<void *>(Dst), Src, Bytes);
    return {};
  }
  Status copyToHost(void *Dst, DevicePtr Src, std::size_t Bytes) override {
    std::memcpy(Dst, reinterpret_cast<const void *>(Src), Bytes);
    return {};
  }
  Status launch(KernelHandle Kernel, const unsigned Grid[3],
                const unsigned Block[3], void **Params) override {
    const unsigned Threads = Block[0] * Block[1] * Block[2];
    if (Threads == 0 || Threads > Props.MaxThreadsPerBlock)
      return "invalid block size " + std::to_string(Threads);
    LaunchRequest R{static_cast<const SimKernel *>(Kernel),
                    {Grid[0], Grid[1], Grid[2]},
                    {Block[0], Block[1], Block[2]},
                    Params,
                    Check,
                    Props.WarpSize,
                    Reverse};
    const std::uint64_t Ran = Executor.run(R);
    note("sim: kernel " + R.Kernel->Name + " ran " + std::to_string(Ran) +
             " blocks of grid (" + std::to_string(Grid[0]) + ", " +
             std::to_string(Grid[1]) + ", " + std::to_string(Grid[2]) +
             ") x block (" + std::to_string(Block[0]) + ", " +
             std::to_string(Block[1]) + ", " + std::to_string(Block[2]) + ")",
         2);
    return {};
  }
  Status synchronize() override { return {}; } // launch() runs to the end.

  /// A launch runs to its end inside launch(): a mark is the host's clock
  /// when it is made.
  bool marksTime() const override { return true; }
  Status markTime(TimeMark &Mark) override {
    Mark = new std::chrono::steady_clock::time_point(
        std::chrono::steady_clock::now());
    return {};
  }
  Status secondsBetween(TimeMark From, TimeMark To, bool &Passed,
                        double &Seconds) override {
    using TimePoint = std::chrono::steady_clock::time_point;
    Passed = true;
    Seconds = std::chrono::duration<double>(*static_cast<TimePoint *>(To) -
                                            *static_cast<TimePoint *>(From))
                  .count();
    return {};
  }
  void releaseMark(TimeMark Mark) override {
    delete static_cast<std::chrono::steady_clock::time_point *>(Mark);
  }

private:
  /// The host compiler's flags for a kernel compiled with Defines.
  std::vector<std::string>
  flags(const std::vector<std::string> &Defines) const {
    std::vector<std::string> Flags = {"-DWEFT_SIM_WARP=" +
                                      std::to_string(Props.WarpSize)};
    for (const std::string &D : Defines)
      Flags.push_back("-D" + D);
    if (Check)
      Flags.push_back("-DWEFT_SIM_CHECK=1");
    return Flags;
  }

  static unsigned threadCount() {
    if (const char *T = std::getenv("WEFT_SIM_THREADS"); T && std::atoi(T) > 0)
      return static_cast<unsigned>(std::atoi(T));
    unsigned N = std::thread::hardware_concurrency();
    return N ? N : 2;
  }

  /// WEFT_SIM_ORDER=reverse (the checker's default): a block's threads
  /// run last first, so that a thread's read of what thread 0 writes with no
  /// barrier in between sees the old value, as a GPU's later warps may;
  /// =forward: first first.
  static bool reverseOrder(bool Checked) {
    const char *O = std::getenv("WEFT_SIM_ORDER");
    if (O && std::strcmp(O, "forward") == 0)
      return false;
    return Checked || (O && std::strcmp(O, "reverse") == 0);
  }

  bool Check, Reverse;
  DeviceProperties Props;
  HostCompiler Compiler;
  GridExecutor Executor;
  std::vector<std::unique_ptr<SimKernel>> Kernels;
};

} // namespace
} // namespace weft::rt::sim

extern "C" weft::rt::Backend *weft_sim_create_backend() {
  return new weft::rt::sim::SimBackend();
}
