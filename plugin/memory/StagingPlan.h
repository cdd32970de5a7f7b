// StagingPlan.h: which span reads go through shared memory: a range of a
// read-only span that every thread of a block reads along a sequential loop
// (a row reused by the whole block, the lud case) is loaded once, together.
#ifndef WEFT_PLUGIN_MEMORY_STAGINGPLAN_H
#define WEFT_PLUGIN_MEMORY_STAGINGPLAN_H

#include "ir/NestIR.h"
#include "map/Mapping.h"

#include <string>
#include <vector>

namespace weft::memory {

/// Reads Span[Base + c1 * k1 + c2 * k2 ...] where each k is the index of a
/// sequential loop inside Level, for k in [Lower, Upper), and Base, the
/// coefficients and the bounds are the same for every thread of the block
/// (a row: a[row + k]; a tile: w[base + r * width + c]). The block loads
/// the range the reads span into shared memory before Level and reads it
/// there (a read outside it, were a coefficient negative, goes to the span).
struct Stage {
  struct Term {
    std::string Index;
    const ir::Expr *Coefficient = nullptr; // null: 1
    const ir::Expr *Lower = nullptr, *Upper = nullptr;
  };
  unsigned Param = 0;
  const ir::Level *Level = nullptr;
  std::vector<const ir::Expr *> Base; // summed; none: 0
  std::vector<Term> Terms;
  std::vector<const ir::Expr *> Reads; // the SpanElement expressions
  std::string Description;             // "m[(i * cols) + k], k in [0, cols)"
};

/// The stages for a nest under its mapping. Only a level at depth 1 that is
/// its block's one group of threads (Span(1), Span(n) or Span(all)) is
/// staged: then every thread of the block works on the same outermost
/// iteration, and a barrier before the level's loop can separate the load
/// from the reads.
std::vector<Stage> planStaging(const ir::Nest &N, const map::NestMapping &M);

} // namespace weft::memory

#endif
