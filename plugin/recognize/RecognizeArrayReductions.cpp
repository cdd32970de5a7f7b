// RecognizeArrayReductions.cpp: reduction(op: a) naming an array, the
// histogram idiom: the level's iterations combine into a's elements at
// subscripts known only at run time, each update one atomic step.
#include "recognize/ReductionRecognizer.h"

namespace weft::recognize {

namespace {

/// What a user writes to combine into an element with Op.
std::string combineForm(ir::ReductionOp Op, const std::string &Name) {
  const std::string E = Name + "[e]", C = ir::spelling(Op);
  if (contract::reduceKind(Op) == contract::ReduceKind::Order)
    return E + " = std::" + C + "(" + E + ", x)', 'if (x " +
           (Op == ir::ReductionOp::Min ? "<" : ">") + " " + E + ") " + E +
           " = x;";
  return E + " " + C + "= x" +
         (Op == ir::ReductionOp::Add ? "', '++" + E : std::string());
}

/// The data an element expression (a[i], a[i][j], A[i, j]) indexes.
const Expr *elementRoot(const Expr *E) {
  while (true) {
    const Expr *X = E->IgnoreParenImpCasts();
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() >= 2)
      E = OC->getArg(0);
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X))
      E = AS->getBase();
    else
      return X;
  }
}

/// `x > t`, `t < x`, ... (>=, <= too): the operator that keeps x where
/// the comparison holds, with x; nullopt where Cond compares nothing with t.
std::optional<std::pair<ir::ReductionOp, const Expr *>>
keptWhenTrue(const Expr *Cond,
             llvm::function_ref<bool(const Expr *)> IsTarget) {
  const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!B || !(B->getOpcode() == BO_LT || B->getOpcode() == BO_LE ||
              B->getOpcode() == BO_GT || B->getOpcode() == BO_GE))
    return std::nullopt;
  const bool Greater = B->getOpcode() == BO_GT || B->getOpcode() == BO_GE;
  if (IsTarget(B->getRHS()) && !IsTarget(B->getLHS())) // x > t
    return std::make_pair(Greater ? ir::ReductionOp::Max : ir::ReductionOp::Min,
                          B->getLHS());
  if (IsTarget(B->getLHS()) && !IsTarget(B->getRHS())) // t < x
    return std::make_pair(Greater ? ir::ReductionOp::Min : ir::ReductionOp::Max,
                          B->getRHS());
  return std::nullopt;
}

bool isSubscript(const Expr *E) {
  const Expr *X = E->IgnoreParenImpCasts();
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
  return (OC && OC->getOperator() == OO_Subscript) ||
         isa<ArraySubscriptExpr>(X);
}

} // namespace

bool ReductionRecognizer::arrayReduction(const Stmt *Loop,
                                         const DeclRefExpr *Ref,
                                         const std::string &Op, ir::Level &L) {
  const std::string Name = Ref->getDecl()->getName().str();
  const std::optional<ir::ReductionOp> R = ir::reductionOpNamed(Op);
  if (!R || contract::reduceKind(*R) == contract::ReduceKind::Logical)
    return fail(Ref->getLocation(),
                "'" + Op + "' cannot reduce array '" + Name + "'",
                "arrays reduce with + * min max & | ^; for a flag per "
                "element, combine 0 and 1 with max or |"),
           false;
  std::optional<unsigned> P = spanOperand(Ref);
  if (!P)
    return false;
  const ir::Param &Array = Params[*P];
  if (Array.ConstElement)
    return fail(Ref->getLocation(),
                "array '" + Name +
                    "' has const elements, so the loop cannot reduce into "
                    "them"),
           false;
  const bool Bitwise =
      contract::reduceKind(*R) == contract::ReduceKind::Bitwise;
  const unsigned Bytes = ir::byteSize(Array.Element);
  if (Array.Struct >= 0 || (Bytes != 4 && Bytes != 8) ||
      (Bitwise && ir::isFloating(Array.Element)))
    return fail(Ref->getLocation(),
                "the elements of array '" + Name + "' cannot be reduced " +
                    (Array.Struct >= 0 ? "as structs"
                                       : "with '" + Op + "' as " +
                                             ir::spelling(Array.Element)),
                std::string("the GPUs combine 4- and 8-byte ") +
                    (Bitwise ? "integers" : "integers and floating values") +
                    " in one step: make the elements int, long long" +
                    (Bitwise ? "" : ", float or double")),
           false;
  if (ReducedArrays.count(*P))
    return fail(Ref->getLocation(),
                "array '" + Name + "' is already reduced by an enclosing loop",
                "name it in one reduction clause of the nest"),
           false;
  ReducedArrays[*P] = {*R, true, Loop->getBeginLoc()};
  L.ArrayReductions.push_back({*R, *P});
  return true;
}

std::optional<unsigned>
ReductionRecognizer::reducedArrayOf(const Expr *Element) const {
  if (!isSubscript(Element))
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(elementRoot(Element));
  auto Param = DRE ? CaptureIndex.find(DRE->getDecl()) : CaptureIndex.end();
  if (Param == CaptureIndex.end())
    return std::nullopt;
  auto It = ReducedArrays.find(Param->second);
  if (It == ReducedArrays.end() || !It->second.Active)
    return std::nullopt;
  return Param->second;
}

std::optional<ir::StmtPtr>
ReductionRecognizer::guardedArrayCombine(const IfStmt *If) {
  if (If->getElse() || If->getInit() || If->getConditionVariable())
    return std::nullopt;
  const Stmt *Then = If->getThen();
  if (const auto *Block = dyn_cast<CompoundStmt>(Then)) {
    if (Block->size() != 1)
      return std::nullopt;
    Then = Block->body_front();
  }
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Then))
    Then = Cleanups->getSubExpr();
  const auto *Assign = dyn_cast<BinaryOperator>(Then);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return std::nullopt;
  std::optional<unsigned> P = reducedArrayOf(Assign->getLHS());
  if (!P)
    return std::nullopt;
  auto Kept = keptWhenTrue(If->getCond(), [&](const Expr *E) {
    return sameValue(E, Assign->getLHS());
  });
  // `if (x > a[e]) a[e] = x;`: the update, when it keeps the better value.
  if (!Kept || Kept->first != ReducedArrays.find(*P)->second.Op ||
      !sameValue(Kept->second, Assign->getRHS()))
    return std::nullopt;
  const Expr *SavedUnused = UnusedValue;
  UnusedValue = Assign;
  ir::ExprPtr C = arrayCombine(Assign, Assign->getLHS(), *P, Kept->second);
  UnusedValue = SavedUnused;
  if (!C)
    return ir::StmtPtr();
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::ExprStmt;
  S->Exprs.push_back(std::move(C));
  return S;
}

ir::ExprPtr ReductionRecognizer::arrayCombine(const Expr *Update,
                                              const Expr *Target, unsigned P,
                                              const Expr *Guarded) {
  const ReducedArray &Array = ReducedArrays.find(P)->second;
  const std::string Name = Params[P].Name;
  const std::string Form = combineForm(Array.Op, Name);
  const ir::ScalarKind Element = Params[P].Element;
  if (Update != UnusedValue)
    return failExpr(Update->getExprLoc(),
                    "the value of an update of '" + Name +
                        "', which the loop reduces, cannot be used",
                    "update it in a statement of its own: '" + Form + "'");
  // The update's operator and the value it combines; Negated: `a[e] -= x`
  // adds -x.
  std::optional<ir::ReductionOp> Op;
  const Expr *Value = nullptr;
  bool Negated = false;
  const auto *U = dyn_cast<UnaryOperator>(Update);
  if (Guarded) {
    Op = Array.Op;
    Value = Guarded;
  } else if (U) {
    Op = ir::ReductionOp::Add;
    Negated = U->isDecrementOp();
  } else {
    const auto *B = cast<BinaryOperator>(Update);
    if (const std::optional<ir::ReductionOp> R =
            compoundReduction(B->getOpcode())) {
      Op = R;
      Value = B->getRHS();
      Negated = B->getOpcode() == BO_SubAssign;
    }
    auto IsTarget = [&](const Expr *E) { return sameValue(E, Target); };
    const Expr *RHS = stripped(B->getRHS());
    if (B->getOpcode() == BO_Assign) {
      // a[e] = a[e] + x, a[e] = x * a[e], a[e] = a[e] - x
      if (const auto *Sum = dyn_cast<BinaryOperator>(RHS)) {
        const BinaryOperatorKind BO = Sum->getOpcode();
        const std::optional<ir::ReductionOp> R =
            BO == BO_Sub ? ir::ReductionOp::Add : binaryReduction(BO);
        if (R && contract::reduceKind(*R) != contract::ReduceKind::Logical) {
          if (IsTarget(Sum->getLHS()))
            Value = Sum->getRHS();
          else if (BO != BO_Sub && IsTarget(Sum->getRHS()))
            Value = Sum->getLHS();
          if (Value) {
            Op = R;
            Negated = BO == BO_Sub;
          }
        }
      }
      // a[e] = std::max(a[e], x), fmin, either order
      if (const auto *C = dyn_cast<CallExpr>(RHS);
          C && C->getNumArgs() == 2 && C->getDirectCallee() &&
          C->getDirectCallee()->getIdentifier()) {
        llvm::StringRef F = C->getDirectCallee()->getName();
        const bool Min = F == "min" || F == "fmin" || F == "fminf";
        const bool Max = F == "max" || F == "fmax" || F == "fmaxf";
        if ((Min || Max) && IsTarget(C->getArg(0)))
          Value = C->getArg(1);
        else if ((Min || Max) && IsTarget(C->getArg(1)))
          Value = C->getArg(0);
        if (Value)
          Op = Min ? ir::ReductionOp::Min : ir::ReductionOp::Max;
      }
      // a[e] = x > a[e] ? x : a[e], and the other orders that keep the
      // better value
      if (const auto *C = dyn_cast<ConditionalOperator>(RHS))
        if (auto Kept = keptWhenTrue(C->getCond(), IsTarget)) {
          const bool TakenFirst = IsTarget(C->getFalseExpr());
          const Expr *Taken = TakenFirst ? C->getTrueExpr() : C->getFalseExpr();
          const Expr *Other = TakenFirst ? C->getFalseExpr() : C->getTrueExpr();
          const ir::ReductionOp R = TakenFirst
                                        ? Kept->first
                                        : (Kept->first == ir::ReductionOp::Max
                                               ? ir::ReductionOp::Min
                                               : ir::ReductionOp::Max);
          if (IsTarget(Other) && sameValue(Taken, Kept->second)) {
            Op = R;
            Value = Taken;
          }
        }
    }
  }
  if (!Op || *Op != Array.Op)
    return failExpr(Update->getExprLoc(),
                    "array '" + Name + "' is reduced with '" +
                        ir::spelling(Array.Op) +
                        "': inside the loop its elements may only be "
                        "combined so",
                    "write '" + Form + "'");
  if (Value && isInteger(Element) &&
      Value->IgnoreParenImpCasts()->getType()->isRealFloatingType())
    return failExpr(Value->getBeginLoc(),
                    "a floating value combined into integer array '" + Name +
                        "' is rounded at each update, which the combining "
                        "order would change",
                    "convert it first: '" + Name + "[e] " +
                        (Array.Op == ir::ReductionOp::Add ? "+" : "*") + "= (" +
                        ir::spelling(Element) + ")x'");
  const Expr *SavedCombined = CombinedElement;
  CombinedElement = stripped(Target);
  ir::ExprPtr Into = expr(Target, Access::ReadWrite);
  CombinedElement = SavedCombined;
  if (!Into)
    return nullptr;
  ir::ExprPtr By = Value ? expr(Value, Access::Read)
                         : make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "1");
  if (!By)
    return nullptr;
  if (Negated) {
    auto Minus = make(ir::Expr::Unary, By->Type, "-");
    Minus->Operands.push_back(std::move(By));
    By = std::move(Minus);
  }
  auto C = make(ir::Expr::Combine, Element, ir::spelling(Array.Op));
  C->Operands.push_back(std::move(Into));
  C->Operands.push_back(std::move(By));
  return C;
}

void ReductionRecognizer::checkReducedArrayUses() {
  for (const auto &[P, Array] : ReducedArrays)
    if (auto Use = PlainArrayUses.find(P); Use != PlainArrayUses.end()) {
      fail(Use->second,
           "array '" + Params[P].Name +
               "' is reduced by a loop of this nest, so the nest may only "
               "combine into its elements",
           "read it after the nest, or combine into it in the reducing "
           "loop: '" +
               combineForm(Array.Op, Params[P].Name) + "'");
      diagnose(Diags, Array.Loop, DiagnosticsEngine::Note,
               "reduced by this loop");
      return;
    }
}

} // namespace weft::recognize
