// Replay.h: a searcher run against a recording instead of a device: each
// configuration it picks "takes" the time recorded for it. It measures how
// many configurations a searcher needs to come within a fraction of the
// whole space's best, without a GPU.
#ifndef WEFT_RUNTIME_SEARCH_REPLAY_H
#define WEFT_RUNTIME_SEARCH_REPLAY_H

#include "search/Searcher.h"
#include "search/TuningRecord.h"

#include <optional>
#include <string>

namespace weft::rt {

/// A recording made searchable: its space rebuilt from its descriptor and
/// the device limits it was recorded under, each configuration's time.
struct ReplaySpace {
  TuningSpace Space;
  std::vector<std::optional<double>> Seconds; // per configuration
  std::vector<unsigned> Preferred;
  double Best = 0;          // the fastest recorded
  std::size_t Recorded = 0; // configurations with a time
};

std::optional<ReplaySpace> replaySpace(const TuningRecording &R,
                                       std::string &Error);

struct ReplayResult {
  /// Configurations tried until one within Fraction of the best (none:
  /// not within the budget).
  std::optional<unsigned> StepsToFraction;
  /// The best found within the budget, as a fraction of the space's best
  /// (best / found: 1 is the best).
  double FractionWithinBudget = 0;
};

ReplayResult replaySearch(const ReplaySpace &S, SearchMethod Method,
                          std::uint64_t Seed, unsigned Budget, double Fraction);

} // namespace weft::rt

#endif
