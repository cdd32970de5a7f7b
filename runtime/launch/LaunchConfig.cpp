// LaunchConfig.cpp: grid and block sizes.
#include "launch/LaunchConfig.h"

#include <algorithm>

namespace weft::rt {

bool computeLaunchConfig(const KernelInfo &K, const detail::LaunchArg *Args,
                         std::size_t NumArgs, std::int64_t RootCount,
                         const DeviceProperties &Props, LaunchConfig &Out,
                         std::string &Error, int TunedAxis,
                         unsigned TunedBlock) {
  std::uint64_t Threads = 1;
  for (const DimensionInfo &D : K.Dimensions) {
    Out.Block[D.Axis] =
        D.Axis == TunedAxis && TunedBlock ? TunedBlock : D.Block;
    Threads *= Out.Block[D.Axis];
  }
  if (Threads > Props.MaxThreadsPerBlock) {
    Error = "the kernel's block of " + std::to_string(Threads) +
            " threads exceeds the device's " +
            std::to_string(Props.MaxThreadsPerBlock);
    return false;
  }
  for (const DimensionInfo &D : K.Dimensions) {
    std::int64_t Blocks = 1;
    if (D.Kind == Degree::Split) {
      Blocks = D.N;
    } else if (D.Kind == Degree::Span) {
      std::int64_t Count = RootCount, Lower = 0;
      if (D.Depth > 0 &&
          !evaluateTripCount(D.Bounds, K, Args, NumArgs, Lower, Count, Error))
        return false;
      const std::int64_t PerBlock =
          static_cast<std::int64_t>(Out.Block[D.Axis]) * std::max(1u, D.N);
      Blocks = std::max<std::int64_t>(1, (Count + PerBlock - 1) / PerBlock);
    }
    // The kernel strides over what a capped grid leaves out.
    const std::int64_t Cap = D.Axis == 0 ? 0x7fffffff : 65535;
    Out.Grid[D.Axis] = static_cast<unsigned>(std::min(Blocks, Cap));
  }
  // More than a few waves of resident blocks only adds scheduling: the
  // grid-stride loops cover the rest.
  const std::uint64_t MaxBlocks = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(Props.MultiprocessorCount) * 2048 * 4 /
             Threads);
  for (int A = 0; A < 3 && Out.blocks() > MaxBlocks; ++A) {
    bool Shrinkable = false;
    for (const DimensionInfo &D : K.Dimensions)
      Shrinkable = Shrinkable || (D.Axis == A && D.Kind == Degree::Span);
    if (!Shrinkable)
      continue;
    const std::uint64_t Others = Out.blocks() / Out.Grid[A];
    Out.Grid[A] = static_cast<unsigned>(std::max<std::uint64_t>(
        1, MaxBlocks / std::max<std::uint64_t>(1, Others)));
  }
  return true;
}

} // namespace weft::rt
