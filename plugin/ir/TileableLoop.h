// TileableLoop.h: the sequential loop of a two-level nest whose reads of
// read-only spans follow one parallel index and the loop's own (A[i][k],
// B[k][j]): what shared-memory tiles could serve, whatever the mapping.
// The mapping search scores the reuse; the memory plan tiles it.
#ifndef WEFT_PLUGIN_IR_TILEABLELOOP_H
#define WEFT_PLUGIN_IR_TILEABLELOOP_H

#include "ir/NestIR.h"

#include <optional>
#include <string>
#include <vector>

namespace weft::ir {

struct Tile {
  unsigned Param = 0;
  /// True: the reads follow the outer index (a row of the tile per thread
  /// row, shared along the inner dimension: A[i][k]); false: the inner one
  /// (B[k][j], shared along the outer dimension).
  bool AlongOuter = true;
  std::vector<const Expr *> Reads; // the SpanElement expressions
  std::string Description;
};

struct TileableLoop {
  const Level *Inner = nullptr; // the level at depth 1
  const Stmt *Loop = nullptr;   // one of Inner's own statements
  std::string Index;
  ScalarKind IndexType = ScalarKind::Int;
  const Expr *Lower = nullptr, *Upper = nullptr;
  std::vector<Tile> Tiles;
  unsigned Width = 0; // iterations per tile, set by the memory plan
};

/// A perfectly nested chain of two levels without reductions or run-time
/// arrays whose inner level runs `for (k = lo; k < hi; ++k)` with bounds of
/// captures only, no break, and only declarations without span accesses
/// and expression statements before it; Tiles lists its reads that follow
/// one index and k.
std::optional<TileableLoop> findTileableLoop(const Nest &N);

} // namespace weft::ir

#endif
