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

/// Reads Span[Base + k] for k in [Lower, Upper) of a sequential loop inside
/// Level, where Base and the bounds are the same for every thread of the
/// block: the block loads [Base + Lower, Base + Upper) into shared memory
/// before Level and reads it there.
struct Stage {
  unsigned Param = 0;
  const ir::Level *Level = nullptr;
  const ir::Expr *Base = nullptr;
  const ir::Expr *Lower = nullptr;
  const ir::Expr *Upper = nullptr;
  std::vector<const ir::Expr *> Reads; // the SpanElement expressions
  std::string Description;             // "m[(i * cols) + k], k in [0, cols)"
};

/// The stages for a nest under its mapping. Only a level at depth 1 that is
/// its block's one group of threads, striding over its whole extent
/// (Span(all)), is staged: then every thread of the block works on the same
/// outermost iteration, and a barrier can separate the load from the reads.
std::vector<Stage> planStaging(const ir::Nest &N, const map::NestMapping &M);

} // namespace weft::memory

#endif
