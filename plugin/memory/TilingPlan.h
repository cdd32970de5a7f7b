// TilingPlan.h: shared-memory tiles whose elements depend on the thread (the
// lud and matrix-product case): in a nest of two levels spread over a 2-D
// block, a sequential loop whose reads of a read-only span follow one
// thread coordinate and the loop's index is walked in tiles; each tile is
// loaded by the block together, padded against bank conflicts, and read
// from shared memory by every thread sharing that coordinate.
#ifndef WEFT_PLUGIN_MEMORY_TILINGPLAN_H
#define WEFT_PLUGIN_MEMORY_TILINGPLAN_H

#include "ir/TileableLoop.h"
#include "map/Mapping.h"

#include <optional>

namespace weft::memory {

using Tile = ir::Tile;
using TiledLoop = ir::TileableLoop;

/// The loop to tile under this mapping, if any (ir::findTileableLoop): both
/// levels on the grid (Span) along two dimensions; a tile is kept where at
/// least two threads share it; Width is set.
std::optional<TiledLoop> planTiling(const ir::Nest &N,
                                    const map::NestMapping &M);

} // namespace weft::memory

#endif
