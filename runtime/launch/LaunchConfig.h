// LaunchConfig.h: a kernel's grid and block from its descriptor's mapped
// dimensions, the launch arguments and the device.
#ifndef WEFT_RUNTIME_LAUNCH_LAUNCHCONFIG_H
#define WEFT_RUNTIME_LAUNCH_LAUNCHCONFIG_H

#include "core/Backend.h"
#include "core/LaunchBounds.h"

#include <string>

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
  bool operator==(const LaunchConfig &O) const;
  /// "grid (a, b, c) x block (x, y, z)"
  std::string describe() const;
};

/// The grid: every dimension sized from its level's extent (a Span(n)
/// level gets enough blocks to cover it, Span(all) one, Split(k) k), within
/// the device's grid limits (the kernel strides over what a capped
/// dimension leaves). Only kernels that pay for each block beyond a few
/// waves are capped to them: an outermost reduction leaves one partial per
/// block for the host to combine, and per-thread buffers grow with the
/// threads; such a grid shrinks along z, then y, then x (x keeps the
/// coalesced accesses). RootCount is the outermost level's trip count.
/// A tuned configuration comes as its own KernelInfo (tune/TuningSpace).
bool computeLaunchConfig(const KernelInfo &K, const detail::LaunchArg *Args,
                         std::size_t NumArgs, std::int64_t RootCount,
                         const DeviceProperties &Props, LaunchConfig &Out,
                         std::string &Error);

/// Resident blocks of Threads threads on the whole device.
std::uint64_t residentBlocks(const DeviceProperties &Props,
                             std::uint64_t Threads);

} // namespace weft::rt

#endif
