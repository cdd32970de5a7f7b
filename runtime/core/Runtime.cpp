// Runtime.cpp: backend selection and the launch data path shared by every
// backend: copy in, launch, copy out, and fall back on any failure.
#include "core/Runtime.h"

#include "core/Diagnostics.h"
#include "core/HostCombine.h"
#include "core/LaunchConfig.h"
#include "core/MappingChoice.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace weft::rt {

using Clock = std::chrono::steady_clock;

Backend::~Backend() = default;

BackendChoice backendChoiceFromEnvironment() {
  const char *V = std::getenv("WEFT_BACKEND");
  if (!V || !*V || !std::strcmp(V, "auto"))
    return BackendChoice::Auto;
  if (!std::strcmp(V, "cuda"))
    return BackendChoice::Cuda;
  if (!std::strcmp(V, "hip"))
    return BackendChoice::Hip;
  if (!std::strcmp(V, "sim"))
    return BackendChoice::Sim;
  if (!std::strcmp(V, "host"))
    return BackendChoice::Host;
  warn(std::string("WEFT_BACKEND='") + V +
       "' is not one of auto, cuda, hip, sim, host; using auto");
  return BackendChoice::Auto;
}

Runtime &Runtime::get() {
  static Runtime *R = new Runtime(); // Never destroyed: used from atexit code.
  return *R;
}

/// WEFT_ON_FAULT=fallback|error; by default an explicitly named GPU
/// backend makes faults errors (the user asked for that GPU), and anything
/// else falls back to the host loop.
static void chooseFaultPolicy(BackendChoice Choice) {
  const char *V = std::getenv("WEFT_ON_FAULT");
  const std::string Value = V ? V : "";
  if (Value == "error") {
    setFaultPolicy(FaultPolicy::Error, "WEFT_ON_FAULT=error");
    return;
  }
  if (!Value.empty() && Value != "fallback")
    warn("WEFT_ON_FAULT='" + Value +
         "' is not one of fallback, error; using the default");
  if (Value != "fallback" &&
      (Choice == BackendChoice::Cuda || Choice == BackendChoice::Hip)) {
    const std::string Name = Choice == BackendChoice::Cuda ? "cuda" : "hip";
    setFaultPolicy(FaultPolicy::Error,
                   "WEFT_BACKEND=" + Name +
                       " makes this an error; WEFT_ON_FAULT=fallback runs the "
                       "loop on the host instead");
    return;
  }
  setFaultPolicy(FaultPolicy::Fallback, "");
}

Runtime::Runtime() {
  BackendChoice Choice = backendChoiceFromEnvironment();
  chooseFaultPolicy(Choice);
  std::string Reason;
  switch (Choice) {
  case BackendChoice::Host:
    note("backend: host (WEFT_BACKEND=host)");
    return;
  case BackendChoice::Auto: {
    Active = createCudaBackend(Reason);
    std::string HipReason;
    if (!Active)
      Active = createHipBackend(HipReason);
    if (!Active) {
      note("backend: host (no CUDA device: " + Reason +
           "; no AMD GPU: " + HipReason + ")");
      return;
    }
    break;
  }
  case BackendChoice::Cuda:
  case BackendChoice::Hip:
  case BackendChoice::Sim: {
    // Asked for by name: if it cannot run, say why once.
    const bool Cuda = Choice == BackendChoice::Cuda;
    const bool Hip = Choice == BackendChoice::Hip;
    Active = Cuda  ? createCudaBackend(Reason)
             : Hip ? createHipBackend(Reason)
                   : createSimBackend(Reason);
    if (!Active) {
      fault(std::string("WEFT_BACKEND=") +
                (Cuda  ? "cuda"
                 : Hip ? "hip"
                       : "sim") +
                ", but " +
                (Cuda  ? "CUDA"
                 : Hip ? "HIP"
                       : "the simulator") +
                " is unavailable (" + Reason + ")",
            "marked loops run on the host");
      return;
    }
    break;
  }
  }
  note(std::string("backend: ") + Active->name() + " (" +
       Active->properties().Architecture + ")");
}

bool Runtime::launch(const char *Descriptor, const char *Source,
                     const detail::LaunchArg *Args, std::size_t NumArgs) {
  if (!Active)
    return false;
  std::lock_guard<std::mutex> Guard(Lock);
  std::unique_ptr<LoopSite> &Slot = Sites[Descriptor];
  if (!Slot)
    Slot = makeSite(Descriptor, Source);
  LoopSite &Site = *Slot;
  if (Site.Disabled) {
    // The host loop runs on host data: a region must not copy its older
    // device copies over the results when it ends.
    if (!Residents.empty())
      evictAll();
    return false;
  }
  LoopSite &Mapped = chooseMapped(Site, Args, NumArgs);
  Status S = run(Mapped, Mapped.Text.empty() ? Source : Mapped.Text.c_str(),
                 Args, NumArgs);
  if (S.empty())
    return true;
  std::string Evicted;
  if (!Residents.empty()) {
    evictAll();
    Evicted = " (resident data copied back: regions end here)";
  }
  fault(Mapped.Kernel.Location + ": kernel " + Mapped.Kernel.Name + " on " +
            Active->name() + " failed: " + S,
        "the loop runs on the host" + Evicted);
  Site.Disabled = true;
  return false;
}

std::unique_ptr<LoopSite> Runtime::makeSite(const char *Descriptor,
                                            const char *Source) {
  auto Site = std::make_unique<LoopSite>();
  std::vector<KernelInfo> Kernels;
  std::string Error;
  const std::size_t SourceLength = Source ? std::strlen(Source) : 0;
  if (!parseDescriptors(Descriptor, SourceLength, Kernels, Error)) {
    fault(Error, "the loop runs on the host");
    Site->Disabled = true;
    return Site;
  }
  for (std::size_t I = 0; I < Kernels.size(); ++I) {
    LoopSite &Mapped =
        I == 0 ? *Site : *Site->Alternatives.emplace_back(new LoopSite());
    Mapped.Kernel = std::move(Kernels[I]);
    if (Mapped.Kernel.Dimensions.empty()) {
      // No map line: the outermost level on x, 256 threads a block.
      DimensionInfo D;
      D.Block = 256;
      Mapped.Kernel.Dimensions.push_back(D);
    }
    if (Mapped.Kernel.TextLength)
      Mapped.Text.assign(Source + Mapped.Kernel.TextOffset,
                         Mapped.Kernel.TextLength);
  }
  return Site;
}

LoopSite &Runtime::chooseMapped(LoopSite &Site, const detail::LaunchArg *Args,
                                std::size_t NumArgs) {
  if (Site.Alternatives.empty())
    return Site;
  std::vector<std::int64_t> Sizes;
  const unsigned M = chooseMapping(Site.Kernel, Args, NumArgs, Sizes);
  LoopSite &Mapped = M == 0 ? Site : *Site.Alternatives[M - 1];
  if (M != Site.LastMapping) {
    std::string Text;
    for (std::int64_t V : Sizes)
      Text += (Text.empty() ? "" : ", ") + std::to_string(V);
    note(Site.Kernel.Location + ": sizes (" + Text + "): mapping " +
         std::to_string(M) + " of " +
         std::to_string(Site.Alternatives.size() + 1) + ", kernel " +
         Mapped.Kernel.Name);
    Site.LastMapping = M;
  }
  return Mapped;
}

namespace {

const std::vector<std::string> &kernelDefines();

/// WEFT_TEST_FAULT=<stage> makes that stage of every launch fail, so that
/// tests can check the fallback contract at each: compile, allocate,
/// copy-in, launch, synchronize.
Status injectedFault(const char *Stage) {
  static const std::string Fault = [] {
    const char *F = std::getenv("WEFT_TEST_FAULT");
    return std::string(F ? F : "");
  }();
  return Fault == Stage ? "injected fault (WEFT_TEST_FAULT=" + Fault + ")"
                        : Status();
}

/// The plugin's "covers" claim, checked against the real extents: rows
/// (the outermost trip count, from 0) times columns is the span's size,
/// and its rows are as long as the columns.
bool writtenEverywhere(const ParamInfo &P, std::uint64_t Elements,
                       const KernelInfo &K, const detail::LaunchArg *Args,
                       std::size_t NumArgs, std::int64_t Lower,
                       std::int64_t Count) {
  if (!P.CoverCols || P.Kind != ParamKind::InOut || Lower != 0)
    return false;
  std::string Error;
  std::int64_t Cols = 0, Stride = 0;
  if (!evaluateBound(*P.CoverCols, K, Args, NumArgs, Cols, Error) ||
      !evaluateBound(*P.CoverStride, K, Args, NumArgs, Stride, Error) ||
      Cols != Stride || Cols <= 0)
    return false;
  return static_cast<std::uint64_t>(Count) * static_cast<std::uint64_t>(Cols) ==
         Elements;
}

/// Device buffers of one launch, released on every path out.
class LaunchBuffers {
public:
  explicit LaunchBuffers(Backend &B) : B(B) {}
  ~LaunchBuffers() {
    for (DevicePtr P : Owned)
      B.release(P);
  }
  Status allocate(std::size_t Bytes, DevicePtr &P) {
    Status S = B.allocate(Bytes ? Bytes : 1, P);
    if (S.empty())
      Owned.push_back(P);
    return S;
  }

private:
  Backend &B;
  std::vector<DevicePtr> Owned;
};

/// A span parameter as the kernel receives it: weft::dspan<T>.
struct DeviceSpan {
  DevicePtr Data;
  std::uint64_t Extent;
};

} // namespace

Status Runtime::run(LoopSite &Site, const char *Source,
                    const detail::LaunchArg *Args, std::size_t NumArgs) {
  const KernelInfo &K = Site.Kernel;
  if (NumArgs != K.Params.size())
    return "the call passes " + std::to_string(NumArgs) +
           " arguments, the kernel takes " + std::to_string(K.Params.size());

  std::string Error;
  std::int64_t Lower = 0, Count = 0;
  if (!evaluateTripCount(K.Levels[0], K, Args, NumArgs, Lower, Count, Error))
    return Error;
  if (Count == 0)
    return {}; // The host loop would not run either.

  if (!Site.Handle) {
    Status S = injectedFault("compile");
    if (S.empty())
      S = Active->getKernel(K, Source, kernelDefines(), K.Name, Site.Handle);
    if (S.empty() && !K.Combine.Name.empty())
      S = Active->getKernel(K, Source, kernelDefines(), K.Combine.Name,
                            Site.CombineHandle);
    if (!S.empty()) {
      Site.Handle = nullptr;
      return S;
    }
  }

  LoopSite::Variant *Variant = nullptr;
  if (Status S = chooseVariant(Site, Source, Variant); !S.empty())
    return S;

  const DeviceProperties &Props = Active->properties();
  LaunchConfig Config;
  if (!computeLaunchConfig(K, Args, NumArgs, Count, Props, Config, Error,
                           K.Tune.Axis, Variant ? Variant->Block : 0))
    return Error;

  LaunchBuffers Buffers(*Active);
  std::vector<DeviceSpan> Spans(NumArgs);
  std::vector<bool> InRegion(NumArgs, false);
  std::vector<void *> Params;
  Params.reserve(NumArgs + 2 + K.Reductions.size());
  for (std::size_t I = 0; I < NumArgs; ++I) {
    const ParamInfo &P = K.Params[I];
    const detail::LaunchArg &A = Args[I];
    if (P.Kind == ParamKind::ReductionTarget) {
      if (A.ElementSize != P.Bytes)
        return "reduction variable '" + P.Name + "' has the wrong size";
      continue; // Combined on the host after the launch.
    }
    if (!P.isSpan()) {
      if (A.ElementSize != P.Bytes)
        return "argument '" + P.Name + "' has the wrong size";
      Params.push_back(const_cast<void *>(A.Data));
      continue;
    }
    if (A.ElementSize != P.Bytes)
      return "span '" + P.Name + "' has the wrong element size";
    const std::size_t Bytes = A.Count * A.ElementSize;
    Spans[I].Extent = A.Count;
    // Inside a region the span lives on the device already: no copies.
    if (Resident *R = findResident(A.Data, Bytes)) {
      Spans[I].Data = R->Device + (static_cast<const char *>(A.Data) - R->Host);
      InRegion[I] = true;
      Params.push_back(&Spans[I]);
      continue;
    }
    if (Status S = injectedFault("allocate"); !S.empty())
      return S;
    if (Status S = Buffers.allocate(Bytes, Spans[I].Data); !S.empty())
      return S;
    // "out": the plugin proved every element written; the rest ("inout")
    // is copied in, so that elements the kernel skips keep their values,
    // unless the plugin's grid claim holds for these extents.
    if (P.readsDevice() &&
        !writtenEverywhere(P, A.Count, K, Args, NumArgs, Lower, Count)) {
      Status S = injectedFault("copy-in");
      if (S.empty())
        S = toDevice(Spans[I].Data, A.Data, Bytes);
      if (!S.empty())
        return S;
    }
    Params.push_back(&Spans[I]);
  }
  Params.push_back(&Lower);
  Params.push_back(&Count);
  // One partial value per block for each outermost reduction.
  std::vector<DeviceSpan> Partials(K.Reductions.size());
  for (std::size_t R = 0; R < K.Reductions.size(); ++R) {
    Partials[R].Extent = Config.blocks();
    const std::size_t Bytes =
        Config.blocks() * K.Params[K.Reductions[R].Param].Bytes;
    if (Status S = Buffers.allocate(Bytes, Partials[R].Data); !S.empty())
      return S;
    Params.push_back(&Partials[R]);
  }

  // Per-iteration arrays: a slice of Extent elements per thread of the
  // grid (a thread runs its iterations one after another).
  std::vector<DeviceSpan> Arrays(K.Buffers.size());
  for (std::size_t B = 0; B < K.Buffers.size(); ++B) {
    std::int64_t Extent = 0;
    if (!evaluateBound(K.Buffers[B].Extent, K, Args, NumArgs, Extent, Error))
      return Error;
    Arrays[B].Extent =
        static_cast<std::uint64_t>(std::max<std::int64_t>(Extent, 0)) *
        Config.threads();
    if (Status S = Buffers.allocate(
            Arrays[B].Extent * K.Buffers[B].ElementBytes, Arrays[B].Data);
        !S.empty())
      return S;
    Params.push_back(&Arrays[B]);
  }

  // Split(k) of depth 1: each block's partials, k per outermost iteration,
  // for the combining kernel.
  std::vector<DeviceSpan> SplitPartials(K.Combine.PartialBytes.size());
  std::int64_t Splits = 1;
  for (const DimensionInfo &D : K.Dimensions)
    if (D.Depth == 1 && D.Kind == Degree::Split)
      Splits = Config.Grid[D.Axis];
  for (std::size_t R = 0; R < SplitPartials.size(); ++R) {
    SplitPartials[R].Extent =
        static_cast<std::uint64_t>(Count) * static_cast<std::uint64_t>(Splits);
    if (Status S = Buffers.allocate(SplitPartials[R].Extent *
                                        K.Combine.PartialBytes[R],
                                    SplitPartials[R].Data);
        !S.empty())
      return S;
    Params.push_back(&SplitPartials[R]);
  }
  if (!K.Combine.Name.empty())
    Params.push_back(&Splits);

  const Clock::time_point Start = Clock::now();
  Status S = injectedFault("launch");
  if (S.empty())
    S = Active->launch(Variant ? Variant->Handle : Site.Handle, Config.Grid,
                       Config.Block, Params.data());
  if (S.empty() && Site.CombineHandle) {
    // One thread per outermost iteration, after the partials are written.
    const unsigned Block[3] = {K.Combine.Block, 1, 1};
    const std::int64_t Blocks = (Count + K.Combine.Block - 1) / K.Combine.Block;
    const unsigned Grid[3] = {
        static_cast<unsigned>(std::min<std::int64_t>(Blocks, 0x7fffffff)), 1,
        1};
    S = Active->launch(Site.CombineHandle, Grid, Block, Params.data());
  }
  if (S.empty())
    S = injectedFault("synchronize");
  if (S.empty())
    S = Active->synchronize();
  if (!S.empty())
    return S;
  if (Variant && Site.Chosen < 0) {
    const double Seconds =
        std::chrono::duration<double>(Clock::now() - Start).count();
    Variant->Seconds =
        Variant->Timed ? std::min(Variant->Seconds, Seconds) : Seconds;
    ++Variant->Timed;
  }

  for (std::size_t I = 0; I < NumArgs; ++I) {
    const ParamInfo &P = K.Params[I];
    if (!P.writesDevice() || InRegion[I])
      continue;
    Status S = toHost(const_cast<void *>(Args[I].Data), Spans[I].Data,
                      Args[I].Count * Args[I].ElementSize);
    if (!S.empty()) {
      // Part of the results may already be in host memory: rerunning the
      // loop could apply an update twice, so this cannot fall back.
      warn(K.Location + ": copying results of kernel " + K.Name +
           " back failed (" + S + "); the host data is no longer reliable");
      std::abort();
    }
  }
  for (std::size_t R = 0; R < K.Reductions.size(); ++R) {
    const ReductionInfo &Info = K.Reductions[R];
    const ParamInfo &P = K.Params[Info.Param];
    std::vector<char> Host(Partials[R].Extent * P.Bytes);
    Status S = toHost(Host.data(), Partials[R].Data, Host.size());
    if (S.empty() &&
        !combineIntoTarget(Info.Op, P.Type, Host.data(), Partials[R].Extent,
                           const_cast<void *>(Args[Info.Param].Data), Error))
      S = Error;
    if (!S.empty()) {
      warn(K.Location + ": combining reduction '" + P.Name + "' of kernel " +
           K.Name + " failed (" + S + "); the host data is no longer reliable");
      std::abort();
    }
  }
  return {};
}

namespace {

/// Launches of a loop before its tuning starts (a loop run once or twice
/// never pays for compiling variants), and timed launches per variant.
constexpr unsigned LaunchesBeforeTuning = 3, TimedLaunchesPerVariant = 2;

/// WEFT_KERNEL_DEFINES="WEFT_STAGING=0 WEFT_TILE=16": macros every kernel
/// is compiled with (the tuning parameters of the kernel text). Block sizes
/// are the runtime's to choose: it launches with them.
const std::vector<std::string> &kernelDefines() {
  static const std::vector<std::string> Defines = [] {
    std::vector<std::string> D;
    const char *V = std::getenv("WEFT_KERNEL_DEFINES");
    std::string Word;
    for (const char *C = V ? V : "";; ++C) {
      if (*C && *C != ' ') {
        Word += *C;
        continue;
      }
      if (Word.rfind("WEFT_BLOCK_", 0) == 0)
        warn("WEFT_KERNEL_DEFINES: " + Word +
             " ignored (block sizes follow the mapping and tuning)");
      else if (!Word.empty())
        D.push_back(Word);
      Word.clear();
      if (!*C)
        break;
    }
    return D;
  }();
  return Defines;
}

/// WEFT_TUNE=0 turns run-time tuning off, WEFT_TUNE=1 on; by default it
/// is on for GPUs (the simulator's timings say nothing about a GPU's).
bool tuningEnabled(const Backend &B) {
  static const int Setting = [] {
    const char *V = std::getenv("WEFT_TUNE");
    return !V || !*V ? -1 : std::strcmp(V, "0") != 0;
  }();
  return Setting < 0 ? std::strcmp(B.name(), "sim") != 0 : Setting == 1;
}

} // namespace

Status Runtime::chooseVariant(LoopSite &Site, const char *Source,
                              LoopSite::Variant *&Out) {
  const KernelInfo &K = Site.Kernel;
  Out = nullptr;
  if (++Site.Launches <= LaunchesBeforeTuning || !tuningEnabled(*Active) ||
      K.Tune.Blocks.size() < 2)
    return {};
  if (Site.Variants.empty())
    for (unsigned B : K.Tune.Blocks)
      Site.Variants.push_back({B, nullptr, 0, 0});
  if (Site.Chosen < 0) {
    // The variant timed least so far; once each has its launches, the
    // fastest for good.
    LoopSite::Variant *Next = &Site.Variants.front();
    for (LoopSite::Variant &V : Site.Variants)
      if (V.Timed < Next->Timed)
        Next = &V;
    if (Next->Timed >= TimedLaunchesPerVariant) {
      Site.Chosen = 0;
      std::string Times;
      for (std::size_t I = 0; I < Site.Variants.size(); ++I) {
        const LoopSite::Variant &V = Site.Variants[I];
        if (V.Seconds < Site.Variants[Site.Chosen].Seconds)
          Site.Chosen = static_cast<int>(I);
        Times += (I ? ", " : "") + std::to_string(V.Block) + ": " +
                 std::to_string(V.Seconds * 1e6) + " us";
      }
      note(K.Location + ": kernel " + K.Name + " tuned: block " +
           "xyz"[K.Tune.Axis] + " " +
           std::to_string(Site.Variants[Site.Chosen].Block) + " (" + Times +
           ")");
      Next = &Site.Variants[Site.Chosen];
    }
    Out = Next;
  } else {
    Out = &Site.Variants[Site.Chosen];
  }
  if (!Out->Handle) {
    unsigned Mapped = 0;
    for (const DimensionInfo &D : K.Dimensions)
      if (D.Axis == K.Tune.Axis)
        Mapped = D.Block;
    if (Out->Block == Mapped)
      Out->Handle = Site.Handle;
    else {
      std::vector<std::string> Defines = kernelDefines();
      Defines.push_back(std::string("WEFT_BLOCK_") + "XYZ"[K.Tune.Axis] + "=" +
                        std::to_string(Out->Block));
      if (Status S = Active->getKernel(K, Source, Defines, K.Name, Out->Handle);
          !S.empty())
        return "its variant with block " + std::to_string(Out->Block) + ": " +
               S;
    }
  }
  return {};
}

Status Runtime::toDevice(DevicePtr Dst, const void *Src, std::size_t Bytes) {
  BytesToDevice += Bytes;
  return Active->copyToDevice(Dst, Src, Bytes);
}

Status Runtime::toHost(void *Dst, DevicePtr Src, std::size_t Bytes) {
  BytesToHost += Bytes;
  return Active->copyToHost(Dst, Src, Bytes);
}

Runtime::Resident *Runtime::findResident(const void *Data, std::size_t Bytes) {
  const char *P = static_cast<const char *>(Data);
  for (Resident &R : Residents)
    if (P >= R.Host && P + Bytes <= R.Host + R.Bytes)
      return &R;
  return nullptr;
}

void *Runtime::enterRegion(const detail::ResidentRange *Ranges,
                           std::size_t Count) {
  if (!Active)
    return nullptr;
  std::lock_guard<std::mutex> Guard(Lock);
  void *Region = new char; // its identity
  const std::size_t First = Residents.size();
  for (std::size_t I = 0; I < Count; ++I) {
    if (!Ranges[I].Bytes || findResident(Ranges[I].Data, Ranges[I].Bytes))
      continue; // empty, or resident through an enclosing region
    Resident R{static_cast<char *>(Ranges[I].Data), Ranges[I].Bytes, 0, Region};
    Status S = Active->allocate(R.Bytes, R.Device);
    if (S.empty()) {
      S = toDevice(R.Device, R.Host, R.Bytes);
      if (!S.empty())
        Active->release(R.Device);
    }
    if (!S.empty()) {
      fault("a weft::region could not keep its data on " +
                std::string(Active->name()) + " (" + S + ")",
            "its loops copy their data as usual");
      for (std::size_t J = First; J < Residents.size(); ++J)
        Active->release(Residents[J].Device);
      Residents.resize(First);
      break;
    }
    Residents.push_back(R);
  }
  return Region;
}

void Runtime::exitRegion(void *Region) {
  if (!Region)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<Resident> Kept;
  for (Resident &R : Residents) {
    if (R.Region != Region) {
      Kept.push_back(R);
      continue;
    }
    if (Status S = toHost(R.Host, R.Device, R.Bytes); !S.empty()) {
      warn("copying a weft::region's data back failed (" + S +
           "); the host data is no longer reliable");
      std::abort();
    }
    Active->release(R.Device);
  }
  Residents = std::move(Kept);
  delete static_cast<char *>(Region);
}

void Runtime::updateRegion(const void *Data, std::size_t Bytes, bool ToDevice) {
  std::lock_guard<std::mutex> Guard(Lock);
  Resident *R = findResident(Data, Bytes);
  if (!R)
    return; // Not resident: the host copy is the only one.
  const std::size_t Offset = static_cast<const char *>(Data) - R->Host;
  Status S = ToDevice
                 ? toDevice(R->Device + Offset, Data, Bytes)
                 : toHost(const_cast<void *>(Data), R->Device + Offset, Bytes);
  if (!S.empty()) {
    warn("a weft::region update failed (" + S +
         "); the host data is no longer reliable");
    std::abort();
  }
}

void Runtime::evictAll() {
  for (Resident &R : Residents) {
    if (Status S = toHost(R.Host, R.Device, R.Bytes); !S.empty()) {
      warn("copying resident data back after a failure failed (" + S +
           "); the host data is no longer reliable");
      std::abort();
    }
    Active->release(R.Device);
  }
  Residents.clear();
}

} // namespace weft::rt

void *weft::detail::regionEnter(const ResidentRange *Ranges,
                                std::size_t Count) noexcept {
  return rt::Runtime::get().enterRegion(Ranges, Count);
}

void weft::detail::regionExit(void *Region) noexcept {
  rt::Runtime::get().exitRegion(Region);
}

void weft::detail::regionUpdate(void *, const void *Data, std::size_t Bytes,
                                bool ToDevice) noexcept {
  rt::Runtime::get().updateRegion(Data, Bytes, ToDevice);
}

weft::transfer_stats_t weft::transfer_stats() noexcept {
  rt::Runtime &R = rt::Runtime::get();
  return {R.BytesToDevice, R.BytesToHost};
}

const char *weft::backendName() noexcept {
  rt::Backend *B = rt::Runtime::get().backend();
  return B ? B->name() : "host";
}

bool weft::detail::launchKernel(const char *Descriptor, const char *Source,
                                const LaunchArg *Args,
                                std::size_t NumArgs) noexcept {
  try {
    return rt::Runtime::get().launch(Descriptor, Source, Args, NumArgs);
  } catch (const std::exception &E) {
    rt::fault(std::string("internal error: ") + E.what(),
              "the loop runs on the host");
    return false;
  }
}
