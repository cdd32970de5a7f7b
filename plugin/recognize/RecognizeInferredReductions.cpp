// RecognizeInferredReductions.cpp: the reductions a level's body implies
// without a clause, as old code writes them: `sum += x;`, `sum = sum + x;`,
// `count++;`, `if (x > best) best = x;`, `m = std::max(m, x);`, and the
// value and index of the best element, `if (x > best) { best = x; at = i; }`.
#include "recognize/ReductionRecognizer.h"

namespace weft::recognize {

namespace {

/// S without the cleanups around it.
const Stmt *withoutCleanups(const Stmt *S) {
  if (const auto *Cleanups = dyn_cast_or_null<ExprWithCleanups>(S))
    return Cleanups->getSubExpr();
  return S;
}

/// The statement around S, past cleanups and parentheses.
const Stmt *enclosing(const Stmt *S, const ParentMap &Parents) {
  const Stmt *P = Parents.getParentIgnoreParens(S);
  if (isa_and_nonnull<ExprWithCleanups>(P))
    P = Parents.getParentIgnoreParens(P);
  return P;
}

/// The `if` without else whose then-branch is S, or a block of Size
/// statements holding S.
const IfStmt *guardingIf(const Stmt *S, unsigned Size,
                         const ParentMap &Parents) {
  const Stmt *Then = S;
  const Stmt *P = Parents.getParentIgnoreParens(S);
  if (isa_and_nonnull<ExprWithCleanups>(P)) {
    Then = P;
    P = Parents.getParentIgnoreParens(P);
  }
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(P)) {
    if (Block->size() != Size)
      return nullptr;
    Then = Block;
    P = Parents.getParent(Block);
  } else if (Size != 1) {
    return nullptr;
  }
  const auto *If = dyn_cast_or_null<IfStmt>(P);
  if (!If || If->getThen() != Then || If->getElse() || If->getInit() ||
      If->getConditionVariable())
    return nullptr;
  return If;
}

} // namespace

std::optional<ir::ReductionOp> ReductionRecognizer::updateThrough(
    const VarDecl *V, const Stmt *Ref,
    llvm::SmallPtrSetImpl<const Stmt *> &Covered) {
  const ParentMap &Parents = nestParents();
  const Stmt *Update = Parents.getParentIgnoreParens(Ref);
  std::optional<ir::ReductionOp> Op;
  llvm::SmallVector<const Expr *, 2> Read;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Update);
      U && U->isIncrementDecrementOp()) {
    Op = ir::ReductionOp::Add;
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(Update);
             B && B->getLHS()->IgnoreParens() == Ref) {
    if (B->getOpcode() != BO_Assign) {
      Op = compoundReduction(B->getOpcode());
    } else {
      // v = v op e, v = e op v, v = std::max(v, e), v = e > v ? e : v: every
      // other reference to v in the value one of the operands it combines.
      const std::size_t InValue = referencesIn(B->getRHS()).lookup(V).size();
      for (ir::ReductionOp Candidate : contract::AllReduceOps) {
        Read = combiningOperands(B->getRHS(), V, Candidate);
        if (!Read.empty() && Read.size() == InValue) {
          Op = Candidate;
          break;
        }
      }
      // if (x > v) v = x;
      const IfStmt *If = InValue == 0 ? guardingIf(B, 1, Parents) : nullptr;
      for (ir::ReductionOp Candidate :
           {ir::ReductionOp::Max, ir::ReductionOp::Min}) {
        const Expr *Compared = nullptr;
        if (!Op && If && referencesIn(If->getCond()).lookup(V).size() == 1 &&
            keepsBetter(If, B, V, Candidate, Compared)) {
          Op = Candidate;
          Read = {Compared};
        }
      }
    }
  }
  // The update's own value goes nowhere.
  if (!Op || isa_and_nonnull<Expr>(enclosing(Update, Parents)))
    return std::nullopt;
  Covered.insert(Ref);
  Covered.insert(Read.begin(), Read.end());
  return Op;
}

std::optional<syntax::Reduction> ReductionRecognizer::inferredArgReduction(
    const VarDecl *Value, const Stmt *Ref, const References &InBody,
    llvm::function_ref<bool(const VarDecl *)> Reducible) {
  const ParentMap &Parents = nestParents();
  const auto *SetValue =
      dyn_cast_or_null<BinaryOperator>(Parents.getParentIgnoreParens(Ref));
  if (!SetValue || SetValue->getOpcode() != BO_Assign ||
      SetValue->getLHS()->IgnoreParens() != Ref)
    return std::nullopt;
  const IfStmt *If = guardingIf(SetValue, 2, Parents);
  if (!If)
    return std::nullopt;
  const Expr *Compared = nullptr, *Ref2 = nullptr;
  bool Max = false; // where `<` keeps the smaller value: an argmin
  if (!comparesWithValue(If->getCond(), Value, ir::ReductionOp::Max, Compared,
                         Ref2, Max) ||
      !sameValue(SetValue->getRHS(), Compared))
    return std::nullopt;
  // The block's other statement: at = i, i this level's index.
  const VarDecl *At = nullptr;
  for (const Stmt *S : cast<CompoundStmt>(If->getThen())->body()) {
    const VarDecl *Assigned = nullptr;
    const BinaryOperator *B = variableAssignment(withoutCleanups(S), Assigned);
    if (!B || Assigned == Value)
      continue;
    const auto *Index = dyn_cast<DeclRefExpr>(stripped(B->getRHS()));
    if (Index && !Indices.empty() && Index->getDecl() == Indices.back())
      At = Assigned;
  }
  std::optional<ir::ScalarKind> AtKind =
      At ? scalarKind(At->getType()) : std::nullopt;
  if (!AtKind || !isInteger(*AtKind) || *AtKind == ir::ScalarKind::Bool ||
      !Reducible(At) || InBody.lookup(Value).size() != 2 ||
      InBody.lookup(At).size() != 1)
    return std::nullopt;
  syntax::Reduction R;
  R.Operator = Max ? "argmax" : "argmin";
  R.Variables = {Value->getName().str(), At->getName().str()};
  return R;
}

std::vector<syntax::Reduction>
ReductionRecognizer::inferredReductions(const Stmt *Body,
                                        const syntax::Clauses &C) {
  const References InBody = referencesIn(Body);
  // A scalar from outside the level, local to the function, that no clause
  // names and nothing else reduces.
  auto Reducible = [&](const VarDecl *V) {
    const bool Outside = Locals.contains(V)
                             ? LocalDepth.lookup(V) < Indices.size()
                             : !Privates.contains(V) &&
                                   SM.isBeforeInTranslationUnit(
                                       V->getLocation(), Loop->getBeginLoc());
    if (!scalarKind(V->getType()) || !Outside || !V->hasLocalStorage() ||
        V->getType()->isReferenceType() || V->getType().isVolatileQualified() ||
        ActiveReductions.count(V) || isParallelIndex(V) || RowViews.count(V) ||
        argReductionOf(V))
      return false;
    for (const syntax::Reduction &R : C.Reductions)
      if (llvm::is_contained(R.Variables, V->getName()))
        return false;
    return true;
  };
  std::vector<syntax::Reduction> Found;
  for (const auto &[V, Refs] : InBody) {
    if (!Reducible(V))
      continue;
    // Every use an update of one operator, or a read such an update makes
    // (which may come first: `if (x > m) m = x;`).
    std::optional<ir::ReductionOp> Op;
    llvm::SmallPtrSet<const Stmt *, 8> Covered;
    bool Updates = true;
    for (const Stmt *R : Refs) {
      std::optional<ir::ReductionOp> This = updateThrough(V, R, Covered);
      Updates = Updates && (!This || !Op || This == Op);
      Op = This ? This : Op;
    }
    const ir::ScalarKind K = *scalarKind(V->getType());
    const contract::ReduceKind Kind =
        Op ? contract::reduceKind(*Op) : contract::ReduceKind::Bitwise;
    const bool Arithmetic = Kind == contract::ReduceKind::Arithmetic ||
                            Kind == contract::ReduceKind::Order;
    if (Updates && Op && Covered.size() == Refs.size() &&
        (Arithmetic || !ir::isFloating(K))) {
      syntax::Reduction R;
      R.Operator = ir::spelling(*Op);
      R.Variables.push_back(V->getName().str());
      Found.push_back(std::move(R));
      continue;
    }
    bool Arg = false;
    for (const Stmt *R : Refs)
      if (std::optional<syntax::Reduction> A =
              inferredArgReduction(V, R, InBody, Reducible)) {
        Found.push_back(std::move(*A));
        Arg = true;
        break;
      }
    // A flag of the outermost level, which the iterations only set, each
    // to one constant: `changed = 1;`.
    std::optional<llvm::APSInt> Stored;
    bool Flag = !Arg && Indices.size() == 1 &&
                (isInteger(K) || K == ir::ScalarKind::Bool);
    for (const Stmt *R : Refs) {
      std::optional<llvm::APSInt> Value = Flag ? storedBy(R) : std::nullopt;
      Flag = Value && (!Stored || llvm::APSInt::isSameValue(*Stored, *Value));
      Stored = Value;
    }
    if (Flag && Stored) {
      syntax::Reduction R;
      R.Operator = "flag";
      R.Variables.push_back(V->getName().str());
      Found.push_back(std::move(R));
    }
  }
  return Found;
}

std::optional<llvm::APSInt> ReductionRecognizer::storedBy(const Stmt *Ref) {
  const auto *Set = dyn_cast_or_null<BinaryOperator>(
      nestParents().getParentIgnoreParens(Ref));
  Expr::EvalResult Value;
  if (!Set || Set->getOpcode() != BO_Assign ||
      Set->getLHS()->IgnoreParens() != Ref ||
      isa_and_nonnull<Expr>(nestParents().getParentIgnoreParens(Set)) ||
      !Set->getRHS()->EvaluateAsInt(Value, Ctx))
    return std::nullopt;
  return Value.Val.getInt();
}

bool ReductionRecognizer::flagReduction(const Stmt *Body,
                                        const syntax::Reduction &Clause,
                                        ir::Level &L) {
  const DeclRefExpr *Ref = findReference(Body, Clause.Variables[0]);
  const auto *V = cast<VarDecl>(Ref->getDecl());
  ir::Param P;
  P.Name = "weft_flag" + std::to_string(Flags.size());
  P.Kind = ir::ParamKind::ReductionTarget;
  P.Element = ir::ScalarKind::Int;
  Capture C;
  C.Source = Ref;
  C.Stored = storedBy(Ref);
  const unsigned Param = addParam(std::move(P), std::move(C));
  ir::Reduction Reduced;
  Reduced.Op = ir::ReductionOp::LogicalOr;
  Reduced.Variable = Params[Param].Name;
  Reduced.Type = ir::ScalarKind::Int;
  Reduced.ParamIndex = static_cast<int>(Param);
  L.Reductions.push_back(std::move(Reduced));
  Flags[V] = Param;
  return true;
}

std::optional<ir::StmtPtr> ReductionRecognizer::flagSet(const Expr *E) {
  const auto *Set = dyn_cast<BinaryOperator>(E);
  const auto *Ref = Set && Set->getOpcode() == BO_Assign
                        ? dyn_cast<DeclRefExpr>(Set->getLHS()->IgnoreParens())
                        : nullptr;
  const auto It =
      Ref ? Flags.find(dyn_cast<VarDecl>(Ref->getDecl())) : Flags.end();
  if (It == Flags.end())
    return std::nullopt;
  // Some iteration set it: the key becomes 1.
  auto Key = make(ir::Expr::ParamRef, ir::ScalarKind::Int);
  Key->ParamIndex = It->second;
  markUse(It->second, Access::ReadWrite);
  auto Assign = make(ir::Expr::Binary, ir::ScalarKind::Int, "=");
  Assign->Operands.push_back(std::move(Key));
  Assign->Operands.push_back(
      make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "1"));
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::ExprStmt;
  S->Exprs.push_back(std::move(Assign));
  return S;
}

} // namespace weft::recognize
