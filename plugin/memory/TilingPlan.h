// TilingPlan.h: shared-memory tiles of a sequential loop's reads. In a nest
// of two levels spread over a 2-D block (the lud and matrix-product case),
// reads of a span the nest does not write before the loop ends that follow one
// thread coordinate and the loop's index; in a one-level nest (n-body), reads
// that follow the loop's index alone. The loop is walked in tiles; each tile is
// loaded by the block together (padded against bank conflicts where rows
// differ) and read from shared memory by every thread sharing it.
#ifndef WEFT_PLUGIN_MEMORY_TILINGPLAN_H
#define WEFT_PLUGIN_MEMORY_TILINGPLAN_H

#include "analysis/TileableLoop.h"
#include "map/Mapping.h"

#include <optional>

namespace weft::memory {

using Tile = ir::Tile;
using TiledLoop = ir::TileableLoop;

/// The loop to tile under this mapping, if any (ir::findTileableLoop): the
/// last two levels on the grid (Span) along two dimensions, a level above
/// them (at most one) with one thread a block; a tile is kept where at
/// least two threads share it; Width is set. Or one whose tiles the whole
/// block reads (ir::findWholeBlockTileableLoop): the innermost level on the
/// grid (Span) in blocks of two threads or more, the others in the thread
/// or one thread a block along their dimensions.
std::optional<TiledLoop> planTiling(const ir::Nest &N,
                                    const map::NestMapping &M);

} // namespace weft::memory

#endif
