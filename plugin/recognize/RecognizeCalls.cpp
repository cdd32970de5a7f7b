// RecognizeCalls.cpp: calls of functions, lambdas and methods whose
// bodies are visible, converted into device functions.
#include "recognize/CallRecognizer.h"

#include "llvm/Support/SaveAndRestore.h"

namespace weft::recognize {

bool CallRecognizer::isOutputStream(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getName().contains("ostream");
}

namespace {

/// A device function's name for an operator: op_minus, op_plus_eq.
std::string operatorStem(OverloadedOperatorKind K) {
  static const std::pair<char, const char *> Words[] = {
      {'+', "plus"},  {'-', "minus"}, {'*', "star"}, {'/', "slash"},
      {'%', "mod"},   {'=', "eq"},    {'<', "lt"},   {'>', "gt"},
      {'!', "not"},   {'&', "amp"},   {'|', "pipe"}, {'^', "caret"},
      {'~', "tilde"}, {'[', "index"}, {'(', "call"}};
  std::string Stem = "op";
  for (const char *C = getOperatorSpelling(K); *C; ++C)
    for (const auto &[Symbol, Word] : Words)
      if (*C == Symbol)
        Stem += std::string("_") + Word;
  return Stem;
}

} // namespace

ir::ExprPtr CallRecognizer::userCall(const CallExpr *Call,
                                     const FunctionDecl *FD, unsigned FirstArg,
                                     std::optional<ir::ScalarKind> K) {
  SourceLocation Loc = Call->getExprLoc();
  const std::string Name = FD->getQualifiedNameAsString();
  static const llvm::StringSet<> Io = {"printf", "fprintf", "puts",   "putchar",
                                       "fputs",  "scanf",   "perror", "write"};
  if (Io.contains(FD->getName()))
    return failExpr(Loc, "I/O is not supported in a weft loop",
                    "kernels cannot print: write results to a span and "
                    "print them after the loop");
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->isVirtual() && !isa<CXXOperatorCallExpr>(Call))
    return failExpr(
        Loc, "virtual call to '" + Name + "' cannot be made from a weft loop",
        "call a non-virtual function");
  // The object of a method: `o.f(x)`, or an operator's first operand.
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    Object = MC->getImplicitObjectArgument();
  } else if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
             MD && isa<CXXOperatorCallExpr>(Call) && MD->isInstance() &&
             !MD->getParent()->isLambda()) {
    Object = Call->getArg(0);
    FirstArg = 1;
  }
  const llvm::ArrayRef<const Expr *> Args(Call->getArgs() + FirstArg,
                                          Call->getNumArgs() - FirstArg);
  if (!Object && takesViews(FD)) {
    const FunctionDecl *Def = definitionOf(FD, Loc);
    return Def ? inlineCall(Call, Def, Args) : nullptr;
  }
  return deviceCall(FD, Loc, Call->getType(), Object, Args, K);
}

bool CallRecognizer::capturesKeepTheirValues(const CXXMethodDecl *Call,
                                             SourceLocation Loc) {
  if (!Call->isConst())
    return fail(Loc,
                "a mutable lambda called from a weft loop changes its own "
                "copies of what it captures",
                "remove 'mutable', or capture by reference"),
           false;
  for (const LambdaCapture &C : Call->getParent()->captures()) {
    if (C.capturesThis()) {
      if (C.getCaptureKind() != LCK_StarThis)
        continue;
      return fail(Loc,
                  "a lambda called from a weft loop captures a copy of "
                  "'*this'",
                  "capture 'this', as [this] or [&] do"),
             false;
    }
    const auto *V =
        C.capturesVariable() ? dyn_cast<VarDecl>(C.getCapturedVar()) : nullptr;
    if (!V || V->isInitCapture())
      return fail(C.getLocation(),
                  "a lambda called from a weft loop captures what is no "
                  "variable of the function (an init-capture, a structured "
                  "binding)",
                  "capture the variable itself, or pass the value as an "
                  "argument"),
             false;
    // A copy made where the lambda is made holds the variable's value at
    // the call only where the variable keeps its value.
    if (C.getCaptureKind() == LCK_ByCopy && !keepsItsValue(V))
      return fail(C.getLocation().isValid() ? C.getLocation() : Loc,
                  "a lambda called from a weft loop captures '" +
                      V->getName().str() +
                      "' by copy, which the function changes: the copy may "
                      "hold an older value",
                  "capture it by reference ([&" + V->getName().str() +
                      "]), or pass it as an argument"),
             false;
  }
  return true;
}

ir::ExprPtr CallRecognizer::substitutedCall(const FunctionDecl *Def,
                                            llvm::ArrayRef<const Expr *> Args,
                                            std::optional<ir::ScalarKind> K) {
  // `[&](int i, int j) { return in[i * m + j]; }`: one return of a value
  // of arithmetic type, of parameters of arithmetic types passed values
  // without side effects.
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Return = Body && Body->size() == 1
                           ? dyn_cast<ReturnStmt>(Body->body_front())
                           : nullptr;
  if (!Return || !Return->getRetValue() || !K ||
      Args.size() != Def->getNumParams())
    return nullptr;
  llvm::DenseMap<const ParmVarDecl *, const Expr *> Bound;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    const QualType T = P->getType();
    if ((T->isReferenceType() && !T.getNonReferenceType().isConstQualified()) ||
        !scalarKind(T.getNonReferenceType()) ||
        Args[I]->HasSideEffects(Ctx, /*IncludePossibleEffects=*/true))
      return nullptr;
    Bound[P] = Args[I];
  }
  CallStack.push_back(Def);
  for (const auto &[P, Arg] : Bound)
    LambdaArguments[P] = Arg;
  ir::ExprPtr V = expr(Return->getRetValue(), Access::Read);
  for (const auto &[P, Arg] : Bound)
    LambdaArguments.erase(P);
  CallStack.pop_back();
  return V ? ir::castTo(std::move(V), *K) : nullptr;
}

ir::ExprPtr CallRecognizer::constructorCall(const CXXConstructExpr *CE) {
  return deviceCall(
      CE->getConstructor(), CE->getExprLoc(), CE->getType(), nullptr,
      llvm::ArrayRef<const Expr *>(CE->getArgs(), CE->getNumArgs()),
      std::nullopt);
}

ir::ExprPtr CallRecognizer::deviceCall(const FunctionDecl *FD,
                                       SourceLocation Loc, QualType Result,
                                       const Expr *Object,
                                       llvm::ArrayRef<const Expr *> Args,
                                       std::optional<ir::ScalarKind> K) {
  const FunctionDecl *Def = definitionOf(FD, Loc);
  if (!Def)
    return nullptr;
  auto It = FunctionNames.find(Def);
  std::string Emitted;
  if (It != FunctionNames.end()) {
    Emitted = It->second;
  } else {
    std::optional<std::string> N = convertFunction(Def, Loc);
    if (!N)
      return nullptr;
    Emitted = *N;
  }
  auto R = make(ir::Expr::Call, K.value_or(ir::ScalarKind::Int), Emitted);
  R->Struct = K ? -1 : structIndex(Result, Loc, false);
  if (Object) {
    // The object, bound to the function's first (reference) parameter.
    const bool Mutates = !cast<CXXMethodDecl>(Def)->isConst();
    ir::ExprPtr Self;
    {
      llvm::SaveAndRestore<bool> Binding(BindingReference, true);
      Self = expr(Object, Mutates ? Access::ReadWrite : Access::Read);
    }
    if (!Self)
      return nullptr;
    R->Operands.push_back(std::move(Self));
  }
  for (unsigned I = 0; I < Args.size(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    QualType T = P->getType();
    const bool ByReference =
        T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
    ir::ExprPtr A;
    {
      llvm::SaveAndRestore<bool> Binding(BindingReference,
                                         T->isReferenceType());
      A = expr(Args[I], ByReference ? Access::ReadWrite : Access::Read);
    }
    if (!A)
      return nullptr;
    R->Operands.push_back(std::move(A));
  }
  return R;
}

std::optional<std::string>
CallRecognizer::convertFunction(const FunctionDecl *Def,
                                SourceLocation CallLoc) {
  ir::Function F;
  F.Source = Def->getQualifiedNameAsString();
  F.Name = functionName(Def, F.Source);
  if (!functionResult(Def, CallLoc, F))
    return std::nullopt;
  const auto *Constructor = dyn_cast<CXXConstructorDecl>(Def);
  // The function sees its parameters and locals only.
  auto SavedLocals = std::move(Locals);
  auto SavedIndices = std::move(Indices);
  auto SavedReductions = std::move(ActiveReductions);
  const int SavedDepth = SequentialDepth, SavedSwitch = SwitchDepth;
  const bool SavedInFunction = InFunction;
  const int SavedFrame = CurrentFrame;
  CurrentFrame = -1; // a device function sees its parameters alone
  Locals.clear();
  Indices.clear();
  ActiveReductions.clear();
  SequentialDepth = SwitchDepth = 0;
  InFunction = true;
  CallStack.push_back(Def);
  const int SavedSelf = SelfStruct;
  SelfStruct = -1;
  const bool SavedConstructor = InConstructor;
  InConstructor = Constructor != nullptr;
  functionParameters(Def, F);
  if (Constructor && !Failed)
    constructorBody(Constructor, F);
  else if (!Failed)
    body(Def->getBody(), F.Body);
  CallStack.pop_back();
  InConstructor = SavedConstructor;
  SelfStruct = SavedSelf;
  Locals = std::move(SavedLocals);
  Indices = std::move(SavedIndices);
  ActiveReductions = std::move(SavedReductions);
  SequentialDepth = SavedDepth;
  SwitchDepth = SavedSwitch;
  InFunction = SavedInFunction;
  CurrentFrame = SavedFrame;
  if (Failed) {
    // Point back at the call that brought this function in.
    diagnose(Diags, CallLoc, DiagnosticsEngine::Note,
             "called from the weft loop here");
    return std::nullopt;
  }
  FunctionNames[Def] = F.Name;
  Functions.push_back(std::move(F));
  return FunctionNames[Def];
}

std::string CallRecognizer::functionName(const FunctionDecl *Def,
                                         const std::string &Source) {
  // Where it is defined too: every lambda of one signature in one function
  // has the same qualified name and type.
  std::string Key = Source + Def->getType().getAsString() +
                    locationText(SM, Def->getLocation());
  if (const TemplateArgumentList *Args = Def->getTemplateSpecializationArgs())
    for (const TemplateArgument &A : Args->asArray()) {
      llvm::raw_string_ostream OS(Key);
      A.print(Ctx.getPrintingPolicy(), OS, /*IncludeType=*/true);
    }
  std::string Stem;
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  if (Method && Method->getParent()->isLambda())
    Stem = "lambda";
  else if (Def->isOverloadedOperator())
    Stem = operatorStem(Def->getOverloadedOperator());
  else
    for (char C : Def->getNameAsString())
      Stem += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  char Hash[9];
  std::snprintf(Hash, sizeof Hash, "%08x",
                static_cast<unsigned>(llvm::xxh3_64bits(Key)));
  return Names.unique("weft_fn_" + Stem + "_" + Hash);
}

bool CallRecognizer::functionResult(const FunctionDecl *Def,
                                    SourceLocation CallLoc, ir::Function &F) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  const auto *Constructor = dyn_cast<CXXConstructorDecl>(Def);
  QualType Ret =
      Constructor
          ? Constructor->getThisType()->getPointeeType().getUnqualifiedType()
          : Def->getReturnType();
  // What a reference it returns may refer to: the object of a method, or
  // the first parameter of a free function taken by reference.
  const ParmVarDecl *First =
      !Method || !Method->isInstance()
          ? (Def->getNumParams() ? Def->getParamDecl(0) : nullptr)
          : nullptr;
  const QualType Object =
      Method && Method->isInstance() && !Constructor
          ? Method->getThisType()->getPointeeType()
      : First && First->getType()->isLValueReferenceType() &&
              !First->getType().getNonReferenceType().isConstQualified()
          ? First->getType().getNonReferenceType()
          : QualType();
  if (!Object.isNull() && Ret->isLValueReferenceType() &&
      Ctx.hasSameUnqualifiedType(Ret.getNonReferenceType(), Object) &&
      returnsOnly(Def->getBody(),
                  Method && Method->isInstance() ? nullptr : First)) {
    // `T &operator+=(...) { ...; return *this; }`, `T &operator*=(T &a,
    // float s) { ...; return a; }`: the object itself.
    F.ReturnsSelf = true;
    Ret = Ret.getNonReferenceType();
  }
  if (!Ret->isVoidType()) {
    std::optional<ir::ScalarKind> RK = scalarKind(Ret);
    const int RS = RK ? -1 : structIndex(Ret, Def->getLocation(), false);
    if ((!RK && RS < 0) || Ret->isReferenceType()) {
      if (Ret->isReferenceType())
        fail(Def->getLocation(),
             "'" + F.Source +
                 "' is called from a weft loop, so it may return a reference "
                 "only to its object ('return *this;') or to its first "
                 "parameter",
             "return the value instead");
      else
        fail(Def->getLocation(),
             "'" + F.Source +
                 "' is called from a weft loop, so it must return void, an "
                 "arithmetic value or a struct of them");
      diagnose(Diags, CallLoc, DiagnosticsEngine::Note,
               "called from the weft loop here");
      return false;
    }
    F.ReturnsValue = true;
    F.ReturnType = RK.value_or(ir::ScalarKind::Char);
    F.ReturnStruct = RS;
  }
  return true;
}

void CallRecognizer::functionParameters(const FunctionDecl *Def,
                                        ir::Function &F) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  const auto *Constructor = dyn_cast<CXXConstructorDecl>(Def);
  if (Method && Method->isInstance() && !Constructor &&
      !Method->getParent()->isLambda()) {
    // `this` becomes the first parameter, a reference to the object.
    ir::LocalType Self;
    Self.Struct = structIndex(Method->getThisType()->getPointeeType(),
                              Def->getLocation(), false);
    Self.IsReference = true;
    Self.IsConst = Method->isConst();
    if (Self.Struct < 0)
      fail(Def->getLocation(),
           "'" + F.Source +
               "' is a method of a type weft cannot copy to "
               "the device",
           "use a struct of arithmetic fields");
    F.Params.emplace_back(SelfName, Self);
    SelfStruct = Self.Struct;
  }
  for (const ParmVarDecl *P : Def->parameters()) {
    QualType T = P->getType();
    std::optional<ir::ScalarKind> PK = scalarKind(T.getNonReferenceType());
    const int PS = PK ? -1 : structIndex(T, P->getLocation(), false);
    if (!PK && PS < 0) {
      fail(P->getLocation(),
           "parameter '" + P->getName().str() + "' of '" + F.Source +
               "' has type '" + T.getAsString() +
               "': functions called from a weft loop take arithmetic "
               "values",
           NotSupportedYet);
      break;
    }
    ir::LocalType LT;
    LT.Scalar = PK.value_or(ir::ScalarKind::Char);
    LT.Struct = PS;
    LT.IsReference = T->isReferenceType();
    LT.IsConst = T.getNonReferenceType().isConstQualified();
    F.Params.emplace_back(P->getName().str(), LT);
    Locals.insert(P);
  }
}

void CallRecognizer::constructorBody(const CXXConstructorDecl *Def,
                                     ir::Function &F) {
  // The object is a local, zero where nothing initializes it, returned at
  // the end (and by every `return;`).
  SelfStruct = F.ReturnStruct;
  auto Object = std::make_unique<ir::Stmt>();
  Object->Kind = ir::Stmt::Decl;
  Object->VarType.Struct = SelfStruct;
  Object->Name = SelfName;
  auto Zero = make(ir::Expr::InitList, ir::ScalarKind::Char);
  Zero->Struct = SelfStruct;
  Object->Exprs.push_back(std::move(Zero));
  F.Body.push_back(std::move(Object));
  for (const CXXCtorInitializer *Init : Def->inits()) {
    ir::ExprPtr Target;
    if (const FieldDecl *Field = Init->getMember()) {
      std::optional<ir::ScalarKind> FK = scalarKind(Field->getType());
      Target = make(ir::Expr::Member, FK.value_or(ir::ScalarKind::Char),
                    Field->getName().str());
      Target->Struct =
          FK ? -1 : structIndex(Field->getType(), Init->getSourceLocation());
      Target->Operands.push_back(self());
    } else if (Init->isDelegatingInitializer()) {
      Target = self();
    } else {
      fail(Init->getSourceLocation(),
           "this initializer is not supported in a weft loop's constructor");
      return;
    }
    if (isa<ImplicitValueInitExpr>(Init->getInit()) && Target->Struct < 0 &&
        Target->Kind == ir::Expr::Member)
      continue; // `x()`: zero already
    ir::ExprPtr Value = expr(Init->getInit());
    if (!Value)
      return;
    auto Assign = make(ir::Expr::Binary, Target->Type, "=");
    Assign->Struct = Target->Struct;
    Assign->Operands.push_back(std::move(Target));
    Assign->Operands.push_back(std::move(Value));
    auto Statement = std::make_unique<ir::Stmt>();
    Statement->Kind = ir::Stmt::ExprStmt;
    Statement->Exprs.push_back(std::move(Assign));
    F.Body.push_back(std::move(Statement));
  }
  body(Def->getBody(), F.Body);
  auto Return = std::make_unique<ir::Stmt>();
  Return->Kind = ir::Stmt::Return;
  Return->Exprs.push_back(self());
  F.Body.push_back(std::move(Return));
}

ir::ExprPtr CallRecognizer::self() {
  auto R = make(ir::Expr::Local, ir::ScalarKind::Char, SelfName);
  R->Struct = SelfStruct;
  return R;
}

bool CallRecognizer::returnsOnly(const Stmt *S, const ParmVarDecl *P) {
  if (!S)
    return true;
  if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
    const Expr *V = Ret->getRetValue()
                        ? Ret->getRetValue()->IgnoreParenImpCasts()
                        : nullptr;
    if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(V))
      return P && Ref->getDecl() == P;
    const auto *Deref = dyn_cast_or_null<UnaryOperator>(V);
    return !P && Deref && Deref->getOpcode() == UO_Deref &&
           isa<CXXThisExpr>(Deref->getSubExpr()->IgnoreParenImpCasts());
  }
  return llvm::all_of(S->children(),
                      [&](const Stmt *C) { return returnsOnly(C, P); });
}

} // namespace weft::recognize
