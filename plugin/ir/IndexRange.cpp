// IndexRange.cpp: ranges of affine expressions of loop indices.
#include "ir/IndexRange.h"

#include "ir/IrQueries.h"

namespace weft::ir {

IndexBounds loopBounds(const Stmt &For) {
  if (std::optional<CountedLoop> C = countedLoop(For))
    return {C->Index, C->Lower, C->Upper};
  IndexBounds B;
  if (For.Children[0] && For.Children[0]->Kind == Stmt::Decl)
    B.Index = For.Children[0]->Name;
  return B;
}

IndexBounds levelBounds(const Level &L) {
  return {L.IndexName, L.Lower.get(), L.Upper.get(), L.Inclusive};
}

std::size_t LoopNest::find(const std::string &Name, std::size_t Before) const {
  for (std::size_t I = Before; I-- > 0;)
    if (Around[I].Index == Name)
      return I;
  return Before;
}

std::optional<AffineForm> LoopNest::form(const Expr &E) const {
  AffineScope Scope;
  Scope.IsVariable = IsVariable;
  return affineForm(N, stripCasts(E), Scope);
}

std::optional<std::pair<Polynomial, Polynomial>>
LoopNest::range(const AffineForm &F, std::size_t Before) const {
  Polynomial Least = F.Offset, Greatest = F.Offset;
  for (const auto &[Variable, Coefficient] : F.Coefficients) {
    const std::optional<std::int64_t> K = Coefficient.constantValue();
    const std::size_t At = find(Variable, Before);
    if (!K || At == Before)
      return std::nullopt;
    std::optional<std::pair<Polynomial, Polynomial>> R = indexRange(At);
    if (!R)
      return std::nullopt;
    // A positive coefficient takes the index's least value to the least.
    const Polynomial &Low = *K > 0 ? R->first : R->second;
    const Polynomial &High = *K > 0 ? R->second : R->first;
    std::optional<Polynomial> L = Low.times(Polynomial::constant(*K));
    std::optional<Polynomial> H = High.times(Polynomial::constant(*K));
    if (L)
      L = Least.plus(*L);
    if (H)
      H = Greatest.plus(*H);
    if (!L || !H)
      return std::nullopt;
    Least = std::move(*L);
    Greatest = std::move(*H);
  }
  return std::make_pair(std::move(Least), std::move(Greatest));
}

std::optional<std::pair<Polynomial, Polynomial>>
LoopNest::indexRange(std::size_t At) const {
  const IndexBounds &B = Around[At];
  if (!B.Lower || !B.Upper)
    return std::nullopt;
  std::optional<AffineForm> Lower = form(*B.Lower), Upper = form(*B.Upper);
  if (!Lower || !Upper)
    return std::nullopt;
  std::optional<std::pair<Polynomial, Polynomial>> L = range(*Lower, At);
  std::optional<std::pair<Polynomial, Polynomial>> U = range(*Upper, At);
  if (!L || !U)
    return std::nullopt;
  std::optional<Polynomial> Last =
      B.Inclusive ? U->second : U->second.minus(Polynomial::constant(1));
  if (!Last)
    return std::nullopt;
  return std::make_pair(std::move(L->first), std::move(*Last));
}

} // namespace weft::ir
