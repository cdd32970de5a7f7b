// TransferPlan.cpp: transfer directions from parameter kinds.
#include "memory/TransferPlan.h"

#include <cstdlib>

namespace weft::memory {

const char *descriptorWord(Transfer T) {
  switch (T) {
  case Transfer::In:
    return "in";
  case Transfer::Out:
    return "out";
  case Transfer::InOut:
    return "inout";
  case Transfer::ByValue:
    return "scalar";
  }
  return "?";
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

bool writesEveryElement(const ir::Nest &N, unsigned Param) {
  const ir::Level &L = N.Root;
  const ir::Expr &Lower = withoutCasts(*L.Lower);
  const ir::Expr &Upper = withoutCasts(*L.Upper);
  if (L.Step != 1 || L.Inclusive || Lower.Kind != ir::Expr::IntLiteral ||
      std::strtoll(Lower.Text.c_str(), nullptr, 0) != 0 ||
      Upper.Kind != ir::Expr::SpanSize || Upper.ParamIndex != Param ||
      continuesLevel(L.Body))
    return false;
  for (const ir::StmtPtr &S : L.Body) {
    if (S->Kind != ir::Stmt::ExprStmt)
      continue; // Nested statements may not run; top-level ones do.
    const ir::Expr &E = *S->Exprs[0];
    if (E.Kind != ir::Expr::Binary || E.Text != "=")
      continue;
    const ir::Expr &Target = *E.Operands[0];
    if (Target.Kind != ir::Expr::SpanElement || Target.ParamIndex != Param)
      continue;
    const ir::Expr &Index = withoutCasts(*Target.Operands[0]);
    if (Index.Kind == ir::Expr::Local && Index.Text == L.IndexName)
      return true;
  }
  return false;
}

} // namespace weft::memory
