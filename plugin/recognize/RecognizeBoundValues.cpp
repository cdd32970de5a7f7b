// RecognizeBoundValues.cpp: values a level's bounds read from globals
// (NAS's `grid_points[0]`), which the launch reads before the loop runs.
#include "recognize/BodyRecognizer.h"

#include <algorithm>

namespace weft::recognize {

/// The global variable whose element or field L reads at constant
/// subscripts (`g[0]`, `g[1][2]`, `dims.n`, `g[0].n`), or null.
static const VarDecl *globalRead(const Expr *L, const ASTContext &Ctx) {
  L = L->IgnoreParens();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L)) {
    const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    if (!AS->getIdx()->isIntegerConstantExpr(Ctx))
      return nullptr;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      return V && V->getType()->isConstantArrayType() ? V : nullptr;
    }
    return globalRead(Base, Ctx);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(L)) {
    if (ME->isArrow() || !isa<FieldDecl>(ME->getMemberDecl()))
      return nullptr;
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
      return dyn_cast<VarDecl>(Ref->getDecl());
    return globalRead(Base, Ctx);
  }
  return nullptr;
}

std::vector<const FieldDecl *> fieldPath(const Expr *E) {
  std::vector<const FieldDecl *> Fields;
  for (E = E->IgnoreParenImpCasts();;) {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase()->IgnoreParenImpCasts();
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        Fields.push_back(F);
      E = ME->getBase()->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  std::reverse(Fields.begin(), Fields.end());
  return Fields;
}

ir::ExprPtr BodyRecognizer::globalValue(const Expr *E) {
  const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
  if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
    return nullptr;
  const VarDecl *V = globalRead(Cast->getSubExpr(), Ctx);
  std::optional<ir::ScalarKind> K = scalarKind(E->getType());
  if (!V || !K || !V->hasGlobalStorage() ||
      V->getType().isVolatileQualified() ||
      V->hasAttr<OMPThreadPrivateDeclAttr>() || V->getTLSKind())
    return nullptr;
  Capture C;
  C.Source = E;
  C.Value = true;
  ir::Param P;
  P.Name = freeParamName(V->getName().str() + "_at");
  P.Kind = ir::ParamKind::Scalar;
  P.Element = *K;
  const unsigned I = addParam(std::move(P), std::move(C));
  Uses.back().Read = true;
  BoundReads.push_back({V, fieldPath(Cast->getSubExpr()), E->getExprLoc()});
  auto R = make(ir::Expr::ParamRef, *K);
  R->ParamIndex = I;
  return R;
}

} // namespace weft::recognize
