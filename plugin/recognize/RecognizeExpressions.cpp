// RecognizeExpressions.cpp: expressions into the nest IR: operators,
// casts, literals, span subscripts, struct values.
#include "recognize/BodyRecognizer.h"

#include "llvm/Support/SaveAndRestore.h"

namespace weft::recognize {

ir::ExprPtr BodyRecognizer::expr(const Expr *E, Access A) {
  if (!E || Failed)
    return nullptr;
  // What Clang already rejected (its error said where): no loop to build.
  // Clang 19 leaves such an initializer without a type.
  if (E->getType().isNull() || E->containsErrors()) {
    Failed = true;
    return nullptr;
  }
  E = E->IgnoreParens();
  // What a reference binds is a glvalue: an element read to make a value
  // (a temporary's field, an operand, a subscript, a converted value) is
  // read, not bound.
  llvm::SaveAndRestore<bool> Binding(BindingReference,
                                     BindingReference && E->isGLValue());
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return expr(EWC->getSubExpr(), A);
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return expr(MTE->getSubExpr(), A);
  if (const auto *CE = dyn_cast<ConstantExpr>(E))
    return expr(CE->getSubExpr(), A);
  // C++20's `a != b` from operator==: what it means.
  if (const auto *RB = dyn_cast<CXXRewrittenBinaryOperator>(E))
    return expr(RB->getSemanticForm(), A);
  // A default argument, a field's default initializer.
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return expr(DA->getExpr(), A);
  if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return expr(DI->getExpr(), A);
  if (InLevelBound)
    if (ir::ExprPtr Value = globalValue(E))
      return Value;
  // Inside a method: `this` and `*this` are the object, its first
  // parameter.
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      SelfStruct >= 0 && UO && UO->getOpcode() == UO_Deref &&
      isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (SelfStruct >= 0 && isa<CXXThisExpr>(E)) {
    auto R = make(ir::Expr::Local, ir::ScalarKind::Char, SelfName);
    R->Struct = SelfStruct;
    return R;
  }
  // In a method compiled into the loop: its object's members, and the
  // arguments its parameters stand for.
  if (CurrentFrame >= 0) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (std::optional<std::pair<const Expr *, int>> Arg = argumentFor(Ref)) {
        llvm::SaveAndRestore<int> In(CurrentFrame, Arg->second);
        return expr(Arg->first, A);
      }
    if (isa<MemberExpr, CXXThisExpr>(E))
      E = inLoopTerms(E);
  }

  std::optional<ir::ScalarKind> K = scalarKind(E->getType());
  SourceLocation Loc = E->getExprLoc();
  if (std::optional<ir::ExprPtr> L = literal(E, K, A))
    return std::move(*L);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return variable(DRE, A);
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    return conversion(ICE, ICE->getCastKind(), ICE->getSubExpr(), K, A);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return operatorCall(OC, K, A);
  if (!K) {
    if (ir::ExprPtr S = structValue(E, A))
      return S;
    if (Failed)
      return nullptr;
  }
  if (const auto *ECE = dyn_cast<ExplicitCastExpr>(E))
    return explicitCast(ECE, K, A);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return unary(U, K, A);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return binary(B, K);
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return conditional(C, K, A);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return memberCall(MC, K, A);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(Call, K, A);
  if (isa<MemberExpr, CXXThisExpr>(E))
    return memberAccess(E, K, A);
  if (isa<CXXThrowExpr>(E))
    return failExpr(Loc, "exceptions cannot be thrown in a weft loop");
  if (isa<CXXNewExpr>(E) || isa<CXXDeleteExpr>(E))
    return failExpr(Loc, "new and delete cannot be used in a weft loop",
                    "allocate before the loop");
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return subscript(AS, AS->getBase(), AS->getIdx(), A, K);
  return failExpr(Loc,
                  std::string("this expression (") + E->getStmtClassName() +
                      ") is not supported in a weft loop",
                  NotSupportedYet);
}

std::optional<ir::ExprPtr>
BodyRecognizer::literal(const Expr *E, std::optional<ir::ScalarKind> K,
                        Access A) {
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return make(ir::Expr::IntLiteral, *K, literalText(IL->getValue(), *K));
  // sizeof and alignof are constants.
  if (const auto *TT = dyn_cast<UnaryExprOrTypeTraitExpr>(E)) {
    Expr::EvalResult R;
    if (K && TT->EvaluateAsInt(R, Ctx))
      return make(ir::Expr::IntLiteral, *K, literalText(R.Val.getInt(), *K));
  }
  // T{}, T(), and the fields an initializer leaves out: zero.
  if (K &&
      (isa<ImplicitValueInitExpr>(E) || isa<CXXScalarValueInitExpr>(E) ||
       (isa<InitListExpr>(E) && cast<InitListExpr>(E)->getNumInits() == 0))) {
    auto C = make(ir::Expr::Cast, *K);
    C->Operands.push_back(make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0"));
    return C;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E);
      K && IL && IL->getNumInits() == 1)
    return expr(IL->getInit(0), A); // int{v}
  if (const auto *CL = dyn_cast<CharacterLiteral>(E))
    return make(ir::Expr::IntLiteral, ir::ScalarKind::Int,
                std::to_string(CL->getValue()));
  if (const auto *FL = dyn_cast<FloatingLiteral>(E)) {
    if (!K)
      return failExpr(E->getExprLoc(), "long double is not supported on GPUs",
                      "use float or double");
    return make(ir::Expr::FloatLiteral, *K, literalText(FL, *K));
  }
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return make(ir::Expr::BoolLiteral, ir::ScalarKind::Bool,
                BL->getValue() ? "true" : "false");
  return std::nullopt;
}

ir::ExprPtr BodyRecognizer::operatorCall(const CXXOperatorCallExpr *OC,
                                         std::optional<ir::ScalarKind> K,
                                         Access A) {
  const SourceLocation Loc = OC->getExprLoc();
  // An operator a struct defines (`a - b`, `v += d`, `a == b`), or
  // <complex> does.
  if (ir::ExprPtr C = complexOperator(OC, K); C || Failed)
    return C;
  if (const FunctionDecl *FD = OC->getDirectCallee(); FD && userOperator(FD))
    return userCall(OC, FD, 0, K);
  // `m(i, j)`, `f[i]` of a class around the loop's data.
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      MD && OC->getNumArgs() >= 1 &&
      onObjectHoldingData(MD, OC->getArg(0)->getType()))
    return objectMethodCall(OC, A);
  if (!K) {
    if (ir::ExprPtr S = structValue(OC, A))
      return S;
    if (Failed)
      return nullptr;
  }
  if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    return subscript(OC, OC->getArg(0), OC->getArg(1), A, K);
  if (OC->getOperator() == OO_Subscript) // A[i, j] of an mdspan
    return dataElement(OC, A, K);
  if (OC->getOperator() == OO_Call)
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
        MD && MD->getParent()->isLambda()) {
      // What it captures is the loop's to read (or write) as the loop's
      // own code would: compiled into the loop at each call.
      if (MD->getParent()->capture_size() != 0) {
        const FunctionDecl *Def =
            capturesKeepTheirValues(MD, Loc) ? definitionOf(MD, Loc) : nullptr;
        if (!Def)
          return nullptr;
        const llvm::ArrayRef<const Expr *> Args(OC->getArgs() + 1,
                                                OC->getNumArgs() - 1);
        if (ir::ExprPtr V = substitutedCall(Def, Args, K); V || Failed)
          return V;
        return inlineCall(OC, Def, Args);
      }
      return userCall(OC, MD, 1, K);
    }
  if (isOutputStream(OC->getArg(0)->getType()))
    return failExpr(Loc, "I/O is not supported in a weft loop",
                    "kernels cannot print: write results to a span and "
                    "print them after the loop");
  if (!proxyOfData(OC->getArg(0))) // `m[i] = true` on vector<bool>
    return nullptr;
  return failExpr(Loc, "overloaded operators are not supported in a weft "
                       "loop");
}

ir::ExprPtr BodyRecognizer::explicitCast(const ExplicitCastExpr *ECE,
                                         std::optional<ir::ScalarKind> K,
                                         Access A) {
  if (!K)
    return failExpr(ECE->getExprLoc(),
                    "casts to '" + ECE->getType().getAsString() +
                        "' are not supported in a weft loop",
                    "cast between arithmetic types only");
  auto C = make(ir::Expr::Cast, *K);
  ir::ExprPtr Sub = expr(ECE->getSubExpr(), A);
  if (!Sub)
    return nullptr;
  C->Operands.push_back(std::move(Sub));
  return C;
}

ir::ExprPtr BodyRecognizer::conditional(const ConditionalOperator *C,
                                        std::optional<ir::ScalarKind> K,
                                        Access A) {
  auto R = make(ir::Expr::Conditional, K.value_or(ir::ScalarKind::Int));
  // `(c ? a[i] : b[i]) = v` writes the arm it takes.
  const Access Arms = C->isGLValue() ? A : Access::Read;
  for (const Expr *Sub : {C->getCond(), C->getTrueExpr(), C->getFalseExpr()}) {
    ir::ExprPtr S = expr(Sub, Sub == C->getCond() ? Access::Read : Arms);
    if (!S)
      return nullptr;
    R->Operands.push_back(std::move(S));
  }
  return R;
}

ir::ExprPtr BodyRecognizer::memberCall(const CXXMemberCallExpr *MC,
                                       std::optional<ir::ScalarKind> K,
                                       Access A) {
  const SourceLocation Loc = MC->getExprLoc();
  if (ir::ExprPtr C = complexMethod(MC, K); C || Failed)
    return C;
  const CXXMethodDecl *M = MC->getMethodDecl();
  if (std::optional<ir::ExprPtr> Size = sizeOrExtent(MC, M, K))
    return std::move(*Size);
  if (M && M->isVirtual())
    return failExpr(Loc,
                    "virtual call to '" + M->getQualifiedNameAsString() +
                        "' cannot be made from a weft loop",
                    "call a non-virtual function");
  // A method of a struct the kernel knows: a device function taking
  // the object by reference first.
  if (M && !M->isStatic() && !M->getParent()->isLambda() &&
      structIndex(MC->getObjectType(), Loc, false) >= 0)
    return userCall(MC, M, 0, K);
  if (onObjectHoldingData(M, MC->getObjectType()))
    return objectMethodCall(MC, A);
  return failExpr(
      Loc,
      "calls to '" +
          (M ? M->getQualifiedNameAsString() : std::string("<member>")) +
          "' are not supported in a weft loop",
      std::string(NotSupportedYet) +
          "; methods of structs of arithmetic fields are, and "
          "spans support operator[] and size()");
}

std::optional<ir::ExprPtr>
BodyRecognizer::sizeOrExtent(const CXXMemberCallExpr *MC,
                             const CXXMethodDecl *M,
                             std::optional<ir::ScalarKind> K) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(
          MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
      M && M->getName() == "size" && DRE)
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && LocalArrays.count(VD)) {
      auto C = make(ir::Expr::Cast, K.value_or(ir::ScalarKind::ULong));
      C->Operands.push_back(ir::cloneExpr(*LocalArrays.lookup(VD)));
      return C;
    }
  if (std::optional<DataShape> Shape =
          dataShape(MC->getImplicitObjectArgument()->getType());
      M && M->getName() == "size" && Shape && !Shape->IsPointer)
    return dataSize(MC->getImplicitObjectArgument(), K);
  // v->size() of a pointer to data: (*v).size().
  if (const auto *Callee = dyn_cast<MemberExpr>(MC->getCallee());
      M && M->getName() == "size" && Callee && Callee->isArrow()) {
    // (Past the cast to const that size() adds: the data's own type.)
    Expr *Object = const_cast<Expr *>(
        MC->getImplicitObjectArgument()->IgnoreParenNoopCasts(Ctx));
    const QualType Pointee = Object->getType()->getPointeeType();
    if (std::optional<DataShape> Shape = dataShape(Pointee);
        Shape && !Shape->IsPointer && Pointee->isRecordType())
      return dataSize(UnaryOperator::Create(Ctx, Object, UO_Deref, Pointee,
                                            VK_LValue, OK_Ordinary,
                                            Object->getExprLoc(), false,
                                            FPOptionsOverride()),
                      K);
  }
  // A.extent(r) of an mdspan, r a constant.
  if (std::optional<DataShape> Shape =
          dataShape(MC->getImplicitObjectArgument()->getType());
      M && M->getName() == "extent" && Shape && Shape->IsMdspan &&
      MC->getNumArgs() == 1) {
    std::optional<unsigned> P = spanOperand(MC->getImplicitObjectArgument());
    if (!P)
      return nullptr; // Diagnosed: a layout weft cannot take.
    Expr::EvalResult Rank;
    if (!MC->getArg(0)->EvaluateAsInt(Rank, Ctx) ||
        Rank.Val.getInt().getZExtValue() >= Shape->Extents.size())
      return failExpr(MC->getArg(0)->getBeginLoc(),
                      "the rank of 'extent' must be a constant below " +
                          std::to_string(Shape->Extents.size()));
    auto C = make(ir::Expr::Cast, K.value_or(Shape->IndexType));
    C->Operands.push_back(mdspanExtent(
        *P, static_cast<unsigned>(Rank.Val.getInt().getZExtValue())));
    return C;
  }
  return std::nullopt;
}

ir::ExprPtr BodyRecognizer::call(const CallExpr *Call,
                                 std::optional<ir::ScalarKind> K, Access A) {
  const SourceLocation Loc = Call->getExprLoc();
  const FunctionDecl *FD = Call->getDirectCallee();
  // Branch hints: the value itself.
  if (FD && Call->getNumArgs() >= 1 &&
      (FD->getName() == "__builtin_expect" ||
       FD->getName() == "__builtin_expect_with_probability")) {
    ir::ExprPtr V = expr(Call->getArg(0), A);
    if (!V || !K)
      return V;
    auto C = make(ir::Expr::Cast, *K);
    C->Operands.push_back(std::move(V));
    return C;
  }
  // std::move and its kin only change how a reference binds: the
  // operand itself (clang has no body for them to compile).
  if (FD && FD->isInStdNamespace() && Call->getNumArgs() == 1 &&
      FD->getDeclName().isIdentifier() &&
      llvm::is_contained({"move", "forward", "as_const", "move_if_noexcept"},
                         FD->getName()))
    return expr(Call->getArg(0), A);
  if (ir::ExprPtr C = complexCall(Call, FD, K); C || Failed)
    return C;
  std::optional<std::string> Device = deviceFunction(FD);
  if (!Device && FD)
    return userCall(Call, FD, 0, K);
  if (!Device || !K)
    return failExpr(
        Loc,
        "call to '" +
            (FD ? FD->getQualifiedNameAsString() : std::string("<indirect>")) +
            "' is not supported in a weft loop",
        std::string(NotSupportedYet) +
            "; std math functions, std::min, std::max, "
            "std::abs and std::clamp are");
  auto R = make(ir::Expr::Call, *K, *Device);
  for (const Expr *Arg : Call->arguments()) {
    ir::ExprPtr S = expr(Arg, Access::Read);
    if (!S)
      return nullptr;
    R->Operands.push_back(std::move(S));
  }
  return R;
}

ir::ExprPtr BodyRecognizer::memberAccess(const Expr *E,
                                         std::optional<ir::ScalarKind> K,
                                         Access A) {
  const SourceLocation Loc = E->getExprLoc();
  if (const FieldDecl *F = memberOfThis(E); F && !InFunction)
    return member(cast<MemberExpr>(E), F, A);
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      ME && SelfStruct >= 0 && memberOfThis(E)) {
    // A field of the object a method was called on.
    auto R = make(ir::Expr::Member, K.value_or(ir::ScalarKind::Char),
                  ME->getMemberDecl()->getName().str());
    R->Struct = K ? -1 : structIndex(ME->getType(), Loc);
    auto Self = make(ir::Expr::Local, ir::ScalarKind::Char, SelfName);
    Self->Struct = SelfStruct;
    R->Operands.push_back(std::move(Self));
    return R;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      ME && !memberOfThis(E) &&
      structIndex(ME->getBase()->getType(), Loc, false) >= 0) {
    // A field of a struct value: a span element, a local, a parameter.
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    ir::ExprPtr Base = F ? expr(ME->getBase(), A) : nullptr;
    if (!Base)
      return F ? nullptr
               : failExpr(Loc, "only fields of a struct can be used here");
    auto R = make(ir::Expr::Member, K.value_or(ir::ScalarKind::Char),
                  F->getName().str());
    R->Struct = K ? -1 : structIndex(ME->getType(), Loc);
    R->Operands.push_back(std::move(Base));
    return R;
  }
  if (std::optional<MemberChain> Chain = memberOfCapture(E))
    return member(cast<MemberExpr>(E), Chain->Field, A, &*Chain);
  return failExpr(Loc, "members cannot be used in a weft loop yet",
                  "copy the member into a local variable (a std::span "
                  "for data) before the loop");
}

ir::ExprPtr BodyRecognizer::subscript(const Expr *E, const Expr *Base,
                                      const Expr *Index, Access A,
                                      std::optional<ir::ScalarKind> K) {
  if (const ReducedElement *R = reducedElement(E)) {
    if (!AllowedReductionRefs.contains(stripped(E)))
      return failExpr(
          E->getBeginLoc(),
          "the partial value of reduction element '" + exprSource(R->Element) +
              "' cannot be used inside the loop",
          std::string("combine into it with '") +
              combineSpelling(ActiveReductions.lookup(R->Stand)) + "' only");
    return make(ir::Expr::Local, R->Type, R->Name);
  }
  // Another element of data whose element a level reduces: it may be the
  // reduced one in some iteration, whose value is partial there.
  for (const ReducedElement &R : ReducedElements)
    if (sameBase(Base, R.Element))
      return failExpr(E->getBeginLoc(),
                      "no other element of '" + exprSource(Base) +
                          "' can be used in the loop that reduces '" +
                          exprSource(R.Element) + "'",
                      "read it before or after that loop");
  if (ir::ExprPtr R = localElement(E, Base, Index, K))
    return R;
  if (Failed)
    return nullptr;
  return dataElement(E, A, K);
}

bool BodyRecognizer::userOperator(const FunctionDecl *FD) {
  // Not a trivial copy, nor the library's (a container's operator[]), nor
  // printing (`os << v`, refused as I/O).
  if (FD->isTrivial() || FD->isInStdNamespace() ||
      llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
        return isOutputStream(P->getType());
      }))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return !MD->getParent()->isLambda() &&
           !MD->getParent()->isInStdNamespace() &&
           structIndex(MD->getThisType()->getPointeeType(), FD->getLocation(),
                       false) >= 0;
  return llvm::any_of(FD->parameters(), [&](const ParmVarDecl *P) {
    return structIndex(P->getType(), P->getLocation(), false) >= 0;
  });
}

ir::ExprPtr BodyRecognizer::structValue(const Expr *E, Access A) {
  const int S = structIndex(E->getType(), E->getExprLoc(), false);
  if (S < 0)
    return nullptr;
  if (isa<ImplicitValueInitExpr>(E)) { // a field left out: zero
    auto R = make(ir::Expr::InitList, ir::ScalarKind::Char);
    R->Struct = S;
    return R;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && Structs[S].FromPrelude)
    return complexValue(CE, S);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    // Trivially copyable: a copy is the value.
    if (CE->getNumArgs() == 1 && Ctor->isCopyOrMoveConstructor())
      return expr(CE->getArg(0), A);
    if (CE->getNumArgs() == 0 && Ctor->isTrivial()) {
      auto R = make(ir::Expr::InitList, ir::ScalarKind::Char);
      R->Struct = S;
      return R;
    }
    // A constructor of the program's (or one that default member
    // initializers give a body): its device function.
    return constructorCall(CE);
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    auto R = make(ir::Expr::InitList, ir::ScalarKind::Char);
    R->Struct = S;
    for (const Expr *Init : IL->inits()) {
      ir::ExprPtr V = expr(Init, Access::Read);
      if (!V)
        return nullptr;
      R->Operands.push_back(std::move(V));
    }
    return R;
  }
  if (const auto *ECE = dyn_cast<ExplicitCastExpr>(E))
    return expr(ECE->getSubExpr(), A); // Particle{...}, Particle(p)
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Equal) {
    ir::ExprPtr L = expr(OC->getArg(0), Access::Write);
    ir::ExprPtr R = L ? expr(OC->getArg(1), Access::Read) : nullptr;
    if (!R)
      return nullptr;
    auto B = make(ir::Expr::Binary, ir::ScalarKind::Char, "=");
    B->Struct = S;
    B->Operands.push_back(std::move(L));
    B->Operands.push_back(std::move(R));
    return B;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    auto R = make(ir::Expr::Conditional, ir::ScalarKind::Char);
    R->Struct = S;
    const Access Arms = C->isGLValue() ? A : Access::Read;
    for (const Expr *Sub :
         {C->getCond(), C->getTrueExpr(), C->getFalseExpr()}) {
      ir::ExprPtr X = expr(Sub, Sub == C->getCond() ? Access::Read : Arms);
      if (!X)
        return nullptr;
      R->Operands.push_back(std::move(X));
    }
    return R;
  }
  return nullptr;
}

int BodyRecognizer::structIndex(QualType T, SourceLocation Loc, bool Diagnose) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const int Complex = complexStruct(T); Complex >= 0)
    return Complex;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || spanDecl(T) || RD->isLambda() || !RD->hasDefinition())
    return -1;
  if (auto It = StructIndex.find(RD); It != StructIndex.end())
    return It->second;
  const std::string Source = RD->getQualifiedNameAsString();
  auto Reject = [&](const std::string &Why) {
    if (Diagnose)
      fail(Loc, "struct '" + Source + "' cannot be used in a weft loop: " + Why,
           "use trivially copyable structs of arithmetic fields");
    return -1;
  };
  if (RD->isUnion() || RD->isPolymorphic() || RD->getNumBases() != 0 ||
      !RD->isTriviallyCopyable())
    return Reject("it is not a plain trivially copyable struct");
  ir::StructDef Def;
  Def.Source = Source;
  for (const FieldDecl *F : RD->fields()) {
    ir::StructDef::Field Field;
    Field.Name = F->getName().str();
    if (std::optional<ir::ScalarKind> K = scalarKind(F->getType()))
      Field.Scalar = *K;
    else if ((Field.Struct = structIndex(F->getType(), Loc, Diagnose)) < 0)
      return Reject("field '" + Field.Name + "' has type '" +
                    F->getType().getAsString() + "'");
    if (F->isBitField())
      return Reject("field '" + Field.Name + "' is a bit-field");
    Def.Fields.push_back(std::move(Field));
  }
  std::string Key = Source;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray()) {
      llvm::raw_string_ostream OS(Key);
      A.print(Ctx.getPrintingPolicy(), OS, /*IncludeType=*/true);
    }
  char Hash[9];
  std::snprintf(Hash, sizeof Hash, "%08x",
                static_cast<unsigned>(llvm::xxh3_64bits(Key)));
  Def.Name = "weft_st_" + RD->getNameAsString() + "_" + Hash;
  Def.Size = static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
  const int I = static_cast<int>(Structs.size());
  Structs.push_back(std::move(Def));
  StructIndex[RD] = I;
  return I;
}

ir::ExprPtr BodyRecognizer::conversion(const Expr *E, CastKind CK,
                                       const Expr *Sub,
                                       std::optional<ir::ScalarKind> K,
                                       Access A) {
  // A row of a captured nested array (`a[i]` of float a[N][M]): refused
  // there, with the fix.
  if (CK == CK_ArrayToPointerDecay &&
      isa<ArraySubscriptExpr>(Sub->IgnoreParens()))
    return dataElement(Sub, A, K);
  switch (CK) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_FunctionToPointerDecay:
  case CK_BuiltinFnToFnPtr:
  // A converting constructor's call: the call.
  case CK_ConstructorConversion:
    return expr(Sub, A);
  // `c && "why"`, as asserts carry their reason: a string is true.
  case CK_PointerToBoolean:
    if (isa<StringLiteral>(Sub->IgnoreParenImpCasts()))
      return make(ir::Expr::BoolLiteral, ir::ScalarKind::Bool, "true");
    break;
  // A conversion function's call, unless it is std::vector<bool>'s proxy's
  // (the container is refused, with the fix).
  case CK_UserDefinedConversion:
    if (const auto *MC =
            dyn_cast<CXXMemberCallExpr>(Sub->IgnoreParenImpCasts());
        MC && !proxyOfData(MC->getImplicitObjectArgument()))
      return nullptr;
    return expr(Sub, A);
  case CK_IntegralCast:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean:
  case CK_BooleanToSignedIntegral: {
    if (!K)
      break;
    ir::ExprPtr S = expr(Sub, A);
    if (!S)
      return nullptr;
    auto C = make(ir::Expr::Cast, *K);
    C->Operands.push_back(std::move(S));
    return C;
  }
  default:
    break;
  }
  // `bool b = m[i]` through std::vector<bool>'s proxy: the container is
  // what is refused, with the fix.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Sub->IgnoreParenImpCasts()))
    if (!proxyOfData(MC->getImplicitObjectArgument()))
      return nullptr;
  return failExpr(E->getExprLoc(),
                  std::string("conversion '") + CastExpr::getCastKindName(CK) +
                      "' is not supported in a weft loop",
                  NotSupportedYet);
}

bool BodyRecognizer::proxyOfData(const Expr *E) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParenImpCasts());
  return !OC || OC->getOperator() != OO_Subscript ||
         spanOperand(OC->getArg(0)).has_value();
}

ir::ExprPtr BodyRecognizer::unary(const UnaryOperator *U,
                                  std::optional<ir::ScalarKind> K, Access A) {
  UnaryOperatorKind Op = U->getOpcode();
  // `*p`, `*(p + k)`: the element p[k] of captured data.
  if (Op == UO_Deref) {
    if (std::optional<PointerInto> Ptr = pointerInto(U->getSubExpr()))
      return pointedElement(std::move(*Ptr), nullptr, A, U);
    if (Failed)
      return nullptr;
  }
  if (Op == UO_AddrOf || Op == UO_Deref)
    return failExpr(U->getOperatorLoc(),
                    "pointers are not supported in a weft loop",
                    "capture a std::span so that its extent is known");
  if (!K || Op == UO_Real || Op == UO_Imag || Op == UO_Extension ||
      Op == UO_Coawait)
    return failExpr(U->getOperatorLoc(), "this operator is not supported in "
                                         "a weft loop");
  if (U->isIncrementDecrementOp())
    if (std::optional<unsigned> P = reducedArrayOf(U->getSubExpr()))
      return arrayCombine(U, U->getSubExpr(), *P);
  // ++v and v-- combine a sum.
  const Expr *Counted = nullptr;
  if (const VarDecl *V = reductionVariable(U->getSubExpr());
      V && U->isIncrementDecrementOp() &&
      ActiveReductions.lookup(V) == ir::ReductionOp::Add)
    AllowedReductionRefs.insert(Counted = stripped(U->getSubExpr()));
  ir::ExprPtr S =
      expr(U->getSubExpr(),
           U->isIncrementDecrementOp() ? Access::ReadWrite : Access::Read);
  if (Counted)
    AllowedReductionRefs.erase(Counted);
  if (!S)
    return nullptr;
  auto R = make(U->isPostfix() ? ir::Expr::Postfix : ir::Expr::Unary, *K,
                UnaryOperator::getOpcodeStr(Op).str());
  R->Operands.push_back(std::move(S));
  return R;
}

ir::ExprPtr BodyRecognizer::binary(const BinaryOperator *B,
                                   std::optional<ir::ScalarKind> K) {
  BinaryOperatorKind Op = B->getOpcode();
  if (B->isAssignmentOp()) {
    if (std::optional<unsigned> P = reducedArrayOf(B->getLHS()))
      return arrayCombine(B, B->getLHS(), *P);
    if (const VarDecl *V = reductionVariable(B->getLHS()))
      return combine(B, V, K);
  }
  if (Op == BO_PtrMemD || Op == BO_PtrMemI || Op == BO_Cmp)
    return failExpr(B->getOperatorLoc(),
                    "this operator is not supported in a weft loop",
                    NotSupportedYet);
  Access LHSAccess = Op == BO_Assign               ? Access::Write
                     : B->isCompoundAssignmentOp() ? Access::ReadWrite
                                                   : Access::Read;
  ir::ExprPtr L = expr(B->getLHS(), LHSAccess);
  ir::ExprPtr R = L ? expr(B->getRHS(), Access::Read) : nullptr;
  if (!R)
    return nullptr;
  auto E = make(ir::Expr::Binary, K.value_or(ir::ScalarKind::Int),
                BinaryOperator::getOpcodeStr(Op).str());
  E->Operands.push_back(std::move(L));
  E->Operands.push_back(std::move(R));
  return E;
}

} // namespace weft::recognize
