// RecognizeReductions.cpp: reduction clauses and the combining
// statements (`s += e`, `s = std::max(s, e)`, `if (x > m) m = x;`) a
// level's reduction may make.
#include "recognize/Recognizer.h"

namespace weft::recognize {

const VarDecl *Recognizer::reduction(Stmt *Loop, const Stmt *Body,
                                     const std::string &Op,
                                     const std::string &Name, ir::Level &L) {
  // The variable is the one the loop's body refers to by that name.
  const DeclRefExpr *Ref = findReference(Body, Name);
  if (!Ref)
    return fail(Loop->getBeginLoc(),
                "reduction variable '" + Name + "' is not used in the loop",
                "name a variable that the loop combines, as in "
                "'reduction(+: sum)'"),
           nullptr;
  const auto *V = cast<VarDecl>(Ref->getDecl());
  std::optional<ir::ScalarKind> K =
      scalarKind(V->getType().getNonReferenceType());
  static const std::pair<const char *, ir::ReductionOp> Ops[] = {
      {"+", ir::ReductionOp::Add},    {"*", ir::ReductionOp::Mul},
      {"min", ir::ReductionOp::Min},  {"max", ir::ReductionOp::Max},
      {"&", ir::ReductionOp::BitAnd}, {"|", ir::ReductionOp::BitOr},
      {"^", ir::ReductionOp::BitXor}, {"&&", ir::ReductionOp::And},
      {"||", ir::ReductionOp::Or}};
  ir::Reduction R;
  for (const auto &[Spelling, Kind] : Ops)
    if (Op == Spelling)
      R.Op = Kind;
  const bool Bitwise = R.Op == ir::ReductionOp::BitAnd ||
                       R.Op == ir::ReductionOp::BitOr ||
                       R.Op == ir::ReductionOp::BitXor;
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
    if (V->hasGlobalStorage())
      return fail(Ref->getLocation(),
                  "global variable '" + Name + "' cannot be a reduction target",
                  "reduce into a local variable"),
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

const DeclRefExpr *Recognizer::findReference(const Stmt *S,
                                             const std::string &Name) {
  if (!S)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (isa<VarDecl>(DRE->getDecl()) && DRE->getDecl()->getName() == Name)
      return DRE;
  for (const Stmt *C : S->children())
    if (const DeclRefExpr *R = findReference(C, Name))
      return R;
  return nullptr;
}

const Expr *Recognizer::stripped(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else
      return E;
  }
}

const VarDecl *Recognizer::reductionVariable(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(stripped(E));
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && ActiveReductions.count(V) ? V : nullptr;
}

const char *Recognizer::combineSpelling(ir::ReductionOp Op) {
  switch (Op) {
  case ir::ReductionOp::Add:
    return "v += ...";
  case ir::ReductionOp::Mul:
    return "v *= ...";
  case ir::ReductionOp::Min:
    return "v = std::min(v, ...)";
  case ir::ReductionOp::Max:
    return "v = std::max(v, ...)";
  case ir::ReductionOp::BitAnd:
    return "v &= ...";
  case ir::ReductionOp::BitOr:
    return "v |= ...";
  case ir::ReductionOp::BitXor:
    return "v ^= ...";
  case ir::ReductionOp::And:
    return "v = v && ...";
  case ir::ReductionOp::Or:
    return "v = v || ...";
  }
  return "";
}

llvm::SmallVector<const DeclRefExpr *, 2>
Recognizer::combiningOperands(const Expr *RHS, const VarDecl *V,
                              ir::ReductionOp Op) const {
  RHS = stripped(RHS);
  auto IsV = [&](const Expr *E) -> const DeclRefExpr * {
    const auto *DRE = dyn_cast<DeclRefExpr>(stripped(E));
    return DRE && DRE->getDecl() == V ? DRE : nullptr;
  };
  if (const auto *B = dyn_cast<BinaryOperator>(RHS)) {
    static const std::pair<ir::ReductionOp, BinaryOperatorKind> Ops[] = {
        {ir::ReductionOp::Add, BO_Add},    {ir::ReductionOp::Mul, BO_Mul},
        {ir::ReductionOp::BitAnd, BO_And}, {ir::ReductionOp::BitOr, BO_Or},
        {ir::ReductionOp::BitXor, BO_Xor}, {ir::ReductionOp::And, BO_LAnd},
        {ir::ReductionOp::Or, BO_LOr}};
    for (const auto &[R, BO] : Ops)
      if (R == Op && B->getOpcode() == BO) {
        if (const DeclRefExpr *D = IsV(B->getLHS()))
          return {D};
        if (const DeclRefExpr *D = IsV(B->getRHS()))
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
      if (const DeclRefExpr *D = IsV(C->getArg(0)))
        return {D};
      if (const DeclRefExpr *D = IsV(C->getArg(1)))
        return {D};
    }
    return {};
  }
  // e > v ? e : v and the like: the condition picks the better of v and a
  // value, and the branches are that value and v.
  if (const auto *C = dyn_cast<ConditionalOperator>(RHS); C && Best) {
    const Expr *Value = nullptr;
    const DeclRefExpr *InCondition = nullptr;
    bool ValueWhenTrue = false;
    if (!comparesWithValue(C->getCond(), V, Op, Value, InCondition,
                           ValueWhenTrue))
      return {};
    const Expr *Taken = ValueWhenTrue ? C->getTrueExpr() : C->getFalseExpr();
    const DeclRefExpr *Kept =
        IsV(ValueWhenTrue ? C->getFalseExpr() : C->getTrueExpr());
    if (Kept && sameValue(Taken, Value))
      return {InCondition, Kept};
  }
  return {};
}

bool Recognizer::comparesWithValue(const Expr *Cond, const VarDecl *V,
                                   ir::ReductionOp Op, const Expr *&Value,
                                   const DeclRefExpr *&Ref,
                                   bool &ValueWhenTrue) const {
  const auto *B = dyn_cast<BinaryOperator>(stripped(Cond));
  if (!B || !(B->getOpcode() == BO_LT || B->getOpcode() == BO_LE ||
              B->getOpcode() == BO_GT || B->getOpcode() == BO_GE))
    return false;
  auto IsV = [&](const Expr *E) -> const DeclRefExpr * {
    const auto *DRE = dyn_cast<DeclRefExpr>(stripped(E));
    return DRE && DRE->getDecl() == V ? DRE : nullptr;
  };
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

bool Recognizer::sameValue(const Expr *A, const Expr *B) const {
  if (A->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) ||
      B->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return false;
  llvm::FoldingSetNodeID IdA, IdB;
  stripped(A)->Profile(IdA, Ctx, /*Canonical=*/true);
  stripped(B)->Profile(IdB, Ctx, /*Canonical=*/true);
  return IdA == IdB;
}

const BinaryOperator *
Recognizer::guardedCombine(const IfStmt *If, const DeclRefExpr *&Ref) const {
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
  const ir::ReductionOp Op = ActiveReductions.lookup(V);
  const Expr *Value = nullptr;
  bool ValueWhenTrue = false;
  if ((Op != ir::ReductionOp::Min && Op != ir::ReductionOp::Max) ||
      !comparesWithValue(If->getCond(), V, Op, Value, Ref, ValueWhenTrue) ||
      !ValueWhenTrue || !sameValue(Assign->getRHS(), Value))
    return nullptr;
  return Assign;
}

ir::ExprPtr Recognizer::combine(const BinaryOperator *B, const VarDecl *V,
                                std::optional<ir::ScalarKind> K) {
  const ir::ReductionOp Op = ActiveReductions.lookup(V);
  static const std::pair<ir::ReductionOp, BinaryOperatorKind> Compound[] = {
      {ir::ReductionOp::Add, BO_AddAssign},
      {ir::ReductionOp::Mul, BO_MulAssign},
      {ir::ReductionOp::BitAnd, BO_AndAssign},
      {ir::ReductionOp::BitOr, BO_OrAssign},
      {ir::ReductionOp::BitXor, BO_XorAssign}};
  bool Matches = false;
  for (const auto &[R, BO] : Compound)
    Matches = Matches || (R == Op && B->getOpcode() == BO);
  llvm::SmallVector<const DeclRefExpr *, 2> Self;
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
  const auto *Target = cast<DeclRefExpr>(stripped(B->getLHS()));
  AllowedReductionRefs.insert(Target);
  ir::ExprPtr L =
      expr(B->getLHS(),
           B->getOpcode() == BO_Assign ? Access::Write : Access::ReadWrite);
  AllowedReductionRefs.erase(Target);
  AllowedReductionRefs.insert(Self.begin(), Self.end());
  ir::ExprPtr R = L ? expr(B->getRHS(), Access::Read) : nullptr;
  for (const DeclRefExpr *D : Self)
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
