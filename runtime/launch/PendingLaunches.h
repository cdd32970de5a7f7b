// PendingLaunches.h: launches enqueued without waiting for them (all their
// data resident in regions, nothing for the host to read back): the journal
// a later synchronization confirms, or, should it report a fault, the work
// to redo on the host so that no result is lost.
#ifndef WEFT_RUNTIME_LAUNCH_PENDINGLAUNCHES_H
#define WEFT_RUNTIME_LAUNCH_PENDINGLAUNCHES_H

#include "core/Backend.h"
#include "launch/LoopSite.h"
#include "region/Residency.h"

#include "weft/abi.h"

#include <thread>
#include <vector>

namespace weft::rt {

class PendingLaunches {
public:
  /// At most this many launches wait for one synchronization: it bounds
  /// the work a fault would have to redo, at one wait per so many launches.
  static constexpr std::size_t Limit = 256;

  bool empty() const { return Launches.empty(); }
  std::size_t size() const { return Launches.size(); }
  /// The thread whose launches are pending.
  std::thread::id thread() const { return Thread; }

  /// Records a launch of Site's kernel from Source: its scalars' values are
  /// copied (the program may change them before a replay), its spans kept
  /// by address (their host copies stay as they were until the region ends
  /// or is updated, which synchronizes first), rows held apart as the
  /// region holding them (RegionRows, per parameter) lists them, and their
  /// row offsets recomputed from those rows at a replay. Buffers are
  /// released once the launch is known to have finished.
  void record(const LoopSite &Site, const char *Source,
              const detail::LaunchArg *Args, std::size_t NumArgs,
              const std::vector<Residency::Rows *> &RegionRows);
  /// Where a launch leaves the device memory to release once the pending
  /// launches are known to have finished.
  std::vector<DevicePtr> &buffers() { return Buffers; }

  /// Waits for every pending launch on B. On success forgets them; on a
  /// fault keeps them for replay and returns it.
  Status synchronize(Backend &B);

  /// Runs the pending launches again, in order, on Host (the simulator,
  /// whose memory is the host's): their spans' host copies then hold what
  /// the device would have computed. False (and Error) where one cannot.
  bool replay(Backend &Host, std::string &Error);

  /// Forgets them, releasing their buffers on B (whose errors no longer
  /// matter: B failed).
  void abandon(Backend &B);

  /// "a.cpp:12:3, b.cpp:40:5": the loops pending, for a message.
  std::string loops() const;

private:
  /// Kept in flat arrays reused from one synchronization to the next: a
  /// launch allocates nothing once they have grown.
  struct Launch {
    const LoopSite *Site;
    const char *Source;
    std::size_t FirstArg; // into Args
  };
  std::vector<Launch> Launches;
  /// Every pending launch's arguments: a scalar's Data is its offset in
  /// Values (which may move as it grows) until a replay; rows held apart,
  /// their index in RowSets.
  std::vector<detail::LaunchArg> Args;
  std::vector<char> Values;
  std::vector<const Residency::Rows *> RowSets;
  std::vector<DevicePtr> Buffers;
  std::thread::id Thread;
};

} // namespace weft::rt

#endif
