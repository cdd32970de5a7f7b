// HostBound.h: nest IR expressions in the bound language the runtime
// evaluates from launch arguments (contract/BoundExpr.h): the one place
// that says which loop bounds, array extents and coverage claims the host
// can compute before a launch.
#ifndef WEFT_PLUGIN_IR_HOSTBOUND_H
#define WEFT_PLUGIN_IR_HOSTBOUND_H

#include "contract/BoundExpr.h"
#include "ir/NestIR.h"

#include <optional>

namespace weft::ir {

/// E as a bound: integer literals, integer scalars, span sizes, + - * / %,
/// unary minus, min and max, through integer casts. Nullopt for anything
/// else (a span element, a floating value, a local).
std::optional<contract::BoundExpr> hostBound(const Expr &E);

/// True when the runtime can evaluate E from the launch arguments alone.
inline bool isHostEvaluable(const Expr &E) { return hostBound(E).has_value(); }

} // namespace weft::ir

#endif
