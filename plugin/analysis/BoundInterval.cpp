// BoundInterval.cpp: interval arithmetic over bounds, each end folded as far
// as its operands allow (ir/BoundAlgebra).
#include "analysis/BoundInterval.h"

#include "ir/BoundAlgebra.h"

#include <cstdint>

namespace weft::ir::interval {

using namespace bounds;

Interval join(const Interval &A, const Interval &B) {
  return {least(A.Lo, B.Lo), greatest(A.Hi, B.Hi), false};
}

Interval plus(const Interval &A, const Interval &B) {
  if (A.Fixed && B.Fixed)
    return Interval::fixed(add(A.Lo, B.Lo));
  return {add(A.Lo, B.Lo), add(A.Hi, B.Hi)};
}

Interval opposite(const Interval &A) {
  if (A.Fixed)
    return Interval::fixed(negate(A.Lo));
  return {negate(A.Hi), negate(A.Lo)};
}

std::pair<std::optional<BoundExpr>, std::optional<BoundExpr>>
comparisonBounds(const std::string &Op, const Interval &Than) {
  const BoundExpr One = BoundExpr::literal(1);
  std::optional<BoundExpr> Lo, Hi;
  if (Op == "<" || Op == "<=" || Op == "==")
    Hi = Op == "<" ? sub(Than.Hi, One) : Than.Hi;
  if (Op == ">" || Op == ">=" || Op == "==")
    Lo = Op == ">" ? add(Than.Lo, One) : Than.Lo;
  return {std::move(Lo), std::move(Hi)};
}

Interval scale(const Interval &V, const BoundExpr &C,
               const SignOracle &NonNegative) {
  if (NonNegative(C))
    return {mul(V.Lo, C), mul(V.Hi, C)};
  if (std::optional<std::int64_t> K = literalOf(C); K && *K < 0)
    return {mul(V.Hi, C), mul(V.Lo, C)};
  BoundExpr L = mul(V.Lo, C), H = mul(V.Hi, C);
  return {least(L, H), greatest(L, H)};
}

Interval times(const Interval &A, const Interval &B,
               const SignOracle &NonNegative) {
  if (A.Fixed && B.Fixed)
    return Interval::fixed(mul(A.Lo, B.Lo));
  if (A.Fixed)
    return scale(B, A.Lo, NonNegative);
  if (B.Fixed)
    return scale(A, B.Lo, NonNegative);
  BoundExpr P[] = {mul(A.Lo, B.Lo), mul(A.Lo, B.Hi), mul(A.Hi, B.Lo),
                   mul(A.Hi, B.Hi)};
  return {least(least(P[0], P[1]), least(P[2], P[3])),
          greatest(greatest(P[0], P[1]), greatest(P[2], P[3]))};
}

Interval divide(const Interval &A, const BoundExpr &D,
                const SignOracle &NonNegative) {
  if (A.Fixed)
    return Interval::fixed(fold(BoundExpr::Div, A.Lo, D));
  BoundExpr L = fold(BoundExpr::Div, A.Lo, D),
            H = fold(BoundExpr::Div, A.Hi, D);
  if (NonNegative(D))
    return {L, H};
  return {least(L, H), greatest(L, H)};
}

Interval remainder(const Interval &A, const BoundExpr &D) {
  if (A.Fixed)
    return Interval::fixed(fold(BoundExpr::Rem, A.Lo, D));
  std::optional<std::int64_t> K = literalOf(D);
  BoundExpr Most = K && *K > INT64_MIN
                       ? BoundExpr::literal((*K < 0 ? -*K : *K) - 1)
                       : sub(greatest(D, negate(D)), BoundExpr::literal(1));
  const BoundExpr Zero = BoundExpr::literal(0);
  return {least(Zero, greatest(A.Lo, negate(Most))),
          greatest(Zero, least(A.Hi, Most))};
}

} // namespace weft::ir::interval
