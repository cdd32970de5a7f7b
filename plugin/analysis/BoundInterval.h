// BoundInterval.h: intervals of integer values whose ends are bounds the
// launch evaluates, and their arithmetic (the subscript-bounds analysis').
#ifndef WEFT_PLUGIN_ANALYSIS_BOUNDINTERVAL_H
#define WEFT_PLUGIN_ANALYSIS_BOUNDINTERVAL_H

#include "contract/BoundExpr.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace weft::ir::interval {

using contract::BoundExpr;

/// Every value an expression takes lies in [Lo, Hi]; Fixed where it takes
/// one (no loop index or local the loops change decides it): Lo is it.
struct Interval {
  BoundExpr Lo, Hi;
  bool Fixed = false;
  static Interval fixed(BoundExpr V) { return {V, V, true}; }
};

/// The hull of A and B.
Interval join(const Interval &A, const Interval &B);
Interval plus(const Interval &A, const Interval &B);
Interval opposite(const Interval &A);

/// The bounds `X Op Than` puts on X: a greatest value under `<`, `<=`,
/// `==`, a least one over `>`, `>=`, `==`.
std::pair<std::optional<BoundExpr>, std::optional<BoundExpr>>
comparisonBounds(const std::string &Op, const Interval &Than);

/// Whether a bound is never negative where it is evaluated.
using SignOracle = std::function<bool(const BoundExpr &)>;

/// The interval times a value it does not depend on.
Interval scale(const Interval &V, const BoundExpr &C,
               const SignOracle &NonNegative);
Interval times(const Interval &A, const Interval &B,
               const SignOracle &NonNegative);
/// A / D for a divisor D the loops do not change: division truncates
/// toward zero, monotone in A whatever D's sign.
Interval divide(const Interval &A, const BoundExpr &D,
                const SignOracle &NonNegative);
/// A % D: of A's sign, below |D| in magnitude, and no farther from zero
/// than A.
Interval remainder(const Interval &A, const BoundExpr &D);

} // namespace weft::ir::interval

#endif // WEFT_PLUGIN_ANALYSIS_BOUNDINTERVAL_H
