// TransferPlan.cpp: transfer directions from parameter kinds.
#include "memory/TransferPlan.h"

#include "ir/HostBound.h"

#include <cstdlib>

namespace weft::memory {

contract::ParamKind descriptorKind(Transfer T) {
  switch (T) {
  case Transfer::In:
    return contract::ParamKind::In;
  case Transfer::Out:
    return contract::ParamKind::Out;
  case Transfer::InOut:
    return contract::ParamKind::InOut;
  case Transfer::ByValue:
    break;
  }
  return contract::ParamKind::Scalar;
}

std::vector<Transfer> planTransfers(const ir::Nest &N) {
  std::vector<Transfer> Plan;
  for (const ir::Param &P : N.Params) {
    switch (P.Kind) {
    case ir::ParamKind::ReadSpan:
      Plan.push_back(Transfer::In);
      break;
    case ir::ParamKind::WriteSpan:
      Plan.push_back(writesEveryElement(N, static_cast<unsigned>(Plan.size()))
                         ? Transfer::Out
                         : Transfer::InOut);
      break;
    case ir::ParamKind::ReadWriteSpan:
      Plan.push_back(Transfer::InOut);
      break;
    case ir::ParamKind::Scalar:
    case ir::ParamKind::ReductionTarget: // passed on; "reduce" says the rest
      Plan.push_back(Transfer::ByValue);
      break;
    }
  }
  return Plan;
}

namespace {
const ir::Expr &withoutCasts(const ir::Expr &E) {
  return E.Kind == ir::Expr::Cast ? withoutCasts(*E.Operands[0]) : E;
}

/// A `continue` of the level itself (not of a loop nested in it) may skip
/// any statement of its body.
bool continuesLevel(const std::vector<ir::StmtPtr> &Body) {
  for (const ir::StmtPtr &S : Body) {
    if (!S)
      continue;
    if (S->Kind == ir::Stmt::Continue)
      return true;
    if (S->Kind == ir::Stmt::For || S->Kind == ir::Stmt::While ||
        S->Kind == ir::Stmt::DoWhile || S->Kind == ir::Stmt::ParallelFor)
      continue; // its continues are its own
    if (continuesLevel(S->Children))
      return true;
  }
  return false;
}
} // namespace

namespace {

bool zeroLiteral(const ir::Expr &E) {
  const ir::Expr &L = withoutCasts(E);
  return L.Kind == ir::Expr::IntLiteral && ir::integerValue(L) == 0;
}

/// From 0 to an exclusive bound by one, without continue.
bool denseLevel(const ir::Level &L) {
  return L.Step == 1 && !L.Inclusive && zeroLiteral(*L.Lower) &&
         !continuesLevel(L.Body);
}

/// The subscript (casts stripped) when S is `Param[subscript] = ...`.
const ir::Expr *assignedSubscript(const ir::Stmt &S, unsigned Param) {
  if (S.Kind != ir::Stmt::ExprStmt)
    return nullptr;
  const ir::Expr &E = *S.Exprs[0];
  if (E.Kind != ir::Expr::Binary || E.Text != "=")
    return nullptr;
  const ir::Expr &Target = *E.Operands[0];
  if (Target.Kind != ir::Expr::SpanElement || Target.ParamIndex != Param)
    return nullptr;
  return &withoutCasts(*Target.Operands[0]);
}

/// E is Local Name.
bool isLocal(const ir::Expr &E, const std::string &Name) {
  const ir::Expr &L = withoutCasts(E);
  return L.Kind == ir::Expr::Local && L.Text == Name;
}

} // namespace

std::optional<GridCoverage> writesEveryElementOfGrid(const ir::Nest &N,
                                                     unsigned Param) {
  const ir::Level &Outer = N.Root;
  if (!denseLevel(Outer))
    return std::nullopt;
  for (const ir::StmtPtr &P : Outer.Body) {
    if (P->Kind != ir::Stmt::ParallelFor || !denseLevel(*P->Nested))
      continue;
    const ir::Level &Inner = *P->Nested;
    for (const ir::StmtPtr &S : Inner.Body) {
      // [i * Stride + j], in either order of either sum or product.
      const ir::Expr *Subscript = assignedSubscript(*S, Param);
      if (!Subscript || Subscript->Kind != ir::Expr::Binary ||
          Subscript->Text != "+")
        continue;
      const ir::Expr &Index = *Subscript;
      for (int Side = 0; Side < 2; ++Side) {
        const ir::Expr &Row = withoutCasts(*Index.Operands[Side]);
        if (!isLocal(*Index.Operands[1 - Side], Inner.IndexName) ||
            Row.Kind != ir::Expr::Binary || Row.Text != "*")
          continue;
        for (int By = 0; By < 2; ++By)
          if (isLocal(*Row.Operands[By], Outer.IndexName) &&
              ir::isHostEvaluable(*Row.Operands[1 - By]) &&
              ir::isHostEvaluable(*Inner.Upper))
            return GridCoverage{Inner.Upper.get(), Row.Operands[1 - By].get()};
      }
    }
  }
  return std::nullopt;
}

bool writesEveryElement(const ir::Nest &N, unsigned Param) {
  const ir::Level &L = N.Root;
  const ir::Expr &Upper = withoutCasts(*L.Upper);
  if (!denseLevel(L) || Upper.Kind != ir::Expr::SpanSize ||
      Upper.ParamIndex != Param)
    return false;
  // Nested statements may not run; top-level ones do.
  for (const ir::StmtPtr &S : L.Body)
    if (const ir::Expr *Subscript = assignedSubscript(*S, Param);
        Subscript && isLocal(*Subscript, L.IndexName))
      return true;
  return false;
}

} // namespace weft::memory
