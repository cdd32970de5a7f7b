// SpanUses.h: the span elements of a body, each with the loops around it
// and whether an assignment writes it, and the spans written some other way
// (a reference bound, a call's argument, an increment, a combine): what the
// thread-slice and resident-block proofs start from.
#ifndef WEFT_PLUGIN_IR_SPANUSES_H
#define WEFT_PLUGIN_IR_SPANUSES_H

#include "ir/IndexRange.h"
#include "ir/NestIR.h"

#include <set>
#include <string>
#include <vector>

namespace weft::ir {

struct SpanUse {
  const Expr *Element = nullptr;
  std::vector<IndexBounds> Loops; // the loops around, outermost first
  bool Written = false;           // an assignment's target
};

struct SpanUses {
  std::vector<SpanUse> Uses;
  /// Spans an element of which is written other than by an assignment:
  /// bound to a reference, passed to a call, incremented, combined into.
  std::set<unsigned> Refused;
  std::set<unsigned> Written;
};

/// The uses in Body, the loops around each being the For statements inside
/// Body and, where EnterLevels, the marked levels too (whose bodies are
/// entered; else not).
SpanUses spanUses(const std::vector<StmtPtr> &Body, bool EnterLevels);

/// The loops around U, the names in Variables (which must outlive the
/// result) standing for what varies.
LoopNest loopsAround(const Nest &N, const SpanUse &U,
                     const std::set<std::string> &Variables);

/// The locals Body declares (levels' indices too) or assigns.
std::set<std::string> localsOf(const std::vector<StmtPtr> &Body);

} // namespace weft::ir

#endif
