// LaunchConfig.cpp: grid and block sizes (see LaunchConfig.h for the
// model).
#include "launch/LaunchConfig.h"

#include <algorithm>

namespace weft::rt {
namespace {

/// Waves of resident blocks a capped grid keeps: one would leave the
/// device idle behind its slowest block; two balance the tail.
constexpr std::uint64_t CappedWaves = 2;

/// The plugin chose Split(k) to fill the device it assumed; k blocks that
/// make a wave and a few more leave the device nearly idle behind the few
/// (sumCols with 1024 columns on an H100: 32 x 9 blocks for 264 resident,
/// a second wave of 24). k is lowered to whole waves of the device at
/// hand; the combining step takes the grid's k.
void fitSplitToWaves(const DimensionInfo &Split, const DeviceProperties &Props,
                     std::uint64_t Threads, LaunchConfig &Out) {
  const std::uint64_t K = Out.Grid[Split.Axis];
  const std::uint64_t Others = Out.blocks() / std::max<std::uint64_t>(1, K);
  const std::uint64_t Resident = residentBlocks(Props, Threads);
  if (Others == 0 || Others * K <= Resident)
    return;
  const std::uint64_t Waves = std::max<std::uint64_t>(1, Others * K / Resident);
  const std::uint64_t Fitted = Waves * Resident / Others;
  Out.Grid[Split.Axis] =
      static_cast<unsigned>(std::clamp<std::uint64_t>(Fitted, 1, K));
}

} // namespace

bool LaunchConfig::operator==(const LaunchConfig &O) const {
  return std::equal(Grid, Grid + 3, O.Grid) &&
         std::equal(Block, Block + 3, O.Block);
}

std::string LaunchConfig::describe() const {
  auto Triple = [](const unsigned V[3]) {
    return "(" + std::to_string(V[0]) + ", " + std::to_string(V[1]) + ", " +
           std::to_string(V[2]) + ")";
  };
  return "grid " + Triple(Grid) + " x block " + Triple(Block);
}

std::uint64_t residentBlocks(const DeviceProperties &Props,
                             std::uint64_t Threads) {
  const std::uint64_t PerMultiprocessor =
      std::max<std::uint64_t>(1, Props.MaxThreadsPerMultiprocessor /
                                     std::max<std::uint64_t>(1, Threads));
  return static_cast<std::uint64_t>(Props.MultiprocessorCount) *
         PerMultiprocessor;
}

bool computeLaunchConfig(const KernelInfo &K, const detail::LaunchArg *Args,
                         std::size_t NumArgs, std::int64_t RootCount,
                         const DeviceProperties &Props, LaunchConfig &Out,
                         std::string &Error) {
  std::uint64_t Threads = 1;
  for (const DimensionInfo &D : K.Dimensions) {
    Out.Block[D.Axis] = D.Block;
    Threads *= Out.Block[D.Axis];
  }
  if (Threads > Props.MaxThreadsPerBlock) {
    Error = "the kernel's block of " + std::to_string(Threads) +
            " threads exceeds the device's " +
            std::to_string(Props.MaxThreadsPerBlock);
    return false;
  }
  bool Shrinkable[3] = {false, false, false};
  const DimensionInfo *InnerSplit = nullptr;
  for (const DimensionInfo &D : K.Dimensions) {
    std::int64_t Blocks = 1;
    if (D.Kind == Degree::Split && D.Depth > 0) {
      // k blocks share each iteration of the level outside: the combining
      // step takes k partials, whatever k the grid has.
      Blocks = std::max(1u, D.N);
      InnerSplit = &D;
    } else if (D.Kind == Degree::Span || D.Kind == Degree::Split) {
      // An outermost Split(k) was chosen for an extent the plugin assumed;
      // its kernel strides over the grid, so the real extent sizes it as
      // it does Span(1) (k = 2 blocks for a million points left all but
      // two multiprocessors idle).
      std::int64_t Count = RootCount, Lower = 0;
      if (D.Depth > 0 &&
          !evaluateTripCount(D.Bounds, K, Args, NumArgs, Lower, Count, Error))
        return false;
      const std::int64_t PerBlock =
          static_cast<std::int64_t>(Out.Block[D.Axis]) *
          (D.Kind == Degree::Span ? std::max(1u, D.N) : 1u);
      Blocks = std::max<std::int64_t>(1, (Count + PerBlock - 1) / PerBlock);
      Shrinkable[D.Axis] = true;
    }
    // The kernel strides over what a capped grid leaves out.
    Out.Grid[D.Axis] = static_cast<unsigned>(
        std::min<std::int64_t>(Blocks, std::max(1u, Props.MaxGrid[D.Axis])));
  }
  if (InnerSplit)
    fitSplitToWaves(*InnerSplit, Props, Threads, Out);
  if (K.Reductions.empty() && K.Buffers.empty())
    return true;
  const std::uint64_t MaxBlocks = CappedWaves * residentBlocks(Props, Threads);
  for (int A = 2; A >= 0 && Out.blocks() > MaxBlocks; --A) {
    if (!Shrinkable[A])
      continue;
    const std::uint64_t Others = Out.blocks() / Out.Grid[A];
    Out.Grid[A] = static_cast<unsigned>(std::max<std::uint64_t>(
        1, MaxBlocks / std::max<std::uint64_t>(1, Others)));
  }
  return true;
}

} // namespace weft::rt
