// NestFacts.h: what the mapping search knows of a nest before it tries a
// mapping: each depth's extent (known, bounded or assumed) and reductions,
// the accesses a warp may coalesce, the loop shared-memory tiles serve.
#ifndef WEFT_PLUGIN_MAP_NESTFACTS_H
#define WEFT_PLUGIN_MAP_NESTFACTS_H

#include "analysis/TileableLoop.h"
#include "map/Mapping.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft::map {

/// What the search needs to know of one nest depth.
struct DepthInfo {
  std::int64_t Extent = 1;
  bool Irregular = false; // extent not known at launch: no grid mapping
  bool Reduces = false;
  bool CapturedReduction = false; // into a variable outside the nest
  unsigned ReductionBytes = 0;
  std::vector<std::string> ReductionNames;
  std::vector<std::string> ArrayReductionNames;
  const ir::MappingClauses *Forced = nullptr;
  double Frequency = 1; // iterations of this depth over the whole nest
};

struct AccessInfo {
  const ir::Access *A;
  int UnitStrideDepth = -1;
  double Frequency = 1;
};

struct NestFacts {
  std::vector<DepthInfo> Depths;
  std::vector<AccessInfo> Accesses;
  /// Reads shared-memory tiles could serve under a 2-D grid mapping.
  std::optional<ir::TileableLoop> Tileable;
  bool RegisterTileable = false;
  /// The shallowest depth of an array reduction's update (Access::Depth).
  unsigned ShallowestCombine = ~0u;
  /// The extents taken without knowing them, in words (the remarks').
  std::vector<std::string> Assumptions;
};

/// N's facts under In's sizes and device.
NestFacts gatherFacts(const ir::Nest &N, const MappingInput &In);

} // namespace weft::map

#endif // WEFT_PLUGIN_MAP_NESTFACTS_H
