// RecognizeConstants.cpp: captured integer constants that the affine
// analysis may see through (`const int End = Offset + BlockSize;`), so that
// bounds written in terms of them have known distances apart.
#include "recognize/DataRecognizer.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace weft::recognize {
namespace {

/// Counts each variable's uses in a body, and those that only read its
/// value: any other use (assigned, incremented, its address taken, bound
/// to a reference) may change it.
class UseCounter : public RecursiveASTVisitor<UseCounter> {
public:
  bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
    if (C->getCastKind() == CK_LValueToRValue)
      if (const auto *D =
              dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
        if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
          ++Reads[V];
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      ++Uses[V];
    return true;
  }

  llvm::DenseMap<const VarDecl *, unsigned> Reads, Uses;
};

} // namespace

VariableSet variablesOnlyRead(const FunctionDecl *FD) {
  UseCounter Count;
  if (FD && FD->hasBody())
    Count.TraverseStmt(FD->getBody());
  VariableSet OnlyRead;
  for (const auto &[V, Uses] : Count.Uses)
    if (Count.Reads.lookup(V) == Uses)
      OnlyRead.insert(V);
  return OnlyRead;
}

bool DataRecognizer::keepsItsValue(const VarDecl *V) const {
  if (V->getType()->isReferenceType() || V->getType().isVolatileQualified())
    return false;
  return V->getType().isConstQualified() ||
         (OnlyRead && Function &&
          V->getDeclContext() == static_cast<const DeclContext *>(Function) &&
          OnlyRead->contains(V));
}

ir::ExprPtr DataRecognizer::constantDefinition(const Expr *E, unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  std::optional<ir::ScalarKind> Kind = scalarKind(E->getType());
  if (!Kind || Depth > 8 || !E->getType()->isIntegerType())
    return nullptr;
  auto Made = std::make_unique<ir::Expr>();
  Made->Type = *Kind;
  Expr::EvalResult Value;
  if (!E->isValueDependent() && E->EvaluateAsInt(Value, Ctx)) {
    // With its suffix: the kernel prints the definition where the constant
    // was, and `5u` must stay unsigned there.
    Made->Kind = ir::Expr::IntLiteral;
    Made->Text = literalText(Value.Val.getInt(), *Kind);
    return Made;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub &&
        B->getOpcode() != BO_Mul)
      return nullptr;
    ir::ExprPtr L = constantDefinition(B->getLHS(), Depth + 1);
    ir::ExprPtr R = L ? constantDefinition(B->getRHS(), Depth + 1) : nullptr;
    if (!R)
      return nullptr;
    Made->Kind = ir::Expr::Binary;
    Made->Text = B->getOpcodeStr().str();
    Made->Operands.push_back(std::move(L));
    Made->Operands.push_back(std::move(R));
    return Made;
  }
  // Another capture of the loop's that keeps its value.
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !keepsItsValue(V))
    return nullptr;
  auto Captured = CaptureIndex.find(V);
  if (Captured == CaptureIndex.end() ||
      Params[Captured->second].Kind != ir::ParamKind::Scalar)
    return nullptr;
  Made->Kind = ir::Expr::ParamRef;
  Made->ParamIndex = Captured->second;
  return Made;
}

void DataRecognizer::defineCapturedConstants(std::vector<ir::Param> &Out) {
  for (const auto &[Captured, I] : CaptureIndex) {
    const auto *V = dyn_cast<VarDecl>(Captured);
    if (Out[I].Kind != ir::ParamKind::Scalar || !V || !V->hasLocalStorage() ||
        !V->getType().isConstQualified() || !V->getInit() || !keepsItsValue(V))
      continue;
    // Only in terms of other captures: a literal would have been folded
    // into the kernel's text by the front end already, or is a constexpr.
    ir::ExprPtr Definition = constantDefinition(V->getInit(), 0);
    if (Definition && Definition->Kind != ir::Expr::IntLiteral)
      Out[I].Definition = std::move(Definition);
  }
}

} // namespace weft::recognize
