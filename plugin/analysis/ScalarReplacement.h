// ScalarReplacement.h: span elements a sequential loop reads and writes at
// an index the loop never changes (C[i * n + j] += a * b inside the loop
// over k): kept in a register for the loop, loaded before it and stored
// after, where the affine analysis proves that no other access in the loop
// can touch the element.
#ifndef WEFT_PLUGIN_ANALYSIS_SCALARREPLACEMENT_H
#define WEFT_PLUGIN_ANALYSIS_SCALARREPLACEMENT_H

#include "ir/NestIR.h"

#include <string>
#include <vector>

namespace weft::ir {

struct ReplacedElement {
  const ir::Level *Level = nullptr; // whose body holds the loop
  const Stmt *Loop = nullptr;       // a For statement of the nest
  unsigned Param = 0;
  const Expr *Subscript = nullptr;    // of the first access: the element
  std::vector<const Expr *> Accesses; // the SpanElements it replaces
  std::string Description;            // "c[((i * n) + j)]"
};

/// Every element of the nest's sequential loops that a register can hold:
/// the loop writes it at a subscript of locals the loop does not assign
/// (nor declare) and of captures, reads no span in the subscript, makes no
/// other access to the span that the affine analysis cannot prove to be
/// another element, binds none of the span's elements to a reference nor
/// passes one to a call, and holds no parallel level.
std::vector<ReplacedElement> planScalarReplacement(const Nest &N);

} // namespace weft::ir

#endif
