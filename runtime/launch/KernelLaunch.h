// KernelLaunch.h: one launch of a loop's kernel, as its stages: bind the
// arguments to device memory (copying in what the kernel reads), launch,
// wait, copy out what it wrote, combine the outermost reductions' partials.
#ifndef WEFT_RUNTIME_LAUNCH_KERNELLAUNCH_H
#define WEFT_RUNTIME_LAUNCH_KERNELLAUNCH_H

#include "core/Backend.h"
#include "core/DataMover.h"
#include "core/Kernel.h"
#include "core/LaunchBounds.h"
#include "launch/LaunchConfig.h"
#include "launch/SharedMemory.h"
#include "policy/Environment.h"
#include "region/Residency.h"

#include "weft/abi.h"

#include <vector>

namespace weft::rt {

/// A span parameter as the kernel receives it: weft::dspan<T>.
struct DeviceSpan {
  DevicePtr Data = 0;
  std::uint64_t Extent = 0;
};

/// What a launch binds, kept from one launch to the next so that a launch
/// allocates no host memory once a loop has run (launches are serialized).
/// Pointers into it go to the kernel: each vector is sized before any is
/// taken.
struct LaunchScratch {
  /// The launch's arguments where it sizes pointers by their subscripts
  /// (sizedArgs).
  SizedArguments SizedArgs;
  /// One device copy of host bytes [Host, Host + Bytes): a span's, or the
  /// union of spans whose bytes overlap (one vector passed twice; parts of
  /// one array), so that the kernel sees one memory as the host loop does.
  struct HostCopy {
    const char *Host;
    std::size_t Bytes;
    DevicePtr Device; // Host's place on the device
    bool In, Out;
    std::string Names; // the parameters it holds, quoted
  };
  std::vector<DeviceSpan> Spans, Partials, Arrays, SplitPartials;
  std::vector<HostCopy> Copies;
  std::vector<std::size_t> Copied; // spans not resident, by host address
  /// Rows held apart (a std::vector of std::vectors): the parameters, and
  /// the host block their rows are gathered into and scattered from.
  std::vector<std::size_t> RowsApart;
  std::vector<char> Gathered;
  /// Per parameter, the rows held apart a region holds (null: none), and
  /// the device copy of row offsets it holds beside them (0: none).
  std::vector<Residency::Rows *> RowsInRegion;
  std::vector<DevicePtr> OffsetsInRegion;
  std::vector<void *> Params;
  std::vector<DevicePtr> Owned; // released when the launch ends
  /// The arguments' host memory, to find what they share (SharedMemory.h).
  std::vector<MemoryPiece> Pieces;
};

class KernelLaunch {
public:
  KernelLaunch(Backend &B, DataMover &Data, Residency &Resident,
               LaunchScratch &Scratch, const KernelInfo &K,
               const detail::LaunchArg *Args, std::size_t NumArgs);
  ~KernelLaunch();
  KernelLaunch(const KernelLaunch &) = delete;
  KernelLaunch &operator=(const KernelLaunch &) = delete;

  /// Every span the kernel uses lives in a region (rows held apart with
  /// their row offsets beside them too): the launch copies nothing, and
  /// nothing of it need be waited for.
  bool resident();
  /// Per parameter, the rows a region holds that its argument is (null:
  /// none), looked up once a launch.
  const std::vector<Residency::Rows *> &regionRows();

  /// Each argument as the kernel receives it: spans on the device (resident
  /// ones in place; others allocated and, where the kernel reads them or
  /// writes them only in places, copied in), scalars by value; then the
  /// outermost range [Lower, Lower + Count), the blocks' partials, the
  /// per-thread buffers and the split slots, sized by Config.
  Status bind(std::int64_t Lower, std::int64_t Count,
              const LaunchConfig &Config);
  /// Launches the kernel (and a Split(k) nest's combining kernel).
  Status enqueue(KernelHandle Kernel, KernelHandle Combine,
                 const LaunchConfig &Config);
  /// Waits for the launch to finish.
  Status synchronize();
  /// Written spans back to the host. It cannot fall back (part of the
  /// results may already be in host memory): a failure ends the program.
  void copyOut();
  /// The outermost reductions' partials, in block order, into the
  /// program's variables; a failure ends the program likewise.
  void combine();
  /// Tests' injected faults (WEFT_TEST_FAULT) spare this launch: it is the
  /// host's own redo of work a fault lost.
  void spareInjectedFaults() { Injecting = false; }
  /// Moves the device memory the launch allocated to To, for the caller to
  /// release once the launch is known to have finished.
  void handOverBuffers(std::vector<DevicePtr> &To) {
    To.insert(To.end(), Work.Owned.begin(), Work.Owned.end());
    Work.Owned.clear();
  }

private:
  Status allocate(std::size_t Bytes, DevicePtr &P);
  /// Work.RowsInRegion and Work.OffsetsInRegion, once.
  void findRegionRows();
  /// Device copies of the spans no region holds (Work.Copied), one for
  /// each set of spans whose host bytes overlap.
  Status copyIn();
  /// Device copies of rows held apart, each one block of its rows.
  Status gatherRows();
  /// Rows held apart the kernel wrote, back to the host.
  Status scatterRows();
  Status injected(const char *Stage) const {
    return Injecting ? injectedFault(Stage) : Status();
  }

  Backend &B;
  DataMover &Data;
  Residency &Resident;
  LaunchScratch &Work;
  const KernelInfo &K;
  const detail::LaunchArg *Args;
  std::size_t NumArgs;
  std::int64_t Lower = 0, Count = 0, Splits = 1;
  bool Injecting = true;
  bool RegionRowsFound = false;
};

} // namespace weft::rt

#endif
