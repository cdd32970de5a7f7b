// RecognizeReductions.cpp: reduction clauses and the combining
// statements (`s += e`, `s = std::max(s, e)`, `if (x > m) m = x;`) a
// level's reduction may make.
#include "recognize/ReductionRecognizer.h"

#include "clang/Lex/Lexer.h"

namespace weft::recognize {

namespace {

/// The subscript and base of an element expression (`tmp[i]` through a
/// span's operator[] or a built-in subscript).
std::pair<const Expr *, const Expr *> subscriptParts(const Stmt *S) {
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S))
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      return {OC->getArg(0), OC->getArg(1)};
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
    return {AS->getBase(), AS->getIdx()};
  return {nullptr, nullptr};
}

/// The variable under a chain of subscripts (`tmp` of `tmp[i][j]`).
const Expr *rootOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    auto [B, Index] = subscriptParts(E);
    if (!B)
      return E;
    E = B->IgnoreParenImpCasts();
  }
}

std::string withoutSpaces(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (!std::isspace(static_cast<unsigned char>(C)))
      Out += C;
  return Out;
}

} // namespace

std::string ReductionRecognizer::exprSource(const Expr *E) const {
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(E->getSourceRange()), SM,
             Ctx.getLangOpts())
      .str();
}

const VarDecl *ReductionRecognizer::elementReduction(
    Stmt *Loop, const Stmt *Body, const syntax::Reduction &Clause,
    const std::string &Name, ir::Level &L, ir::Reduction &R) {
  const std::size_t Open = Name.find('[');
  const std::string Base = Name.substr(0, Open);
  // The element as the loop writes it: the base named so, the subscripts
  // spelled so (spaces aside); `tmp[i][j]` has one per dimension.
  const Expr *Element = nullptr;
  std::vector<const Stmt *> Work = {Body};
  while (!Work.empty() && !Element) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    auto [B, Index] = subscriptParts(S);
    const auto *DRE = B ? dyn_cast<DeclRefExpr>(rootOf(B)) : nullptr;
    if (DRE && DRE->getDecl()->getName() == Base &&
        withoutSpaces(exprSource(cast<Expr>(S))) == Name)
      Element = cast<Expr>(S);
    for (const Stmt *C : subStatements(S))
      Work.push_back(C);
  }
  if (!Element)
    return fail(clauseAt(L.Depth, Clause.Offset),
                "reduction element '" + Name + "' is not used in the loop",
                "name the element the loop combines into, as written in "
                "the loop"),
           nullptr;
  if (L.Depth == 0)
    return fail(Element->getBeginLoc(),
                "an element can be reduced by an inner parallel loop only",
                "reduce into a local variable and assign it to '" + Name +
                    "' after the loop, or name the array, whose elements "
                    "then combine atomically: 'reduction(op: " +
                    Base + ")'"),
           nullptr;
  // The element is the same in every iteration: its subscripts read
  // nothing the loop declares (its index included) or assigns.
  std::vector<const Stmt *> Reads;
  for (const Stmt *S = Element; S;) {
    auto [B, Index] = subscriptParts(S);
    if (!Index)
      break;
    Reads.push_back(Index);
    S = stripped(B);
  }
  while (!Reads.empty()) {
    const Stmt *S = Reads.back();
    Reads.pop_back();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      const SourceLocation At = VD ? VD->getLocation() : SourceLocation();
      if (VD && (SM.isPointWithin(At, Loop->getBeginLoc(), Loop->getEndLoc()) ||
                 isAssignedIn(VD, Body)))
        return fail(DRE->getLocation(),
                    "the subscript of reduction element '" + Name +
                        "' changes from one iteration of the loop to the "
                        "next",
                    "reduce an element whose subscript reads only what "
                    "the loop leaves unchanged, such as the enclosing "
                    "loop's index"),
               nullptr;
    }
    for (const Stmt *C : subStatements(S))
      Reads.push_back(C);
  }
  const QualType T = Element->getType().getNonReferenceType();
  std::optional<ir::ScalarKind> K = scalarKind(T);
  if (!K)
    return fail(Element->getBeginLoc(), "reduction element '" + Name +
                                            "' must be an arithmetic "
                                            "scalar"),
           nullptr;
  // A local of the enclosing level stands for the element.
  const std::string Local = Names.numbered("weft_reduced_" + Base);
  const auto *BaseRef =
      cast<DeclRefExpr>(rootOf(subscriptParts(Element).first));
  VarDecl *Stand = VarDecl::Create(
      Ctx, const_cast<DeclContext *>(BaseRef->getDecl()->getDeclContext()),
      Element->getBeginLoc(), Element->getBeginLoc(), &Ctx.Idents.get(Local), T,
      Ctx.getTrivialTypeSourceInfo(T, Element->getBeginLoc()), SC_None);
  Locals.insert(Stand);
  LocalDepth[Stand] = L.Depth;
  ReducedElements.push_back({Element, Stand, Local, *K, L.Depth});
  R.Variable = Local;
  R.Element = Name;
  R.Type = *K;
  return Stand;
}

const VarDecl *ReductionRecognizer::reduction(Stmt *Loop, const Stmt *Body,
                                              const syntax::Reduction &Clause,
                                              const std::string &Name,
                                              ir::Level &L) {
  const std::string &Op = Clause.Operator;
  if (Name.find('[') != std::string::npos) {
    ir::Reduction R;
    R.Op = reductionOp(Op);
    const VarDecl *V = elementReduction(Loop, Body, Clause, Name, L, R);
    if (!V)
      return nullptr;
    ActiveReductions[V] = R.Op;
    L.Reductions.push_back(std::move(R));
    return V;
  }
  // The variable is the one the loop's body refers to by that name.
  const DeclRefExpr *Ref = findReference(Body, Name);
  if (!Ref)
    return fail(clauseAt(L.Depth, Clause.Offset),
                "reduction variable '" + Name + "' is not used in the loop",
                "name a variable that the loop combines, as in "
                "'reduction(+: sum)'"),
           nullptr;
  const auto *V = cast<VarDecl>(Ref->getDecl());
  std::optional<ir::ScalarKind> K =
      scalarKind(V->getType().getNonReferenceType());
  if (!K && !Locals.contains(V) && dataShape(V->getType()))
    return arrayReduction(Loop, Ref, Op, L), nullptr;
  ir::Reduction R;
  R.Op = reductionOp(Op);
  const bool Bitwise =
      contract::reduceKind(R.Op) == contract::ReduceKind::Bitwise;
  if (!K || (Bitwise && ir::isFloating(*K)))
    return fail(Ref->getLocation(),
                "reduction variable '" + Name + "' must be " +
                    (Bitwise ? "an integer" : "an arithmetic scalar"),
                ""),
           nullptr;
  R.Variable = Name;
  R.Type = *K;
  if (!Locals.contains(V)) {
    if (L.Depth > 0)
      return fail(Ref->getLocation(),
                  "the reduction of an inner parallel loop must go into a "
                  "variable declared in the enclosing loop's body",
                  "declare '" + Name +
                      "' inside the outer loop, or reduce the outer loop "
                      "too"),
             nullptr;
    // A threadprivate variable is each OpenMP thread's own: combined into
    // by one launch, it would hold the sum in one thread's copy alone.
    if (V->hasAttr<OMPThreadPrivateDeclAttr>() || V->getTLSKind())
      return fail(Ref->getLocation(),
                  "'" + Name +
                      "' is each thread's own (threadprivate or "
                      "thread_local): it cannot be a reduction target",
                  "reduce into a variable the threads share"),
             nullptr;
    std::optional<unsigned> P = capture(Ref, /*ReductionTarget=*/true);
    if (!P)
      return nullptr;
    R.ParamIndex = static_cast<int>(*P);
  }
  ActiveReductions[V] = R.Op;
  L.Reductions.push_back(std::move(R));
  return V;
}

bool ReductionRecognizer::isAssignedIn(const VarDecl *V, const Stmt *S) const {
  if (!S)
    return false;
  const Expr *Target = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    Target = B->getLHS();
  else if (const auto *U = dyn_cast<UnaryOperator>(S);
           U && U->isIncrementDecrementOp())
    Target = U->getSubExpr();
  if (const auto *DRE =
          Target ? dyn_cast<DeclRefExpr>(stripped(Target)) : nullptr;
      DRE && DRE->getDecl() == V)
    return true;
  for (const Stmt *C : subStatements(S))
    if (isAssignedIn(V, C))
      return true;
  return false;
}

ir::ReductionOp ReductionRecognizer::reductionOp(const std::string &Spelling) {
  return ir::reductionOpNamed(Spelling).value_or(ir::ReductionOp::Add);
}

const DeclRefExpr *ReductionRecognizer::findReference(const Stmt *S,
                                                      const std::string &Name) {
  if (!S)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (isa<VarDecl>(DRE->getDecl()) && DRE->getDecl()->getName() == Name)
      return DRE;
  for (const Stmt *C : subStatements(S))
    if (const DeclRefExpr *R = findReference(C, Name))
      return R;
  return nullptr;
}

const VarDecl *ReductionRecognizer::reductionVariable(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(stripped(E));
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (V && ActiveReductions.count(V))
    return V;
  const ReducedElement *R = reducedElement(E);
  return R ? R->Stand : nullptr;
}

const Expr *ReductionRecognizer::refersTo(const Expr *E,
                                          const VarDecl *V) const {
  E = stripped(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == V ? E : nullptr;
  const ReducedElement *R = reducedElement(E);
  return R && R->Stand == V ? E : nullptr;
}

bool ReductionRecognizer::sameBase(const Expr *Base,
                                   const Expr *Element) const {
  const auto *A = dyn_cast<DeclRefExpr>(stripped(Base));
  const Expr *ElementBase = subscriptParts(Element).first;
  const auto *B =
      ElementBase ? dyn_cast<DeclRefExpr>(stripped(ElementBase)) : nullptr;
  return A && B && A->getDecl() == B->getDecl();
}

const ReductionRecognizer::ReducedElement *
ReductionRecognizer::reducedElement(const Expr *E) const {
  E = stripped(E);
  if (!isa<CXXOperatorCallExpr, ArraySubscriptExpr>(E))
    return nullptr;
  for (const ReducedElement &R : ReducedElements)
    if (sameProfile(E, R.Element))
      return &R;
  return nullptr;
}

bool ReductionRecognizer::sameProfile(const Expr *A, const Expr *B) const {
  llvm::FoldingSetNodeID IdA, IdB;
  stripped(A)->Profile(IdA, Ctx, /*Canonical=*/true);
  stripped(B)->Profile(IdB, Ctx, /*Canonical=*/true);
  return IdA == IdB;
}

llvm::SmallVector<const Expr *, 2>
ReductionRecognizer::combiningOperands(const Expr *RHS, const VarDecl *V,
                                       ir::ReductionOp Op) const {
  RHS = stripped(RHS);
  auto IsV = [&](const Expr *E) { return refersTo(E, V); };
  if (const auto *B = dyn_cast<BinaryOperator>(RHS)) {
    // v = v - e adds -e.
    if (Op == ir::ReductionOp::Add && B->getOpcode() == BO_Sub)
      if (const Expr *D = IsV(B->getLHS()))
        return {D};
    if (binaryReduction(B->getOpcode()) == Op) {
      if (const Expr *D = IsV(B->getLHS()))
        return {D};
      if (const Expr *D = IsV(B->getRHS()))
        return {D};
    }
    return {};
  }
  const bool Best = Op == ir::ReductionOp::Min || Op == ir::ReductionOp::Max;
  if (const auto *C = dyn_cast<CallExpr>(RHS); C && Best) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !FD->getIdentifier() || C->getNumArgs() != 2)
      return {};
    llvm::StringRef Name = FD->getName();
    const bool Min =
        Name == "min" || Name == "fmin" || Name == "fminf" || Name == "fminl";
    const bool Max =
        Name == "max" || Name == "fmax" || Name == "fmaxf" || Name == "fmaxl";
    if ((Op == ir::ReductionOp::Min && Min) ||
        (Op == ir::ReductionOp::Max && Max)) {
      if (const Expr *D = IsV(C->getArg(0)))
        return {D};
      if (const Expr *D = IsV(C->getArg(1)))
        return {D};
    }
    return {};
  }
  // e > v ? e : v and the like: the condition picks the better of v and a
  // value, and the branches are that value and v.
  if (const auto *C = dyn_cast<ConditionalOperator>(RHS); C && Best) {
    const Expr *Value = nullptr;
    const Expr *InCondition = nullptr;
    bool ValueWhenTrue = false;
    if (!comparesWithValue(C->getCond(), V, Op, Value, InCondition,
                           ValueWhenTrue))
      return {};
    const Expr *Taken = ValueWhenTrue ? C->getTrueExpr() : C->getFalseExpr();
    const Expr *Kept =
        IsV(ValueWhenTrue ? C->getFalseExpr() : C->getTrueExpr());
    if (Kept && sameValue(Taken, Value))
      return {InCondition, Kept};
  }
  return {};
}

bool ReductionRecognizer::comparesWithValue(const Expr *Cond, const VarDecl *V,
                                            ir::ReductionOp Op,
                                            const Expr *&Value,
                                            const Expr *&Ref,
                                            bool &ValueWhenTrue) const {
  const auto *B = dyn_cast<BinaryOperator>(stripped(Cond));
  if (!B || !(B->getOpcode() == BO_LT || B->getOpcode() == BO_LE ||
              B->getOpcode() == BO_GT || B->getOpcode() == BO_GE))
    return false;
  auto IsV = [&](const Expr *E) { return refersTo(E, V); };
  const bool Greater = B->getOpcode() == BO_GT || B->getOpcode() == BO_GE;
  bool ValueGreater;
  if ((Ref = IsV(B->getRHS())) && !IsV(B->getLHS())) {
    Value = B->getLHS(); // e > v
    ValueGreater = Greater;
  } else if ((Ref = IsV(B->getLHS())) && !IsV(B->getRHS())) {
    Value = B->getRHS(); // v < e
    ValueGreater = !Greater;
  } else {
    return false;
  }
  ValueWhenTrue = ValueGreater == (Op == ir::ReductionOp::Max);
  return !Value->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false);
}

bool ReductionRecognizer::sameValue(const Expr *A, const Expr *B) const {
  return !A->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) &&
         !B->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) &&
         sameProfile(A, B);
}

const BinaryOperator *
ReductionRecognizer::guardedCombine(const IfStmt *If, const Expr *&Ref) const {
  if (If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *Block = dyn_cast<CompoundStmt>(Then)) {
    if (Block->size() != 1)
      return nullptr;
    Then = Block->body_front();
  }
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Then))
    Then = Cleanups->getSubExpr();
  const auto *Assign = dyn_cast<BinaryOperator>(Then);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return nullptr;
  const VarDecl *V = reductionVariable(Assign->getLHS());
  if (!V)
    return nullptr;
  return keepsBetter(If, Assign, V, ActiveReductions.lookup(V), Ref) ? Assign
                                                                     : nullptr;
}

bool ReductionRecognizer::keepsBetter(const IfStmt *If,
                                      const BinaryOperator *Assign,
                                      const VarDecl *V, ir::ReductionOp Op,
                                      const Expr *&Ref) const {
  const Expr *Value = nullptr;
  bool ValueWhenTrue = false;
  return (Op == ir::ReductionOp::Min || Op == ir::ReductionOp::Max) &&
         comparesWithValue(If->getCond(), V, Op, Value, Ref, ValueWhenTrue) &&
         ValueWhenTrue && sameValue(Assign->getRHS(), Value);
}

std::optional<ir::ReductionOp>
ReductionRecognizer::binaryReduction(BinaryOperatorKind Op) {
  return ir::reductionOpNamed(BinaryOperator::getOpcodeStr(Op).str());
}

std::optional<ir::ReductionOp>
ReductionRecognizer::compoundReduction(BinaryOperatorKind Op) {
  if (Op == BO_SubAssign) // v -= e adds -e
    return ir::ReductionOp::Add;
  if (!BinaryOperator::isCompoundAssignmentOp(Op))
    return std::nullopt;
  return binaryReduction(BinaryOperator::getOpForCompoundAssignment(Op));
}

ir::ExprPtr ReductionRecognizer::combine(const BinaryOperator *B,
                                         const VarDecl *V,
                                         std::optional<ir::ScalarKind> K) {
  const ir::ReductionOp Op = ActiveReductions.lookup(V);
  bool Matches = compoundReduction(B->getOpcode()) == Op;
  llvm::SmallVector<const Expr *, 2> Self;
  if (B->getOpcode() == BO_Assign) {
    Self = combiningOperands(B->getRHS(), V, Op);
    // Under `if (x > m)`, `m = x` keeps the better value.
    Matches = !Self.empty() || B == GuardedCombine;
  }
  if (!Matches) {
    const bool Best = Op == ir::ReductionOp::Min || Op == ir::ReductionOp::Max;
    const char *Better = Op == ir::ReductionOp::Min ? "<" : ">";
    return failExpr(
        B->getOperatorLoc(),
        "reduction variable '" + V->getName().str() +
            "' must be combined with '" + combineSpelling(Op) +
            "' inside the loop",
        Best ? std::string("also accepted: 'v = std::f") +
                   (Op == ir::ReductionOp::Min ? "min" : "max") +
                   "(v, x)', 'v = x " + Better + " v ? x : v', 'if (x " +
                   Better +
                   " v) v = x;'; any other use of the partial value "
                   "depends on the order of the iterations"
             : std::string("the loop's iterations each add their part; any "
                           "other use of the partial value depends on their "
                           "order"));
  }
  const Expr *Target = stripped(B->getLHS());
  AllowedReductionRefs.insert(Target);
  ir::ExprPtr L =
      expr(B->getLHS(),
           B->getOpcode() == BO_Assign ? Access::Write : Access::ReadWrite);
  AllowedReductionRefs.erase(Target);
  AllowedReductionRefs.insert(Self.begin(), Self.end());
  ir::ExprPtr R = L ? expr(B->getRHS(), Access::Read) : nullptr;
  for (const Expr *D : Self)
    AllowedReductionRefs.erase(D);
  if (!R)
    return nullptr;
  auto E = make(ir::Expr::Binary, K.value_or(ir::ScalarKind::Int),
                BinaryOperator::getOpcodeStr(B->getOpcode()).str());
  E->Operands.push_back(std::move(L));
  E->Operands.push_back(std::move(R));
  return E;
}

} // namespace weft::recognize
