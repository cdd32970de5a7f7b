// RegisterTile.h: a tileable loop whose per-output work one thread can do
// for a tile of outputs at once (register tiling, the outer-product form of
// a matrix product): each thread holds a TM x TN tile of the inner level's
// locals in registers, fragments of the tiles in registers, and walks the
// loop once for all of them.
#ifndef WEFT_PLUGIN_ANALYSIS_REGISTERTILE_H
#define WEFT_PLUGIN_ANALYSIS_REGISTERTILE_H

#include "analysis/ScalarReplacement.h"
#include "analysis/TileableLoop.h"

#include <optional>
#include <vector>

namespace weft::ir {

struct RegisterTileable {
  /// The inner level's scalar declarations before the loop: one per output
  /// of the thread's tile.
  std::vector<const Stmt *> Accumulators;
  /// The loop's elements held in registers (analysis/ScalarReplacement): one
  /// per output likewise.
  std::vector<std::size_t> Registers; // indices into the replacements
  /// Per tile: elements one 16-byte load brings, where the tile's
  /// subscript has unit stride along the position a block loads fastest
  /// (the loop's index in a row tile, the level's in a column tile) and
  /// its element is a scalar of 4 or 8 bytes; else 1.
  std::vector<unsigned> VectorWidth;
  /// Per tile: a capture or literal that every read of the tile is first
  /// multiplied by (alpha in alpha * A[i][k] * B[k][j]), else null. The
  /// block stages the tile scaled once, instead of every thread scaling
  /// every fragment at every iteration; x * y == y * x exactly, so the
  /// results do not change.
  std::vector<const Expr *> Factor;
  /// Those products (Factor * read, or read * Factor): each is the scaled
  /// tile's fragment.
  std::vector<const Expr *> ScaledProducts;
};

/// When T's loop can be register-tiled: the outermost body holds only the
/// inner level, whose bounds are the same in every thread; before the loop
/// only scalar declarations and expression statements, after it no break,
/// continue or return; every tile's subscript reads only its level's index,
/// the loop's and captures (so that a block can load other threads'
/// rows); and the loop reads spans only through its tiles, writes them only
/// through registers, assigns only its own locals and those declarations,
/// without break, continue or return (its iterations run for all the
/// thread's outputs at once). Registers: the nest's scalar replacements.
std::optional<RegisterTileable>
registerTileable(const Nest &N, const TileableLoop &T,
                 const std::vector<ReplacedElement> &Registers);

} // namespace weft::ir

#endif
