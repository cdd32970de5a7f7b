// Runtime.cpp: the launch as its stages, the loops' sites, and the entry
// points the plugin's code and weft::region call.
#include "entry/Runtime.h"

#include "backends/BackendTable.h"
#include "core/Base64.h"
#include "core/Diagnostics.h"
#include "core/LaunchBounds.h"
#include "launch/KernelLaunch.h"
#include "launch/LaunchConfig.h"
#include "policy/BackendSelection.h"
#include "policy/Environment.h"
#include "policy/MappingChoice.h"
#include "search/TuningSpace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace weft::rt {

using Clock = std::chrono::steady_clock;

Runtime &Runtime::get() {
  static Runtime *R = new Runtime(); // Never destroyed: used from atexit code.
  return *R;
}

Runtime::Runtime()
    : Active(selectBackend(HostReason)), Data(Active.get()),
      Resident(Active.get(), Data),
      Timeline(Active ? Active->name() : nullptr) {
  // WEFT_VERBOSE: what each loop did, once the program is done with them.
  if (verbosity() >= 1)
    std::atexit([] {
      const Runtime &R = get();
      for (const std::string &Line :
           R.Stats.lines(R.Active ? R.Active->name() : "the device"))
        note("loop at " + Line);
      // Not while another thread launches (or a fault stops the program
      // from inside a launch).
      std::unique_lock<std::mutex> Guard(get().Lock, std::try_to_lock);
      std::vector<std::string> Tuned;
      if (Guard.owns_lock())
        for (const auto &[Descriptor, Site] : R.Sites)
          for (const std::string &Line : OnlineTuner::summary(*Site))
            Tuned.push_back(Site->Kernel.Location + ": " + Line);
      std::sort(Tuned.begin(), Tuned.end());
      for (const std::string &Line : Tuned)
        note("loop at " + Line);
    });
  // WEFT_PROFILE: each loop's calls and costs, once the program is done;
  // without it the ledger of copies is not kept.
  Data.Ledger.Enabled = profileSettings().on();
  if (profileSettings().on())
    std::atexit([] { get().printProfile(); });
  // A variant compiling in the background finishes before the libraries'
  // destructors run (tune/BackgroundCompiler registers that as its thread
  // starts, after the summary's handler, so it runs first).
}

bool Runtime::launch(const char *Descriptor, const char *Source,
                     const detail::LaunchArg *Args, std::size_t NumArgs) {
  std::string Why;
  // What this call costs: its time, and what it copies (with launches from
  // several threads, what another's call copies meanwhile too).
  const std::uint64_t ToDevice = Data.BytesToDevice, ToHost = Data.BytesToHost;
  const Clock::time_point Start = Clock::now();
  const LaunchRange Range(Timeline, Stats.calls(Descriptor).Location);
  Data.Ledger.beginCall(Descriptor);
  const bool Ran = tryLaunch(Descriptor, Source, Args, NumArgs, Why);
  Data.Ledger.endCall();
  Stats.cost(Descriptor, Ran,
             std::chrono::duration<double>(Clock::now() - Start).count(),
             Data.BytesToDevice - ToDevice, Data.BytesToHost - ToHost);
  Stats.record(Descriptor, Ran, Why);
  if (!Ran)
    hostLoopStart(Descriptor);
  return Ran;
}

bool Runtime::tryLaunch(const char *Descriptor, const char *Source,
                        const detail::LaunchArg *Args, std::size_t NumArgs,
                        std::string &Why) {
  if (!Active) {
    Why = HostReason;
    return false;
  }
  std::lock_guard<std::mutex> Guard(Lock);
  // Another thread's launches in flight: that thread's host code may read
  // their results once this one runs (and a fault must be theirs).
  if (!Failed && !Pending.empty() &&
      Pending.thread() != std::this_thread::get_id())
    settle();
  if (Failed) {
    Why = FailedWhy;
    return false;
  }
  std::unique_ptr<LoopSite> &Slot = Sites[Descriptor];
  if (!Slot)
    Slot = makeSite(Descriptor, Source);
  LoopSite &Site = *Slot;
  if (Site.Disabled) {
    // The host loop runs on host data: a region must not copy its older
    // device copies over the results when it ends.
    if (settle() && !Resident.empty())
      Resident.evictAll();
    Why = Failed ? FailedWhy : Site.DisabledWhy;
    return false;
  }
  if (hostTrial(Descriptor)) {
    Why = "WEFT_PROFILE timed its host loop on this call";
    return false;
  }
  // Pointers passed without an extent: sized by their subscripts' bounds.
  std::string Unsized;
  const detail::LaunchArg *Sized =
      sizedArgs(Site.Kernel, Args, NumArgs, Scratch.SizedArgs, Unsized);
  if (!Sized) {
    // Right for other arguments: this call alone runs on the host, on host
    // data (what a region holds goes back first: its extent is unknown).
    if (!Site.SaidUnsized)
      fault(Site.Kernel.Location + ": " + Unsized,
            "calls passing such arguments run the loop on the host");
    Site.SaidUnsized = true;
    if (settle() && !Resident.empty())
      Resident.evictAll();
    Why = Unsized;
    return false;
  }
  Args = Sized;
  if (std::string Shared = sharedMemoryConflict(Site, Args, NumArgs);
      !Shared.empty()) {
    // Right for other arguments: this call alone runs on the host.
    if (!Site.SaidSharedMemory)
      fault(Site.Kernel.Location + ": " + Shared,
            "calls passing such arguments run the loop on the host");
    Site.SaidSharedMemory = true;
    useOnHost(Site.Kernel.Params, Args, NumArgs);
    Why = Shared;
    return false;
  }
  std::vector<std::int64_t> Sizes;
  bool Ragged = false;
  const unsigned M = chooseMapped(Site, Args, NumArgs, Sizes, Ragged);
  LoopSite &Mapped = M == 0 ? Site : *Site.Alternatives[M - 1];
  Status S = run(Site, M, Sizes, Descriptor, Source, Args, NumArgs, Ragged);
  if (S.empty())
    return true;
  // Launches in flight finish first: their results are part of what the
  // host loop runs on.
  if (Failed || !settle()) {
    Why = FailedWhy;
    return false;
  }
  std::string Evicted;
  if (!Resident.empty()) {
    Resident.evictAll();
    Evicted = " (resident data copied back: regions end here)";
  }
  Site.DisabledWhy = "kernel " + Mapped.Kernel.Name + " on " + Active->name() +
                     " failed: " + S;
  fault(Mapped.Kernel.Location + ": " + Site.DisabledWhy,
        "the loop runs on the host" + Evicted);
  Site.Disabled = true;
  Why = Site.DisabledWhy;
  return false;
}

void Runtime::hostLoop(const char *Descriptor, const char *Source,
                       const detail::LaunchArg *Args, std::size_t NumArgs,
                       const char *Reason) {
  Stats.record(Descriptor, false, Reason);
  const std::uint64_t ToDevice = Data.BytesToDevice, ToHost = Data.BytesToHost;
  const Clock::time_point Start = Clock::now();
  Data.Ledger.beginCall(Descriptor);
  hostData(Descriptor, Source, Args, NumArgs);
  Data.Ledger.endCall();
  Stats.cost(Descriptor, false,
             std::chrono::duration<double>(Clock::now() - Start).count(),
             Data.BytesToDevice - ToDevice, Data.BytesToHost - ToHost);
  hostLoopStart(Descriptor);
}

void Runtime::hostData(const char *Descriptor, const char *Source,
                       const detail::LaunchArg *Args, std::size_t NumArgs) {
  if (!Active)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  // Outside regions every launch copied its results back already.
  if (Failed || Resident.empty() || !settle())
    return;
  std::unique_ptr<LoopSite> &Slot = Sites[Descriptor];
  if (!Slot)
    Slot = makeSite(Descriptor, Source);
  std::string Unsized;
  const detail::LaunchArg *Sized =
      sizedArgs(Slot->Kernel, Args, NumArgs, Scratch.SizedArgs, Unsized);
  if (!Sized) {
    Resident.evictAll(); // which of a region's data the loop uses is unknown
    return;
  }
  useOnHost(Slot->Kernel.Params, Sized, NumArgs);
}

void Runtime::useOnHost(const std::vector<ParamInfo> &Params,
                        const detail::LaunchArg *Args, std::size_t NumArgs) {
  if (Failed || Resident.empty() || !settle())
    return;
  if (Params.size() != NumArgs) {
    // A descriptor that does not fit: its spans' access is unknown.
    Resident.evictAll();
    return;
  }
  for (std::size_t I = 0; I < NumArgs; ++I)
    if (Params[I].RowsApart)
      Resident.useRowsOnHost(
          *static_cast<const detail::RowsArg *>(Args[I].Data),
          Args[I].ElementSize, Params[I].writesDevice());
    else if (Params[I].isSpan())
      Resident.useOnHost(Args[I].Data, Args[I].Count * Args[I].ElementSize,
                         Params[I].writesDevice());
}

std::string Runtime::sharedMemoryConflict(LoopSite &Site,
                                          const detail::LaunchArg *Args,
                                          std::size_t NumArgs) {
  // Whichever mapping (or tuned variant of one) this call would run.
  std::string Why =
      rt::sharedMemoryConflict(Site.Kernel, Args, NumArgs, Scratch.Pieces);
  for (std::size_t M = 0; Why.empty() && M < Site.Alternatives.size(); ++M)
    Why = rt::sharedMemoryConflict(Site.Alternatives[M]->Kernel, Args, NumArgs,
                                   Scratch.Pieces);
  return Why;
}

std::unique_ptr<LoopSite> Runtime::makeSite(const char *Descriptor,
                                            const char *Source) {
  auto Site = std::make_unique<LoopSite>();
  std::vector<KernelInfo> Kernels;
  std::string Error;
  const std::size_t SourceLength = Source ? std::strlen(Source) : 0;
  if (!parseDescriptors(Descriptor ? Descriptor : "", SourceLength, Kernels,
                        Error)) {
    fault(Error, "the loop runs on the host");
    Site->Disabled = true;
    Site->DisabledWhy = Error;
    return Site;
  }
  for (std::size_t I = 0; I < Kernels.size(); ++I) {
    LoopSite &Mapped =
        I == 0 ? *Site : *Site->Alternatives.emplace_back(new LoopSite());
    Mapped.Kernel = std::move(Kernels[I]);
    // Images built with the program (base64 in the source, after the
    // kernels' text); one that does not decode is left out.
    for (contract::ImageInfo &Image : Mapped.Kernel.Images)
      Image.Data =
          decodeBase64(std::string_view(Source + Image.Offset, Image.Length))
              .value_or(std::string());
    applyDefines(Mapped.Kernel, kernelDefines());
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

unsigned Runtime::chooseMapped(LoopSite &Site, const detail::LaunchArg *Args,
                               std::size_t NumArgs,
                               std::vector<std::int64_t> &Sizes, bool &Ragged) {
  Sizes.clear();
  Ragged = false;
  if (Site.Alternatives.empty())
    return 0;
  unsigned M = chooseMapping(Site.Kernel, Args, NumArgs, Sizes);
  // Rows of differing lengths: the kernel that reads their offsets, the
  // last (parseDescriptors sees to it).
  if (!rowLengthsFit(M == 0 ? Site.Kernel : Site.Alternatives[M - 1]->Kernel,
                     Args, NumArgs)) {
    Ragged = true;
    M = static_cast<unsigned>(Site.Alternatives.size());
  }
  LoopSite &Mapped = M == 0 ? Site : *Site.Alternatives[M - 1];
  if (M != Site.LastMapping[Ragged]) {
    std::string Text;
    for (std::int64_t V : Sizes)
      Text += (Text.empty() ? "" : ", ") + std::to_string(V);
    note(Site.Kernel.Location + ": sizes (" + Text + "): mapping " +
         std::to_string(M) + " of " +
         std::to_string(Site.Alternatives.size() + 1) + ", kernel " +
         Mapped.Kernel.Name +
         (Ragged ? " (rows of differing lengths, indexed by their offsets)"
                 : ""));
    Site.LastMapping[Ragged] = M;
  }
  return M;
}

Status Runtime::run(LoopSite &Root, unsigned M,
                    const std::vector<std::int64_t> &Sizes,
                    const char *Descriptor, const char *LoopSource,
                    const detail::LaunchArg *Args, std::size_t NumArgs,
                    bool Ragged) {
  LoopSite &Mapped = M == 0 ? Root : *Root.Alternatives[M - 1];
  if (NumArgs != Mapped.Kernel.Params.size())
    return "the call passes " + std::to_string(NumArgs) +
           " arguments, the kernel takes " +
           std::to_string(Mapped.Kernel.Params.size());
  std::string Error;
  std::int64_t Lower = 0, Count = 0;
  if (!evaluateTripCount(Mapped.Kernel.Levels[0], Mapped.Kernel, Args, NumArgs,
                         Lower, Count, Error))
    return Error;
  if (Count == 0)
    return {}; // The host loop would not run either.

  TuningChoice Tuned;
  if (Status S = Tuner.choose(*Active, Root, M, Sizes, Descriptor, LoopSource,
                              Args, NumArgs, Count, Ragged, Tuned);
      !S.empty())
    return S;
  TunedVariant *Variant = Tuned.Variant;
  LoopSite &Site = Variant ? *Variant->Mapping : Mapped;
  const KernelInfo &K = Variant ? Variant->Kernel : Site.Kernel;
  const char *Source = Site.Text.empty() ? LoopSource : Site.Text.c_str();
  if (!Variant && !Site.Handle) {
    const Clock::time_point Start = Clock::now();
    struct Timed {
      RunStats &Stats;
      const char *Descriptor;
      Clock::time_point Start;
      const Backend &B;
      const unsigned Cached = B.cachedLoads();
      ~Timed() {
        Stats.load(Descriptor,
                   std::chrono::duration<double>(Clock::now() - Start).count(),
                   B.cachedLoads() != Cached);
      }
    } Load{Stats, Descriptor, Start, *Active};
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
  LaunchConfig Config;
  if (!computeLaunchConfig(K, Args, NumArgs, Count, Active->properties(),
                           Config, Error))
    return Error;

  // Said when it changes (WEFT_VERBOSE=1), or for every launch (=2).
  if (verbosity() >= 2 || !(Config == Site.LastConfig))
    note(K.Location + ": kernel " + K.Name + ": " + Config.describe());
  Site.LastConfig = Config;
  Stats.launched(Descriptor, K, Config.describe());

  // Nothing for the host to read back (every span resident, no reduction
  // into a host variable, no launch timed for tuning but between marks in
  // the device's queue): enqueue and return. Anything else waits for the
  // launches in flight first.
  KernelLaunch Launch(*Active, Data, Resident, Scratch, K, Args, NumArgs);
  const bool Async = asyncLaunches() && K.Reductions.empty() &&
                     (!Tuned.Timed || Active->marksTime()) && Launch.resident();
  if (!Async && !settle())
    return "a launch in flight failed";
  if (Status S = Launch.bind(Lower, Count, Config); !S.empty())
    return S;
  TimeMark Before = nullptr, ProfileBefore = nullptr;
  if (Async && Tuned.Timed && !Active->markTime(Before).empty())
    Before = nullptr; // then this launch goes untimed
  if (profileSettings().on() && Active->marksTime() &&
      !Active->markTime(ProfileBefore).empty())
    ProfileBefore = nullptr;
  const Clock::time_point Start = Clock::now();
  Status S = Launch.enqueue(
      Variant ? Variant->Handle : Site.Handle,
      Variant ? Variant->CombineHandle : Site.CombineHandle, Config);
  if (ProfileBefore) {
    TimeMark After = nullptr;
    if (S.empty() && Active->markTime(After).empty())
      KernelsTimed.add(Descriptor, ProfileBefore, After,
                       namedBytes(K, Args, NumArgs));
    else
      Active->releaseMark(ProfileBefore);
    if (KernelsTimed.size() >= KernelTimes::Limit)
      KernelsTimed.collect(*Active, Stats);
  }
  if (Before) {
    TimeMark After = nullptr;
    if (S.empty() && Active->markTime(After).empty()) {
      Tuner.recordBetween(Before, After);
    } else {
      Active->releaseMark(Before);
    }
  }
  if (S.empty() && Async) {
    Pending.record(Site, Source, Args, NumArgs, Launch.regionRows());
    Launch.handOverBuffers(Pending.buffers());
    if (Pending.size() >= PendingLaunches::Limit && !settle())
      return "a launch in flight failed";
    return {};
  }
  if (S.empty())
    S = Launch.synchronize();
  if (!S.empty())
    return S;
  if (KernelsTimed.size())
    KernelsTimed.collect(*Active, Stats);
  if (Tuned.Timed)
    Tuner.record(std::chrono::duration<double>(Clock::now() - Start).count());
  Launch.copyOut();
  Launch.combine();
  if (!Resident.empty())
    HostCurrent = false; // it may have written a region's data
  return {};
}

bool Runtime::settle() {
  const std::size_t InFlight = Pending.size();
  Status S = Pending.synchronize(*Active);
  if (S.empty()) {
    // Their results are on the device alone now, where a region holds
    // them: no journal covers them any more.
    if (InFlight && !Resident.empty())
      HostCurrent = false;
    if (InFlight)
      note("synchronized " + std::to_string(InFlight) + " launches in flight",
           2);
    if (KernelsTimed.size())
      KernelsTimed.collect(*Active, Stats);
    return true;
  }
  recoverDeferred(S);
  return false;
}

void Runtime::recoverDeferred(const Status &Fault) {
  const std::string What =
      std::string("a kernel launched earlier on ") + Active->name() +
      " failed: " + Fault + " (" + std::to_string(Pending.size()) +
      " launches in flight, of the loops at " + Pending.loops() + ")";
  if (faultPolicy() == FaultPolicy::Error)
    fault(What, ""); // Stops the program.
  // Launches that finished before these left results on the device alone:
  // redoing only these over older host copies would be wrong.
  if (!HostCurrent) {
    warn(What + "; earlier launches left their results in device memory "
                "alone, so they cannot be redone on the host: the host data "
                "is no longer reliable");
    std::abort();
  }
  std::string Reason, Error;
  std::unique_ptr<Backend> Host = createSimBackend(Reason);
  if (!Host || !Pending.replay(*Host, Error)) {
    warn(What + "; redoing them on the host failed (" +
         (Host ? Error : "the simulator is unavailable: " + Reason) +
         "); the host data is no longer reliable");
    std::abort();
  }
  Pending.abandon(*Active);
  Resident.dropAll();
  Failed = true;
  FailedWhy = What;
  warn(What + "; they were redone on the host, and marked loops run on the "
              "host from now on");
}

void Runtime::synchronize() {
  if (!Active)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  settle();
}

void *Runtime::enterRegion(const detail::ResidentRange *Ranges,
                           std::size_t Count) {
  if (!Active)
    return nullptr;
  std::lock_guard<std::mutex> Guard(Lock);
  // After a deferred fault marked loops run on the host: a region would
  // copy its older device data over their results when it ends.
  if (Failed)
    return nullptr;
  // The first region: the host copies are the data.
  if (Resident.empty())
    HostCurrent = true;
  return Resident.enter(Ranges, Count);
}

void Runtime::exitRegion(void *Region) {
  if (!Region)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  // After a deferred fault the ranges were dropped: the host copies are
  // the results, and exit only forgets the region.
  settle();
  Resident.exit(Region);
}

void Runtime::updateRegion(const void *Host, const RowBlock &Rows,
                           bool ToDevice) {
  std::lock_guard<std::mutex> Guard(Lock);
  settle();
  Resident.update(Host, Rows, ToDevice);
}

void *Runtime::deviceData(const void *Host, std::size_t Bytes) {
  if (!Active)
    return nullptr;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Failed || !settle())
    return nullptr;
  Status S;
  const DevicePtr Device = Resident.deviceAddress(Host, Bytes, S);
  if (!S.empty()) {
    warn("weft::device_data could not make the device copy current (" + S +
         "); the host data is no longer reliable");
    std::abort();
  }
  // Its user may write the device copy: the host's no longer holds every
  // result (a fault must not redo launches over it).
  if (Device)
    HostCurrent = false;
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(Device));
}

void Runtime::enterRegionRows(void *Region, const detail::RowsArg &Rows,
                              std::size_t ElementSize) {
  if (!Region)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  Resident.enterRows(Region, Rows, ElementSize);
}

void Runtime::updateRegionRows(const detail::RowsArg &Rows,
                               std::size_t ElementSize, bool ToDevice) {
  std::lock_guard<std::mutex> Guard(Lock);
  settle();
  Resident.updateRows(Rows, ElementSize, ToDevice);
}

} // namespace weft::rt

void weft::detail::hostLoop(const char *Descriptor, const char *Source,
                            const LaunchArg *Args,
                            std::size_t NumArgs) noexcept {
  hostLoopFor(Descriptor, Source, Args, NumArgs, "its if clause was false");
}

void weft::detail::hostLoopFor(const char *Descriptor, const char *Source,
                               const LaunchArg *Args, std::size_t NumArgs,
                               const char *Reason) noexcept {
  try {
    rt::Runtime::get().hostLoop(Descriptor, Source, Args, NumArgs, Reason);
  } catch (const std::exception &E) {
    rt::fault(std::string("internal error: ") + E.what(),
              "the loop runs on the host");
  }
}

void *weft::detail::regionEnter(const ResidentRange *Ranges,
                                std::size_t Count) noexcept {
  return rt::Runtime::get().enterRegion(Ranges, Count);
}

void weft::detail::regionExit(void *Region) noexcept {
  rt::Runtime::get().exitRegion(Region);
}

void weft::detail::regionUpdate(void *, const void *Data, std::size_t Bytes,
                                bool ToDevice) noexcept {
  rt::Runtime::get().updateRegion(Data, rt::RowBlock{Bytes, 1, Bytes},
                                  ToDevice);
}

void weft::detail::regionUpdateRows(void *, const void *Data,
                                    std::size_t RowBytes, std::size_t Rows,
                                    std::size_t PitchBytes,
                                    bool ToDevice) noexcept {
  rt::Runtime::get().updateRegion(
      Data, rt::RowBlock{RowBytes, Rows, PitchBytes}, ToDevice);
}

void weft::detail::regionEnterRowsApart(void *Region, const RowsArg *Rows,
                                        std::size_t ElementSize) noexcept {
  rt::Runtime::get().enterRegionRows(Region, *Rows, ElementSize);
}

void weft::detail::regionUpdateRowsApart(void *, const RowsArg *Rows,
                                         std::size_t ElementSize,
                                         bool ToDevice) noexcept {
  rt::Runtime::get().updateRegionRows(*Rows, ElementSize, ToDevice);
}

void *weft::detail::regionDeviceData(const void *Data,
                                     std::size_t Bytes) noexcept {
  try {
    return rt::Runtime::get().deviceData(Data, Bytes);
  } catch (const std::exception &) {
    return nullptr;
  }
}

void weft::detail::synchronizeLaunches() noexcept {
  rt::Runtime::get().synchronize();
}

weft::transfer_stats_t weft::transfer_stats() noexcept {
  const rt::DataMover &D = rt::Runtime::get().data();
  return {D.BytesToDevice, D.BytesToHost};
}

std::size_t weft::loop_stats(loop_stats_t *Out, std::size_t Capacity) noexcept {
  return rt::Runtime::get().stats().snapshot(Out, Capacity);
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
