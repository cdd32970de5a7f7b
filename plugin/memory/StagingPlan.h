// StagingPlan.h: which span reads go through shared memory: a range of a
// read-only span that every thread of a block reads along a sequential loop
// (a row reused by the whole block, the lud case) is loaded once, together.
#ifndef WEFT_PLUGIN_MEMORY_STAGINGPLAN_H
#define WEFT_PLUGIN_MEMORY_STAGINGPLAN_H

#include "ir/NestIR.h"
#include "map/Mapping.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft::memory {

/// Reads Span[Base + c1 * k1 + c2 * k2 ...] where each k is the index of a
/// sequential loop inside Level, for k in [Lower, Upper), and Base, the
/// coefficients and the bounds are the same for every thread of the block
/// (a row: a[row + k]; a tile: w[base + r * width + c]). The block loads
/// the range the reads span into shared memory before Level and reads it
/// there (a read outside it, were a coefficient negative, goes to the span).
///
/// A window (a halo tile: a convolution's in[(y + dy) * w + x + dx]) also
/// reads at Level's own index x, times a coefficient cx, beside loops whose
/// coefficient is cx too (dx: the columns, which overlap from thread to
/// thread) and at most one other coefficient (dy: the rows). The block
/// loads the rows by (its first round of x plus the columns' reach) and
/// each read finds its row and column there. Reads of one span that differ
/// in constant rows and columns alone (a stencil's in[(y - 1) * w + x],
/// in[y * w + x + 1], ...) share one window, each at its offset; so do
/// reads at a neighbour's index that a conditional clamps at the edge
/// (Rodinia's hotspot: int North = y > 0 ? y - 1 : y), over the offsets it
/// may take. Where the
/// block holds several iterations of the outermost level too (a block of
/// rows y by columns x), a read that follows y times the row stride is a
/// window of the block's rows plus the others' reach.
struct Stage {
  /// Value times the product of Scale, subtracted where Negative.
  struct Offset {
    const ir::Expr *Value = nullptr;
    std::vector<const ir::Expr *> Scale;
    bool Negative = false;
  };
  struct Term {
    std::string Index;
    std::vector<const ir::Expr *> Coefficient; // a product; empty: 1
    const ir::Expr *Lower = nullptr, *Upper = nullptr;
    bool Row = false; // a window's: along its rows, not its columns
  };
  unsigned Param = 0;
  const ir::Level *Level = nullptr;
  std::vector<Offset> Base; // summed; none: 0
  std::vector<Term> Terms;
  /// A window's: Level's index's coefficient (the column stride; empty: 1)
  /// and the row terms' (the row stride).
  bool Window = false;
  /// A window's rows follow the outermost level's index too: from the
  /// block's first iteration of it, that level's block size more.
  bool OuterRows = false;
  std::vector<const ir::Expr *> ColumnStride, RowStride;
  /// A window's: per read, its constant row and column offset (what Base
  /// leaves out), and the least and greatest of them (a clamped
  /// neighbour's range among them).
  std::vector<std::array<std::int64_t, 2>> Offsets;
  /// A window's: per read, a neighbour's index clamped at an edge (North
  /// in in[North * w + x], int North = y > 0 ? y - 1 : y): the local, the
  /// index it is near, and the axis (0: rows, 1: columns; -1: none) whose
  /// offset its distance from that index adds to.
  struct Clamped {
    int Axis = -1;
    std::string Local, Near;
  };
  std::vector<Clamped> Neighbours;
  std::array<std::int64_t, 2> MinOffset = {0, 0}, MaxOffset = {0, 0};
  std::vector<const ir::Expr *> Reads; // the SpanElement expressions
  std::string Description;             // "m[(i * cols) + k], k in [0, cols)"
  /// Where the loops' bounds and coefficients are constants: the range's
  /// elements, or a window's rows and how far its columns reach past the
  /// block's (its shared array can then fit it exactly).
  /// one iteration of the outermost level reads (OuterRows: the block's
  /// first), and a window's element reads per iteration of Level (each
  /// read times its loops' iterations).
  std::optional<std::int64_t> Elements, Rows, ColumnReach, ElementReads;
};

/// The stages for a nest under its mapping. Only a level at depth 1 that is
/// its block's one group of threads (Span(1), Span(n) or Span(all)) is
/// staged: then every thread of the block works on the same outermost
/// iteration, and a barrier before the level's loop can separate the load
/// from the reads. Or, for windows with rows along the outermost level
/// (OuterRows), a perfectly nested pair without reductions, both levels
/// Span(1) across the block's two axes: its blocks walk the outermost level
/// together (plan::OuterWalk::Uniform), so that all their threads load.
std::vector<Stage> planStaging(const ir::Nest &N, const map::NestMapping &M);

/// The share of N's window reads that the windows serve from shared
/// memory under a mapping (per read 1 - elements loaded / elements read,
/// summed), for the mapping search to weigh block shapes by. The windows'
/// shapes are found once; each mapping only sizes them.
class WindowShare {
public:
  explicit WindowShare(const ir::Nest &N);
  double operator()(const std::vector<map::LevelMapping> &Levels);

private:
  const ir::Nest &N;
  bool Tileable; // a loop tiles may take over under some mappings
  bool AnyWindow = false;
  /// The stages of windows one row high, and of the block's rows.
  std::vector<Stage> Stages[2];
};

} // namespace weft::memory

#endif
