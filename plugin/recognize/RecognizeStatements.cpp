// RecognizeStatements.cpp: statements into the nest IR: the dispatch over a
// statement's kind, blocks, expressions, branches and jumps.
#include "recognize/BodyRecognizer.h"

#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/Support/SaveAndRestore.h"

namespace weft::recognize {

void BodyRecognizer::body(const Stmt *S, std::vector<ir::StmtPtr> &Out) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      stmt(C, Out);
  } else {
    stmt(S, Out);
  }
}

ir::StmtPtr BodyRecognizer::single(const Stmt *S) {
  std::vector<ir::StmtPtr> Out;
  stmt(S, Out);
  auto B = std::make_unique<ir::Stmt>();
  B->Kind = ir::Stmt::Block;
  B->Children = std::move(Out);
  return B;
}

BodyRecognizer::HoistedCalls::HoistedCalls(BodyRecognizer &R)
    : R(R), OuterInto(R.Hoisted), OuterRoot(R.HoistRoot) {
  R.Hoisted = nullptr;
  R.HoistRoot = nullptr;
}

BodyRecognizer::HoistedCalls::~HoistedCalls() {
  R.Hoisted = OuterInto;
  R.HoistRoot = OuterRoot;
}

void BodyRecognizer::HoistedCalls::from(const Stmt *Root) {
  R.Hoisted = &Before;
  R.HoistRoot = Root;
}

void BodyRecognizer::HoistedCalls::stop() {
  R.Hoisted = nullptr;
  R.HoistRoot = nullptr;
}

void BodyRecognizer::HoistedCalls::flushInto(std::vector<ir::StmtPtr> &Out) {
  for (ir::StmtPtr &B : Before)
    Out.push_back(std::move(B));
  Before.clear();
}

void BodyRecognizer::stmt(const Stmt *S, std::vector<ir::StmtPtr> &Out) {
  if (!S || Failed)
    return;
  HoistedCalls Calls(*this);
  if (isa<NullStmt>(S))
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    auto B = statement(ir::Stmt::Block);
    for (const Stmt *C : CS->body())
      stmt(C, B->Children);
    Out.push_back(std::move(B));
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return declarationStmt(DS, Calls, Out);
  if (auto It = DeclaringStmts.find(S);
      It != DeclaringStmts.end() && isa<Expr>(S))
    return privateFirstSet(cast<Expr>(S), It->second.front(), Calls, Out);
  if (const auto *E = dyn_cast<Expr>(S))
    return expressionStmt(E, Calls, Out);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return ifStmt(If, Calls, Out);
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S))
    return openMPStatement(*D, Out);
  if (std::optional<compat::Mark> M = innerMark(S))
    return nestedLevel(*M, Out);
  if (const auto *F = dyn_cast<ForStmt>(S))
    return forStmt(F, Out);
  if (const auto *AS = dyn_cast<AttributedStmt>(S))
    return stmt(AS->getSubStmt(), Out);
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return whileStmt(W, Out);
  if (const auto *D = dyn_cast<DoStmt>(S))
    return doStmt(D, Out);
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(S))
    return rangeLoop(RF, Out);
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return switchStmt(Sw, Out);
  if (const auto *C = dyn_cast<SwitchCase>(S))
    return switchCase(C, Out);
  if (jumpStmt(S, Out))
    return;
  if (isa<CXXTryStmt>(S))
    return (void)fail(S->getBeginLoc(),
                      "exceptions are not supported in a weft loop");
  fail(S->getBeginLoc(),
       std::string("this statement (") + S->getStmtClassName() +
           ") is not supported in a weft loop",
       NotSupportedYet);
}

void BodyRecognizer::declarationStmt(const DeclStmt *DS, HoistedCalls &Calls,
                                     std::vector<ir::StmtPtr> &Out) {
  Calls.from(DS);
  for (const Decl *D : DS->decls()) {
    ir::StmtPtr V = local(D);
    Calls.flushInto(Out);
    if (V)
      Out.push_back(std::move(V));
  }
}

void BodyRecognizer::privateFirstSet(const Expr *Set, const VarDecl *Private,
                                     HoistedCalls &Calls,
                                     std::vector<ir::StmtPtr> &Out) {
  // `sum = 0;` first setting a private sum: `double sum = 0;`.
  Calls.from(Set);
  ir::StmtPtr D = privateDeclaration(
      Private, cast<BinaryOperator>(Set->IgnoreParens())->getRHS());
  Calls.flushInto(Out);
  Out.push_back(std::move(D));
}

void BodyRecognizer::expressionStmt(const Expr *E, HoistedCalls &Calls,
                                    std::vector<ir::StmtPtr> &Out) {
  const Expr *Bare = E->IgnoreParens();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(Bare))
    Bare = EWC->getSubExpr()->IgnoreParens();
  if (const auto *Call = dyn_cast<CallExpr>(Bare); Call && byteCopy(Call, Out))
    return;
  // `(void)x;` (and NDEBUG's assert, `(void)0`): the value is dropped,
  // what it does is kept.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Bare);
      Cast && Cast->getType()->isVoidType()) {
    if (Cast->getSubExpr()->HasSideEffects(Ctx))
      stmt(Cast->getSubExpr(), Out);
    return;
  }
  // assert(c), as <assert.h> expands it: `c ? void(0) : __assert_fail(..)`.
  if (const auto *Check = dyn_cast<ConditionalOperator>(Bare);
      Check && Check->getType()->isVoidType() && failedAssertion(Check))
    return assertion(Check, Out);
  if (std::optional<ir::StmtPtr> Flag = flagSet(Bare)) {
    Out.push_back(std::move(*Flag));
    return;
  }
  const auto *Cleanups = dyn_cast<ExprWithCleanups>(E);
  llvm::SaveAndRestore<const Expr *> Unused(
      UnusedValue, (Cleanups ? Cleanups->getSubExpr() : E)->IgnoreParens());
  Calls.from(E);
  ir::ExprPtr X = expr(E, Access::Read);
  Calls.flushInto(Out);
  // A void call compiled into the loop: its statements are all it does.
  if (!X || (isa<CallExpr>(Bare) && X->Kind == ir::Expr::IntLiteral))
    return;
  auto R = statement(ir::Stmt::ExprStmt);
  R->Exprs.push_back(std::move(X));
  Out.push_back(std::move(R));
}

void BodyRecognizer::assertion(const ConditionalOperator *Check,
                               std::vector<ir::StmtPtr> &Out) {
  ir::ExprPtr Holds = expr(Check->getCond());
  if (!Holds)
    return;
  auto Not = make(ir::Expr::Unary, ir::ScalarKind::Bool, "!");
  Not->Operands.push_back(std::move(Holds));
  auto Fails = statement(ir::Stmt::If);
  Fails->Exprs.push_back(std::move(Not));
  auto Stop = statement(ir::Stmt::ExprStmt);
  Stop->Exprs.push_back(
      make(ir::Expr::Call, ir::ScalarKind::Int, "weft::assertion_failed"));
  Fails->Children.push_back(std::move(Stop));
  Fails->Children.push_back(nullptr);
  Out.push_back(std::move(Fails));
}

void BodyRecognizer::ifStmt(const IfStmt *If, HoistedCalls &Calls,
                            std::vector<ir::StmtPtr> &Out) {
  if (If->getInit() || If->getConditionVariable() || If->isConsteval())
    return (void)fail(If->getIfLoc(),
                      "'if' with an initializer or a declaration is not "
                      "supported in a weft loop",
                      "declare the variable before the 'if'");
  // Calls the condition makes are compiled in before the 'if', which
  // always evaluates it.
  Calls.from(If->getCond());
  if (std::optional<ir::StmtPtr> Update = guardedArrayCombine(If)) {
    Calls.flushInto(Out);
    if (*Update)
      Out.push_back(std::move(*Update));
    return;
  }
  if (std::optional<ir::StmtPtr> Arg = argCombine(If)) {
    Calls.flushInto(Out);
    if (*Arg)
      Out.push_back(std::move(*Arg));
    return;
  }
  if (Failed)
    return;
  auto R = statement(ir::Stmt::If);
  // `if (x > m) m = x;` combines a max reduction m: its condition may
  // read m, and its assignment combines.
  const Expr *Compared = nullptr;
  const BinaryOperator *Guarded = guardedCombine(If, Compared);
  if (Guarded)
    AllowedReductionRefs.insert(Compared);
  R->Exprs.push_back(expr(If->getCond()));
  Calls.flushInto(Out);
  Calls.stop();
  if (Guarded)
    AllowedReductionRefs.erase(Compared);
  const BinaryOperator *Outer = GuardedCombine;
  if (Guarded)
    GuardedCombine = Guarded;
  R->Children.push_back(single(If->getThen()));
  GuardedCombine = Outer;
  R->Children.push_back(If->getElse() ? single(If->getElse()) : nullptr);
  Out.push_back(std::move(R));
}

void BodyRecognizer::switchStmt(const SwitchStmt *Sw,
                                std::vector<ir::StmtPtr> &Out) {
  if (Sw->getInit() || Sw->getConditionVariable())
    return (void)fail(Sw->getSwitchLoc(),
                      "'switch' with an initializer or a declaration is "
                      "not supported in a weft loop",
                      "declare the variable before the 'switch'");
  auto R = statement(ir::Stmt::Switch);
  R->Exprs.push_back(expr(Sw->getCond()));
  ++SwitchDepth; // 'break' leaves the switch, not the loop
  R->Children.push_back(single(Sw->getBody()));
  --SwitchDepth;
  Out.push_back(std::move(R));
}

void BodyRecognizer::switchCase(const SwitchCase *C,
                                std::vector<ir::StmtPtr> &Out) {
  // A label, then the statement it labels.
  auto R = statement(ir::Stmt::Case);
  if (const auto *CS = dyn_cast<CaseStmt>(C)) {
    if (CS->getRHS())
      return (void)fail(CS->getBeginLoc(),
                        "case ranges are not supported in a weft loop");
    Expr::EvalResult V;
    std::optional<ir::ScalarKind> K = scalarKind(CS->getLHS()->getType());
    if (!K || !CS->getLHS()->EvaluateAsInt(V, Ctx))
      return (void)fail(CS->getBeginLoc(), "a case label must be an "
                                           "integer constant");
    R->Exprs.push_back(
        make(ir::Expr::IntLiteral, *K, literalText(V.Val.getInt(), *K)));
  } else {
    R->Exprs.push_back(nullptr);
  }
  Out.push_back(std::move(R));
  stmt(C->getSubStmt(), Out);
}

bool BodyRecognizer::jumpStmt(const Stmt *S, std::vector<ir::StmtPtr> &Out) {
  if (isa<BreakStmt>(S)) {
    if (SequentialDepth == 0 && SwitchDepth == 0)
      fail(S->getBeginLoc(),
           "'break' cannot leave a parallel loop: its iterations run at the "
           "same time",
           "use 'continue' to skip the rest of an iteration");
    else
      Out.push_back(statement(ir::Stmt::Break));
    return true;
  }
  if (isa<ContinueStmt>(S)) {
    Out.push_back(statement(ir::Stmt::Continue));
    return true;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(S); Ret && InFunction) {
    auto R = statement(ir::Stmt::Return);
    R->Exprs.push_back(Ret->getRetValue() ? expr(Ret->getRetValue())
                       : InConstructor    ? self()
                                          : nullptr);
    Out.push_back(std::move(R));
    return true;
  }
  if (isa<ReturnStmt>(S)) {
    fail(S->getBeginLoc(), "'return' cannot leave a parallel loop",
         "use 'continue' to skip the rest of an iteration");
    return true;
  }
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S)) {
    fail(S->getBeginLoc(), "'goto' is not allowed in a weft loop");
    return true;
  }
  return false;
}

void BodyRecognizer::openMPStatement(const OMPExecutableDirective &D,
                                     std::vector<ir::StmtPtr> &Out) {
  // `#pragma omp atomic` updates combine, as the same statement without
  // it does in a weft loop (a reduction, or an array's reduction: the
  // directive's mark names the arrays, syntax/OpenMPMarks).
  if (const auto *Atomic = dyn_cast<OMPAtomicDirective>(&D)) {
    const bool Update = llvm::all_of(D.clauses(), [](const OMPClause *C) {
      return isa<OMPUpdateClause, OMPSeqCstClause, OMPRelaxedClause,
                 OMPAcqRelClause, OMPAcquireClause, OMPReleaseClause,
                 OMPHintClause>(C);
    });
    const Stmt *Updated = Atomic->getAssociatedStmt();
    if (Update && Updated && !isa<CapturedStmt>(Updated))
      return stmt(Updated, Out);
  }
  // `#pragma omp simd` over a loop in the nest: the loop, which weft maps
  // as any loop inside a nest (a level where it proves its iterations
  // apart, else in order in its thread). Its clauses say how to vectorize
  // it, or name what weft finds itself (a private variable, a reduction
  // that runs in order within the thread).
  if (const auto *Simd = dyn_cast<OMPSimdDirective>(&D)) {
    const bool Plain = llvm::all_of(D.clauses(), [](const OMPClause *C) {
      return isa<OMPSimdlenClause, OMPSafelenClause, OMPAlignedClause,
                 OMPNontemporalClause, OMPPrivateClause, OMPReductionClause,
                 OMPOrderClause, OMPIfClause>(C);
    });
    if (Plain && Simd->getLoopsNumber() == 1)
      return stmt(Simd->getInnermostCapturedStmt()->getCapturedStmt(), Out);
  }
  const std::string Name =
      "'#pragma omp " +
      llvm::omp::getOpenMPDirectiveName(D.getDirectiveKind()).str() + "'";
  // A directive's own captured region hides its statements from the walks
  // over the nest's children that the analyses make.
  fail(D.getBeginLoc(),
       Name + " is not supported inside a weft nest" +
           (isa<OMPAtomicDirective>(D) ? " (only atomic updates are)" : ""),
       isOpenMPLoopDirective(D.getDirectiveKind())
           ? "remove it: weft finds the loops inside a nest that can be "
             "levels of their own"
           : "");
}

} // namespace weft::recognize
