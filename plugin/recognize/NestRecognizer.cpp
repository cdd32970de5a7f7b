// NestRecognizer.cpp: recognizeNest: the recognizer's walk from the marked
// loop, and the nest it returns.
#include "recognize/Recognizer.h"

#include "analysis/SubscriptBounds.h"
#include "ir/NestClone.h"
#include "ir/RowsApart.h"
#include "syntax/OpenMPMarks.h"

#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace weft::recognize {
namespace {

/// Moves, fuses and marks loops where that exposes parallelism and reuse,
/// keeping LevelLocations in step with the levels there are now (a loop
/// made a level is where the recognizer found it).
void reorderLoops(RecognizedNest &R,
                  const std::map<std::string, SourceLocation> &Loops) {
  std::map<std::string, SourceLocation> Where = Loops;
  std::vector<const ir::Level *> Before = ir::levels(R.Nest);
  for (std::size_t I = 0; I < Before.size(); ++I)
    Where[Before[I]->Location] = R.LevelLocations[I];
  R.Reorders = ir::reorderLoops(R.Nest);
  R.LevelLocations.clear();
  for (const ir::Level *L : ir::levels(R.Nest))
    R.LevelLocations.push_back(Where[L->Location]);
}

} // namespace

std::optional<RecognizedNest> Recognizer::run(const compat::Mark &Mark) {
  RecognizedNest R;
  syntax::ClauseError CE;
  // The syntax stage validated the text already.
  syntax::parseMark(Mark.Clauses, R.Clauses, CE);
  const StringLiteral *Literal = Mark.Literal;
  ClauseLiterals.assign(1, Literal);
  Directive = Mark.FromOpenMP ? Mark.Replaced : nullptr;
  ScratchReductions = Mark.Scratch;
  if (!(R.Clauses.Sequential ? sequentialLevel(Loop, R.Clauses, R.Nest.Root)
                             : level(Loop, R.Clauses, Literal, R.Nest.Root)) ||
      Failed)
    return std::nullopt;
  checkReducedArrayUses();
  if (R.Clauses.If)
    R.Condition = conditionExpr(R.Clauses.If->Value);
  if (Mark.Condition) {
    // OpenMP's if clause, checked by Sema at the directive; its text for
    // the remarks.
    R.Condition = Mark.Condition;
    R.Clauses.If.emplace();
    R.Clauses.If->Value.Text = std::string(Lexer::getSourceText(
        CharSourceRange::getTokenRange(Mark.Condition->getSourceRange()), SM,
        Ctx.getLangOpts()));
  }
  if (Failed)
    return std::nullopt;
  // An extent clause for a pointer the loop does not index is a typo, or
  // left over from an edit: harmless, but worth a word.
  for (const syntax::Extent &E : R.Clauses.Extents)
    for (const std::string &Pointer : E.Pointers) {
      bool Used = false;
      for (const Capture &C : Captures) {
        if (!C.Extent)
          continue; // not a pointer (an extent's value is no variable)
        const std::optional<MemberChain> Chain = memberOfCapture(C.Source);
        const auto *Ref = dyn_cast<DeclRefExpr>(C.Source);
        const std::string Name = Chain ? Chain->Text
                                 : Ref ? Ref->getDecl()->getName().str()
                                       : std::string();
        Used = Used || Name == Pointer;
      }
      if (!Used)
        diagnose(Diags, clauseAt(0, E.Offset), DiagnosticsEngine::Warning,
                 "the extent clause names '" + Pointer +
                     "', which the loop does not index as a pointer",
                 "remove it from extent(...), or name the pointer as the "
                 "loop writes it");
    }
  R.Nest.Location = R.Nest.Root.Location;
  R.Nest.FunctionName = functionShownAs(Function);
  R.Nest.Sequential = R.Clauses.Sequential;
  if (R.Clauses.Strategy)
    R.Nest.Strategy = R.Clauses.Strategy->Value;
  for (std::size_t I = 0; I < Params.size(); ++I) {
    ir::Param P = Params[I];
    if (P.isSpan())
      P.Kind = Uses[I].Written ? (Uses[I].Read ? ir::ParamKind::ReadWriteSpan
                                               : ir::ParamKind::WriteSpan)
                               : ir::ParamKind::ReadSpan;
    if (P.isSpan() && MembersThroughConst.lookup(I) && !Uses[I].Written)
      P.ConstElement = true;
    R.Nest.Params.push_back(std::move(P));
  }
  defineCapturedConstants(R.Nest.Params);
  // Rows held apart that are all of one length at run time are one block
  // of rows by columns: the same nest indexed so is a second kernel.
  std::optional<ir::Nest> OneLength;
  if (holdsRowsApart(R.Nest)) {
    OneLength = ir::cloneNest(R.Nest);
    if (!ir::indexRowsAsOneLength(*OneLength))
      OneLength.reset(); // no row read: the same nest
  }
  if (!inferExtents(R.Nest))
    return std::nullopt;
  if (OneLength && !inferExtents(*OneLength, /*Quiet=*/true))
    OneLength.reset();
  R.Captures = Captures;
  R.LevelLocations = LevelLocations;
  R.Nest.Functions = std::move(Functions);
  R.Nest.Structs = std::move(Structs);
  R.OpenMPTarget = Mark.OpenMPTarget;
  R.TeamLaunch = Mark.TeamLaunch;
  R.Team = Mark.Team;
  if (OneLength) {
    R.OneLengthRows = std::make_unique<RecognizedNest>();
    RecognizedNest &U = *R.OneLengthRows;
    U.Nest = std::move(*OneLength);
    for (const ir::Function &F : R.Nest.Functions)
      U.Nest.Functions.push_back(ir::cloneFunction(F));
    U.Nest.Structs = R.Nest.Structs;
    U.Captures = R.Captures;
    U.Clauses = R.Clauses;
    U.Condition = R.Condition;
    U.LevelLocations = R.LevelLocations;
    U.OpenMPTarget = R.OpenMPTarget;
    U.TeamLaunch = R.TeamLaunch;
    U.Team = R.Team;
    reorderLoops(U, LoopLocations);
    ir::analyzeAccesses(U.Nest);
  }
  reorderLoops(R, LoopLocations);
  ir::analyzeAccesses(R.Nest);
  if (!checkOpenMPClauses(Mark, R))
    return std::nullopt;
  return R;
}

bool Recognizer::checkOpenMPClauses(const compat::Mark &Mark,
                                    const RecognizedNest &R) {
  std::vector<bool> Combined(R.Captures.size(), false);
  for (const ir::Level *L : ir::levels(R.Nest))
    for (const ir::Reduction &Red : L->Reductions)
      if (Red.ParamIndex >= 0)
        Combined[Red.ParamIndex] = true;
  for (std::size_t I = 0; I < R.Captures.size(); ++I) {
    const Expr *Source = R.Captures[I].Source;
    const VarDecl *V = R.Captures[I].Value ? nullptr : rootVariable(Source);
    if (!V)
      continue;
    const std::string Name = V->getName().str();
    // The launch reads the bounds once, before the loop writes anything:
    // data the loop writes may not hold them (`g` written, `g[0]` read;
    // `s.p[i]` written, `s.n` read is apart).
    const ir::ParamKind Kind = R.Nest.Params[I].Kind;
    if (Kind == ir::ParamKind::WriteSpan ||
        Kind == ir::ParamKind::ReadWriteSpan) {
      const std::vector<const FieldDecl *> Written = fieldPath(Source);
      for (const BoundRead &Read : BoundReads)
        if (Read.Global == V && Written.size() <= Read.Fields.size() &&
            std::equal(Written.begin(), Written.end(), Read.Fields.begin()))
          return fail(Read.Loc,
                      "the loop's bounds read '" + Name +
                          "', which the loop writes",
                      "compute the bound into a local variable before the "
                      "loop"),
                 false;
    }
    // Combined into, a variable each OpenMP thread has its own copy of
    // would end up holding what the launch combined; OpenMP leaves it as
    // it was.
    if ((Combined[I] || R.Captures[I].Stored) &&
        llvm::is_contained(Mark.Privates, V))
      return fail(Source->getExprLoc(),
                  "'" + Name +
                      "' is each OpenMP thread's own (private), yet the "
                      "loop combines into it: the launch would leave the "
                      "combined value in '" +
                      Name + "', where OpenMP leaves it as it was",
                  "declare '" + Name +
                      "' inside the loop, or name it in a reduction "
                      "clause instead"),
             false;
    if (Mark.TeamLaunch && !teamShares(Mark.Team, R, I, V, Combined[I]))
      return false;
    if (!Mark.OpenMPTarget)
      continue;
    // What the target region writes into data mapped to the device alone
    // stays there; the launch would copy it back.
    if ((Kind == ir::ParamKind::WriteSpan ||
         Kind == ir::ParamKind::ReadWriteSpan) &&
        llvm::is_contained(Mark.MappedIn, V))
      return fail(Source->getExprLoc(),
                  "the loop writes '" + Name +
                      "', which the directive maps to the device alone "
                      "(map(to) or map(alloc)): OpenMP never copies it "
                      "back, and the launch would",
                  "map it tofrom (or from) if the host reads what the "
                  "loop writes"),
             false;
    // A declare-target variable has a copy of its own on the device, which
    // the target region uses, not the host's.
    if (V->hasAttr<OMPDeclareTargetDeclAttr>())
      return fail(Source->getExprLoc(),
                  "'" + Name +
                      "' is declared for the device (declare target): the "
                      "target region reads its device copy, the launch the "
                      "host's"),
             false;
  }
  return true;
}

bool Recognizer::teamShares(const Stmt *Team, const RecognizedNest &R,
                            std::size_t I, const VarDecl *V, bool Combined) {
  const Expr *Source = R.Captures[I].Source;
  const std::string Name = V->getName().str();
  if (V->hasAttr<OMPThreadPrivateDeclAttr>())
    return fail(Source->getExprLoc(),
                "'" + Name +
                    "' is threadprivate: each thread of the team has its "
                    "own, and the launch would see one thread's"),
           false;
  // Orphaned (Team null): data a local of the function holds is each
  // thread's own, its iterations' scratch in OpenMP, where the launch
  // would share one copy among all iterations. What the loop only reads,
  // and a scalar it combines into (shared only in a team of one), are left
  // to the team's vote at run time.
  const ir::ParamKind Kind = R.Nest.Params[I].Kind;
  if (!Team && V->hasLocalStorage() && !isView(V->getType()) &&
      (Kind == ir::ParamKind::WriteSpan ||
       Kind == ir::ParamKind::ReadWriteSpan))
    return fail(Source->getExprLoc(),
                "'" + Name +
                    "' is a local of the function around this orphaned "
                    "loop, each OpenMP thread's own, and the loop writes it: "
                    "the launch would share one copy among all iterations" +
                    (NotPrivate.count(V) ? "; not a copy of each iteration's "
                                           "own, as " +
                                               NotPrivate.lookup(V)
                                         : ""),
                "declare '" + Name + "' inside the loop"),
           false;
  if (!Team || !syntax::teamPrivate(V, Team) ||
      (Combined && syntax::teamReduces(V, Team)))
    return true;
  // Each thread's own copy: the launch, run by one thread, sees that
  // thread's. A value only read is the same in every thread unless the
  // region asks which thread it is.
  const ir::Param &P = R.Nest.Params[I];
  const bool Scalar = P.Kind == ir::ParamKind::Scalar;
  const bool AsksThread = Scalar && syntax::readsThreadNumber(Team);
  if (Scalar && !R.Captures[I].Stored && !AsksThread)
    return true;
  return fail(Source->getExprLoc(),
              "'" + Name +
                  "' is each thread's own in the parallel region (declared "
                  "inside it, or private to it)" +
                  (Scalar ? ", and the region asks which thread it is" : "") +
                  ": the launch, run by one thread, would see that "
                  "thread's alone",
              "declare '" + Name +
                  "' before the region, so that the team shares it"),
         false;
}

bool Recognizer::inferExtents(ir::Nest &N, bool Quiet) {
  for (const UnstatedExtent &U : UnstatedExtents) {
    std::string Why;
    ir::Param &P = N.Params[U.Param];
    // Rows held as pointers: their row subscripts' bounds and their
    // columns'.
    if (P.RowsApart) {
      P.RowSubscripts =
          ir::subscriptBounds(N, U.Param, &Why, ir::SubscriptPart::Row);
      if (P.RowSubscripts)
        P.ColumnSubscripts =
            ir::subscriptBounds(N, U.Param, &Why, ir::SubscriptPart::Column);
    } else {
      P.Subscripts = ir::subscriptBounds(N, U.Param, &Why);
    }
    if (P.RowsApart ? !P.ColumnSubscripts : !P.Subscripts) {
      if (Quiet)
        return false;
      // The subscript named by the pointer as the loop names it.
      const std::string Kernel = "'" + N.Params[U.Param].Name + "[";
      if (std::size_t At = Why.find(Kernel); At != std::string::npos)
        Why.replace(At, Kernel.size(), "'" + U.Shown + "[");
      fail(U.Loc,
           (P.RowsApart ? "weft cannot know how many rows of how many "
                          "elements '" +
                              U.Shown + "' points to: "
                        : "weft cannot know how many elements pointer '" +
                              U.Shown + "' points to: ") +
               Why,
           U.Hint);
      return false;
    }
  }
  return true;
}

std::optional<RecognizedNest> recognizeNest(Sema &S,
                                            const FunctionDecl *Function,
                                            const compat::Mark &Mark,
                                            const VariableSet *OnlyRead) {
  return Recognizer(S, Function, Mark.Loop, OnlyRead).run(Mark);
}

bool holdsRowsApart(const ir::Nest &N) {
  return std::any_of(N.Params.begin(), N.Params.end(),
                     [](const ir::Param &P) { return P.RowOffsetsOf >= 0; });
}

} // namespace weft::recognize
