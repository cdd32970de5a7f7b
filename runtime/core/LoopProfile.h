// LoopProfile.h: what WEFT_PROFILE reports of each marked loop at exit: its
// calls on the device and the host, the time its calls and kernel loads
// took, the bytes its calls moved, and the mapping it last ran with.
#ifndef WEFT_RUNTIME_CORE_LOOPPROFILE_H
#define WEFT_RUNTIME_CORE_LOOPPROFILE_H

#include "weft/abi.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft::rt {

/// One loop's figures beyond its calls (weft::loop_stats_t has those).
struct LoopProfile {
  /// In its calls that launched, on the host's clock: binding, copies,
  /// the kernel and the waits the call made (a launch that does not wait
  /// inside a region counts only its enqueue), its kernel loads apart.
  double DeviceSeconds = 0;
  /// In its calls whose kernel ran the host loop's iterations instead: the
  /// runtime's part (the host loop's own time is the program's).
  double HostSeconds = 0;
  /// Its kernels alone, on the device's clock (the simulator's: the
  /// host's), between marks in the device's queue; and the bytes of the
  /// data those kernels name, once each way they use it.
  double KernelSeconds = 0;
  unsigned KernelsTimed = 0;
  std::uint64_t KernelBytes = 0;
  /// Its host loop's own time, in the host runs whose end the program
  /// reported (a program built by this plugin reports each).
  double HostLoopSeconds = 0;
  unsigned HostLoopsTimed = 0;
  /// Host runs the profile made to time the host loop (of HostRuns).
  unsigned TrialCalls = 0;
  /// Compiling its kernels or taking them from the disk cache, how many
  /// times, and how many of them came from the cache.
  double LoadSeconds = 0;
  unsigned Loads = 0, CachedLoads = 0;
  /// Loads in the call under way, which its cost leaves out.
  double LoadsInCall = 0;
  /// Copied by its calls, both ways (a region's copies at its start and
  /// end, and by update_host/update_device, are the region's).
  std::uint64_t BytesToDevice = 0, BytesToHost = 0;
  /// The kernel, its mapping (as the remarks say it: a level a dimension,
  /// its block and degree) and the grid of its last launch.
  std::string Kernel, Mapping, Geometry;
  /// The function the loop is in (empty where the descriptor says none).
  std::string Function;
};

/// The data a loop's calls copied again and again (the transfer ledger's):
/// what a region around them would copy once.
struct RepeatedCopies {
  std::vector<std::string> Names; // quoted, as the loop names them
  std::uint64_t BytesPerCall = 0;
  unsigned Calls = 0;
  /// The other loops it passed between through the host.
  std::vector<std::string> Between;
};

struct ProfiledLoop {
  weft::loop_stats_t Calls;
  LoopProfile Profile;
  RepeatedCopies Repeated;
};

/// What the profile says of the device it ran on.
struct ProfiledDevice {
  std::string Backend;
  /// Kernel times are on the device's own clock (false: the host's, on
  /// the simulator).
  bool DeviceClock = false;
  double MemoryBytesPerSecond = 0; // 0: unknown
};

/// The table WEFT_PROFILE=1 prints: a line a loop (and its advice).
std::string profileTable(const ProfiledDevice &Device,
                         const std::vector<ProfiledLoop> &Loops);
/// The same as JSON (its schema in docs/reference.md, "Profile").
std::string profileJson(const ProfiledDevice &Device,
                        const std::vector<ProfiledLoop> &Loops);
/// What the figures suggest doing, a sentence an item.
std::vector<std::string> profileAdvice(const ProfiledLoop &Loop);

} // namespace weft::rt

#endif
