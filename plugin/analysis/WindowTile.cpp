// WindowTile.cpp: whether a nest's inner body walks a window along the
// outer index that a thread may share among consecutive outer iterations.
#include "analysis/WindowTile.h"

#include "analysis/UnrolledSteps.h"
#include "ir/AffineForm.h"
#include "ir/IrQueries.h"

#include <algorithm>
#include <map>
#include <set>

namespace weft::ir {
namespace {

bool jumps(const Stmt &S) {
  return anyStatement(S, [](const Stmt &X) {
    return X.Kind == Stmt::Break || X.Kind == Stmt::Continue ||
           X.Kind == Stmt::Return;
  });
}

/// Code that runs once a row of the thread, before or after the window's
/// loops: no loop, switch or level inside (nor a jump, checked apart).
bool plainStatement(const Stmt &S) {
  return !anyStatement(S, [](const Stmt &X) {
    return X.Kind == Stmt::For || X.Kind == Stmt::While ||
           X.Kind == Stmt::DoWhile || X.Kind == Stmt::Switch ||
           X.Kind == Stmt::ParallelFor;
  });
}

/// The statements of a loop's body: itself where it is no block.
std::vector<const Stmt *> statementsOf(const Stmt &Body) {
  std::vector<const Stmt *> Out;
  if (Body.Kind != Stmt::Block) {
    Out.push_back(&Body);
    return Out;
  }
  for (const StmtPtr &C : Body.Children)
    if (C)
      Out.push_back(C.get());
  return Out;
}

bool writesSpan(const Stmt &S) {
  return anyExpression(
      S, [](const Expr &E) { return writtenElement(E) != nullptr; });
}

/// A level's one marked loop: its body where that is all it holds.
const Level *onlyLevel(const Level &L) {
  if (L.Body.size() != 1 || !L.Body[0] ||
      L.Body[0]->Kind != Stmt::ParallelFor || !L.Body[0]->Nested)
    return nullptr;
  return L.Body[0]->Nested.get();
}

/// A bound the same for every iteration of Rows a thread computes: no
/// index but those of the levels outside Rows, nothing read or called.
bool sameForRows(const Expr &E, const std::set<std::string> &Outside) {
  return readsOnly(E, Outside) && !anyExpression(E, [](const Expr &X) {
           return assigns(X) || X.Kind == Expr::LocalElement ||
                  X.Kind == Expr::SpanElement || X.Kind == Expr::Call;
         });
}

} // namespace

std::optional<WindowTile> windowTile(const Nest &N) {
  if (N.Sequential)
    return std::nullopt;
  // The chain of levels each holding the next alone, down to Inner.
  std::vector<const Level *> Chain{&N.Root};
  while (const Level *Next = onlyLevel(*Chain.back()))
    Chain.push_back(Next);
  if (Chain.size() < 2 ||
      std::any_of(Chain.begin(), Chain.end(),
                  [](const Level *L) { return reduces(*L); }))
    return std::nullopt;
  const Level &Rows = *Chain[Chain.size() - 2], &Inner = *Chain.back();
  std::set<std::string> Outside;
  for (std::size_t I = 0; I + 2 < Chain.size(); ++I)
    Outside.insert(Chain[I]->IndexName);
  if (Rows.Step != 1 || !sameForRows(*Inner.Lower, Outside) ||
      !sameForRows(*Inner.Upper, Outside))
    return std::nullopt;
  WindowTile W;
  W.Rows = &Rows;
  W.Inner = &Inner;
  // Statements, one loop, statements.
  const Stmt *Loop = nullptr;
  for (const StmtPtr &S : Inner.Body) {
    if (!S || jumps(*S))
      return std::nullopt;
    if (S->Kind == Stmt::For) {
      if (Loop)
        return std::nullopt;
      Loop = S.get();
      continue;
    }
    if (!plainStatement(*S))
      return std::nullopt;
    if (!Loop && S->Kind == Stmt::Decl) {
      if (S->ArrayExtent || S->VarType.IsReference)
        return std::nullopt;
      W.Locals.push_back(S.get());
    }
  }
  if (!Loop)
    return std::nullopt;
  // The loop and those perfectly inside it: constant trip counts, bounds
  // the same for every row of the thread.
  const std::map<const Stmt *, std::int64_t> Steps =
      stepLoops(N, Inner.Body, /*Bounding=*/false);
  std::set<std::string> SameForRows = Outside;
  SameForRows.insert(Inner.IndexName);
  std::int64_t Product = 1;
  std::vector<std::string> &Indices = W.LoopIndices;
  for (const Stmt *L = Loop;;) {
    std::optional<CountedLoop> C = countedLoop(*L);
    auto Count = Steps.find(L);
    if (!C || Count == Steps.end() || !readsOnly(*C->Lower, SameForRows) ||
        !readsOnly(*C->Upper, SameForRows))
      return std::nullopt;
    Product *= Count->second;
    if (Product > MaxWindowSteps)
      return std::nullopt;
    W.Loops.push_back(L);
    Indices.push_back(C->Index);
    const std::vector<const Stmt *> Body = statementsOf(*L->Children[1]);
    if (Body.size() == 1 && Body[0]->Kind == Stmt::For) {
      L = Body[0];
      continue;
    }
    break;
  }
  // A row's locals become arrays of the rows: no name declared elsewhere
  // in the body (inside the loops, or in a block before or after them) may
  // hide one, and none may hide Rows' index, which each row declares.
  std::set<std::string> Others, Declared;
  for (const StmtPtr &S : Inner.Body) {
    declaredNames(*S, Declared);
    if (std::find(W.Locals.begin(), W.Locals.end(), S.get()) == W.Locals.end())
      declaredNames(*S, Others);
  }
  for (const Stmt *S : W.Locals)
    if (Others.count(S->Name))
      return std::nullopt;
  if (Declared.count(Rows.IndexName))
    return std::nullopt;
  // The innermost body: straight-line code (no call of the nest's own
  // functions, which might write a span) that writes no span. (The
  // innermost loop's children: its index's declaration and that body.)
  const Stmt &Innermost = *W.Loops.back()->Children[1];
  if (!straightLine(W.Loops.back()->Children, ~0u) || writesSpan(Innermost))
    return std::nullopt;
  // A read-only span read along a window of Rows' index.
  AffineScope Scope;
  Scope.IsVariable = [&](const std::string &Name) {
    return Name == Rows.IndexName ||
           std::find(Indices.begin(), Indices.end(), Name) != Indices.end();
  };
  std::set<unsigned> Windows, Shared;
  anyExpression(Innermost, [&](const Expr &E) {
    if (E.Kind != Expr::SpanElement || E.refersToElement() ||
        N.Params[E.ParamIndex].Kind != ParamKind::ReadSpan)
      return false;
    std::optional<AffineForm> F = affineForm(N, *E.Operands[0], Scope);
    if (!F)
      return false;
    auto Outer = F->Coefficients.find(Rows.IndexName);
    if (Outer == F->Coefficients.end()) {
      Shared.insert(E.ParamIndex);
      return false;
    }
    for (const std::string &K : Indices) {
      auto Along = F->Coefficients.find(K);
      if (Along != F->Coefficients.end() && Along->second == Outer->second)
        Windows.insert(E.ParamIndex);
    }
    return false;
  });
  if (Windows.empty())
    return std::nullopt;
  for (unsigned P : Windows)
    Shared.erase(P);
  W.WindowSpans.assign(Windows.begin(), Windows.end());
  W.SharedSpans.assign(Shared.begin(), Shared.end());
  for (unsigned P : W.WindowSpans)
    W.Description += (W.Description.empty() ? "" : ", ") + N.Params[P].Name +
                     " along " + Rows.IndexName;
  for (unsigned P : W.SharedSpans)
    W.Description += ", " + N.Params[P].Name;
  return W;
}

} // namespace weft::ir
