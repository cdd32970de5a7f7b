// BoundAlgebra.cpp: normalized arithmetic on launch bounds (see
// BoundAlgebra.h).
#include "ir/BoundAlgebra.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace weft::ir {
namespace bounds {

std::optional<std::int64_t> literalOf(const BoundExpr &E) {
  if (E.Kind == BoundExpr::Lit)
    return E.Value;
  return std::nullopt;
}

/// E as a polynomial over its leaves and the parts that are no sums or
/// products (a min, a quotient), each a symbol named by its text; nullopt
/// on an overflow.
std::optional<Polynomial> polynomial(const BoundExpr &E) {
  auto Both = [&]() -> std::optional<std::pair<Polynomial, Polynomial>> {
    std::optional<Polynomial> A = polynomial(E.Operands[0]),
                              B = polynomial(E.Operands[1]);
    if (!A || !B)
      return std::nullopt;
    return std::make_pair(std::move(*A), std::move(*B));
  };
  switch (E.Kind) {
  case BoundExpr::Lit:
    return Polynomial::constant(E.Value);
  case BoundExpr::Neg:
    if (std::optional<Polynomial> A = polynomial(E.Operands[0]))
      return A->times(Polynomial::constant(-1));
    return std::nullopt;
  case BoundExpr::Add:
  case BoundExpr::Sub:
  case BoundExpr::Mul:
    if (auto AB = Both())
      return E.Kind == BoundExpr::Add   ? AB->first.plus(AB->second)
             : E.Kind == BoundExpr::Sub ? AB->first.minus(AB->second)
                                        : AB->first.times(AB->second);
    return std::nullopt;
  default:
    return Polynomial::symbol(contract::writeBound(E));
  }
}

/// P as a bound: its terms with positive coefficients first, then the
/// others, then the constant (`n * m - n - 1`); nullopt where a symbol
/// does not parse back or a coefficient has no negation.
static std::optional<BoundExpr> fromPolynomial(const Polynomial &P) {
  std::optional<BoundExpr> Sum;
  std::int64_t Constant = 0;
  for (const bool Positive : {true, false})
    for (const auto &[Monomial, Coefficient] : P.terms()) {
      if (Monomial.empty()) {
        Constant = Coefficient;
        continue;
      }
      if ((Coefficient > 0) != Positive || Coefficient == INT64_MIN)
        continue;
      std::optional<BoundExpr> Term;
      for (const std::string &Symbol : Monomial) {
        std::size_t Pos = 0;
        std::optional<BoundExpr> Factor = contract::parseBound(Symbol, Pos);
        if (!Factor)
          return std::nullopt;
        Term = Term ? BoundExpr::binary(BoundExpr::Mul, std::move(*Term),
                                        std::move(*Factor))
                    : std::move(*Factor);
      }
      const std::int64_t Magnitude = Positive ? Coefficient : -Coefficient;
      if (Magnitude != 1)
        Term = BoundExpr::binary(BoundExpr::Mul, std::move(*Term),
                                 BoundExpr::literal(Magnitude));
      if (!Sum)
        Sum = Positive ? std::move(*Term) : BoundExpr::negate(std::move(*Term));
      else
        Sum = BoundExpr::binary(Positive ? BoundExpr::Add : BoundExpr::Sub,
                                std::move(*Sum), std::move(*Term));
    }
  for (const auto &[Monomial, Coefficient] : P.terms())
    if (!Monomial.empty() && Coefficient == INT64_MIN)
      return std::nullopt;
  if (!Sum)
    return BoundExpr::literal(Constant);
  if (Constant > 0)
    return BoundExpr::binary(BoundExpr::Add, std::move(*Sum),
                             BoundExpr::literal(Constant));
  if (Constant < 0 && Constant != INT64_MIN)
    return BoundExpr::binary(BoundExpr::Sub, std::move(*Sum),
                             BoundExpr::literal(-Constant));
  if (Constant < 0)
    return std::nullopt;
  return Sum;
}

/// The operands of a chain of Op (min or max) under E.
static void chain(BoundExpr::Op Op, BoundExpr E, std::vector<BoundExpr> &Out) {
  if (E.Kind != Op) {
    Out.push_back(std::move(E));
    return;
  }
  chain(Op, std::move(E.Operands[0]), Out);
  chain(Op, std::move(E.Operands[1]), Out);
}

/// min (or max) of A and B, without the operands another one a constant
/// below (above) it makes redundant.
static BoundExpr extreme(BoundExpr::Op Op, BoundExpr A, BoundExpr B) {
  std::vector<BoundExpr> Parts;
  chain(Op, std::move(A), Parts);
  chain(Op, std::move(B), Parts);
  std::vector<std::optional<Polynomial>> Values;
  for (const BoundExpr &E : Parts)
    Values.push_back(polynomial(E));
  std::vector<bool> Dropped(Parts.size(), false);
  for (std::size_t I = 0; I < Parts.size(); ++I)
    for (std::size_t J = 0; J < Parts.size() && !Dropped[I]; ++J) {
      if (I == J || Dropped[J] || !Values[I] || !Values[J])
        continue;
      std::optional<Polynomial> D = Values[I]->minus(*Values[J]);
      std::optional<std::int64_t> K = D ? D->constantValue() : std::nullopt;
      // I is no less (no greater) than J: J decides; of equals, the first.
      if (K && (Op == BoundExpr::Min ? *K > 0 || (*K == 0 && J < I)
                                     : *K < 0 || (*K == 0 && J < I)))
        Dropped[I] = true;
    }
  std::optional<BoundExpr> R;
  for (std::size_t I = 0; I < Parts.size(); ++I)
    if (!Dropped[I])
      R = R ? BoundExpr::binary(Op, std::move(*R), std::move(Parts[I]))
            : std::move(Parts[I]);
  return std::move(*R);
}

BoundExpr fold(BoundExpr::Op Op, BoundExpr A, BoundExpr B) {
  if (Op == BoundExpr::Min || Op == BoundExpr::Max)
    return extreme(Op, std::move(A), std::move(B));
  if (Op == BoundExpr::Add || Op == BoundExpr::Sub || Op == BoundExpr::Mul) {
    BoundExpr Raw = BoundExpr::binary(Op, std::move(A), std::move(B));
    if (std::optional<Polynomial> P = polynomial(Raw))
      if (std::optional<BoundExpr> E = fromPolynomial(*P))
        return std::move(*E);
    return Raw;
  }
  // A quotient or remainder: of literals, its value.
  const std::optional<std::int64_t> X = literalOf(A), Y = literalOf(B);
  if (X && Y && *Y != 0 && !(*X == INT64_MIN && *Y == -1))
    return BoundExpr::literal(Op == BoundExpr::Div ? *X / *Y : *X % *Y);
  if (Op == BoundExpr::Div && Y == 1)
    return A;
  return BoundExpr::binary(Op, std::move(A), std::move(B));
}

BoundExpr add(BoundExpr A, BoundExpr B) {
  return fold(BoundExpr::Add, std::move(A), std::move(B));
}
BoundExpr sub(BoundExpr A, BoundExpr B) {
  return fold(BoundExpr::Sub, std::move(A), std::move(B));
}
BoundExpr mul(BoundExpr A, BoundExpr B) {
  return fold(BoundExpr::Mul, std::move(A), std::move(B));
}
BoundExpr least(BoundExpr A, BoundExpr B) {
  return fold(BoundExpr::Min, std::move(A), std::move(B));
}
BoundExpr greatest(BoundExpr A, BoundExpr B) {
  return fold(BoundExpr::Max, std::move(A), std::move(B));
}
BoundExpr negate(BoundExpr A) {
  return fold(BoundExpr::Sub, BoundExpr::literal(0), std::move(A));
}

std::size_t nodes(const BoundExpr &E) {
  std::size_t Count = 1;
  for (const BoundExpr &O : E.Operands)
    Count += nodes(O);
  return Count;
}

} // namespace bounds

using contract::BoundExpr;

std::string boundText(const Nest &N, const BoundExpr &B) {
  auto Name = [&](std::int64_t I) {
    return I >= 0 && static_cast<std::size_t>(I) < N.Params.size()
               ? N.Params[I].Name
               : "?";
  };
  // Operands that are sums or differences go in parentheses under a
  // product or a difference's right side.
  auto Operand = [&](const BoundExpr &O, bool Tight) {
    const std::string T = boundText(N, O);
    const bool Sum = O.Kind == BoundExpr::Add || O.Kind == BoundExpr::Sub;
    return Tight && Sum ? "(" + T + ")" : T;
  };
  switch (B.Kind) {
  case BoundExpr::Lit:
    return std::to_string(B.Value);
  case BoundExpr::Arg:
    return Name(B.Value);
  case BoundExpr::Size:
    return Name(B.Value) + ".size()";
  case BoundExpr::Tune:
    return "tune" + std::to_string(B.Value);
  case BoundExpr::Neg:
    return "-" + Operand(B.Operands[0], true);
  case BoundExpr::Min:
  case BoundExpr::Max:
    return std::string(B.Kind == BoundExpr::Min ? "min(" : "max(") +
           boundText(N, B.Operands[0]) + ", " + boundText(N, B.Operands[1]) +
           ")";
  default: {
    const bool Product = B.Kind != BoundExpr::Add && B.Kind != BoundExpr::Sub;
    const char *Op = B.Kind == BoundExpr::Add   ? " + "
                     : B.Kind == BoundExpr::Sub ? " - "
                     : B.Kind == BoundExpr::Mul ? " * "
                     : B.Kind == BoundExpr::Div ? " / "
                                                : " % ";
    return Operand(B.Operands[0], Product) + Op +
           Operand(B.Operands[1], Product || B.Kind == BoundExpr::Sub);
  }
  }
}

} // namespace weft::ir
