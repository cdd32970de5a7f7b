// RecognizeInlinedCalls.cpp: calls of functions that take pointers into the
// loop's data, as C code factors its loops (`y[i] = dot(&A[i * n], x, n);`,
// k-means' `dist(point, center, dims)`), compiled into the loop at each
// call: the pointers become views into the captured data, so the
// function's accesses are the loop's own, and every analysis (coalescing,
// tiles, independence proofs, the checker) sees them as it sees the rest.
#include "recognize/CallRecognizer.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/SaveAndRestore.h"

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
  return llvm::any_of(subStatements(S),
                      [](const Stmt *C) { return holdsReturn(C); });
}

/// The kernel's names of a function's variables, and their views, while
/// one call of it is compiled in: the enclosing call's come back after it.
class CallNames {
public:
  CallNames(llvm::DenseMap<const VarDecl *, std::string> &Names,
            llvm::DenseMap<const VarDecl *, RecognizerState::RowView> &Views,
            llvm::ArrayRef<const VarDecl *> Variables,
            const std::string &Prefix)
      : Names(Names), Views(Views) {
    for (const VarDecl *V : Variables) {
      Saved S{V, std::nullopt, std::nullopt};
      if (auto It = Names.find(V); It != Names.end())
        S.Name = It->second;
      if (auto It = Views.find(V); It != Views.end())
        S.View = It->second;
      Outer.push_back(std::move(S));
    }
    for (const VarDecl *V : Variables)
      Names[V] = Prefix + V->getName().str();
  }
  ~CallNames() {
    for (Saved &S : Outer) {
      if (S.Name)
        Names[S.V] = *S.Name;
      if (S.View)
        Views[S.V] = std::move(*S.View);
    }
  }

private:
  struct Saved {
    const VarDecl *V;
    std::optional<std::string> Name;
    std::optional<RecognizerState::RowView> View;
  };
  llvm::DenseMap<const VarDecl *, std::string> &Names;
  llvm::DenseMap<const VarDecl *, RecognizerState::RowView> &Views;
  std::vector<Saved> Outer;
};

} // namespace

ir::ExprPtr CallRecognizer::inlineCall(const CallExpr *Call,
                                       const FunctionDecl *Def,
                                       llvm::ArrayRef<const Expr *> Args,
                                       const Expr *Object) {
  const std::string Name = Def->getQualifiedNameAsString();
  const SourceLocation Loc = Call->getExprLoc();
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  const std::string Why =
      (Method && Method->getParent()->isLambda()
           ? std::string("the lambda captures variables")
       : Object
           ? "'" + Name +
                 "' is a method of an object that holds the "
                 "loop's data"
           : "'" + Name + "' takes pointers or spans into the loop's data") +
      ", so weft compiles it into the loop at each call";
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
  const std::string Prefix = Names.numbered("weft_in") + "_";
  DeclaredVariables Declared;
  Declared.TraverseDecl(const_cast<FunctionDecl *>(Def));
  // This call's names and views of its variables hold while it is compiled
  // in; a call of the same function in an argument or in the body (a
  // function compiled in at two depths) has its own, and the enclosing
  // call's come back after it.
  CallNames Scope(InlinedNames, RowViews, Declared.Found, Prefix);
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
  bindParameters(Def, Args, Why, Block->Children);
  // The body, its variables the loop's locals at this depth; `this` in it,
  // the call's object.
  CallStack.push_back(Def);
  if (Object) {
    MethodFrame Frame;
    Frame.Method = cast<CXXMethodDecl>(Def);
    Frame.Object = Object;
    enterFrame(std::move(Frame));
  }
  if (!Failed && Body)
    inlinedBody(Body, Last, Result.get(), RS, Block->Children);
  CallStack.pop_back();
  if (Object)
    leaveFrame();
  if (Failed) {
    diagnose(Diags, Loc, DiagnosticsEngine::Note,
             "called from the weft loop here");
    return nullptr;
  }
  Out.push_back(std::move(Block));
  if (!Result)
    return make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0");
  return Result;
}

void CallRecognizer::bindParameters(const FunctionDecl *Def,
                                    llvm::ArrayRef<const Expr *> Args,
                                    const std::string &Why,
                                    std::vector<ir::StmtPtr> &Out) {
  const std::string Name = Def->getQualifiedNameAsString();
  for (unsigned I = 0; I < Args.size() && !Failed; ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    const QualType T = P->getType();
    if (spanLike(T) || T->isPointerType()) {
      if (!bindView(P, Args[I], Why, Out))
        return;
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
      return;
    }
    auto D = std::make_unique<ir::Stmt>();
    D->Kind = ir::Stmt::Decl;
    D->Name = localName(P);
    D->VarType.Scalar = PK.value_or(ir::ScalarKind::Char);
    D->VarType.Struct = PS;
    D->VarType.IsReference = T->isReferenceType();
    D->VarType.IsConst = T.getNonReferenceType().isConstQualified();
    const bool Writes = D->VarType.IsReference && !D->VarType.IsConst;
    ir::ExprPtr Value;
    {
      llvm::SaveAndRestore<bool> Binding(BindingReference,
                                         D->VarType.IsReference);
      Value = expr(Args[I], Writes ? Access::ReadWrite : Access::Read);
    }
    if (!Value)
      return;
    D->Exprs.push_back(std::move(Value));
    declareLocal(P);
    Out.push_back(std::move(D));
  }
}

void CallRecognizer::inlinedBody(const CompoundStmt *Body,
                                 const ReturnStmt *Last, const ir::Expr *Result,
                                 int RS, std::vector<ir::StmtPtr> &Out) {
  for (const Stmt *S : Body->body()) {
    if (S == Last) {
      if (!Last->getRetValue())
        break;
      // (Calls it makes compiled in before it, as a statement's are.)
      llvm::SaveAndRestore<std::vector<ir::StmtPtr> *> Into(Hoisted, &Out);
      llvm::SaveAndRestore<const Stmt *> Root(HoistRoot, Last);
      ir::ExprPtr Value = expr(Last->getRetValue(), Access::Read);
      if (!Value)
        break;
      auto Assign = make(ir::Expr::Binary, Result->Type, "=");
      Assign->Struct = RS;
      Assign->Operands.push_back(ir::cloneExpr(*Result));
      Assign->Operands.push_back(std::move(Value));
      auto Set = std::make_unique<ir::Stmt>();
      Set->Kind = ir::Stmt::ExprStmt;
      Set->Exprs.push_back(std::move(Assign));
      Out.push_back(std::move(Set));
      break;
    }
    stmt(S, Out);
  }
}

} // namespace weft::recognize
