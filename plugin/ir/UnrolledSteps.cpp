// UnrolledSteps.cpp: which sequential loops have a few steps that set the
// bounds of the loops inside them.
#include "ir/UnrolledSteps.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"

#include <functional>
#include <string>

namespace weft::ir {
namespace {

/// Visits S and every statement inside it, its levels' bodies included.
void eachStatement(const Stmt &S,
                   const std::function<void(const Stmt &)> &Visit) {
  Visit(S);
  for (const StmtPtr &C : S.Children)
    if (C)
      eachStatement(*C, Visit);
  if (S.Kind == Stmt::ParallelFor && S.Nested)
    for (const StmtPtr &C : S.Nested->Body)
      if (C)
        eachStatement(*C, Visit);
}

bool readsLocal(const Expr *E, const std::string &Name) {
  return E && anyExpression(*E, [&](const Expr &X) {
           return X.Kind == Expr::Local && X.Text == Name;
         });
}

/// Upper - Lower where it is a constant whatever the loops around and the
/// captures are.
std::optional<std::int64_t> constantTripCount(const Nest &N,
                                              const CountedLoop &L) {
  const AffineScope Scope{[](const std::string &) { return true; }};
  std::optional<AffineForm> Lower = affineForm(N, *L.Lower, Scope);
  std::optional<AffineForm> Upper = affineForm(N, *L.Upper, Scope);
  if (!Lower || !Upper)
    return std::nullopt;
  std::optional<AffineForm> Count = add(*Upper, *Lower, /*Subtract=*/true);
  if (!Count || Count->dependsOnVariables())
    return std::nullopt;
  return Count->Offset.constantValue();
}

/// A loop or a level inside Body bounded by Index.
bool boundsFollow(const Stmt &Body, const std::string &Index) {
  bool Found = false;
  eachStatement(Body, [&](const Stmt &S) {
    if (std::optional<CountedLoop> C = countedLoop(S))
      Found =
          Found || readsLocal(C->Lower, Index) || readsLocal(C->Upper, Index);
    if (S.Kind == Stmt::ParallelFor && S.Nested)
      Found = Found || readsLocal(S.Nested->Lower.get(), Index) ||
              readsLocal(S.Nested->Upper.get(), Index);
  });
  return Found;
}

} // namespace

std::map<const Stmt *, std::int64_t> unrolledSteps(const Nest &N) {
  std::map<const Stmt *, std::int64_t> Out;
  if (!N.Sequential)
    return Out;
  const auto Visit = [&](const Stmt &S) {
    std::optional<CountedLoop> C = countedLoop(S);
    if (!C)
      return;
    std::optional<std::int64_t> Steps = constantTripCount(N, *C);
    if (Steps && *Steps >= 2 && *Steps <= MaxUnrolledSteps &&
        boundsFollow(*S.Children[1], C->Index))
      Out[&S] = *Steps;
  };
  for (const StmtPtr &S : N.Root.Body)
    if (S)
      eachStatement(*S, Visit);
  return Out;
}

} // namespace weft::ir
