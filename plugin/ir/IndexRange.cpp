// IndexRange.cpp: ranges of affine expressions of loop indices.
#include "ir/IndexRange.h"

#include "ir/IrQueries.h"
#include "ir/SpanUses.h"

#include <set>

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

bool Hull::take(const std::pair<Polynomial, Polynomial> &R) {
  if (!Lo) {
    Lo = R.first;
    Hi = R.second;
    return true;
  }
  auto Apart = [](const Polynomial &A, const Polynomial &B) {
    std::optional<Polynomial> D = A.minus(B);
    return D ? D->constantValue() : std::nullopt;
  };
  const std::optional<std::int64_t> L = Apart(R.first, *Lo);
  const std::optional<std::int64_t> H = Apart(R.second, *Hi);
  if (!L || !H)
    return false;
  if (*L < 0)
    Lo = R.first;
  if (*H > 0)
    Hi = R.second;
  return true;
}

std::optional<Polynomial> Hull::count() const {
  if (!Lo)
    return std::nullopt;
  std::optional<Polynomial> Span = Hi->minus(*Lo);
  return Span ? Span->plus(Polynomial::constant(1)) : std::nullopt;
}

namespace {

/// Finds Target's statement, the loops around it on Around.
bool around(const Stmt &S, const Level &Target,
            std::vector<IndexBounds> &Around) {
  if (S.Kind == Stmt::ParallelFor) {
    if (S.Nested.get() == &Target)
      return true;
    Around.push_back(levelBounds(*S.Nested));
    for (const StmtPtr &C : S.Nested->Body)
      if (C && around(*C, Target, Around))
        return true;
    Around.pop_back();
    return false;
  }
  const bool Loop = S.Kind == Stmt::For;
  if (Loop)
    Around.push_back(loopBounds(S));
  for (const StmtPtr &C : S.Children)
    if (C && around(*C, Target, Around))
      return true;
  if (Loop)
    Around.pop_back();
  return false;
}

} // namespace

std::optional<std::int64_t> mostIterations(const Nest &N, const Level &L) {
  std::vector<IndexBounds> Around;
  if (&L != &N.Root) {
    Around.push_back(levelBounds(N.Root));
    bool Found = false;
    for (const StmtPtr &S : N.Root.Body)
      if (S && (Found = around(*S, L, Around)))
        break;
    if (!Found)
      return std::nullopt;
  }
  std::set<std::string> Variables = localsOf(N.Root.Body);
  Variables.insert(N.Root.IndexName);
  const LoopNest Loops{N, Around, [&](const std::string &Name) {
                         return Variables.count(Name) > 0;
                       }};
  std::optional<AffineForm> Lower = Loops.form(*L.Lower);
  std::optional<AffineForm> Upper = Loops.form(*L.Upper);
  if (!Lower || !Upper)
    return std::nullopt;
  std::optional<std::pair<Polynomial, Polynomial>> Lo =
      Loops.range(*Lower, Around.size());
  std::optional<std::pair<Polynomial, Polynomial>> Hi =
      Loops.range(*Upper, Around.size());
  if (!Lo || !Hi)
    return std::nullopt;
  // The greatest upper bound less the least lower bound: at least as many
  // as any iteration of the loops around gives.
  std::optional<Polynomial> Span = Hi->second.minus(Lo->first);
  std::optional<std::int64_t> V = Span ? Span->constantValue() : std::nullopt;
  if (!V)
    return std::nullopt;
  const std::int64_t Count = *V + (L.Inclusive ? 1 : 0);
  return Count <= 0 ? 0 : (Count + L.Step - 1) / L.Step;
}

} // namespace weft::ir
