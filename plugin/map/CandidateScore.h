// CandidateScore.h: the soft constraints of the mapping search (Lee et al.'s
// coalescing, parallelism, reduction, divergence, plus reuse of shared
// tiles and windows) scoring one candidate, and the reasons the remarks give.
#ifndef WEFT_PLUGIN_MAP_CANDIDATESCORE_H
#define WEFT_PLUGIN_MAP_CANDIDATESCORE_H

#include "map/Mapping.h"
#include "map/NestFacts.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft::map {

class CandidateScorer {
public:
  CandidateScorer(const ir::Nest &N, const MappingInput &In,
                  const NestFacts &Facts)
      : N(N), In(In), Facts(Facts), Depths(Facts.Depths),
        Accesses(Facts.Accesses) {}

  /// Fills C's thread count and score; false when C breaks a hard
  /// constraint that only the whole candidate shows.
  bool score(Candidate &C) const;
  /// Each level's reasons, in words (Forced: why the mapping was not
  /// searched for, if it was not).
  void explain(Candidate &C, const std::string &Forced) const;

private:
  bool registerTiled(const std::vector<LevelMapping> &L) const;
  double reuse(const std::vector<LevelMapping> &L) const;
  double windowReuse(const std::vector<LevelMapping> &L) const;
  double concurrentThreads() const;
  bool spanForced(std::size_t D) const;
  std::uint64_t tileWords() const;
  std::uint64_t registerTileBytes(const std::vector<LevelMapping> &L) const;
  double coalesces(const std::vector<LevelMapping> &Levels,
                   std::size_t D) const;
  double reductionFactor(const LevelMapping &L, std::size_t D,
                         double Along) const;
  std::string reductionMechanism(const LevelMapping &L, std::size_t D) const;

  const ir::Nest &N;
  const MappingInput &In;
  const NestFacts &Facts;
  const std::vector<DepthInfo> &Depths;
  const std::vector<AccessInfo> &Accesses;
};

} // namespace weft::map

#endif // WEFT_PLUGIN_MAP_CANDIDATESCORE_H
