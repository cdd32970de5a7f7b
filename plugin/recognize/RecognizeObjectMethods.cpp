// RecognizeObjectMethods.cpp: methods of objects that hold the loop's data
// (`m(i, j)` of a Matrix class around a std::vector, `g.at(i, j)`), compiled
// into the loop at each call with `this` the call's object.
#include "recognize/DataRecognizer.h"

#include "llvm/Support/SaveAndRestore.h"

namespace weft::recognize {

bool DataRecognizer::onObjectHoldingData(const CXXMethodDecl *M,
                                         QualType ObjectType) {
  if (!M || !M->isInstance() || M->isVirtual() ||
      isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(M))
    return false;
  const CXXRecordDecl *Class = M->getParent();
  if (Class->isLambda() || Class->isInStdNamespace())
    return false;
  // A struct of arithmetic fields goes to the device whole; its methods
  // are device functions taking it by reference.
  return structIndex(ObjectType.getNonReferenceType(), M->getLocation(),
                     false) < 0;
}

namespace {

/// A body that is `return e;`, after asserts alone (an accessor checking
/// its indices): e, and the asserts.
struct CheckedReturn {
  const Expr *Value = nullptr;
  llvm::SmallVector<const Stmt *, 2> Asserts;
};
std::optional<CheckedReturn> checkedReturn(const FunctionDecl *Def,
                                           ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && !Body->body_empty()
                        ? dyn_cast<ReturnStmt>(Body->body_back())
                        : nullptr;
  if (!Ret || !Ret->getRetValue())
    return std::nullopt;
  CheckedReturn R;
  R.Value = Ret->getRetValue();
  for (const Stmt *S : Body->body()) {
    if (S == Ret || isa<NullStmt>(S))
      continue;
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return std::nullopt;
    const Expr *Bare = E->IgnoreParens();
    if (const auto *Check = dyn_cast<ConditionalOperator>(Bare);
        Check && Check->getType()->isVoidType() && failedAssertion(Check))
      R.Asserts.push_back(S);
    else if (E->HasSideEffects(Ctx)) // (NDEBUG's assert: `(void)0`)
      return std::nullopt;
  }
  return R;
}

/// The pointer that `*p` dereferences (a method called on `(*this)` or
/// `(*p)` reaches its fields through it); E otherwise.
const Expr *throughPointer(const Expr *E) {
  if (const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParens());
      U && U->getOpcode() == UO_Deref)
    return U->getSubExpr();
  return E;
}

/// Whether P may stand for its argument wherever the body uses it: a value
/// (a number, a struct), not a pointer or data the body would index.
bool takenForArgument(const ParmVarDecl *P) {
  const QualType T = P->getType();
  if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
    return false;
  const QualType V = T.getNonReferenceType();
  return V->isArithmeticType() || V->isEnumeralType() ||
         (V->isRecordType() && !V->getAsCXXRecordDecl()->isInStdNamespace());
}

} // namespace

DataRecognizer::MethodCall DataRecognizer::methodCallOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return {MC, MC->getMethodDecl(), MC->getImplicitObjectArgument(),
            llvm::ArrayRef<const Expr *>(MC->getArgs(), MC->getNumArgs())};
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getNumArgs() >= 1)
    return {
        OC, dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee()),
        OC->getArg(0),
        llvm::ArrayRef<const Expr *>(OC->getArgs() + 1, OC->getNumArgs() - 1)};
  return {};
}

const Expr *DataRecognizer::enterMethodExpression(const MethodCall &C,
                                                  const CXXMethodDecl *Def,
                                                  const Expr *Object) {
  std::optional<CheckedReturn> Body = checkedReturn(Def, Ctx);
  // Each use of a parameter evaluates its argument, so the arguments, and
  // the expression, must have no side effects; the asserts go before the
  // statement making the call, which must then make it whenever it runs.
  if (!Body ||
      Body->Value->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) ||
      !llvm::all_of(Def->parameters(), takenForArgument)) {
    Refusal = "keep the method to asserts and one 'return' of an expression "
              "without side effects";
    return nullptr;
  }
  if (llvm::any_of(C.Args, [&](const Expr *Arg) {
        return Arg->HasSideEffects(Ctx, /*IncludePossibleEffects=*/true);
      })) {
    Refusal = "compute the arguments into locals before the call";
    return nullptr;
  }
  if (!Body->Asserts.empty() &&
      (!Hoisted || !evaluatedUnconditionally(C.Call))) {
    Refusal = "its asserts run before the statement, so make the call "
              "outside '?:', '&&' and '||' (or build with NDEBUG)";
    return nullptr;
  }
  MethodFrame Frame;
  Frame.Method = Def;
  Frame.Object = Object;
  Frame.Call = C.Call;
  for (unsigned I = 0; I < C.Args.size(); ++I)
    Frame.Arguments[Def->getParamDecl(I)] = C.Args[I];
  enterFrame(std::move(Frame));
  CallStack.push_back(Def);
  std::vector<ir::StmtPtr> *Before = Hoisted;
  for (const Stmt *Assert : Body->Asserts)
    stmt(Assert, *Before);
  return Body->Value;
}

void DataRecognizer::leaveMethodExpression() {
  CallStack.pop_back();
  leaveFrame();
}

void DataRecognizer::enterFrame(MethodFrame Frame) {
  Frame.Caller = CurrentFrame;
  MethodFrames.push_back(std::move(Frame));
  CurrentFrame = static_cast<int>(MethodFrames.size()) - 1;
}

void DataRecognizer::leaveFrame() {
  CurrentFrame = MethodFrames.back().Caller;
  MethodFrames.pop_back();
}

namespace {

/// Object (in the loop's terms) is `this`, a variable the loop does not
/// declare, or a member of one.
bool reachable(const Expr *Object,
               const llvm::SmallPtrSetImpl<const VarDecl *> &Locals) {
  const Expr *X = Object->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(X))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(X);
      U && U->getOpcode() == UO_Deref)
    return reachable(U->getSubExpr(), Locals);
  if (const auto *ME = dyn_cast<MemberExpr>(X))
    return reachable(ME->getBase(), Locals);
  const auto *Ref = dyn_cast<DeclRefExpr>(X);
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return VD && !Locals.contains(VD);
}

} // namespace

const Expr *DataRecognizer::callObject(const MethodCall &C) {
  const Expr *Object = throughPointer(inLoopTerms(C.Object));
  return reachable(Object, Locals) ? Object : nullptr;
}

ir::ExprPtr DataRecognizer::objectMethodCall(const CallExpr *Call, Access A) {
  const SourceLocation Loc = Call->getExprLoc();
  const MethodCall C = methodCallOf(Call);
  const auto *Def = cast_or_null<CXXMethodDecl>(definitionOf(C.Method, Loc));
  if (!Def)
    return nullptr;
  const std::string Name = Def->getQualifiedNameAsString();
  const Expr *Object = callObject(C);
  if (!Object)
    return failExpr(Loc,
                    "'" + Name +
                        "' is called on an object that holds data, which a "
                        "weft loop reaches as a variable, 'this', or a "
                        "member of one: not as an element or a local",
                    "call it on a variable declared before the loop; for "
                    "many such objects, hold their data in one std::vector");
  if (const Expr *Value = enterMethodExpression(C, Def, Object)) {
    ir::ExprPtr R = expr(Value, A);
    leaveMethodExpression();
    if (!R && Failed)
      diagnose(Diags, Loc, DiagnosticsEngine::Note,
               "called from the weft loop here");
    return R;
  }
  if (Def->getReturnType()->isReferenceType() ||
      Def->getReturnType()->isPointerType())
    return failExpr(Loc,
                    "'" + Name +
                        "' returns a reference or a pointer into the loop's "
                        "data, so weft compiles the call into the expression "
                        "that makes it, which it cannot do here",
                    Refusal);
  return inlineCall(Call, Def, C.Args, Object);
}

std::optional<std::pair<const Expr *, int>>
DataRecognizer::argumentFor(const DeclRefExpr *Ref) const {
  if (CurrentFrame < 0)
    return std::nullopt;
  const MethodFrame &Frame = MethodFrames[CurrentFrame];
  const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl());
  auto It = P ? Frame.Arguments.find(P) : Frame.Arguments.end();
  if (It == Frame.Arguments.end())
    return std::nullopt;
  return std::make_pair(It->second, Frame.Caller);
}

const Expr *DataRecognizer::inLoopTerms(const Expr *E) {
  if (CurrentFrame < 0 || !E)
    return E;
  const Expr *Bare = E->IgnoreParens();
  if (isa<CXXThisExpr>(Bare))
    return MethodFrames[CurrentFrame].Object;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
    if (std::optional<std::pair<const Expr *, int>> Arg = argumentFor(Ref)) {
      llvm::SaveAndRestore<int> In(CurrentFrame, Arg->second);
      return inLoopTerms(Arg->first);
    }
  if (const auto *U = dyn_cast<UnaryOperator>(Bare);
      U && U->getOpcode() == UO_Deref) {
    // `*this`: the object itself, or what its pointer points to.
    const Expr *Sub = inLoopTerms(U->getSubExpr());
    if (Sub == U->getSubExpr())
      return E;
    if (!Sub->getType()->isPointerType())
      return Sub;
    return UnaryOperator::Create(
        Ctx, const_cast<Expr *>(Sub), UO_Deref, U->getType(), VK_LValue,
        OK_Ordinary, U->getOperatorLoc(), false, FPOptionsOverride());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(Bare)) {
    const Expr *Base = inLoopTerms(ME->getBase());
    if (Base == ME->getBase())
      return E;
    Base = throughPointer(Base);
    // `this->v` of a method called as `o.f()`: `o.v`.
    return MemberExpr::CreateImplicit(Ctx, const_cast<Expr *>(Base),
                                      Base->getType()->isPointerType(),
                                      ME->getMemberDecl(), ME->getType(),
                                      ME->getValueKind(), ME->getObjectKind());
  }
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Bare)) {
    // `this` as its base class, a pointer's load.
    const Expr *Sub = inLoopTerms(Cast->getSubExpr());
    if (Sub == Cast->getSubExpr())
      return E;
    CXXCastPath Path;
    for (const CXXBaseSpecifier *Base : Cast->path())
      Path.push_back(const_cast<CXXBaseSpecifier *>(Base));
    // (`this` was a pointer; the object may be one, or an lvalue.)
    const bool Pointer = Sub->getType()->isPointerType();
    QualType T = Cast->getType();
    if (T->isPointerType() && !Pointer)
      T = T->getPointeeType();
    return ImplicitCastExpr::Create(
        Ctx, T, Cast->getCastKind(), const_cast<Expr *>(Sub), &Path,
        Pointer ? VK_PRValue : VK_LValue, FPOptionsOverride());
  }
  return E;
}

} // namespace weft::recognize
