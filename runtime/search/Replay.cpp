// Replay.cpp: searchers against recorded times.
#include "search/Replay.h"

#include <limits>

namespace weft::rt {

std::optional<ReplaySpace> replaySpace(const TuningRecording &R,
                                       std::string &Error) {
  std::vector<KernelInfo> Kernels;
  if (!contract::parseDescriptors(R.Descriptor, ~std::size_t(0) / 2, Kernels,
                                  Error))
    return std::nullopt;
  DeviceProperties Props;
  Props.MaxThreadsPerBlock = R.MaxThreadsPerBlock;
  Props.MaxSharedPerBlock = R.MaxSharedPerBlock;
  ReplaySpace S;
  S.Space = TuningSpace(std::move(Kernels), Props);
  S.Seconds.resize(S.Space.size());
  S.Preferred = R.Preferred;
  S.Best = std::numeric_limits<double>::infinity();
  for (const TimedConfiguration &T : R.Times) {
    const std::size_t I = S.Space.findValues(T.Mapping, T.Values);
    if (I == TuningSpace::None) {
      Error = "the recording times a configuration its descriptor does not "
              "have";
      return std::nullopt;
    }
    S.Seconds[I] = T.Seconds;
    if (T.Seconds) {
      ++S.Recorded;
      S.Best = std::min(S.Best, *T.Seconds);
    }
  }
  if (!S.Recorded) {
    Error = "the recording holds no time";
    return std::nullopt;
  }
  return S;
}

ReplayResult replaySearch(const ReplaySpace &S, SearchMethod Method,
                          std::uint64_t Seed, unsigned Budget,
                          double Fraction) {
  ReplayResult Result;
  std::unique_ptr<Searcher> Search =
      makeSearcher(Method, S.Space, S.Preferred, Seed);
  const double Never = std::numeric_limits<double>::infinity();
  double Found = Never, FoundWithinBudget = Never;
  unsigned Step = 0;
  for (std::size_t I = Search->next(); I != TuningSpace::None;
       I = Search->next()) {
    ++Step;
    const double Seconds = S.Seconds[I] ? *S.Seconds[I] : Never;
    Search->report(I, Seconds);
    Found = std::min(Found, Seconds);
    if (Step <= Budget)
      FoundWithinBudget = Found;
    if (!Result.StepsToFraction && S.Best / Found >= Fraction)
      Result.StepsToFraction = Step;
    if (Result.StepsToFraction && Step >= Budget)
      break;
  }
  Result.FractionWithinBudget = S.Best / FoundWithinBudget;
  return Result;
}

} // namespace weft::rt
