// RecognizeLevels.cpp: the parallel levels of a nest: loop headers
// (index loops and range-for over spans) and their bounds.
#include "recognize/Recognizer.h"

#include "llvm/Support/SaveAndRestore.h"

#include "ir/HostBound.h"

#include <algorithm>

namespace weft::recognize {
namespace {

bool containsParallelFor(const ir::Stmt &S) {
  if (S.Kind == ir::Stmt::ParallelFor)
    return true;
  for (const ir::StmtPtr &C : S.Children)
    if (C && containsParallelFor(*C))
      return true;
  return false;
}

} // namespace

bool Recognizer::level(Stmt *Loop, const syntax::Clauses &Clauses,
                       const StringLiteral *Literal, ir::Level &L) {
  L.Depth = static_cast<unsigned>(Indices.size());
  if (ClauseLiterals.size() <= L.Depth)
    ClauseLiterals.resize(L.Depth + 1);
  ClauseLiterals[L.Depth] = Literal;
  if (L.Depth == 0)
    Extents = &Clauses.Extents;
  else if (!Clauses.Extents.empty())
    return fail(clauseAt(L.Depth, Clauses.Extents[0].Offset),
                "an extent clause belongs on the outermost marked loop",
                "move extent(...) to the mark of the nest's first loop"),
           false;
  if (L.Depth > 0 && Clauses.If)
    return fail(clauseAt(L.Depth, Clauses.If->Offset),
                "an if clause belongs on the outermost marked loop: the nest "
                "runs as one kernel or on the host as a whole",
                "move if(...) to the mark of the nest's first loop"),
           false;
  L.Location = locationText(SM, compat::loopLocation(Loop));
  LevelLocations.push_back(Loop->getBeginLoc());
  if (L.Depth >= 4)
    return fail(Loop->getBeginLoc(),
                "a weft nest has at most 4 parallel levels",
                "remove the mark from one of the inner loops: it then runs "
                "sequentially"),
           false;
  const Stmt *Body;
  if (auto *F = dyn_cast<ForStmt>(Loop)) {
    if (!header(F, L))
      return false;
    declareCompanions(L, L.Body);
    Body = F->getBody();
  } else {
    auto *RF = cast<CXXForRangeStmt>(Loop);
    if (!rangeHeader(RF, L))
      return false;
    Body = RF->getBody();
  }
  if (Clauses.Dim)
    L.Forced.Dim = Clauses.Dim->Value;
  if (Clauses.Block)
    L.Forced.Block = Clauses.Block->Value;
  if (Clauses.Span)
    L.Forced.Span = static_cast<int>(Clauses.Span->Value);
  if (Clauses.Split)
    L.Forced.Split = Clauses.Split->Value;
  std::vector<const VarDecl *> Reducing;
  // The clause's reductions, then those the body's updates imply.
  std::vector<syntax::Reduction> Reductions = Clauses.Reductions;
  const std::size_t Named = Reductions.size();
  for (syntax::Reduction &R : inferredReductions(Body, Clauses))
    Reductions.push_back(std::move(R));
  for (std::size_t I = 0; I < Reductions.size(); ++I) {
    const syntax::Reduction &R = Reductions[I];
    const std::size_t Before = L.Reductions.size();
    if (R.Operator == "argmax" || R.Operator == "argmin") {
      argReduction(Loop, Body, R, L);
    } else if (R.Operator == "flag") {
      flagReduction(Body, R, L);
    } else {
      for (const std::string &Name : R.Variables)
        if (const VarDecl *V = reduction(Loop, Body, R, Name, L))
          Reducing.push_back(V);
    }
    if (I >= Named && L.Reductions.size() == Before + 1)
      L.Reductions.back().Inferred =
          R.Operator == "flag"
              ? "'" + R.Variables[0] +
                    "' set after the loop where some iteration sets it"
              : "reduction(" + R.Operator + ": " +
                    llvm::join(R.Variables, ", ") + ") from its updates";
  }
  if (Failed)
    return false;
  const int SavedDepth = SequentialDepth, SavedSwitch = SwitchDepth;
  SequentialDepth = SwitchDepth = 0; // 'break' may not leave this level
  const std::vector<std::pair<const VarDecl *, unsigned>> Hidden =
      privatize(Loop, Body, L.Body);
  body(Body, L.Body);
  for (const auto &[V, Depth] : Hidden)
    LocalDepth[V] = Depth;
  SequentialDepth = SavedDepth;
  SwitchDepth = SavedSwitch;
  for (const VarDecl *V : Reducing)
    ActiveReductions.erase(V);
  for (const ir::ArrayReduction &R : L.ArrayReductions)
    ReducedArrays[R.ParamIndex].Active = false;
  if (!Failed)
    finishArgReductions(L.Depth);
  // Its elements' stand-ins are the enclosing level's business now
  // (RecognizeStatements loads and stores them around the level).
  for (ReducedElement &R : ReducedElements)
    if (R.Depth == L.Depth)
      FinishedElements.push_back(std::move(R));
  llvm::erase_if(ReducedElements,
                 [&](const ReducedElement &R) { return R.Depth == L.Depth; });
  Indices.pop_back();
  return !Failed;
}

bool Recognizer::sequentialLevel(Stmt *Loop, const syntax::Clauses &Clauses,
                                 ir::Level &L) {
  L.Depth = 0;
  Extents = &Clauses.Extents;
  L.Location = locationText(SM, compat::loopLocation(Loop));
  LevelLocations.push_back(Loop->getBeginLoc());
  L.IndexName = "weft_sequential";
  Indices.push_back(nullptr); // synthesized: the body cannot name it
  L.IndexType = ir::ScalarKind::Int;
  L.Lower = make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0");
  L.Upper = make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "1");
  // C89's `int t, piv;` before the loop: the kernel's own, where the
  // loop sets them before it reads them and nothing after it reads them.
  privatize(Loop, Loop, L.Body, /*Sequential=*/true);
  body(Loop, L.Body);
  Indices.pop_back();
  if (Failed)
    return false;
  const bool Marked =
      std::any_of(L.Body.begin(), L.Body.end(), [](const ir::StmtPtr &S) {
        return S && containsParallelFor(*S);
      });
  if (!Marked)
    diagnose(Diags, Loop->getBeginLoc(), DiagnosticsEngine::Warning,
             "this sequential loop has no marked loop inside: it runs on "
             "one thread of the device",
             "mark its parallel loops with '#pragma weft parallel for', or "
             "remove the mark to run it on the host");
  return true;
}

bool Recognizer::header(ForStmt *F, ir::Level &L) {
  const char *Form = "write the loop as 'for (int i = lo; i < hi; ++i)'";
  // The index, declared in the header or (C89's `int i; ... for (i = 0;
  // ...)`) before it, and the variables set beside it.
  const VarDecl *IV;
  if (!headerVariables(F, IV))
    return false;
  const bool DS = isa_and_nonnull<DeclStmt>(F->getInit());
  std::optional<ir::ScalarKind> IT =
      IV ? scalarKind(IV->getType()) : std::nullopt;
  if (!IV || !HeaderStart || !IT || !isInteger(*IT))
    return fail(F->getInit() ? F->getInit()->getBeginLoc() : F->getForLoc(),
                "a parallel loop must declare an integer index with an "
                "initial value",
                Form),
           false;
  if (!DS && !outsideIndex(IV, F))
    return false;
  HeaderIndex = IV;
  L.IndexName = IV->getName().str();
  L.IndexType = *IT;
  if (const std::optional<Descent> Down = countsDown(F))
    return descendingHeader(F, *Down, L);
  L.Lower = bound(HeaderStart);

  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  const Expr *Upper = nullptr;
  std::optional<llvm::APSInt> Offset; // `i + c < n` is `i < n - c`
  if (Cond) {
    BinaryOperatorKind Op = Cond->getOpcode();
    const auto *Sum =
        dyn_cast<BinaryOperator>(Cond->getLHS()->IgnoreParenImpCasts());
    if (Sum && Sum->getOpcode() == BO_Add && isIndex(Sum->getLHS()) &&
        (Op == BO_LT || Op == BO_LE) &&
        (Offset = Sum->getRHS()->getIntegerConstantExpr(Ctx))) {
      Upper = Cond->getRHS();
      L.Inclusive = Op == BO_LE;
    } else if (isIndex(Cond->getLHS()) &&
               (Op == BO_LT || Op == BO_LE || Op == BO_NE)) {
      Upper = Cond->getRHS();
      L.Inclusive = Op == BO_LE;
    } else if (isIndex(Cond->getRHS()) && (Op == BO_GT || Op == BO_GE)) {
      Upper = Cond->getLHS();
      L.Inclusive = Op == BO_GE;
    }
  }
  if (!Upper)
    return fail(F->getCond() ? F->getCond()->getBeginLoc() : F->getForLoc(),
                "the condition of a parallel loop must compare its index "
                "with an upper bound ('i < n' or 'i <= n'), or, counting "
                "down, with a lower bound ('i >= 0')",
                Form),
           false;
  L.Upper = bound(Upper);
  if (L.Upper && Offset) {
    ir::ScalarKind T = L.Upper->Type;
    auto Diff = make(ir::Expr::Binary, T, "-");
    Diff->Operands.push_back(std::move(L.Upper));
    Diff->Operands.push_back(
        make(ir::Expr::IntLiteral, T, literalText(*Offset, T)));
    L.Upper = std::move(Diff);
  }

  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
  const std::optional<llvm::APSInt> Step = stepOf(F, /*Down=*/false);
  if (!Step || Step->getSExtValue() <= 0 ||
      (Cond->getOpcode() == BO_NE && Step->getSExtValue() != 1))
    return fail(Inc ? Inc->getBeginLoc() : F->getForLoc(),
                "a parallel loop must step its index forward by a positive "
                "constant ('++i', 'i++' or 'i += c')",
                Form),
           false;
  L.Step = Step->getSExtValue();
  Indices.push_back(IV);
  HeaderIndex = nullptr;
  return !Failed;
}

std::optional<llvm::APSInt> Recognizer::stepOf(const ForStmt *F,
                                               bool Down) const {
  const Expr *Inc = HeaderInc;
  const BinaryOperatorKind Compound = Down ? BO_SubAssign : BO_AddAssign;
  const BinaryOperatorKind Plain = Down ? BO_Sub : BO_Add;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if ((Down ? U->isDecrementOp() : U->isIncrementOp()) &&
        isIndex(U->getSubExpr()))
      return llvm::APSInt::get(1);
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    if (CA->getOpcode() == Compound && isIndex(CA->getLHS()))
      return CA->getRHS()->getIntegerConstantExpr(Ctx);
  } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(Inc)) {
    const auto *By =
        dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenImpCasts());
    if (A->getOpcode() == BO_Assign && isIndex(A->getLHS()) && By &&
        By->getOpcode() == Plain && isIndex(By->getLHS()))
      return By->getRHS()->getIntegerConstantExpr(Ctx);
  }
  return std::nullopt;
}

std::optional<Recognizer::Descent>
Recognizer::countsDown(const ForStmt *F) const {
  const std::optional<llvm::APSInt> By = stepOf(F, /*Down=*/true);
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!By || By->getSExtValue() <= 0 || !Cond)
    return std::nullopt;
  const std::int64_t Step = By->getSExtValue();
  const BinaryOperatorKind Op = Cond->getOpcode();
  if (isIndex(Cond->getLHS()) && (Op == BO_GE || Op == BO_GT))
    return Descent{Op == BO_GT, Step};
  if (isIndex(Cond->getRHS()) && (Op == BO_LE || Op == BO_LT))
    return Descent{Op == BO_LT, Step};
  return std::nullopt;
}

bool Recognizer::descendingHeader(const ForStmt *F, Descent D, ir::Level &L) {
  const auto *Cond = cast<BinaryOperator>(F->getCond()->IgnoreParenImpCasts());
  const Expr *Lower = isIndex(Cond->getLHS()) ? Cond->getRHS() : Cond->getLHS();
  const VarDecl *IV = HeaderIndex;
  const bool Unsigned = IV->getType()->isUnsignedIntegerType();
  // An unsigned index is never below 0: the loop as written never ends.
  std::optional<llvm::APSInt> Least = Lower->getIntegerConstantExpr(Ctx);
  if (!D.Strict && Unsigned && Least && Least->isZero())
    return fail(Cond->getOperatorLoc(),
                "an unsigned index is never below 0: this loop does not end",
                "count down with 'i > 0' and use 'i - 1', or count up"),
           false;
  // Past its bound by more than one, an unsigned index may wrap around to
  // the top and go on.
  if (Unsigned && D.Step > 1)
    return fail(F->getInc()->getBeginLoc(),
                "an unsigned index counting down by more than one may pass "
                "below 0 and wrap around",
                "use a signed index, or count up"),
           false;
  // Its iterations are independent: the same indices counted up, from
  // the least the loop reaches to the initial value.
  L.Lower = bound(Lower);
  L.Upper = bound(HeaderStart);
  L.Inclusive = true;
  L.Step = D.Step;
  L.CountsDown = true;
  if (!L.Lower || !L.Upper)
    return !Failed;
  const ir::ScalarKind T = L.Lower->Type;
  auto Binary = [&](const char *Op, ir::ExprPtr A, ir::ExprPtr B) {
    auto E = make(ir::Expr::Binary, T, Op);
    E->Operands.push_back(std::move(A));
    E->Operands.push_back(std::move(B));
    return E;
  };
  // The least index the condition allows (one past a strict bound).
  auto LeastIndex = [&] {
    ir::ExprPtr E = bound(Lower);
    return D.Strict
               ? Binary("+", std::move(E), make(ir::Expr::IntLiteral, T, "1"))
               : std::move(E);
  };
  if (D.Strict)
    L.Lower = LeastIndex();
  if (D.Step > 1) {
    // The last index the loop reaches: lo + ((hi - lo) % c + c) % c, the
    // index at or above lo that hi steps down to (above hi where hi < lo,
    // so that the level is empty).
    const std::string C = literalText(llvm::APSInt::get(D.Step), T);
    ir::ExprPtr Reach =
        Binary("%",
               Binary("+",
                      Binary("%", Binary("-", bound(HeaderStart), LeastIndex()),
                             make(ir::Expr::IntLiteral, T, C)),
                      make(ir::Expr::IntLiteral, T, C)),
               make(ir::Expr::IntLiteral, T, C));
    L.Lower = Binary("+", std::move(L.Lower), std::move(Reach));
  }
  Indices.push_back(IV);
  HeaderIndex = nullptr;
  return !Failed;
}

bool Recognizer::rangeHeader(CXXForRangeStmt *RF, ir::Level &L) {
  const Expr *Range = RF->getRangeInit();
  std::optional<DataShape> Shape = dataShape(Range->getType());
  if (!Shape || Shape->IsPointer || !Shape->Inner.empty() || Shape->RowsApart ||
      !(isa<DeclRefExpr>(Range->IgnoreParenImpCasts()) || memberOfThis(Range)))
    return fail(Range->getBeginLoc(),
                "a range-based parallel loop must iterate over a variable "
                "holding elements: a std::span, std::vector, std::array or "
                "C array",
                "for nested arrays, loop over the rows' index instead"),
           false;
  std::optional<unsigned> P = spanOperand(Range);
  if (!P)
    return false;
  const VarDecl *LoopVar = RF->getLoopVariable();
  QualType VT = LoopVar->getType();
  std::optional<ir::ScalarKind> K = scalarKind(VT.getNonReferenceType());
  const int Struct =
      K ? -1 : structIndex(VT.getNonReferenceType(), LoopVar->getLocation());
  if (!K && Struct < 0)
    return fail(LoopVar->getLocation(),
                "the loop variable must be an arithmetic value, a struct "
                "of them, or a reference to one"),
           false;
  ir::LocalType T;
  T.Scalar = K.value_or(ir::ScalarKind::Char);
  T.Struct = Struct;
  T.IsReference = VT->isReferenceType();
  T.IsConst = VT.getNonReferenceType().isConstQualified();
  markUse(*P, T.IsReference && !T.IsConst ? Access::ReadWrite : Access::Read);
  PlainArrayUses.try_emplace(*P, Range->getBeginLoc());

  L.IndexName = "weft_i" + std::to_string(L.Depth);
  L.Shown = LoopVar->getName().str();
  Indices.push_back(nullptr); // synthesized: the body cannot name it
  L.IndexType = ir::ScalarKind::LongLong;
  L.Lower = make(ir::Expr::IntLiteral, ir::ScalarKind::LongLong, "0");
  L.Upper = make(ir::Expr::SpanSize, ir::ScalarKind::ULong);
  L.Upper->ParamIndex = *P;
  auto Decl = std::make_unique<ir::Stmt>();
  Decl->Kind = ir::Stmt::Decl;
  Decl->VarType = T;
  Decl->Name = localName(LoopVar);
  auto Elem = make(ir::Expr::SpanElement, T.Scalar);
  Elem->ParamIndex = *P;
  Elem->Struct = Struct;
  Elem->Use = ir::elementUseOf(T);
  Elem->Operands.push_back(
      make(ir::Expr::Local, ir::ScalarKind::LongLong, L.IndexName));
  Decl->Exprs.push_back(std::move(Elem));
  L.Body.push_back(std::move(Decl));
  declareLocal(LoopVar);
  return true;
}

bool Recognizer::isIndex(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && HeaderIndex && DRE->getDecl() == HeaderIndex;
}

ir::ExprPtr Recognizer::bound(const Expr *E) {
  llvm::SaveAndRestore<bool> InBound(InLevelBound, true);
  ir::ExprPtr B = expr(E, Access::Read);
  if (B && Indices.empty() && !ir::isHostEvaluable(*B))
    return failExpr(E->getBeginLoc(),
                    "a parallel loop's bounds must be integer expressions "
                    "of captured scalars, span sizes and constants",
                    "compute the bound into a local variable before the "
                    "loop");
  return B;
}

} // namespace weft::recognize
