// RecognizeHeaderVariables.cpp: variables a parallel loop's header declares
// or sets beside its index, as C and C++ code writes them: a bound computed
// once (`for (int i = 0, n = v.size(); i < n; ++i)`) and indices or
// pointers stepping with the index (`for (i = 0, j = n - 1; i < n;
// ++i, --j)`, `++i, ++p`). Each iteration computes its own value of each
// from the index, so the iterations stay independent.
#include "recognize/Recognizer.h"

namespace weft::recognize {

namespace {

/// A step of a variable in a loop's increment: `++j`, `j--`, `j += c`,
/// `j = j - c`; By is null for a step of one.
struct VariableStep {
  const Expr *Step = nullptr;
  const VarDecl *Var = nullptr;
  const Expr *By = nullptr;
  bool Back = false;
};

std::optional<VariableStep> variableStep(const Expr *E) {
  auto VarOf = [](const Expr *X) -> const VarDecl * {
    const auto *DRE = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  };
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (const VarDecl *V = VarOf(U->getSubExpr());
        V && U->isIncrementDecrementOp())
      return VariableStep{E, V, nullptr, U->isDecrementOp()};
    return std::nullopt;
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  const VarDecl *V = B ? VarOf(B->getLHS()) : nullptr;
  if (!V)
    return std::nullopt;
  if (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign)
    return VariableStep{E, V, B->getRHS(), B->getOpcode() == BO_SubAssign};
  if (const auto *Sum =
          dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
      B->getOpcode() == BO_Assign && Sum &&
      (Sum->getOpcode() == BO_Add || Sum->getOpcode() == BO_Sub) &&
      VarOf(Sum->getLHS()) == V)
    return VariableStep{E, V, Sum->getRHS(), Sum->getOpcode() == BO_Sub};
  return std::nullopt;
}

/// Whether Ref, a reference, is what its parent writes (or takes the
/// address of, through which it may be written).
bool isWriteOf(const Stmt *Ref, const ParentMap &Parents) {
  const Stmt *P = Parents.getParentIgnoreParens(Ref);
  const auto *B = dyn_cast_or_null<BinaryOperator>(P);
  const auto *U = dyn_cast_or_null<UnaryOperator>(P);
  return (B && B->isAssignmentOp() && B->getLHS()->IgnoreParens() == Ref) ||
         (U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf));
}

} // namespace

bool Recognizer::headerVariables(ForStmt *F, const VarDecl *&IV) {
  const char *Form = "write the loop as 'for (int i = lo; i < hi; ++i)'";
  IV = nullptr;
  HeaderStart = nullptr;
  HeaderInc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
  Companions.clear();
  // What the initializer declares or (C89) sets, with its initial values.
  llvm::SmallVector<std::pair<const VarDecl *, const Expr *>, 2> Set;
  if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->getInit())
        return true; // no index: the caller says so
      Set.push_back({V, V->getInit()});
    }
  } else if (const auto *Init = dyn_cast_or_null<Expr>(F->getInit())) {
    llvm::SmallVector<const Expr *, 2> Parts;
    commaOperands(Init, Parts);
    for (const Expr *Part : Parts) {
      const VarDecl *Assigned;
      const BinaryOperator *A = variableAssignment(Part, Assigned);
      if (!A || !Assigned->hasLocalStorage() ||
          Assigned->getType()->isReferenceType())
        return true;
      Set.push_back({Assigned, A->getRHS()});
    }
  }
  if (Set.empty())
    return true;
  // The index is the variable the condition compares (`i < n`, `i + 1 < n`,
  // `n > i`), the only one where there is one.
  if (Set.size() == 1) {
    std::tie(IV, HeaderStart) = Set.front();
    return true;
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !Cond->isComparisonOp())
    return true;
  // (A side `i + c` compares i.)
  auto Compared = [](const Expr *Side) {
    Side = Side->IgnoreParenImpCasts();
    if (const auto *Sum = dyn_cast<BinaryOperator>(Side);
        Sum && Sum->getOpcode() == BO_Add)
      Side = Sum->getLHS()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Side);
    return DRE ? DRE->getDecl() : nullptr;
  };
  for (const auto &[V, Init] : Set)
    if ((Compared(Cond->getLHS()) == V || Compared(Cond->getRHS()) == V) &&
        V->getType()->isIntegerType() && scalarKind(V->getType())) {
      IV = V;
      HeaderStart = Init;
      break;
    }
  if (!IV)
    return true;
  // The increment: the index's step, and one step or none for each other
  // variable.
  llvm::SmallVector<const Expr *, 2> Steps;
  if (HeaderInc)
    commaOperands(HeaderInc, Steps);
  HeaderInc = nullptr;
  llvm::DenseMap<const VarDecl *, VariableStep> StepOf;
  const References InBody = referencesIn(F->getBody());
  for (const Expr *S : Steps) {
    const std::optional<VariableStep> Step = variableStep(S);
    if (Step && Step->Var == IV && !HeaderInc) {
      HeaderInc = S;
      continue;
    }
    // Each other variable once, by a value the loop does not change.
    bool Fits =
        Step && !StepOf.count(Step->Var) &&
        llvm::any_of(Set, [&](const auto &P) { return P.first == Step->Var; });
    if (Fits && Step->By)
      for (const auto &[V, Refs] : referencesIn(Step->By))
        Fits =
            Fits && !Step->By->HasSideEffects(Ctx) &&
            llvm::none_of(Set, [&](const auto &P) { return P.first == V; }) &&
            llvm::none_of(InBody.lookup(V), [&](const Stmt *R) {
              return isWriteOf(R, nestParents());
            });
    if (!Fits)
      return fail(S->getBeginLoc(),
                  "the increment of a parallel loop may step its index and "
                  "the variables its header declares beside it, each once, "
                  "by a value the loop does not change",
                  Form),
             false;
    StepOf[Step->Var] = *Step;
  }
  for (const auto &[V, Init] : Set) {
    if (V == IV)
      continue;
    const QualType T = V->getType();
    const bool Pointer = T->isPointerType();
    const VariableStep Step = StepOf.lookup(V);
    if (!Pointer && !(T->isIntegerType() && scalarKind(T)) && Step.Var)
      return fail(Step.Step->getBeginLoc(),
                  "'" + V->getName().str() +
                      "' steps with the loop's index, but only an integer "
                      "or a pointer can: a value summed step by step rounds "
                      "otherwise than one computed from the index",
                  "compute it from the index in the body ('" +
                      V->getName().str() + " = start + i * step')"),
             false;
    // Its value in an iteration comes from the first one's: nothing in
    // the header may change that.
    for (const auto &[Other, OtherInit] : Set)
      if (referencesIn(Init).count(Other))
        return fail(Init->getBeginLoc(),
                    "the initial value of '" + V->getName().str() +
                        "' reads '" + Other->getName().str() +
                        "', which the same header sets",
                    "compute it from variables set before the loop"),
               false;
    for (const Stmt *R : InBody.lookup(V))
      if (isWriteOf(R, nestParents()))
        return fail(R->getBeginLoc(),
                    "'" + V->getName().str() +
                        "' is set by the loop's header; its body may read "
                        "it, not change it",
                    "use a variable declared in the body"),
               false;
    if (!isa<DeclStmt>(F->getInit()) && !outsideIndex(V, F))
      return false;
    Companions.push_back({V, Init, Step.Var != nullptr, Step.By, Step.Back});
    if (!Step.Var)
      HeaderValues[V] = Init;
  }
  return true;
}

void Recognizer::declareCompanions(const ir::Level &L,
                                   std::vector<ir::StmtPtr> &Out) {
  const VarDecl *IV = Indices.back();
  for (const HeaderCompanion &C : Companions) {
    HeaderValues.erase(C.Var);
    // The iterations before this one: (i - start) / step, counted down
    // (start - i) / step.
    auto Binary = [](const char *Op, ir::ExprPtr A, ir::ExprPtr B) {
      const ir::ScalarKind T = A->Type;
      return operation(Op, std::move(A), std::move(B), T);
    };
    ir::ExprPtr Index = make(ir::Expr::Local, L.IndexType, IV->getName().str());
    // (The level's bound read from the header's start: Lower, counted
    // down Upper.)
    ir::ExprPtr Start = ir::cloneExpr(L.CountsDown ? *L.Upper : *L.Lower);
    ir::ExprPtr Done = L.CountsDown
                           ? Binary("-", std::move(Start), std::move(Index))
                           : Binary("-", std::move(Index), std::move(Start));
    if (L.Step != 1)
      Done = Binary("/", std::move(Done), integer(L.Step));
    const bool Pointer = C.Var->getType()->isPointerType();
    if (Pointer) // (elements past 2^31 for a pointer)
      Done = converted(std::move(Done));
    ir::ExprPtr Moved;
    if (C.Steps) {
      ir::ExprPtr By = C.By ? expr(C.By, Access::Read) : integer(1);
      if (!By)
        return;
      Moved = Binary("*", std::move(Done), std::move(By));
    }
    const char *Toward = C.Back ? "-" : "+";
    if (Pointer) {
      std::optional<PointerInto> Ptr = pointerInto(C.Init);
      if (!Ptr) {
        fail(C.Init->getBeginLoc(),
             "'" + C.Var->getName().str() +
                 "' can point only into captured data of one dimension in "
                 "a weft loop",
             "set it to an element of such data: 'p = a' or 'p = &a[k]'");
        return;
      }
      if (Moved)
        Ptr->Offset = Ptr->Offset ? Binary(Toward, std::move(Ptr->Offset),
                                           std::move(Moved))
                      : C.Back    ? Binary("-", integer(0), std::move(Moved))
                                  : std::move(Moved);
      Out.push_back(pointerView(C.Var, std::move(*Ptr)));
      continue;
    }
    ir::StmtPtr D = privateDeclaration(C.Var, nullptr);
    if (!D)
      return;
    ir::ExprPtr Value = expr(C.Init, Access::Read);
    if (!Value)
      return;
    D->Exprs[0] = Moved ? Binary(Toward, std::move(Value), std::move(Moved))
                        : std::move(Value);
    Out.push_back(std::move(D));
  }
  Companions.clear();
}

} // namespace weft::recognize
