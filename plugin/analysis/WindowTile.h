// WindowTile.h: a nest whose innermost level's body walks a window along the
// index of the level outside it (a convolution's `in[(y + dy) * w + x +
// dx]`), where a thread can compute several consecutive iterations of that
// level at once: the window's loops run once for all of them, so the reads
// they share load once.
#ifndef WEFT_PLUGIN_ANALYSIS_WINDOWTILE_H
#define WEFT_PLUGIN_ANALYSIS_WINDOWTILE_H

#include "ir/NestIR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft::ir {

/// The most iterations of the window's loops (their trip counts' product)
/// worth unrolling whole for every row of a thread: a 5 x 5 filter is 25.
constexpr std::int64_t MaxWindowSteps = 64;

struct WindowTile {
  /// The level whose consecutive iterations a thread computes (the root,
  /// or a level that each level outside it holds alone), and the marked
  /// loop that is its one statement.
  const Level *Rows = nullptr;
  const Level *Inner = nullptr;
  /// In Inner's body: the window's loops, outermost first, each the only
  /// statement of the one before; their bodies run for all of a thread's
  /// rows at each step.
  std::vector<const Stmt *> Loops;
  std::vector<std::string> LoopIndices; // theirs, likewise
  /// Inner's scalar declarations before the loops: one per row of the
  /// thread.
  std::vector<const Stmt *> Locals;
  /// Read-only spans the loops read along a window of Rows' index (its and
  /// a loop's index with the same coefficient), and those they read
  /// without it: each element loaded once for the rows.
  std::vector<unsigned> WindowSpans, SharedSpans;
  std::string Description; // for the remark: "in along y, f"
};

/// When a thread may compute consecutive iterations of a level of N
/// together: each level from the root down holds one marked loop alone
/// (and none has reductions), down to Inner, which holds none; Rows, the
/// level that holds Inner, has step 1; Inner's bounds are captures,
/// literals and the indices of the levels outside Rows; Inner's body is
/// statements, one counted loop and statements, with no break, continue or
/// return anywhere; the statements before the loop declare scalars (no
/// arrays, no references) or are expressions and conditionals; the loop
/// and those perfectly inside it have constant trip counts (their product
/// at most MaxWindowSteps) and bounds of captures, literals and the indices
/// of the levels but Rows; the innermost body is straight-line code
/// (ir::straightLine) that writes no span; no name declared elsewhere in
/// Inner's body (inside the loops, in a block) is one of those declarations',
/// and none is Rows' index; and the loops read a read-only span along a window
/// of Rows' index.
std::optional<WindowTile> windowTile(const Nest &N);

} // namespace weft::ir

#endif
