// SubscriptBounds.h: the least and greatest subscripts a nest gives a span,
// as bounds the launch evaluates: how many elements a pointer without an
// extent clause must hold for the loop to run as written.
#ifndef WEFT_PLUGIN_ANALYSIS_SUBSCRIPTBOUNDS_H
#define WEFT_PLUGIN_ANALYSIS_SUBSCRIPTBOUNDS_H

#include "ir/NestIR.h"

#include <optional>
#include <string>

namespace weft::ir {

/// Which part of a subscript: all of it, or of rows held as pointers
/// (`w[k][j]`, element k * columns + j), the row's or the column's.
enum class SubscriptPart { Whole, Row, Column };

/// Param's subscript bounds over N, in terms of the launch's arguments (an
/// interval over-approximation: each loop index over the widest range its
/// bounds allow, a branch's subscripts as if taken);
/// nullopt where a subscript reads memory, a local the loops change, a
/// loop index whose bounds are not of that kind, or a function the nest
/// calls reads the span. Then WhyNot (where given) names the subscript.
std::optional<SubscriptBounds>
subscriptBounds(const Nest &N, unsigned Param, std::string *WhyNot = nullptr,
                SubscriptPart Part = SubscriptPart::Whole);

} // namespace weft::ir

#endif
