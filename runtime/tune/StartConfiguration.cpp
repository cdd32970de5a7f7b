// StartConfiguration.cpp: the configuration a loop runs before tuning has
// timed any, sized to the device.
#include "tune/StartConfiguration.h"

#include "launch/LaunchConfig.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

namespace weft::rt {
namespace {

/// Blocks of configuration I's grid at this launch, and its threads per
/// block; nullopt where the grid cannot be sized.
std::optional<std::pair<std::uint64_t, std::uint64_t>>
gridOf(const TuningSpace &Space, std::size_t I, const DeviceProperties &Props,
       const detail::LaunchArg *Args, std::size_t NumArgs,
       std::int64_t RootCount) {
  LaunchConfig Config;
  std::string Error;
  if (!computeLaunchConfig(Space.apply(I), Args, NumArgs, RootCount, Props,
                           Config, Error))
    return std::nullopt;
  return std::make_pair(Config.blocks(), Config.threads() / Config.blocks());
}

} // namespace

std::size_t fillingStart(const TuningSpace &Space, std::size_t Mapped,
                         const DeviceProperties &Props,
                         const detail::LaunchArg *Args, std::size_t NumArgs,
                         std::int64_t RootCount) {
  if (Mapped == TuningSpace::None)
    return Mapped;
  const auto MappedGrid =
      gridOf(Space, Mapped, Props, Args, NumArgs, RootCount);
  const std::uint64_t Multiprocessors = Props.MultiprocessorCount;
  if (!MappedGrid || MappedGrid->first >= Multiprocessors)
    return Mapped;
  const unsigned M = Space[Mapped].Mapping;
  const std::vector<TuneParam> &Params = Space.kernels()[M].Tune.Params;
  const std::vector<unsigned> MappedValues = Space.values(Mapped);
  // Outputs a thread computes: the product of its register tile's sides.
  auto OutputsOf = [&](const std::vector<unsigned> &Values) {
    std::uint64_t Outputs = 1;
    for (std::size_t P = 0; P < Params.size(); ++P)
      if (Params[P].Role == contract::TuneRole::SpanN)
        Outputs *= Values[P];
    return Outputs;
  };
  // Multiprocessors busy, then threads a block, then outputs a thread (the
  // least change to the mapped reuse).
  using Score = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>;
  std::size_t Best = Mapped;
  Score BestScore{MappedGrid->first, MappedGrid->second,
                  OutputsOf(MappedValues)};
  for (std::size_t I = 0; I < Space.size(); ++I) {
    if (I == Mapped || Space[I].Mapping != M)
      continue;
    const std::vector<unsigned> Values = Space.values(I);
    bool Smaller = true;
    for (std::size_t P = 0; P < Params.size() && Smaller; ++P)
      Smaller = Params[P].Role == contract::TuneRole::Block ||
                        Params[P].Role == contract::TuneRole::SpanN
                    ? Values[P] <= MappedValues[P]
                    : Values[P] == MappedValues[P];
    if (!Smaller)
      continue;
    const auto Grid = gridOf(Space, I, Props, Args, NumArgs, RootCount);
    if (!Grid)
      continue;
    const Score Candidate{std::min(Grid->first, Multiprocessors), Grid->second,
                          OutputsOf(Values)};
    if (Candidate > BestScore) {
      Best = I;
      BestScore = Candidate;
    }
  }
  return Best;
}

} // namespace weft::rt
