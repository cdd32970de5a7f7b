// TileableLoop.h: the sequential loop of a nest whose reads of spans it does
// not write before the loop ends follow the loop's own index and at most one
// parallel index (A[i][k], B[k][j]; n-body's p[j]): what shared-memory tiles
// could serve, whatever the mapping. The mapping search scores the reuse; the
// memory plan tiles it.
#ifndef WEFT_PLUGIN_ANALYSIS_TILEABLELOOP_H
#define WEFT_PLUGIN_ANALYSIS_TILEABLELOOP_H

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
  /// False: the reads follow neither index of the pair (k alone), so that
  /// every row of the tile is the same.
  bool FollowsThread = true;
  /// The nest writes the span too (only after the loop: sharedReadable),
  /// so the block's loads are not reads of an iteration.
  bool Written = false;
  std::vector<const Expr *> Reads; // the SpanElement expressions
  std::string Description;
  /// Tiles whose reads are fields of one record (n-body's p[4 * j + c],
  /// c < 4) share the shared array of their leader (the one at field 0),
  /// which holds whole records of RecordWidth elements (16 bytes or 8),
  /// so that an iteration reads a record in one load; Field is this
  /// tile's element of the record. -1: a tile of no record, or the leader.
  int Leader = -1;
  unsigned Field = 0, RecordWidth = 1;
  /// The tile whose array holds this one's elements; T is this one's index.
  std::size_t holder(std::size_t T) const {
    return Leader < 0 ? T : static_cast<std::size_t>(Leader);
  }
};

struct TileableLoop {
  /// The level whose body holds the loop, and the one around it (the pair
  /// the tiles follow; null for WholeBlock). Or the innermost level of a
  /// chain whose tiles follow no parallel index the block's threads tell
  /// apart (each element is read by the whole block: WholeBlock).
  const Level *Outer = nullptr;
  const Level *Inner = nullptr;
  bool WholeBlock = false;
  const Stmt *Loop = nullptr; // one of Inner's own statements
  std::string Index;
  ScalarKind IndexType = ScalarKind::Int;
  const Expr *Lower = nullptr, *Upper = nullptr;
  std::vector<Tile> Tiles;
  unsigned Width = 0; // iterations per tile, set by the memory plan
};

/// A perfectly nested chain of levels without reductions or run-time
/// arrays, each outer body only declarations without span accesses and the
/// next level, whose innermost level (with bounds of captures and indices
/// above the last two levels) runs `for (k = lo; k < hi; ++k)` with bounds
/// of captures only, no break, and only declarations without span accesses
/// and expression statements before it; Tiles lists its reads that follow
/// one index of the last two levels and k (and indices above them, which a
/// mapping shares among a block's threads: a batch of small products).
std::optional<TileableLoop> findTileableLoop(const Nest &N);

/// A chain of levels without reductions or run-time arrays, each outer
/// level's body only scalar declarations and the next level (a mapping
/// may give the outer levels one thread per block along their dimensions:
/// then a block shares their indices), whose innermost level runs `for (k =
/// lo; k < hi; ++k)` with bounds of captures and outer indices only and no
/// break or return, reading spans (sharedReadable) at subscripts of k, captures
/// and outer indices alone (n-body's `p[j]`, Coulomb's `atoms[4 * a + 1]`).
/// Before the loop: scalar declarations (not references) and statements
/// without break, continue or return, which every thread of a block walks
/// (the block loads each tile together), in range or not; Tiles lists the
/// reads.
std::optional<TileableLoop> findWholeBlockTileableLoop(const Nest &N);

/// Groups the tiles of a whole-block loop into records (Tile::Leader): two
/// or more tiles of one span of 4- or 8-byte elements whose subscripts
/// step by a constant S (2 or 4, S elements 16 bytes at most) along the
/// loop's index and differ by constants below S, with the rest the same.
/// The others (and every tile outside a record) lead themselves.
void groupRecords(const Nest &N, TileableLoop &L);

/// Whether shared memory may serve the reads of span P in Loop, one of
/// Level L's own statements: the nest never writes P, or writes it only in
/// L's statements after Loop. Iterations that claim independence never
/// write an element another one reads (the simulator's checker verifies
/// the claim), so no element a block loads changes while the block reads
/// it, and an iteration's own writes come after its reads (lud's trailing
/// update reads the block row and column it does not write).
bool sharedReadable(const Nest &N, unsigned P, const Level &L,
                    const Stmt &Loop);

/// Whether a thread can compute several iterations of T's level (WholeBlock)
/// at once, walking each tile once for all of them (thread coarsening, n-body
/// over the j loop): before the loop only scalar declarations and expression
/// statements, nowhere a break or return (a continue stays with its
/// iteration), and no element of a span held in a register along the loop
/// (HeldAlongLoop).
bool coarsenable(const TileableLoop &T, bool HeldAlongLoop);

} // namespace weft::ir

#endif
