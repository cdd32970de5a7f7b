// RecognizeStatements.cpp: statements into the nest IR: control flow,
// locals, per-iteration arrays.
#include "recognize/Recognizer.h"

#include "syntax/OpenMPMarks.h"

#include "clang/AST/StmtOpenMP.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/Support/SaveAndRestore.h"

namespace weft::recognize {

void Recognizer::body(const Stmt *S, std::vector<ir::StmtPtr> &Out) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      stmt(C, Out);
  } else {
    stmt(S, Out);
  }
}

ir::StmtPtr Recognizer::single(const Stmt *S) {
  std::vector<ir::StmtPtr> Out;
  stmt(S, Out);
  auto B = std::make_unique<ir::Stmt>();
  B->Kind = ir::Stmt::Block;
  B->Children = std::move(Out);
  return B;
}

namespace {

/// VD's declaration in the kernel, of a scalar K or a struct, without its
/// initializer.
ir::StmtPtr declarationOf(const VarDecl *VD, std::string Name,
                          std::optional<ir::ScalarKind> K, int Struct) {
  const QualType T = VD->getType();
  auto D = std::make_unique<ir::Stmt>();
  D->Kind = ir::Stmt::Decl;
  D->Name = std::move(Name);
  D->VarType.Scalar = K.value_or(ir::ScalarKind::Char);
  D->VarType.Struct = Struct;
  D->VarType.IsReference = T->isReferenceType();
  D->VarType.IsConst = T.getNonReferenceType().isConstQualified();
  return D;
}

} // namespace

void Recognizer::stmt(const Stmt *S, std::vector<ir::StmtPtr> &Out) {
  if (!S || Failed)
    return;
  // Calls compiled into the loop (inlineCall) go before the statement whose
  // expression makes them, where that evaluates them unconditionally.
  llvm::SaveAndRestore<std::vector<ir::StmtPtr> *> NoHoisting(Hoisted, nullptr);
  llvm::SaveAndRestore<const Stmt *> NoRoot(HoistRoot, nullptr);
  std::vector<ir::StmtPtr> Before;
  auto Hoisting = [&](const Stmt *Root) {
    Hoisted = &Before;
    HoistRoot = Root;
  };
  auto Flush = [&] {
    for (ir::StmtPtr &B : Before)
      Out.push_back(std::move(B));
    Before.clear();
  };
  auto Make = [](ir::Stmt::KindType K) {
    auto R = std::make_unique<ir::Stmt>();
    R->Kind = K;
    return R;
  };
  if (isa<NullStmt>(S))
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    auto B = Make(ir::Stmt::Block);
    for (const Stmt *C : CS->body())
      stmt(C, B->Children);
    Out.push_back(std::move(B));
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    Hoisting(DS);
    for (const Decl *D : DS->decls()) {
      ir::StmtPtr V = local(D);
      Flush();
      if (V)
        Out.push_back(std::move(V));
    }
    return;
  }
  if (auto It = DeclaringStmts.find(S);
      It != DeclaringStmts.end() && isa<Expr>(S)) {
    // `sum = 0;` first setting a private sum: `double sum = 0;`.
    Hoisting(S);
    ir::StmtPtr D = privateDeclaration(
        It->second.front(),
        cast<BinaryOperator>(cast<Expr>(S)->IgnoreParens())->getRHS());
    Flush();
    Out.push_back(std::move(D));
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    const Expr *Bare = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(Bare))
      Bare = EWC->getSubExpr()->IgnoreParens();
    if (const auto *Call = dyn_cast<CallExpr>(Bare);
        Call && byteCopy(Call, Out))
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
        Check && Check->getType()->isVoidType() && failedAssertion(Check)) {
      ir::ExprPtr Holds = expr(Check->getCond());
      if (!Holds)
        return;
      auto Not = make(ir::Expr::Unary, ir::ScalarKind::Bool, "!");
      Not->Operands.push_back(std::move(Holds));
      auto Fails = Make(ir::Stmt::If);
      Fails->Exprs.push_back(std::move(Not));
      auto Stop = Make(ir::Stmt::ExprStmt);
      Stop->Exprs.push_back(
          make(ir::Expr::Call, ir::ScalarKind::Int, "weft::assertion_failed"));
      Fails->Children.push_back(std::move(Stop));
      Fails->Children.push_back(nullptr);
      Out.push_back(std::move(Fails));
      return;
    }
    if (std::optional<ir::StmtPtr> Flag = flagSet(Bare)) {
      Out.push_back(std::move(*Flag));
      return;
    }
    const Expr *SavedUnused = UnusedValue;
    const auto *Cleanups = dyn_cast<ExprWithCleanups>(E);
    UnusedValue = (Cleanups ? Cleanups->getSubExpr() : E)->IgnoreParens();
    Hoisting(E);
    ir::ExprPtr X = expr(E, Access::Read);
    Flush();
    UnusedValue = SavedUnused;
    // A void call compiled into the loop: its statements are all it does.
    if (!X || (isa<CallExpr>(Bare) && X->Kind == ir::Expr::IntLiteral))
      return;
    auto R = Make(ir::Stmt::ExprStmt);
    R->Exprs.push_back(std::move(X));
    Out.push_back(std::move(R));
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getInit() || If->getConditionVariable() || If->isConsteval())
      return (void)fail(If->getIfLoc(),
                        "'if' with an initializer or a declaration is not "
                        "supported in a weft loop",
                        "declare the variable before the 'if'");
    // Calls the condition makes are compiled in before the 'if', which
    // always evaluates it.
    Hoisting(If->getCond());
    if (std::optional<ir::StmtPtr> Update = guardedArrayCombine(If)) {
      Flush();
      if (*Update)
        Out.push_back(std::move(*Update));
      return;
    }
    if (std::optional<ir::StmtPtr> Arg = argCombine(If)) {
      Flush();
      if (*Arg)
        Out.push_back(std::move(*Arg));
      return;
    }
    if (Failed)
      return;
    auto R = Make(ir::Stmt::If);
    // `if (x > m) m = x;` combines a max reduction m: its condition may
    // read m, and its assignment combines.
    const Expr *Compared = nullptr;
    const BinaryOperator *Guarded = guardedCombine(If, Compared);
    if (Guarded)
      AllowedReductionRefs.insert(Compared);
    R->Exprs.push_back(expr(If->getCond()));
    Flush();
    Hoisted = nullptr;
    HoistRoot = nullptr;
    if (Guarded)
      AllowedReductionRefs.erase(Compared);
    const BinaryOperator *Outer = GuardedCombine;
    if (Guarded)
      GuardedCombine = Guarded;
    R->Children.push_back(single(If->getThen()));
    GuardedCombine = Outer;
    R->Children.push_back(If->getElse() ? single(If->getElse()) : nullptr);
    Out.push_back(std::move(R));
    return;
  }
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S))
    return openMPStatement(*D, Out);
  std::optional<compat::Mark> M =
      syntax::findLoopMark(const_cast<Stmt *>(S), Ctx);
  if (M && M->Loop == Loop)
    M.reset(); // a sequential loop's own mark: the loop, in order
  if (M) {
    syntax::Clauses Clauses;
    syntax::ClauseError CE;
    syntax::parseMark(M->Clauses, Clauses, CE);
    if (Clauses.Sequential)
      return (void)fail(M->Loop->getBeginLoc(),
                        "a sequential loop cannot be marked inside a weft "
                        "nest: there, a loop without a mark already runs in "
                        "order",
                        "remove '#pragma weft sequential for'; or mark this "
                        "loop alone, outside the nest");
    auto R = Make(ir::Stmt::ParallelFor);
    R->Nested = std::make_unique<ir::Level>();
    FinishedElements.clear();
    FinishedArgs.clear();
    if (!level(M->Loop, Clauses, M->Literal, *R->Nested))
      return;
    // reduction(op: tmp[i]): the element goes through a local of this
    // level, loaded before the reducing level and stored after it.
    std::vector<ReducedElement> Elements = std::move(FinishedElements);
    FinishedElements.clear();
    std::vector<ir::StmtPtr> Stores;
    for (const ReducedElement &E : Elements) {
      auto Load = Make(ir::Stmt::Decl);
      Load->VarType.Scalar = E.Type;
      Load->Name = E.Name;
      Load->Exprs.push_back(expr(E.Element, Access::Read));
      Out.push_back(std::move(Load));
      ir::ExprPtr Target = expr(E.Element, Access::Write);
      if (!Target)
        return;
      auto Store = make(ir::Expr::Binary, E.Type, "=");
      Store->Operands.push_back(std::move(Target));
      Store->Operands.push_back(make(ir::Expr::Local, E.Type, E.Name));
      auto S = Make(ir::Stmt::ExprStmt);
      S->Exprs.push_back(std::move(Store));
      Stores.push_back(std::move(S));
    }
    // reduction(argmax: v, at): the key starts empty before the level
    // and goes into v and at after it.
    std::vector<ArgReduction> Args = std::move(FinishedArgs);
    FinishedArgs.clear();
    for (const ArgReduction &A : Args) {
      auto Decl = Make(ir::Stmt::Decl);
      Decl->VarType.Scalar = A.KeyType;
      Decl->Name = A.Key;
      if (A.KeyType == ir::ScalarKind::Key128)
        Decl->Exprs.push_back(make(ir::Expr::Call, A.KeyType,
                                   std::string("weft::identity<weft::reduce_") +
                                       (A.Max ? "max" : "min") +
                                       ", weft::key128>"));
      else
        Decl->Exprs.push_back(make(ir::Expr::IntLiteral,
                                   ir::ScalarKind::ULongLong,
                                   A.Max ? "0ull" : "18446744073709551615ull"));
      Out.push_back(std::move(Decl));
      auto Finish = make(ir::Expr::Call, ir::ScalarKind::Int, A.function(true));
      Finish->Operands.push_back(make(ir::Expr::Local, A.KeyType, A.Key));
      Finish->Operands.push_back(
          make(ir::Expr::Local, A.ValueType, A.Value->getName().str()));
      Finish->Operands.push_back(
          make(ir::Expr::Local, A.AtType, A.At->getName().str()));
      auto S = Make(ir::Stmt::ExprStmt);
      S->Exprs.push_back(std::move(Finish));
      Stores.push_back(std::move(S));
    }
    Out.push_back(std::move(R));
    for (ir::StmtPtr &S : Stores)
      Out.push_back(std::move(S));
    return;
  }
  if (const auto *F = dyn_cast<ForStmt>(S)) {
    if (F->getConditionVariable())
      return (void)fail(F->getForLoc(), "a declaration in a loop condition "
                                        "is not supported in a weft loop");
    auto R = Make(ir::Stmt::For);
    R->Location = locationText(SM, F->getBeginLoc());
    LoopLocations[R->Location] = F->getBeginLoc();
    std::vector<ir::StmtPtr> Init;
    // `for (j = 0; ...)` over a private j: `for (int j = 0; ...)` where it
    // declares j, or where the loop's j is a copy of its own (nothing
    // after the loop reads j): the form the loop analyses know. So too
    // each variable C89's `for (j = 0, e = n; ...)` sets.
    llvm::SmallVector<const Expr *, 2> Parts;
    if (const auto *Set = dyn_cast_or_null<Expr>(F->getInit()))
      commaOperands(Set, Parts);
    const auto Declaring = DeclaringStmts.find(F);
    auto DeclaredHere = [&](const VarDecl *V) {
      return Declaring != DeclaringStmts.end() &&
             llvm::is_contained(Declaring->second, V);
    };
    auto CopyOfItsOwn = [&](const VarDecl *V) {
      return Privates.contains(V) && !RowViews.count(V) &&
             !liveness().liveAfter(F, V);
    };
    const bool Assignments =
        !Parts.empty() && llvm::all_of(Parts, [](const Expr *Part) {
          const VarDecl *V;
          return variableAssignment(Part, V) != nullptr;
        });
    std::vector<std::pair<const VarDecl *, unsigned>> Hidden;
    for (const Expr *Part : Assignments ? Parts : decltype(Parts)()) {
      const VarDecl *V;
      const BinaryOperator *Set = variableAssignment(Part, V);
      if (!DeclaredHere(V) && !CopyOfItsOwn(V)) {
        stmt(Part, Init);
        continue;
      }
      if (!DeclaredHere(V))
        Hidden.push_back({V, LocalDepth.lookup(V)});
      Init.push_back(privateDeclaration(V, Set->getRHS()));
    }
    if (!Assignments && F->getInit())
      stmt(F->getInit(), Init);
    // Several variables (`for (int i = 0, j = n - 1; i < j; ++i, --j)`):
    // declared in a block of their own before the loop, as they are scoped.
    const bool Several = Init.size() > 1;
    R->Children.push_back(Init.empty() || Several ? nullptr
                                                  : std::move(Init[0]));
    R->Exprs.push_back(F->getCond() ? expr(F->getCond()) : nullptr);
    R->Exprs.push_back(F->getInc() ? expr(F->getInc()) : nullptr);
    ++SequentialDepth;
    R->Children.push_back(single(F->getBody()));
    --SequentialDepth;
    for (const auto &[V, Depth] : Hidden)
      LocalDepth[V] = Depth;
    if (Several) {
      auto B = Make(ir::Stmt::Block);
      B->Children = std::move(Init);
      B->Children.push_back(std::move(R));
      R = std::move(B);
    }
    Out.push_back(std::move(R));
    return;
  }
  if (const auto *AS = dyn_cast<AttributedStmt>(S))
    return stmt(AS->getSubStmt(), Out);
  if (const auto *W = dyn_cast<WhileStmt>(S)) {
    if (W->getConditionVariable())
      return (void)fail(W->getWhileLoc(), "a declaration in a loop "
                                          "condition is not supported in a "
                                          "weft loop");
    auto R = Make(ir::Stmt::While);
    R->Exprs.push_back(expr(W->getCond()));
    ++SequentialDepth;
    R->Children.push_back(single(W->getBody()));
    --SequentialDepth;
    Out.push_back(std::move(R));
    return;
  }
  if (const auto *D = dyn_cast<DoStmt>(S)) {
    auto R = Make(ir::Stmt::DoWhile);
    ++SequentialDepth;
    R->Children.push_back(single(D->getBody()));
    --SequentialDepth;
    R->Exprs.push_back(expr(D->getCond()));
    Out.push_back(std::move(R));
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    if (Sw->getInit() || Sw->getConditionVariable())
      return (void)fail(Sw->getSwitchLoc(),
                        "'switch' with an initializer or a declaration is "
                        "not supported in a weft loop",
                        "declare the variable before the 'switch'");
    auto R = Make(ir::Stmt::Switch);
    R->Exprs.push_back(expr(Sw->getCond()));
    ++SwitchDepth; // 'break' leaves the switch, not the loop
    R->Children.push_back(single(Sw->getBody()));
    --SwitchDepth;
    Out.push_back(std::move(R));
    return;
  }
  if (const auto *C = dyn_cast<SwitchCase>(S)) {
    // A label, then the statement it labels.
    auto R = Make(ir::Stmt::Case);
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
    return;
  }
  if (isa<BreakStmt>(S)) {
    if (SequentialDepth == 0 && SwitchDepth == 0)
      return (void)fail(S->getBeginLoc(),
                        "'break' cannot leave a parallel loop: its "
                        "iterations run at the same time",
                        "use 'continue' to skip the rest of an iteration");
    Out.push_back(Make(ir::Stmt::Break));
    return;
  }
  if (isa<ContinueStmt>(S)) {
    Out.push_back(Make(ir::Stmt::Continue));
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(S); Ret && InFunction) {
    auto R = Make(ir::Stmt::Return);
    R->Exprs.push_back(Ret->getRetValue() ? expr(Ret->getRetValue())
                       : InConstructor    ? self()
                                          : nullptr);
    Out.push_back(std::move(R));
    return;
  }
  if (isa<ReturnStmt>(S))
    return (void)fail(S->getBeginLoc(), "'return' cannot leave a parallel loop",
                      "use 'continue' to skip the rest of an iteration");
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S))
    return (void)fail(S->getBeginLoc(), "'goto' is not allowed in a weft "
                                        "loop");
  if (isa<CXXTryStmt>(S))
    return (void)fail(S->getBeginLoc(),
                      "exceptions are not supported in a weft loop");
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(S))
    return rangeLoop(RF, Out);
  fail(S->getBeginLoc(),
       std::string("this statement (") + S->getStmtClassName() +
           ") is not supported in a weft loop",
       NotSupportedYet);
}

void Recognizer::openMPStatement(const OMPExecutableDirective &D,
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

const ClassTemplateSpecializationDecl *
Recognizer::stdTemplate(QualType T, llvm::StringRef Name) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  return Spec && Spec->getName() == Name && Spec->isInStdNamespace() ? Spec
                                                                     : nullptr;
}

std::optional<ir::StmtPtr> Recognizer::localArray(const VarDecl *VD) {
  QualType T = VD->getType();
  QualType Element;
  ir::ExprPtr Extent;
  const Expr *Init = VD->getInit();
  ir::ExprPtr Fill;
  if (const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T)) {
    Element = CAT->getElementType();
    Extent = integer(static_cast<std::int64_t>(CAT->getSize().getZExtValue()));
  } else if (const VariableArrayType *VAT = Ctx.getAsVariableArrayType(T)) {
    Element = VAT->getElementType();
    Extent = expr(VAT->getSizeExpr());
  } else if (const auto *Array = stdTemplate(T, "array")) {
    Element = Array->getTemplateArgs()[0].getAsType();
    Extent = integer(Array->getTemplateArgs()[1].getAsIntegral().getExtValue());
  } else if (const auto *Vector = stdTemplate(T, "vector")) {
    Element = Vector->getTemplateArgs()[0].getAsType();
    const auto *CE = dyn_cast_or_null<CXXConstructExpr>(
        Init ? Init->IgnoreImplicit() : nullptr);
    if (!CE || CE->getNumArgs() == 0 ||
        isa<CXXStdInitializerListExpr>(CE->getArg(0)->IgnoreImplicit()) ||
        !CE->getArg(0)->getType()->isIntegerType())
      return fail(VD->getLocation(),
                  "a std::vector in a weft loop must be sized where it is "
                  "declared",
                  "write 'std::vector<T> " + VD->getName().str() +
                      "(n)' or '(n, value)'"),
             std::nullopt;
    Extent = expr(CE->getArg(0));
    const bool HasValue =
        CE->getNumArgs() > 1 && !isa<CXXDefaultArgExpr>(CE->getArg(1));
    Fill = HasValue ? expr(CE->getArg(1))
                    : make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0");
    Init = nullptr;
  } else {
    return std::nullopt;
  }
  if (!Extent)
    return std::nullopt;
  if (T->isReferenceType())
    return fail(VD->getLocation(), "references to arrays are not supported "
                                   "in a weft loop"),
           std::nullopt;
  std::optional<ir::ScalarKind> K = scalarKind(Element);
  const int S = K ? -1 : structIndex(Element, VD->getLocation(), false);
  if (!K && S < 0)
    return fail(VD->getLocation(),
                "per-iteration array '" + VD->getName().str() +
                    "' has elements of type '" + Element.getAsString() + "'",
                "use arithmetic elements or structs of them"),
           std::nullopt;
  auto R = std::make_unique<ir::Stmt>();
  R->Kind = ir::Stmt::Decl;
  R->Name = localName(VD);
  R->VarType.Scalar = K.value_or(ir::ScalarKind::Char);
  R->VarType.Struct = S;
  R->ArrayExtent = std::move(Extent);
  if (Fill) {
    R->ArrayFill = true;
    R->Exprs.push_back(std::move(Fill));
  } else if (const auto *IL = dyn_cast_or_null<InitListExpr>(
                 Init ? Init->IgnoreImplicit() : nullptr)) {
    // std::array's braces hold its member array's.
    if (IL->getNumInits() == 1 && isa<InitListExpr>(IL->getInit(0)) &&
        stdTemplate(T, "array"))
      IL = cast<InitListExpr>(IL->getInit(0));
    auto List = make(ir::Expr::InitList, R->VarType.Scalar);
    for (const Expr *E : IL->inits()) {
      if (isa<ImplicitValueInitExpr>(E))
        break; // the rest is zero, as `= {...}` makes it
      ir::ExprPtr V = expr(E);
      if (!V)
        return std::nullopt;
      List->Operands.push_back(std::move(V));
    }
    R->Exprs.push_back(std::move(List));
  } else if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(
                 Init ? Init->IgnoreImplicit() : nullptr);
             Init && !(CE && CE->getNumArgs() == 0)) {
    // A copy of another array (`std::array<float, 3> q = p[i];`).
    return fail(VD->getLocation(),
                "per-iteration array '" + VD->getName().str() +
                    "' can start from a list of values only",
                "copy the elements one by one, or index the source "
                "directly"),
           std::nullopt;
  } else {
    R->Exprs.push_back(nullptr);
  }
  declareLocal(VD);
  LocalArrays[VD] = R->ArrayExtent.get();
  return R;
}

ir::ExprPtr Recognizer::localElement(const Expr *Subscript, const Expr *Base,
                                     const Expr *Index,
                                     std::optional<ir::ScalarKind> K) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !LocalArrays.count(VD))
    return nullptr;
  ir::ExprPtr I = expr(Index, Access::Read);
  if (!I)
    return nullptr;
  return localArrayElement(
      VD, K.value_or(ir::ScalarKind::Char),
      K ? -1
        : structIndex(Subscript->getType(), Subscript->getExprLoc(), false),
      std::move(I));
}

ir::ExprPtr Recognizer::localArrayElement(const VarDecl *VD, ir::ScalarKind K,
                                          int Struct, ir::ExprPtr Index) {
  auto R = make(ir::Expr::LocalElement, K, localName(VD));
  R->Struct = Struct;
  R->Operands.push_back(std::move(Index));
  return R;
}

void Recognizer::rangeLoop(const CXXForRangeStmt *RF,
                           std::vector<ir::StmtPtr> &Out) {
  auto Refuse = [&] {
    fail(RF->getForLoc(),
         "a range-based 'for' inside a weft loop must run over captured "
         "data of one dimension or a row of it",
         "write it as an index loop");
  };
  const Expr *Range = RF->getRangeInit();
  const std::string Counter = Names.numbered("weft_k");
  auto Block = std::make_unique<ir::Stmt>();
  Block->Kind = ir::Stmt::Block;
  // Over a row (a row view, or a[i] written in the loop: its index kept in
  // a local first), or over captured data of one dimension.
  unsigned P = 0;
  ir::ExprPtr Size, RowIndex;
  const RowView *View = rowViewOf(Range);
  std::optional<ir::StmtPtr> RowDecl;
  // Or over a per-iteration array (`for (auto &x : w)`, w declared in the
  // loop).
  const auto *RangeRef = dyn_cast<DeclRefExpr>(Range->IgnoreParenImpCasts());
  const auto *Local =
      RangeRef ? dyn_cast<VarDecl>(RangeRef->getDecl()) : nullptr;
  if (Local && !LocalArrays.count(Local))
    Local = nullptr;
  if (!View && !Local) {
    // `for (float X : Rows[I])`: a row named for the loop.
    const VarDecl *Temporary =
        RF->getRangeStmt()
            ? dyn_cast<VarDecl>(
                  cast<DeclStmt>(RF->getRangeStmt())->getSingleDecl())
            : nullptr;
    const Expr *Bare = Range->IgnoreParenImpCasts();
    std::optional<SpanInto> Part;
    if (Temporary && (RowDecl = rowView(Temporary))) {
      if (!*RowDecl)
        return;
      View = &RowViews[Temporary];
      Block->Children.push_back(std::move(*RowDecl));
    } else if (Temporary && !isa<DeclRefExpr>(Bare) && !isa<MemberExpr>(Bare) &&
               spanDecl(Temporary->getType().getNonReferenceType()) &&
               (Part = spanInto(Range))) {
      // `for (float &v : out.subspan(y * w, w))`: over a part of captured
      // data, a span of its own length.
      bindSpanView(Temporary, std::move(*Part), Block->Children);
      View = &RowViews[Temporary];
    }
  }
  ir::ExprPtr SpanOffset;
  if (Local) {
    Size = ir::cloneExpr(*LocalArrays[Local]);
  } else if (View && !View->Length.empty()) {
    // A span of its own length: elements from its offset on.
    P = View->Param;
    SpanOffset = make(ir::Expr::Local, ir::ScalarKind::Long, View->Local);
    Size = viewLength(*View);
  } else if (View) {
    P = View->Param;
    const DataShape &Shape = Shapes[P];
    if (Shape.Inner.size() > (Shape.RowsApart ? 0u : 1u))
      return Refuse();
    RowIndex = make(ir::Expr::Local, ir::ScalarKind::Long, View->Local);
    Size = rowLength(P, ir::cloneExpr(*RowIndex), ir::ScalarKind::Long);
  } else if (std::optional<DataShape> Rows = dataShape(Range->getType());
             Rows && !Rows->IsPointer && !Rows->IsMdspan &&
             (Rows->RowsApart || Rows->Inner.size() == 1)) {
    // `for (const auto &Row : Grid)`: over the rows of captured data.
    return rowsLoop(RF, Out);
  } else {
    std::optional<DataShape> Shape = dataShape(Range->getType());
    if (!Shape || Shape->IsPointer || Shape->IsMdspan || Shape->RowsApart ||
        !Shape->Inner.empty() ||
        !(isa<DeclRefExpr>(Range->IgnoreParenImpCasts()) ||
          isa<MemberExpr>(Range->IgnoreParenImpCasts())))
      return Refuse();
    std::optional<unsigned> Captured = spanOperand(Range);
    if (!Captured)
      return;
    P = *Captured;
    Size = make(ir::Expr::SpanSize, ir::ScalarKind::Long);
    Size->ParamIndex = P;
  }
  const VarDecl *LoopVar = RF->getLoopVariable();
  const QualType VT = LoopVar->getType();
  std::optional<ir::ScalarKind> K = scalarKind(VT.getNonReferenceType());
  const int Struct =
      K ? -1 : structIndex(VT.getNonReferenceType(), LoopVar->getLocation());
  if (!K && Struct < 0)
    return (void)fail(LoopVar->getLocation(),
                      "the loop variable must be an arithmetic value, a "
                      "struct of them, or a reference to one");
  // for (long k = 0; k < size; ++k) { T x = data[k]; body }
  ir::StmtPtr Loop = indexLoop(Counter, std::move(Size));
  nameRangeLoop(*Loop, RF);
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::Block;
  ir::StmtPtr Var = declarationOf(LoopVar, localName(LoopVar), K, Struct);
  ir::ExprPtr At = make(ir::Expr::Local, ir::ScalarKind::Long, Counter);
  if (Local) {
    Var->Exprs.push_back(
        localArrayElement(Local, Var->VarType.Scalar, Struct, std::move(At)));
  } else {
    std::vector<ir::ExprPtr> Subscripts;
    if (RowIndex)
      Subscripts.push_back(std::move(RowIndex));
    if (SpanOffset)
      At = operation("+", std::move(SpanOffset), std::move(At));
    Subscripts.push_back(std::move(At));
    auto Element = make(ir::Expr::SpanElement, Var->VarType.Scalar);
    Element->ParamIndex = P;
    Element->Struct = Struct;
    Element->Use = ir::elementUseOf(Var->VarType);
    Element->Origin = Range->getBeginLoc().getRawEncoding();
    Element->Operands.push_back(flatIndex(P, std::move(Subscripts)));
    markUse(P, Var->VarType.IsReference && !Var->VarType.IsConst
                   ? Access::ReadWrite
                   : Access::Read);
    PlainArrayUses.try_emplace(P, Range->getBeginLoc());
    Var->Exprs.push_back(std::move(Element));
  }
  Body->Children.push_back(std::move(Var));
  declareLocal(LoopVar);
  ++SequentialDepth;
  stmt(RF->getBody(), Body->Children);
  --SequentialDepth;
  Loop->Children.push_back(std::move(Body));
  Block->Children.push_back(std::move(Loop));
  Out.push_back(std::move(Block));
}

void Recognizer::nameRangeLoop(ir::Stmt &Loop, const CXXForRangeStmt *RF) {
  Loop.Location = locationText(SM, RF->getBeginLoc());
  LoopLocations[Loop.Location] = RF->getBeginLoc();
  Loop.Name = RF->getLoopVariable()->getName().str();
}

ir::StmtPtr Recognizer::indexLoop(const std::string &Counter,
                                  ir::ExprPtr Count) {
  auto Loop = std::make_unique<ir::Stmt>();
  Loop->Kind = ir::Stmt::For;
  auto Init = std::make_unique<ir::Stmt>();
  Init->Kind = ir::Stmt::Decl;
  Init->Name = Counter;
  Init->VarType.Scalar = ir::ScalarKind::Long;
  Init->Exprs.push_back(integer(0));
  Loop->Children.push_back(std::move(Init));
  Loop->Exprs.push_back(
      operation("<", make(ir::Expr::Local, ir::ScalarKind::Long, Counter),
                converted(std::move(Count)), ir::ScalarKind::Bool));
  auto Step = make(ir::Expr::Unary, ir::ScalarKind::Long, "++");
  Step->Operands.push_back(
      make(ir::Expr::Local, ir::ScalarKind::Long, Counter));
  Loop->Exprs.push_back(std::move(Step));
  return Loop;
}

void Recognizer::rowsLoop(const CXXForRangeStmt *RF,
                          std::vector<ir::StmtPtr> &Out) {
  const Expr *Range = RF->getRangeInit();
  const VarDecl *LoopVar = RF->getLoopVariable();
  if (!LoopVar->getType()->isReferenceType() ||
      !(isa<DeclRefExpr>(Range->IgnoreParenImpCasts()) ||
        isa<MemberExpr>(Range->IgnoreParenImpCasts())))
    return (void)fail(LoopVar->getLocation(),
                      "a range-based 'for' over rows inside a weft loop must "
                      "bind each row to a reference",
                      "write 'const auto &" + LoopVar->getName().str() +
                          "' (or 'auto &' to write it)");
  std::optional<unsigned> P = spanOperand(Range);
  if (!P)
    return;
  ir::ExprPtr Rows = dataSize(Range, ir::ScalarKind::Long);
  if (!Rows)
    return;
  // for (long k = 0; k < rows; ++k) { const long weft_rowN_Row = k; body }
  // with Row a view of row k.
  const std::string Counter = Names.numbered("weft_k");
  ir::StmtPtr Loop = indexLoop(Counter, std::move(Rows));
  nameRangeLoop(*Loop, RF);
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::Block;
  Body->Children.push_back(bindRowView(
      LoopVar, *P, make(ir::Expr::Local, ir::ScalarKind::Long, Counter)));
  ++SequentialDepth;
  stmt(RF->getBody(), Body->Children);
  --SequentialDepth;
  Loop->Children.push_back(std::move(Body));
  Out.push_back(std::move(Loop));
}

bool Recognizer::failedAssertion(const ConditionalOperator *Check) {
  const auto *Pass =
      dyn_cast<ExplicitCastExpr>(Check->getTrueExpr()->IgnoreParens());
  const auto *Fail =
      dyn_cast<CallExpr>(Check->getFalseExpr()->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Fail ? Fail->getDirectCallee() : nullptr;
  static const llvm::StringSet<> Reporters = {"__assert_fail", "__assert_rtn",
                                              "_assert", "__assert"};
  return Pass && Pass->getType()->isVoidType() && Callee &&
         Callee->getIdentifier() && Reporters.contains(Callee->getName());
}

ir::StmtPtr Recognizer::privateDeclaration(const VarDecl *VD,
                                           const Expr *Init) {
  if (VD->getType()->isPointerType()) {
    std::optional<PointerInto> Ptr = pointerInto(Init);
    if (!Ptr)
      return fail(Init->getBeginLoc(),
                  "'" + VD->getName().str() +
                      "' can point only into captured data of one "
                      "dimension in a weft loop",
                  "set it to an element of such data: 'p = a + k' or "
                  "'p = &a[k]'"),
             nullptr;
    return pointerView(VD, std::move(*Ptr));
  }
  ir::StmtPtr D =
      declarationOf(VD, localName(VD), scalarKind(VD->getType()), -1);
  D->Exprs.push_back(Init ? expr(Init, Access::Read) : nullptr);
  declareLocal(VD);
  return D;
}

void Recognizer::declareLocal(const VarDecl *VD) {
  Locals.insert(VD);
  LocalDepth[VD] = static_cast<unsigned>(Indices.size());
}

ir::StmtPtr Recognizer::local(const Decl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD) {
    if (isa<TypedefNameDecl>(D) || isa<UsingDecl>(D) ||
        isa<StaticAssertDecl>(D))
      return nullptr;
    return fail(D->getLocation(), "this declaration is not supported in a "
                                  "weft loop"),
           nullptr;
  }
  if (VD->isStaticLocal() || VD->hasGlobalStorage())
    return fail(VD->getLocation(), "static variables cannot be declared in "
                                   "a weft loop"),
           nullptr;
  QualType T = VD->getType();
  // A lambda: nothing to declare in the kernel; its calls compile its
  // body (captures are diagnosed there).
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl(); RD && RD->isLambda())
    return nullptr;
  if (std::optional<ir::StmtPtr> View = rowView(VD))
    return std::move(*View);
  // `auto row = out.subspan(y * w, w)`: a part of captured data, a view as
  // a span parameter of a function compiled into the loop is (declared
  // before the statement, with what it hoists).
  if (spanDecl(T) && VD->getInit() && Hoisted) {
    std::optional<SpanInto> Part = spanInto(VD->getInit());
    if (!Part)
      return fail(VD->getLocation(),
                  "span '" + VD->getName().str() +
                      "' can be only a part of captured data of one "
                      "dimension in a weft loop",
                  "set it to such data, 'a.subspan(k, n)' or "
                  "'std::span(&a[k], n)'"),
             nullptr;
    bindSpanView(VD, std::move(*Part), *Hoisted);
    return nullptr;
  }
  if (std::optional<ir::StmtPtr> Array = localArray(VD))
    return std::move(*Array);
  if (Failed)
    return nullptr;
  std::optional<ir::ScalarKind> K = scalarKind(T.getNonReferenceType());
  const int Struct = K ? -1 : structIndex(T, VD->getLocation(), false);
  if (!K && Struct < 0) {
    if (T->isRecordType() && !spanDecl(T) &&
        !T->getAsCXXRecordDecl()->isLambda() &&
        structIndex(T, VD->getLocation(), true) < 0 && Failed)
      return nullptr; // diagnosed: a struct weft cannot take
    std::string Hint =
        T->isArrayType() || T->isRecordType()
            ? std::string(NotSupportedYet) +
                  "; arithmetic locals, structs of them, C arrays, "
                  "std::array and sized std::vector are"
            : "declare arithmetic locals";
    return fail(VD->getLocation(),
                "local variable '" + VD->getName().str() + "' of type '" +
                    T.getAsString() + "' is not supported in a weft loop",
                Hint),
           nullptr;
  }
  ir::StmtPtr R = declarationOf(VD, localName(VD), K, Struct);
  if (R->VarType.IsReference && !VD->getInit())
    return nullptr;
  // `Particle p;`: a struct left uninitialized, as in the source (where
  // no constructor or default member initializer sets it).
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(VD->getInit());
      CE && Struct >= 0 && CE->getNumArgs() == 0 &&
      CE->getConstructor()->isTrivial() && !CE->requiresZeroInitialization()) {
    R->Exprs.push_back(nullptr);
    declareLocal(VD);
    return R;
  }
  Access A = R->VarType.IsReference && !R->VarType.IsConst ? Access::ReadWrite
                                                           : Access::Read;
  {
    llvm::SaveAndRestore<bool> Binding(BindingReference,
                                       R->VarType.IsReference);
    R->Exprs.push_back(VD->getInit() ? expr(VD->getInit(), A) : nullptr);
  }
  declareLocal(VD);
  return R;
}

} // namespace weft::recognize
