// GpuBackend.h: what the CUDA and HIP backends share: a runtime compiler
// (NVRTC or hipRTC) and the compile-load-lookup of a kernel. Each backend
// supplies its driver calls.
#ifndef WEFT_RUNTIME_BACKENDS_GPU_GPUBACKEND_H
#define WEFT_RUNTIME_BACKENDS_GPU_GPUBACKEND_H

#include "core/Backend.h"
#include "core/Diagnostics.h"
#include "core/KernelCache.h"
#include "gpu/KernelResources.h"
#include "gpu/PrebuiltImages.h"
#include "gpu/RuntimeCompiler.h"

#include "core/Prelude.h"
#include "gpu/DeviceMemoryPool.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace weft::rt {

class GpuBackend : public Backend {
public:
  /// CacheName: the backend's word (its kernels' folder in the cache).
  GpuBackend(RuntimeCompiler::Kind K, const char *CacheName)
      : Compiler(K), Cache(CacheName) {}
  const DeviceProperties &properties() const override { return Props; }
  unsigned maxBlockThreads(KernelHandle Kernel) override {
    std::optional<KernelResources> R = functionResources(Kernel);
    return R && R->MaxThreadsPerBlock > 0
               ? static_cast<unsigned>(R->MaxThreadsPerBlock)
               : Props.MaxThreadsPerBlock;
  }

  Status getKernel(const KernelInfo &Kernel, const char *Source,
                   const std::vector<std::string> &Defines,
                   const std::string &Function, KernelHandle &Handle) final {
    if (Status S = current(); !S.empty())
      return S;
    std::string Why;
    if (!Cache.ready(Why) && !CacheWarned) {
      warn(Why);
      CacheWarned = true;
    }
    // Built with the program for this device (offload-arch): no compiler.
    // A tuning variant (Defines) compiles its own.
    if (const contract::ImageInfo *Image =
            Defines.empty() ? imageFor(Kernel, Props.Architecture) : nullptr;
        Image && loadFunction(imageBinary(*Image), Function, Handle).empty()) {
      ++PrebuiltLoads;
      note("kernel " + Kernel.Name + ": its " + Image->Arch +
           " image, built with the program" +
           (Image->Arch == Props.Architecture ? ""
                                              : ", compiled by the driver"));
      return {};
    }
    if (!CompilerMissing.empty())
      return "no image of it for " + Props.Architecture + ", and " +
             Compiler.name() + " is unavailable (" + CompilerMissing +
             "): build the program with -fplugin-arg-weft-offload-arch=" +
             Props.Architecture;
    const std::string Key = binaryKey(Source, Defines);
    std::optional<Compiled> Built = takePrecompiled(Key);
    const bool FromBackground = Built.has_value();
    if (!Built) {
      if (std::optional<std::vector<char>> Cached =
              Cache.load(Kernel.Name, Key))
        if (loadFunction(*Cached, Function, Handle).empty()) {
          ++CachedLoads;
          note("kernel " + Kernel.Name + ": from the disk cache");
          if (verbosity() >= 1)
            noteResources(Kernel.Name, functionResources(Handle));
          return {};
        }
      Built.emplace();
      if (!Compiler.compile(Source, Kernel.Name, Props.Architecture, Defines,
                            Built->Binary, Built->Log))
        return compileFailure(Built->Log);
      note("kernel " + Kernel.Name + ": compiled by " + Compiler.name() +
           " for " + Props.Architecture);
    }
    // A full disk costs the next run a compile, not this run its kernel.
    if (std::string Problem;
        !Cache.store(Kernel.Name, Key, Built->Binary, Problem)) {
      if (Cache.ready(Why) && !StoreWarned) {
        warn(Problem + "; the compiled kernel is used, not kept");
        StoreWarned = true;
      }
      // The same module's combining kernel is loaded next.
      if (FromBackground && !Kernel.Combine.Name.empty()) {
        std::lock_guard<std::mutex> Guard(PrecompiledLock);
        Precompiled.emplace(Key, *Built);
      }
    }
    Status S = loadFunction(Built->Binary, Function, Handle);
    if (S.empty() && verbosity() >= 1) {
      // The compiler's report says what spilled; the driver's does not.
      std::optional<KernelResources> R = parsePtxasLog(Built->Log, Function);
      noteResources(Kernel.Name, R ? R : functionResources(Handle));
    }
    return S;
  }

  bool precompiles() const final {
    return CompilerMissing.empty() && Compiler.hasCompiled();
  }
  /// Kernels loaded from images built with the program.
  unsigned prebuiltLoads() const { return PrebuiltLoads; }
  /// The binary waits in memory for getKernel, which keeps it in the cache
  /// and says what went wrong there (warnings come from the program's
  /// thread alone).
  Status precompile(const KernelInfo &Kernel, const std::string &Source,
                    const std::vector<std::string> &Defines) final {
    if (!CompilerMissing.empty())
      return std::string(Compiler.name()) + " is unavailable";
    const std::string Key = binaryKey(Source.c_str(), Defines);
    if (Cache.load(Kernel.Name, Key))
      return {};
    Compiled Built;
    if (!Compiler.compile(Source, Kernel.Name, Props.Architecture, Defines,
                          Built.Binary, Built.Log))
      return compileFailure(Built.Log);
    std::lock_guard<std::mutex> Guard(PrecompiledLock);
    Precompiled[Key] = std::move(Built);
    return {};
  }

  bool marksTime() const final { return hasEvents(); }
  /// Events, kept for reuse once released (creating one costs a call
  /// into the driver).
  Status markTime(TimeMark &Mark) final {
    if (Status S = current(); !S.empty())
      return S;
    void *Event = nullptr;
    if (!FreeEvents.empty()) {
      Event = FreeEvents.back();
      FreeEvents.pop_back();
    } else if (Status S = createEvent(Event); !S.empty()) {
      return S;
    }
    if (Status S = recordEvent(Event); !S.empty()) {
      FreeEvents.push_back(Event);
      return S;
    }
    Mark = Event;
    return {};
  }
  Status secondsBetween(TimeMark From, TimeMark To, bool &Passed,
                        double &Seconds) final {
    Passed = false;
    if (Status S = current(); !S.empty())
      return S;
    bool Done = false;
    if (Status S = queryEvent(To, Done); !S.empty() || !Done)
      return S;
    float Milliseconds = 0;
    if (Status S = elapsedBetween(From, To, Milliseconds); !S.empty())
      return S;
    Passed = true;
    Seconds = Milliseconds * 1e-3;
    return {};
  }
  void releaseMark(TimeMark Mark) final { FreeEvents.push_back(Mark); }

  /// Device memory through the pool: blocks released stay for the next
  /// allocation of their size (until the process ends).
  Status allocate(std::size_t Bytes, DevicePtr &Ptr) final {
    return Memory.allocate(Bytes, Ptr);
  }
  void release(DevicePtr Ptr) final { Memory.release(Ptr); }
  Status copyRowsToDevice(DevicePtr Dst, const void *Src,
                          const RowBlock &Block) final {
    if (Status S = current(); !S.empty())
      return S;
    if (copy2D(Dst, const_cast<void *>(Src), Block, true))
      return {};
    return Backend::copyRowsToDevice(Dst, Src, Block);
  }
  Status copyRowsToHost(void *Dst, DevicePtr Src, const RowBlock &Block) final {
    if (Status S = current(); !S.empty())
      return S;
    if (copy2D(Src, Dst, Block, false))
      return {};
    return Backend::copyRowsToHost(Dst, Src, Block);
  }

protected:
  /// A block of rows in one 2-D copy, one way; false where the API has
  /// none or refuses this one (a pitch past its limit): then a copy a row
  /// does it.
  virtual bool copy2D(DevicePtr Device, void *Host, const RowBlock &Block,
                      bool ToDevice) = 0;
  /// The driver's allocation and free, which the pool calls.
  virtual Status deviceAllocate(std::size_t Bytes, DevicePtr &Ptr) = 0;
  virtual void deviceRelease(DevicePtr Ptr) = 0;
  /// Loads the runtime compiler once the device is known. Without one the
  /// backend still runs the kernels built with the program (offload-arch);
  /// the others fail to load, and their loops run on the host.
  bool loadCompiler(std::string &) {
    // WEFT_RTC=off: as on a machine with the driver alone.
    const char *Rtc = std::getenv("WEFT_RTC");
    std::string Error = "WEFT_RTC=off";
    if (!(Rtc && std::string(Rtc) == "off") && Compiler.load(Error))
      return true;
    CompilerMissing = Error;
    note(std::string(Compiler.name()) + " is unavailable (" + Error +
         "): only kernels built with the program run on " + name());
    return true;
  }
  /// The driver's events, on the queue launches go to; hasEvents() false
  /// where the driver lacks one of these calls.
  virtual bool hasEvents() const = 0;
  virtual Status createEvent(void *&Event) = 0;
  virtual Status recordEvent(void *Event) = 0;
  /// Done: the device has passed the event.
  virtual Status queryEvent(void *Event, bool &Done) = 0;
  virtual Status elapsedBetween(void *From, void *To, float &Milliseconds) = 0;
  /// Binds the backend's context to the calling thread.
  virtual Status makeCurrent() = 0;
  /// makeCurrent once per thread: every entry point calls it first, since
  /// any thread may launch, copy or wait (for another thread's launches
  /// too).
  Status current() {
    thread_local const GpuBackend *Bound = nullptr;
    if (Bound == this)
      return {};
    Status S = makeCurrent();
    if (S.empty())
      Bound = this;
    return S;
  }
  virtual Status loadFunction(const std::vector<char> &Binary,
                              const std::string &Name,
                              KernelHandle &Handle) = 0;
  /// A loaded kernel's registers, shared and local memory, as the driver
  /// reports them; none where it cannot.
  virtual std::optional<KernelResources>
  functionResources(KernelHandle Handle) = 0;
  /// WEFT_VERBOSE: what the kernel holds decides how many of its blocks
  /// share an SM.
  void noteResources(const std::string &Kernel,
                     const std::optional<KernelResources> &R) const {
    if (R)
      note("kernel " + Kernel + " on " + Props.Architecture + ": " +
           describe(*R));
  }

  /// Everything that shapes the binary.
  std::string binaryKey(const char *Source,
                        const std::vector<std::string> &Defines) const {
    std::string Key = std::string(Compiler.name()) + " " + Compiler.version() +
                      "\n" + Props.Architecture + "\n" + DevicePreludeText +
                      "\n" + Source;
    for (const std::string &D : Defines)
      Key += "\n-D" + D;
    return Key;
  }
  Status compileFailure(const std::string &Log) const {
    return std::string(Compiler.name()) + " could not compile it for " +
           Props.Architecture + ": " + Log;
  }
  struct Compiled {
    std::vector<char> Binary;
    std::string Log; // ptxas's report of registers and spills
  };
  std::optional<Compiled> takePrecompiled(const std::string &Key) {
    std::lock_guard<std::mutex> Guard(PrecompiledLock);
    auto It = Precompiled.find(Key);
    if (It == Precompiled.end())
      return std::nullopt;
    Compiled Built = std::move(It->second);
    Precompiled.erase(It);
    return Built;
  }

  RuntimeCompiler Compiler;
  DeviceProperties Props;
  KernelCache Cache;
  DeviceMemoryPool Memory{[this](std::size_t Bytes, DevicePtr &Ptr) {
                            return deviceAllocate(Bytes, Ptr);
                          },
                          [this](DevicePtr Ptr) { deviceRelease(Ptr); }};
  std::vector<void *> FreeEvents;
  std::mutex PrecompiledLock;
  std::map<std::string, Compiled> Precompiled; // by binaryKey
  bool StoreWarned = false;
  bool CacheWarned = false;
  std::string CompilerMissing; // why the runtime compiler did not load
  unsigned PrebuiltLoads = 0;
};

} // namespace weft::rt

#endif
