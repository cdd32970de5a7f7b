// RecognizeLoopStatements.cpp: the loops inside a nest into the nest IR:
// levels of their own, and for, while, do and range-based loops in order.
#include "recognize/BodyRecognizer.h"

#include "llvm/Support/SaveAndRestore.h"

#include "syntax/OpenMPMarks.h"

namespace weft::recognize {

std::optional<compat::Mark> BodyRecognizer::innerMark(const Stmt *S) {
  std::optional<compat::Mark> M =
      syntax::findLoopMark(const_cast<Stmt *>(S), Ctx);
  if (M && M->Loop == Loop)
    M.reset(); // a sequential loop's own mark: the loop, in order
  return M;
}

void BodyRecognizer::nestedLevel(const compat::Mark &M,
                                 std::vector<ir::StmtPtr> &Out) {
  syntax::Clauses Clauses;
  syntax::ClauseError CE;
  syntax::parseMark(M.Clauses, Clauses, CE);
  if (Clauses.Sequential)
    return (void)fail(M.Loop->getBeginLoc(),
                      "a sequential loop cannot be marked inside a weft "
                      "nest: there, a loop without a mark already runs in "
                      "order",
                      "remove '#pragma weft sequential for'; or mark this "
                      "loop alone, outside the nest");
  auto R = statement(ir::Stmt::ParallelFor);
  R->Nested = std::make_unique<ir::Level>();
  FinishedElements.clear();
  FinishedArgs.clear();
  if (!level(M.Loop, Clauses, M.Literal, *R->Nested))
    return;
  std::vector<ir::StmtPtr> After;
  if (!reducedElementsAround(Out, After))
    return;
  argReductionsAround(Out, After);
  Out.push_back(std::move(R));
  for (ir::StmtPtr &S : After)
    Out.push_back(std::move(S));
}

bool BodyRecognizer::reducedElementsAround(std::vector<ir::StmtPtr> &Before,
                                           std::vector<ir::StmtPtr> &After) {
  // reduction(op: tmp[i]): the element goes through a local of this
  // level, loaded before the reducing level and stored after it.
  std::vector<ReducedElement> Elements = std::move(FinishedElements);
  FinishedElements.clear();
  for (const ReducedElement &E : Elements) {
    auto Load = statement(ir::Stmt::Decl);
    Load->VarType.Scalar = E.Type;
    Load->Name = E.Name;
    Load->Exprs.push_back(expr(E.Element, Access::Read));
    Before.push_back(std::move(Load));
    ir::ExprPtr Target = expr(E.Element, Access::Write);
    if (!Target)
      return false;
    auto Store = make(ir::Expr::Binary, E.Type, "=");
    Store->Operands.push_back(std::move(Target));
    Store->Operands.push_back(make(ir::Expr::Local, E.Type, E.Name));
    auto S = statement(ir::Stmt::ExprStmt);
    S->Exprs.push_back(std::move(Store));
    After.push_back(std::move(S));
  }
  return true;
}

void BodyRecognizer::argReductionsAround(std::vector<ir::StmtPtr> &Before,
                                         std::vector<ir::StmtPtr> &After) {
  // reduction(argmax: v, at): the key starts empty before the level
  // and goes into v and at after it.
  std::vector<ArgReduction> Args = std::move(FinishedArgs);
  FinishedArgs.clear();
  for (const ArgReduction &A : Args) {
    auto Decl = statement(ir::Stmt::Decl);
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
    Before.push_back(std::move(Decl));
    auto Finish = make(ir::Expr::Call, ir::ScalarKind::Int, A.function(true));
    Finish->Operands.push_back(make(ir::Expr::Local, A.KeyType, A.Key));
    Finish->Operands.push_back(
        make(ir::Expr::Local, A.ValueType, A.Value->getName().str()));
    Finish->Operands.push_back(
        make(ir::Expr::Local, A.AtType, A.At->getName().str()));
    auto S = statement(ir::Stmt::ExprStmt);
    S->Exprs.push_back(std::move(Finish));
    After.push_back(std::move(S));
  }
}

void BodyRecognizer::forStmt(const ForStmt *F, std::vector<ir::StmtPtr> &Out) {
  if (F->getConditionVariable())
    return (void)fail(F->getForLoc(), "a declaration in a loop condition "
                                      "is not supported in a weft loop");
  auto R = statement(ir::Stmt::For);
  R->Location = locationText(SM, F->getBeginLoc());
  LoopLocations[R->Location] = F->getBeginLoc();
  std::vector<ir::StmtPtr> Init;
  std::vector<std::pair<const VarDecl *, unsigned>> Hidden = forInit(F, Init);
  // Several variables (`for (int i = 0, j = n - 1; i < j; ++i, --j)`):
  // declared in a block of their own before the loop, as they are scoped.
  const bool Several = Init.size() > 1;
  R->Children.push_back(Init.empty() || Several ? nullptr : std::move(Init[0]));
  {
    // (A global's element the condition reads: a value of the launch's,
    // which bounds what the loop's iterations index.)
    llvm::SaveAndRestore<bool> InBound(InLevelBound, true);
    R->Exprs.push_back(F->getCond() ? expr(F->getCond()) : nullptr);
  }
  R->Exprs.push_back(F->getInc() ? expr(F->getInc()) : nullptr);
  ++SequentialDepth;
  R->Children.push_back(single(F->getBody()));
  --SequentialDepth;
  for (const auto &[V, Depth] : Hidden)
    LocalDepth[V] = Depth;
  if (Several) {
    auto B = statement(ir::Stmt::Block);
    B->Children = std::move(Init);
    B->Children.push_back(std::move(R));
    R = std::move(B);
  }
  Out.push_back(std::move(R));
}

std::vector<std::pair<const VarDecl *, unsigned>>
BodyRecognizer::forInit(const ForStmt *F, std::vector<ir::StmtPtr> &Init) {
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
  // The privates whose depth the loop's own copy hides until it ends.
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
  return Hidden;
}

void BodyRecognizer::whileStmt(const WhileStmt *W,
                               std::vector<ir::StmtPtr> &Out) {
  if (W->getConditionVariable())
    return (void)fail(W->getWhileLoc(), "a declaration in a loop "
                                        "condition is not supported in a "
                                        "weft loop");
  auto R = statement(ir::Stmt::While);
  R->Exprs.push_back(expr(W->getCond()));
  ++SequentialDepth;
  R->Children.push_back(single(W->getBody()));
  --SequentialDepth;
  Out.push_back(std::move(R));
}

void BodyRecognizer::doStmt(const DoStmt *D, std::vector<ir::StmtPtr> &Out) {
  auto R = statement(ir::Stmt::DoWhile);
  ++SequentialDepth;
  R->Children.push_back(single(D->getBody()));
  --SequentialDepth;
  R->Exprs.push_back(expr(D->getCond()));
  Out.push_back(std::move(R));
}

void BodyRecognizer::rangeLoop(const CXXForRangeStmt *RF,
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

void BodyRecognizer::nameRangeLoop(ir::Stmt &Loop, const CXXForRangeStmt *RF) {
  Loop.Location = locationText(SM, RF->getBeginLoc());
  LoopLocations[Loop.Location] = RF->getBeginLoc();
  Loop.Name = RF->getLoopVariable()->getName().str();
}

ir::StmtPtr BodyRecognizer::indexLoop(const std::string &Counter,
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

void BodyRecognizer::rowsLoop(const CXXForRangeStmt *RF,
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

} // namespace weft::recognize
