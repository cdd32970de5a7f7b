// RecognizeInlinedCalls.cpp: calls of functions that take pointers into the
// loop's data, as C code factors its loops (`y[i] = dot(&A[i * n], x, n);`,
// k-means' `dist(point, center, dims)`), compiled into the loop at each
// call: the pointers become views into the captured data, so the
// function's accesses are the loop's own, and every analysis (coalescing,
// tiles, independence proofs, the checker) sees them as it sees the rest.
#include "recognize/Recognizer.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace weft::recognize {

namespace {

/// The variables a function declares, its parameters included.
class DeclaredVariables : public RecursiveASTVisitor<DeclaredVariables> {
public:
  bool VisitVarDecl(VarDecl *V) {
    Found.push_back(V);
    return true;
  }
  // A lambda's body is its own function.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  std::vector<const VarDecl *> Found;
};

/// Whether S holds a `return` anywhere.
bool holdsReturn(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  return llvm::any_of(S->children(),
                      [](const Stmt *C) { return holdsReturn(C); });
}

} // namespace

bool Recognizer::takesPointers(const FunctionDecl *Def) {
  return llvm::any_of(Def->parameters(), [](const ParmVarDecl *P) {
    return P->getType()->isPointerType();
  });
}

bool Recognizer::evaluatedUnconditionally(const Expr *Call) const {
  if (!HoistRoot)
    return false;
  // (The statement's own map: the context's is built once, before the
  // functions parsed after it.)
  ParentMap Parents(const_cast<Stmt *>(HoistRoot));
  const Stmt *Child = Call;
  while (Child != HoistRoot) {
    const Stmt *Parent = Parents.getParent(Child);
    if (!Parent)
      return false;
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(Parent);
        C && C->getCond() != Child)
      return false;
    if (const auto *B = dyn_cast<BinaryOperator>(Parent);
        B && B->isLogicalOp() && B->getRHS() == Child)
      return false;
    Child = Parent;
  }
  return true;
}

ir::ExprPtr Recognizer::inlineCall(const CallExpr *Call,
                                   const FunctionDecl *Def,
                                   llvm::ArrayRef<const Expr *> Args,
                                   std::optional<ir::ScalarKind> K) {
  const std::string Name = Def->getQualifiedNameAsString();
  const SourceLocation Loc = Call->getExprLoc();
  const std::string Why = "'" + Name +
                          "' takes pointers into the loop's data, so weft "
                          "compiles it into the loop at each call";
  if (!Hoisted || !evaluatedUnconditionally(Call))
    return failExpr(Loc,
                    Why + "; this call is not a statement of its own, an "
                          "initializer or a value a statement always "
                          "computes",
                    "call it in a statement of its own: 'float d = " +
                        Def->getNameAsString() + "(...);'");
  // A `return` at its end alone: the value the call leaves.
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  const auto *Last = Body && !Body->body_empty()
                         ? dyn_cast<ReturnStmt>(Body->body_back())
                         : nullptr;
  bool Early = false;
  if (Body)
    for (const Stmt *S : Body->body())
      Early = Early || (S != Last && holdsReturn(S));
  const QualType Ret = Def->getReturnType();
  std::optional<ir::ScalarKind> RK = scalarKind(Ret);
  const int RS = Ret->isVoidType() || RK
                     ? -1
                     : structIndex(Ret, Def->getLocation(), false);
  if (!Body || Early || (!Ret->isVoidType() && !Last))
    return failExpr(Def->getLocation(),
                    Why + ", where it may return only at "
                          "its end",
                    "set a local and return it once, last");
  if (!Ret->isVoidType() && ((!RK && RS < 0) || Ret->isReferenceType()))
    return failExpr(Def->getLocation(), Why + ", where it must return void, "
                                              "an arithmetic value or a "
                                              "struct of them");
  // Its variables get names of their own, so that none hides the caller's
  // (an index named as a level's index, `n` passed as `n`).
  const std::string Prefix = "weft_in" + std::to_string(InlinedCalls++) + "_";
  DeclaredVariables Declared;
  Declared.TraverseDecl(const_cast<FunctionDecl *>(Def));
  for (const VarDecl *V : Declared.Found)
    InlinedNames[V] = Prefix + V->getName().str();
  std::vector<ir::StmtPtr> &Out = *Hoisted;
  ir::ExprPtr Result;
  if (!Ret->isVoidType()) {
    auto D = std::make_unique<ir::Stmt>();
    D->Kind = ir::Stmt::Decl;
    D->Name = Prefix + "result";
    D->VarType.Scalar = RK.value_or(ir::ScalarKind::Char);
    D->VarType.Struct = RS;
    D->Exprs.push_back(nullptr);
    Out.push_back(std::move(D));
    Result = make(ir::Expr::Local, RK.value_or(ir::ScalarKind::Char),
                  Prefix + "result");
    Result->Struct = RS;
  }
  auto Block = std::make_unique<ir::Stmt>();
  Block->Kind = ir::Stmt::Block;
  // The parameters, bound to the arguments: a pointer as a view into the
  // data it points into, a value as a local, a reference as a reference.
  for (unsigned I = 0; I < Args.size() && !Failed; ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    const QualType T = P->getType();
    if (T->isPointerType()) {
      std::optional<PointerInto> Ptr = pointerInto(Args[I]);
      if (!Ptr) {
        if (!Failed)
          fail(Args[I]->getBeginLoc(),
               Why + "; its pointer '" + P->getName().str() +
                   "' can point only into captured data of one dimension",
               "pass an element of such data: 'a', 'a + k' or '&a[k]'");
        break;
      }
      Block->Children.push_back(pointerView(P, std::move(*Ptr)));
      continue;
    }
    std::optional<ir::ScalarKind> PK = scalarKind(T.getNonReferenceType());
    const int PS = PK ? -1 : structIndex(T, P->getLocation(), false);
    if (!PK && PS < 0) {
      fail(P->getLocation(),
           "parameter '" + P->getName().str() + "' of '" + Name +
               "' has type '" + T.getAsString() +
               "': functions called from a weft loop take arithmetic values, "
               "structs of them and pointers into the loop's data",
           NotSupportedYet);
      break;
    }
    auto D = std::make_unique<ir::Stmt>();
    D->Kind = ir::Stmt::Decl;
    D->Name = localName(P);
    D->VarType.Scalar = PK.value_or(ir::ScalarKind::Char);
    D->VarType.Struct = PS;
    D->VarType.IsReference = T->isReferenceType();
    D->VarType.IsConst = T.getNonReferenceType().isConstQualified();
    const bool Writes = D->VarType.IsReference && !D->VarType.IsConst;
    BindingReference = D->VarType.IsReference;
    ir::ExprPtr Value =
        expr(Args[I], Writes ? Access::ReadWrite : Access::Read);
    BindingReference = false;
    if (!Value)
      break;
    D->Exprs.push_back(std::move(Value));
    declareLocal(P);
    Block->Children.push_back(std::move(D));
  }
  // The body, its variables the loop's locals at this depth.
  CallStack.push_back(Def);
  if (!Failed && Body) {
    for (const Stmt *S : Body->body()) {
      if (S == Last) {
        if (!Last->getRetValue())
          break;
        ir::ExprPtr Value = expr(Last->getRetValue(), Access::Read);
        if (!Value)
          break;
        auto Assign = make(ir::Expr::Binary, Result->Type, "=");
        Assign->Struct = RS;
        Assign->Operands.push_back(
            make(ir::Expr::Local, Result->Type, Result->Text));
        Assign->Operands.back()->Struct = RS;
        Assign->Operands.push_back(std::move(Value));
        auto Set = std::make_unique<ir::Stmt>();
        Set->Kind = ir::Stmt::ExprStmt;
        Set->Exprs.push_back(std::move(Assign));
        Block->Children.push_back(std::move(Set));
        break;
      }
      stmt(S, Block->Children);
    }
  }
  CallStack.pop_back();
  if (Failed) {
    diagnose(Diags, Loc, DiagnosticsEngine::Note,
             "called from the weft loop here");
    return nullptr;
  }
  Out.push_back(std::move(Block));
  if (!Result)
    return make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0");
  (void)K;
  return Result;
}

} // namespace weft::recognize
