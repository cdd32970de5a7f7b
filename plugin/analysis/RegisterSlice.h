// RegisterSlice.h: thread slices (analysis/ThreadSlice.h) a thread can hold in
// its registers: where the loops along the slice unroll whole, each read and
// write of it names a constant element, so an array of the slice's length
// lives in registers, and a chain of reads after writes waits on nothing.
#ifndef WEFT_PLUGIN_ANALYSIS_REGISTERSLICE_H
#define WEFT_PLUGIN_ANALYSIS_REGISTERSLICE_H

#include "analysis/ThreadSlice.h"
#include "analysis/UnrolledSteps.h"
#include "ir/NestIR.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>

namespace weft::ir {

/// The loops to unroll for a slice in registers: loops of a few steps (ir::
/// stepLoops, bounding loops inside or not) and the counted loops inside
/// them counted from zero (ir::constantCountLoops).
struct SliceUnrolling {
  std::map<const Stmt *, std::int64_t> Steps;
  std::set<const Stmt *> Counted;
  /// Where set, the iteration's other accesses of the span name none of
  /// the slice's elements while it holds (kernel text of captures; "true"
  /// where nothing is left to check at run time): the slice's writes stay
  /// in registers until the iteration's end, so that no store stands
  /// between the loads the unrolled loops issue (a store the GPU compiler
  /// cannot tell apart from them keeps each after it). Unset where
  /// unproven, or where a jump could leave the iteration before its end:
  /// writes go through to the span at once.
  std::optional<std::string> Apart;
};

/// How S's loops unroll where it can live in registers: its length is a
/// constant of at most MaxUnrolledSteps, and the W of each use less the
/// slice's Lo is a constant in each unrolled copy of the loops around it
/// (the use's loop is one of a few steps in the level's body, or counted
/// from zero inside one, each from a lower bound of captures and such loops'
/// indices). Nullopt where it cannot.
std::optional<SliceUnrolling> registerSlice(const Nest &N,
                                            const ThreadSlice &S);

} // namespace weft::ir

#endif
