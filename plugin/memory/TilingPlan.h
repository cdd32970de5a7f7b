// TilingPlan.h: shared-memory tiles whose elements depend on the thread (the
// lud and matrix-product case): in a nest of two levels spread over a 2-D
// block, a sequential loop whose reads of a read-only span follow one
// thread coordinate and the loop's index is walked in tiles; each tile is
// loaded by the block together, padded against bank conflicts, and read
// from shared memory by every thread sharing that coordinate.
#ifndef WEFT_PLUGIN_MEMORY_TILINGPLAN_H
#define WEFT_PLUGIN_MEMORY_TILINGPLAN_H

#include "ir/NestIR.h"
#include "map/Mapping.h"

#include <optional>
#include <string>
#include <vector>

namespace weft::memory {

struct Tile {
  unsigned Param = 0;
  /// True: the reads follow the outer index (a row of the tile per thread
  /// row, shared along the inner dimension: A[i][k]); false: the inner one
  /// (B[k][j], shared along the outer dimension).
  bool AlongOuter = true;
  std::vector<const ir::Expr *> Reads; // the SpanElement expressions
  std::string Description;
};

struct TiledLoop {
  const ir::Level *Inner = nullptr; // the level at depth 1
  const ir::Stmt *Loop = nullptr;   // one of Inner's own statements
  std::string Index;
  ir::ScalarKind IndexType = ir::ScalarKind::Int;
  const ir::Expr *Lower = nullptr, *Upper = nullptr;
  std::vector<Tile> Tiles;
  unsigned Width = 0; // the loop's iterations per tile (WEFT_TILE)
};

/// The loop to tile under this mapping, if any: both levels on the grid
/// (Span) along two dimensions, a perfectly nested chain without
/// reductions; the loop is `for (k = lo; k < hi; ++k)` with bounds of
/// captures only, no break, and only declarations without span accesses
/// before it in the inner level; a tile is read by at least two threads.
std::optional<TiledLoop> planTiling(const ir::Nest &N,
                                    const map::NestMapping &M);

} // namespace weft::memory

#endif
