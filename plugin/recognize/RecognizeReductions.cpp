// RecognizeReductions.cpp: reduction clauses and the combining
// statements (`s += e`, `s = std::max(s, e)`) a level's reduction may make.
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

const DeclRefExpr *Recognizer::combiningOperand(const Expr *RHS,
                                                const VarDecl *V,
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
          return D;
        return IsV(B->getRHS());
      }
    return nullptr;
  }
  if (const auto *C = dyn_cast<CallExpr>(RHS)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !FD->getIdentifier() || C->getNumArgs() != 2)
      return nullptr;
    llvm::StringRef Name = FD->getName();
    const bool Min = Name == "min" || Name == "fmin" || Name == "fminf";
    const bool Max = Name == "max" || Name == "fmax" || Name == "fmaxf";
    if ((Op == ir::ReductionOp::Min && Min) ||
        (Op == ir::ReductionOp::Max && Max)) {
      if (const DeclRefExpr *D = IsV(C->getArg(0)))
        return D;
      return IsV(C->getArg(1));
    }
  }
  return nullptr;
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
  const DeclRefExpr *Self = nullptr;
  if (B->getOpcode() == BO_Assign)
    Matches = (Self = combiningOperand(B->getRHS(), V, Op)) != nullptr;
  if (!Matches)
    return failExpr(B->getOperatorLoc(),
                    "reduction variable '" + V->getName().str() +
                        "' must be combined with '" + combineSpelling(Op) +
                        "' inside the loop",
                    "the loop's iterations each add their part; any other "
                    "use of the partial value depends on their order");
  AllowedReductionRef = cast<DeclRefExpr>(stripped(B->getLHS()));
  ir::ExprPtr L =
      expr(B->getLHS(),
           B->getOpcode() == BO_Assign ? Access::Write : Access::ReadWrite);
  AllowedReductionRef = Self;
  ir::ExprPtr R = L ? expr(B->getRHS(), Access::Read) : nullptr;
  AllowedReductionRef = nullptr;
  if (!R)
    return nullptr;
  auto E = make(ir::Expr::Binary, K.value_or(ir::ScalarKind::Int),
                BinaryOperator::getOpcodeStr(B->getOpcode()).str());
  E->Operands.push_back(std::move(L));
  E->Operands.push_back(std::move(R));
  return E;
}

} // namespace weft::recognize
