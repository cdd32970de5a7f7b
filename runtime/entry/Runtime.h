// Runtime.h: the process-wide state behind weft::detail::launchKernel and
// the regions: the chosen backend, the loops seen so far, and the ranges
// regions keep on the device. A launch reads as its stages: choose the
// loop's mapping and variant, compile, size the grid, then bind, copy in,
// launch, copy out, combine (launch/KernelLaunch.h).
#ifndef WEFT_RUNTIME_ENTRY_RUNTIME_H
#define WEFT_RUNTIME_ENTRY_RUNTIME_H

#include "core/Backend.h"
#include "core/DataMover.h"
#include "core/LaunchRanges.h"
#include "core/RunStats.h"
#include "launch/KernelLaunch.h"
#include "launch/KernelTimes.h"
#include "launch/LoopSite.h"
#include "launch/PendingLaunches.h"
#include "region/Residency.h"
#include "tune/OnlineTuner.h"

#include "weft/abi.h"

#include <memory>
#include <mutex>
#include <unordered_map>

namespace weft::rt {

class Runtime {
public:
  static Runtime &get();

  /// Runs the kernel; false when the host loop must run. Counted in
  /// stats().
  bool launch(const char *Descriptor, const char *Source,
              const detail::LaunchArg *Args, std::size_t NumArgs);

  /// The host loop of Descriptor runs (its if clause was false, or
  /// Reason): counted, and the region data it uses made current on the
  /// host.
  void hostLoop(const char *Descriptor, const char *Source,
                const detail::LaunchArg *Args, std::size_t NumArgs,
                const char *Reason = "its if clause was false");

  /// The host loop of a call of Descriptor that did not launch ended (the
  /// plugin's code says so after it): WEFT_PROFILE's host time.
  void hostLoopEnd(const char *Descriptor);

  const RunStats &stats() const { return Stats; }

  /// The backend in use, or null for the host loop.
  Backend *backend() const { return Active.get(); }

  // Regions (weft::region): host ranges kept resident on the device.
  void *enterRegion(const detail::ResidentRange *Ranges, std::size_t Count);
  void exitRegion(void *Region);
  void updateRegion(const void *Data, const RowBlock &Rows, bool ToDevice);
  /// weft::device_data: the device address of resident data, current
  /// there, once the launches in flight are done; null where no region
  /// keeps it on a device.
  void *deviceData(const void *Data, std::size_t Bytes);
  /// Rows held apart in a region (a std::vector of std::vectors).
  void enterRegionRows(void *Region, const detail::RowsArg &Rows,
                       std::size_t ElementSize);
  void updateRegionRows(const detail::RowsArg &Rows, std::size_t ElementSize,
                        bool ToDevice);

  /// Waits for the launches in flight (weft::synchronize()).
  void synchronize();

  const DataMover &data() const { return Data; }

private:
  Runtime();
  /// launch, with why the host loop must run when it must.
  bool tryLaunch(const char *Descriptor, const char *Source,
                 const detail::LaunchArg *Args, std::size_t NumArgs,
                 std::string &Why);
  /// The site of a descriptor seen for the first time: its kernels parsed,
  /// or disabled (with a warning) when the descriptor is malformed.
  std::unique_ptr<LoopSite> makeSite(const char *Descriptor,
                                     const char *Source);
  /// The site's mapping for this launch's sizes (0: the site, else an
  /// alternative), with the sizes it was chosen by; for rows held apart of
  /// differing lengths, the kernel that indexes them by their offsets
  /// (Ragged set).
  unsigned chooseMapped(LoopSite &Site, const detail::LaunchArg *Args,
                        std::size_t NumArgs, std::vector<std::int64_t> &Sizes,
                        bool &Ragged);
  /// Runs mapping M of the loop at Root, or the configuration the tuner
  /// picks instead (among the kernels that read row offsets alone where
  /// Ragged: rows held apart of differing lengths).
  Status run(LoopSite &Root, unsigned M, const std::vector<std::int64_t> &Sizes,
             const char *Descriptor, const char *Source,
             const detail::LaunchArg *Args, std::size_t NumArgs, bool Ragged);
  /// Why no mapping of Site may run on Args (launch/SharedMemory.h), or
  /// empty.
  std::string sharedMemoryConflict(LoopSite &Site,
                                   const detail::LaunchArg *Args,
                                   std::size_t NumArgs);
  /// hostLoop's work: the data of Descriptor's loop back from the regions
  /// that hold it, before its host loop runs.
  void hostData(const char *Descriptor, const char *Source,
                const detail::LaunchArg *Args, std::size_t NumArgs);
  /// The host loop runs on Args: what regions keep of the spans Params
  /// names comes back to the host first (and is dropped where written).
  void useOnHost(const std::vector<ParamInfo> &Params,
                 const detail::LaunchArg *Args, std::size_t NumArgs);
  /// WEFT_PROFILE (entry/Profiling.cpp): this thread starts the host loop
  /// of a call of Descriptor; whether this call of it runs its host loop
  /// instead of launching, timed to compare with its launches (the second
  /// call of a loop that launched, outside regions); the profile at exit.
  void hostLoopStart(const char *Descriptor);
  bool hostTrial(const char *Descriptor);
  void printProfile();
  /// Waits for the launches in flight; false after a fault that only this
  /// reported, once recovered from (see recoverDeferred).
  bool settle();
  /// A fault of a launch in flight, unknown which: under the error policy
  /// the program stops; else every launch since the last synchronization
  /// is redone on the host (the simulator, over the host copies), the
  /// regions' device copies are dropped, and marked loops run on the host
  /// from then on. Where that cannot be done, the program stops.
  void recoverDeferred(const Status &Fault);

  std::mutex Lock;        // Serializes launches; see README's runtime section.
  std::string HostReason; // why marked loops run on the host, if they do
  std::unique_ptr<Backend> Active;
  DataMover Data;
  Residency Resident;
  PendingLaunches Pending;
  LaunchScratch Scratch;
  OnlineTuner Tuner;
  KernelTimes KernelsTimed; // WEFT_PROFILE's marks around launches
  LaunchRanges Timeline;    // launches named on profilers' timelines
  bool Failed = false;      // a deferred fault: the backend is not used again
  /// The host copies of the regions' data hold every result but those of
  /// the launches in flight (whose journal can redo them): false once a
  /// launch that may have written a region's data finished, until a region
  /// is entered where none is.
  bool HostCurrent = true;
  std::string FailedWhy;
  std::unordered_map<const char *, std::unique_ptr<LoopSite>> Sites;
  RunStats Stats;
};

} // namespace weft::rt

#endif
