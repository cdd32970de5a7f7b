// NestRecognizer.cpp: recognizeNest: the recognizer's walk from the marked
// loop, and the nest it returns.
#include "recognize/Recognizer.h"

#include "ir/SubscriptBounds.h"

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

std::optional<RecognizedNest> Recognizer::run(const std::string &ClauseText,
                                              const StringLiteral *Literal) {
  RecognizedNest R;
  syntax::ClauseError CE;
  // The syntax stage validated the text already.
  syntax::parseMark(ClauseText, R.Clauses, CE);
  ClauseLiterals.assign(1, Literal);
  if (!(R.Clauses.Sequential ? sequentialLevel(Loop, R.Clauses, R.Nest.Root)
                             : level(Loop, R.Clauses, Literal, R.Nest.Root)) ||
      Failed)
    return std::nullopt;
  checkReducedArrayUses();
  if (R.Clauses.If)
    R.Condition = conditionExpr(R.Clauses.If->Value);
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
  R.Nest.Sequential = R.Clauses.Sequential;
  R.Nest.UniformRows = UniformRows;
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
  if (!inferExtents(R.Nest))
    return std::nullopt;
  R.Captures = Captures;
  R.LevelLocations = LevelLocations;
  R.Nest.Functions = std::move(Functions);
  R.Nest.Structs = std::move(Structs);
  reorderLoops(R, LoopLocations);
  ir::analyzeAccesses(R.Nest);
  return R;
}

bool Recognizer::inferExtents(ir::Nest &N) {
  for (const UnstatedExtent &U : UnstatedExtents) {
    std::string Why;
    N.Params[U.Param].Subscripts = ir::subscriptBounds(N, U.Param, &Why);
    if (!N.Params[U.Param].Subscripts) {
      // The subscript named by the pointer as the loop names it.
      const std::string Kernel = "'" + N.Params[U.Param].Name + "[";
      if (std::size_t At = Why.find(Kernel); At != std::string::npos)
        Why.replace(At, Kernel.size(), "'" + U.Shown + "[");
      fail(U.Loc,
           "weft cannot know how many elements pointer '" + U.Shown +
               "' points to: " + Why,
           U.Hint);
      return false;
    }
  }
  return true;
}

std::optional<RecognizedNest>
recognizeNest(Sema &S, const FunctionDecl *Function, Stmt *Loop,
              const std::string &ClauseText, const StringLiteral *Literal,
              const VariableSet *OnlyRead, bool UniformRows) {
  return Recognizer(S, Function, Loop, OnlyRead, UniformRows)
      .run(ClauseText, Literal);
}

bool holdsRowsApart(const ir::Nest &N) {
  return std::any_of(N.Params.begin(), N.Params.end(),
                     [](const ir::Param &P) { return P.RowOffsetsOf >= 0; });
}

} // namespace weft::recognize
