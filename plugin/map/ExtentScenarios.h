// ExtentScenarios.h: mappings for the extents a nest may meet at run time.
// Bounds of captured sizes are unknown when the plugin maps a nest; the
// search is run again for a grid of values of those sizes, each distinct
// winner becomes a kernel, and the runtime launches the one whose scenario
// is nearest the real sizes (compile time knows the code, run time the
// sizes: the mapping is left open where the sizes decide it).
#ifndef WEFT_PLUGIN_MAP_EXTENTSCENARIOS_H
#define WEFT_PLUGIN_MAP_EXTENTSCENARIOS_H

#include "map/Mapping.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft::map {

struct ScenarioChoice {
  /// A captured value a level's bounds read: a scalar ("rows") or a span's
  /// size ("size(m)"), and the parameter it comes from.
  struct Symbol {
    std::string Name;
    unsigned Param = 0;
    bool IsSize = false;
  };
  std::vector<Symbol> Symbols;
  /// The distinct mappings, the one for the default assumptions first.
  std::vector<NestMapping> Mappings;
  /// Values of Symbols, and the index of the mapping the search chose for
  /// them. Empty when one mapping serves every scenario.
  struct Scenario {
    std::vector<std::int64_t> Values;
    unsigned Mapping = 0;
  };
  std::vector<Scenario> Scenarios;
};

/// The values each symbol takes in the scenarios: a decade and a half
/// apart on a log scale, from a few warps to many waves of the device.
inline constexpr std::int64_t ScenarioValues[] = {16, 128, 1024, 8192, 65536};
/// At most this many symbols vary (the rest keep the default extent), and
/// at most this many mappings are kept (a scenario whose winner is dropped
/// gets the default mapping).
inline constexpr unsigned MaxVariedSymbols = 2, MaxMappings = 8;

/// Default is chooseMapping(N, In). Symbols already in In.Symbols are known
/// and do not vary. Nests of one level get no scenarios.
ScenarioChoice chooseForScenarios(const ir::Nest &N, const MappingInput &In,
                                  NestMapping Default);

/// Same dimensions, block sizes and degrees of parallelism at every depth.
bool sameMapping(const NestMapping &A, const NestMapping &B);

} // namespace weft::map

#endif
