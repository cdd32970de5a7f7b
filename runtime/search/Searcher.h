// Searcher.h: the order in which a tuning run tries configurations:
// exhaustive, random, or guided by a model (KTT's searchers). Every one
// starts from the configuration the untuned program runs (the plugin's
// mapped one for these sizes, or its start sized to the device), so a
// search never ends slower than the untuned program.
#ifndef WEFT_RUNTIME_SEARCH_SEARCHER_H
#define WEFT_RUNTIME_SEARCH_SEARCHER_H

#include "search/TuningSpace.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace weft::rt {

enum class SearchMethod { Exhaustive, Random, Model };
const char *searchMethodWord(SearchMethod M);
std::optional<SearchMethod> parseSearchMethod(std::string_view Word);

class Searcher {
public:
  virtual ~Searcher();
  /// The next configuration to time; TuningSpace::None once every one has
  /// been.
  virtual std::size_t next() = 0;
  /// Configuration I took Seconds (infinity: it could not be built or run).
  virtual void report(std::size_t I, double Seconds) = 0;
};

/// A searcher over Space. Preferred: the mappings in the order the
/// plugin's analysis ranks them for these sizes (the nearest scenario's
/// first); the model searcher climbs from each one's mapped configuration
/// in that order. Seed makes the random choices repeatable. First, where
/// given, is timed before all (the configuration untuned launches ran,
/// tune/StartConfiguration.h), and the model climbs from it first.
std::unique_ptr<Searcher> makeSearcher(SearchMethod Method,
                                       const TuningSpace &Space,
                                       const std::vector<unsigned> &Preferred,
                                       std::uint64_t Seed,
                                       std::size_t First = TuningSpace::None);

} // namespace weft::rt

#endif
