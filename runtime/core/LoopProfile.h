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
  /// Compiling its kernels or taking them from the disk cache, and how
  /// many times.
  double LoadSeconds = 0;
  unsigned Loads = 0;
  /// Loads in the call under way, which its cost leaves out.
  double LoadsInCall = 0;
  /// Copied by its calls, both ways (a region's copies at its start and
  /// end, and by update_host/update_device, are the region's).
  std::uint64_t BytesToDevice = 0, BytesToHost = 0;
  /// The kernel and the grid of its last launch.
  std::string Kernel, Geometry;
};

struct ProfiledLoop {
  weft::loop_stats_t Calls;
  LoopProfile Profile;
};

/// The table WEFT_PROFILE=1 prints: a line a loop, on Backend.
std::string profileTable(const std::string &Backend,
                         const std::vector<ProfiledLoop> &Loops);
/// The same as JSON (its schema in docs/reference.md, "Profile").
std::string profileJson(const std::string &Backend,
                        const std::vector<ProfiledLoop> &Loops);

} // namespace weft::rt

#endif
