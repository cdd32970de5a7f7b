// RecognizeInlinedCalls.cpp: calls of functions that take pointers into the
// loop's data, as C code factors its loops (`y[i] = dot(&A[i * n], x, n);`,
// k-means' `dist(point, center, dims)`), compiled into the loop at each
// call: the pointers become views into the captured data, so the
// function's accesses are the loop's own, and every analysis (coalescing,
// tiles, independence proofs, the checker) sees them as it sees the rest.
#include "recognize/Recognizer.h"

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

} // namespace

namespace {

/// T is a std::span, or a reference to data of one dimension (`const
/// std::vector<float> &`): a parameter bound to a part of the loop's data.
bool spanLike(QualType T) {
  if (spanDecl(T.getNonReferenceType()))
    return true;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return T->isReferenceType() && RD && RD->getIdentifier() &&
         (RD->getName() == "vector" || RD->getName() == "array") &&
         RD->isInStdNamespace();
}

} // namespace

bool Recognizer::takesViews(const FunctionDecl *Def) {
  return llvm::any_of(Def->parameters(), [](const ParmVarDecl *P) {
    return P->getType()->isPointerType() || spanLike(P->getType());
  });
}

std::optional<Recognizer::SpanInto> Recognizer::spanInto(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr()->IgnoreParenImpCasts();
    else
      break;
  }
  auto Length = [&](unsigned P) {
    auto S = make(ir::Expr::SpanSize, ir::ScalarKind::Long);
    S->ParamIndex = P;
    return S;
  };
  // A span constructed: from a pointer and a count, or from data (or a
  // copy of a span).
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (C->getNumArgs() == 2) {
      std::optional<PointerInto> Ptr = pointerInto(C->getArg(0));
      ir::ExprPtr Count = Ptr ? expr(C->getArg(1), Access::Read) : nullptr;
      if (!Ptr || Ptr->LocalArray || !Count)
        return std::nullopt;
      return SpanInto{Ptr->Param,
                      Ptr->Offset ? std::move(Ptr->Offset) : integer(0),
                      converted(std::move(Count))};
    }
    if (C->getNumArgs() == 1)
      return spanInto(C->getArg(0));
    return std::nullopt;
  }
  // s.subspan(o, n), s.subspan(o), s.first(n), s.last(n).
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const llvm::StringRef Name =
        M && M->getIdentifier() ? M->getName() : llvm::StringRef();
    if (!spanDecl(MC->getImplicitObjectArgument()->getType()) ||
        !(Name == "subspan" || Name == "first" || Name == "last"))
      return std::nullopt;
    std::optional<SpanInto> Whole = spanInto(MC->getImplicitObjectArgument());
    if (!Whole)
      return std::nullopt;
    ir::ExprPtr A0 = expr(MC->getArg(0), Access::Read);
    ir::ExprPtr A1 = Name == "subspan" && MC->getNumArgs() > 1 &&
                             !isa<CXXDefaultArgExpr>(MC->getArg(1))
                         ? expr(MC->getArg(1), Access::Read)
                         : nullptr;
    if (!A0)
      return std::nullopt;
    A0 = converted(std::move(A0));
    SpanInto Part;
    Part.Param = Whole->Param;
    if (Name == "first") {
      Part.Offset = std::move(Whole->Offset);
      Part.Length = std::move(A0);
    } else if (Name == "last") {
      ir::ExprPtr Again = ir::cloneExpr(*A0);
      Part.Offset =
          operation("+", std::move(Whole->Offset),
                    operation("-", std::move(Whole->Length), std::move(A0)));
      Part.Length = std::move(Again);
    } else {
      ir::ExprPtr Start = ir::cloneExpr(*A0);
      Part.Offset = operation("+", std::move(Whole->Offset), std::move(A0));
      Part.Length =
          A1 ? converted(std::move(A1))
             : operation("-", std::move(Whole->Length), std::move(Start));
    }
    return Part;
  }
  // A span the loop or the function holds, or data of one dimension.
  if (const RowView *View = rowViewOf(E); View && !View->Length.empty())
    return SpanInto{View->Param,
                    make(ir::Expr::Local, ir::ScalarKind::Long, View->Local),
                    viewLength(*View)};
  std::optional<DataShape> Shape = dataShape(E->getType());
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Shape || Shape->IsPointer || Shape->IsMdspan || Shape->RowsApart ||
      !Shape->Inner.empty() || !(Ref || isa<MemberExpr>(E)) ||
      (Ref && Locals.contains(dyn_cast<VarDecl>(Ref->getDecl()))))
    return std::nullopt; // (a per-iteration array: the caller says so)
  std::optional<unsigned> P = spanOperand(E);
  if (!P)
    return std::nullopt;
  return SpanInto{*P, integer(0), Length(*P)};
}

namespace {

/// Whether E is evaluated whenever Root is.
bool unconditionalUnder(const Stmt *Root, const Expr *E) {
  // (The statement's own map: the context's is built once, before the
  // functions parsed after it.)
  ParentMap Parents(const_cast<Stmt *>(Root));
  const Stmt *Child = E;
  while (Child != Root) {
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

} // namespace

bool Recognizer::evaluatedUnconditionally(const Expr *Call) const {
  // In a method compiled in as its expression: whenever that is, and its
  // call whenever the statement making it is.
  for (int F = CurrentFrame; F >= 0 && MethodFrames[F].Call;
       F = MethodFrames[F].Caller) {
    if (!unconditionalUnder(MethodFrames[F].Method->getBody(), Call))
      return false;
    Call = MethodFrames[F].Call;
  }
  return HoistRoot && unconditionalUnder(HoistRoot, Call);
}

bool Recognizer::bindView(const ParmVarDecl *P, const Expr *Arg,
                          const std::string &Why,
                          std::vector<ir::StmtPtr> &Out) {
  const bool Span = spanLike(P->getType());
  std::optional<SpanInto> Part;
  std::optional<PointerInto> Ptr;
  if (Span)
    Part = spanInto(Arg);
  else
    Ptr = pointerInto(Arg);
  if (!Part && !Ptr) {
    if (!Failed)
      fail(Arg->getBeginLoc(),
           Why + "; its " + (Span ? "span '" : "pointer '") +
               P->getName().str() +
               (Span ? "' can be only a part of" : "' can point only into") +
               " captured data of one dimension",
           Span ? "pass such data, 'a.subspan(k, n)' or 'std::span(&a[k], n)'"
                : "pass an element of such data: 'a', 'a + k' or '&a[k]'");
    return false;
  }
  if (Ptr) {
    Out.push_back(pointerView(P, std::move(*Ptr)));
    return true;
  }
  bindSpanView(P, std::move(*Part), Out);
  return true;
}

void Recognizer::bindSpanView(const VarDecl *V, SpanInto Part,
                              std::vector<ir::StmtPtr> &Out) {
  Out.push_back(bindRowView(V, Part.Param, std::move(Part.Offset)));
  RowView &View = RowViews[V];
  View.Offset = true;
  auto Length = std::make_unique<ir::Stmt>();
  Length->Kind = ir::Stmt::Decl;
  Length->Name = View.Local + "_length";
  Length->VarType.Scalar = ir::ScalarKind::Long;
  Length->VarType.IsConst = true;
  if (ir::gridUniform(*Part.Length))
    View.UniformLength = ir::cloneExpr(*Part.Length);
  Length->Exprs.push_back(std::move(Part.Length));
  View.Length = Length->Name;
  Out.push_back(std::move(Length));
}

ir::ExprPtr Recognizer::viewLength(const RowView &View) {
  return View.UniformLength
             ? ir::cloneExpr(*View.UniformLength)
             : make(ir::Expr::Local, ir::ScalarKind::Long, View.Length);
}

namespace {

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

ir::ExprPtr Recognizer::inlineCall(const CallExpr *Call,
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

void Recognizer::bindParameters(const FunctionDecl *Def,
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

void Recognizer::inlinedBody(const CompoundStmt *Body, const ReturnStmt *Last,
                             const ir::Expr *Result, int RS,
                             std::vector<ir::StmtPtr> &Out) {
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
