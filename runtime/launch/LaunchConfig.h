// LaunchConfig.h: a kernel's grid and block from its descriptor's mapped
// dimensions, the launch arguments and the device.
#ifndef WEFT_RUNTIME_LAUNCH_LAUNCHCONFIG_H
#define WEFT_RUNTIME_LAUNCH_LAUNCHCONFIG_H

#include "core/Backend.h"
#include "launch/LaunchBounds.h"

namespace weft::rt {

struct LaunchConfig {
  unsigned Grid[3] = {1, 1, 1};
  unsigned Block[3] = {1, 1, 1};
  std::uint64_t blocks() const {
    return static_cast<std::uint64_t>(Grid[0]) * Grid[1] * Grid[2];
  }
  std::uint64_t threads() const {
    return blocks() * Block[0] * Block[1] * Block[2];
  }
};

/// Span levels get enough blocks to cover their extent (the kernel strides
/// over whatever a capped grid leaves), Span(all) one, Split(k) k. RootCount
/// is the outermost level's trip count. TunedBlock, when given, replaces
/// the block size along TunedAxis.
bool computeLaunchConfig(const KernelInfo &K, const detail::LaunchArg *Args,
                         std::size_t NumArgs, std::int64_t RootCount,
                         const DeviceProperties &Props, LaunchConfig &Out,
                         std::string &Error, int TunedAxis = -1,
                         unsigned TunedBlock = 0);

} // namespace weft::rt

#endif
