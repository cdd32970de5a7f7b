// LoopOrder.h: loop structures that hide a nest's parallelism or reuse,
// rewritten where the affine analysis proves every element sees the same
// updates in the same order: an unmarked loop inside a level whose
// iterations share nothing written made a level of its own (code marked as
// OpenMP marks it, on the outer loop alone), a sequential loop around a
// marked level moved inside it (the i, k, j matrix product that CPU code
// prefers), and adjacent marked levels over one range fused.
#ifndef WEFT_PLUGIN_ANALYSIS_LOOPORDER_H
#define WEFT_PLUGIN_ANALYSIS_LOOPORDER_H

#include "ir/NestIR.h"

#include <string>
#include <vector>

namespace weft::ir {

/// One change to the nest, or a loop left where it is and why, for the
/// remarks.
struct LoopReorder {
  std::string Level;   // Location of the level it changed (or kept)
  std::string Text;    // what it did, or why not, in words
  std::string Removed; // Location of a level fused into it, or empty
  bool Kept = false;   // nothing changed: the loops the shape names stay
};

/// Rewrites N's levels (before analyzeAccesses) where it is proven the same:
///  - `for (int j = lo; j < hi; ++j) B` directly in a level's body (or last
///    in the body of a loop the next rule moves), unmarked, or a loop whose
///    header takes another form LoopHeader reads (counting down, a bound
///    set beside the index, ...), becomes a level one deeper (the third at
///    most) where B holds no level and, by the proof below over the loop,
///    no two values of j share what it writes;
///  - `for (k ...) { s; for j (marked) B; }` becomes `for j { for (k ...)
///    { s; B; } }` when the statements s only set locals of their own, the
///    bounds of both loops are the same for every iteration, and every span
///    the loop writes is reached, wherever the loop reaches it, at one
///    subscript that is affine in j with a constant nonzero coefficient and
///    no other changing value: so iterations of j share nothing written, and
///    each element still sees k's updates in order;
///  - two adjacent marked levels over the same index and range with the same
///    clauses become one, on the same proof over both bodies.
/// Levels that reduce, hold deeper levels, or leave by break, continue or
/// return are left as they are, and so is the loop of a nest marked
/// sequential.
std::vector<LoopReorder> reorderLoops(Nest &N);

} // namespace weft::ir

#endif
