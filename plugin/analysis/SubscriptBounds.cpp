// SubscriptBounds.cpp: the walk over a nest's statements that takes in a
// span's subscripts, each as an interval (analysis/BoundScope) in the bound
// language the launch evaluates (see SubscriptBounds.h).
#include "analysis/SubscriptBounds.h"

#include "analysis/BoundScope.h"
#include "ir/BoundAlgebra.h"
#include "ir/IrQueries.h"
#include "ir/LoopHeader.h"
#include "ir/Polynomial.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace weft::ir {
namespace {

using contract::BoundExpr;
using namespace bounds;
using namespace interval;

/// E is an element of span Param.
bool indexes(const Expr &E, unsigned Param) {
  return E.Kind == Expr::SpanElement && E.ParamIndex == Param;
}

/// S ends its iteration of the loop around it: `continue;`, or a block
/// whose last statement does.
bool continues(const Stmt &S) {
  if (S.Kind == Stmt::Continue)
    return true;
  return S.Kind == Stmt::Block && !S.Children.empty() && S.Children.back() &&
         continues(*S.Children.back());
}

/// A break in S (a loop's body) that leaves the loop under a condition
/// reading span Param (`if (s[i + k] == 0) break;`): the loop may rely on
/// the data to stop it before its bound runs past the span's end.
bool stopsOnData(const Stmt &S, unsigned Param, bool UnderRead = false) {
  switch (S.Kind) {
  case Stmt::Break:
    return UnderRead;
  case Stmt::For:
  case Stmt::While:
  case Stmt::DoWhile:
  case Stmt::Switch:
  case Stmt::ParallelFor:
    return false; // (their breaks leave them)
  default:
    break;
  }
  const bool Reads =
      UnderRead || (S.Kind == Stmt::If && S.Exprs[0] &&
                    anyExpression(*S.Exprs[0], [&](const Expr &E) {
                      return indexes(E, Param);
                    }));
  for (const StmtPtr &C : S.Children)
    if (C && stopsOnData(*C, Param, Reads))
      return true;
  return false;
}

class BoundsWalker : public interval::BoundScope {
public:
  BoundsWalker(const Nest &N, unsigned Param, SubscriptPart Part)
      : BoundScope(N), Param(Param), Part(Part) {}

  std::optional<SubscriptBounds> run(std::string *WhyNot) {
    for (const Function &F : N.Functions)
      for (const StmtPtr &S : F.Body)
        if (S &&
            anyExpression(*S, [&](const Expr &E) { return indexes(E, Param); }))
          return fail(WhyNot, "function '" + F.Source + "' reads it");
    level(N.Root);
    if (!Why.empty())
      return fail(WhyNot, Why);
    if (!Lowest) // never indexed: no element is needed
      return SubscriptBounds{BoundExpr::literal(0), BoundExpr::literal(-1)};
    return SubscriptBounds{std::move(*Lowest), std::move(*Highest)};
  }

private:
  static std::optional<SubscriptBounds> fail(std::string *WhyNot,
                                             std::string Text) {
    if (WhyNot)
      *WhyNot = std::move(Text);
    return std::nullopt;
  }

  // ---- Subscripts ----------------------------------------------------------

  /// Takes in the subscripts of the span in E, and of any expression E
  /// holds; the right of `&&` (`||`) and a conditional's arms where the
  /// condition lets them run.
  void subscripts(const Expr &E) {
    if (!Why.empty())
      return;
    if (E.Kind == Expr::Binary && (E.Text == "&&" || E.Text == "||")) {
      subscripts(*E.Operands[0]);
      Narrowing After(*this, *E.Operands[0], E.Text == "&&");
      subscripts(*E.Operands[1]);
      return;
    }
    if (E.Kind == Expr::Conditional) {
      subscripts(*E.Operands[0]);
      {
        Narrowing Taken(*this, *E.Operands[0], true);
        subscripts(*E.Operands[1]);
      }
      Narrowing Not(*this, *E.Operands[0], false);
      subscripts(*E.Operands[2]);
      return;
    }
    for (const ExprPtr &O : E.Operands)
      subscripts(*O);
    if (indexes(E, Param) && Why.empty())
      take(E);
  }

  /// An element as the diagnostics write it (the dump's text without its
  /// marks for parameters).
  std::string shown(const Expr &Element) const {
    std::string T = exprText(N, Element);
    T.erase(std::remove(T.begin(), T.end(), '$'), T.end());
    return T;
  }

  /// Why Element's subscript has no bounds to take: a condition on binding
  /// B keeps it in range.
  std::string guardedBy(const Expr &Element, std::size_t B) const {
    return "its subscript in '" + shown(Element) +
           "' is kept in range by a condition on '" + Scope[B].Name +
           "' that is no bound weft reads";
  }

  void take(const Expr &Element) {
    const Expr *Whole = Element.Operands[0].get();
    if (Part != SubscriptPart::Whole) {
      const std::optional<RowsSubscript> Parts =
          rowsSubscript(N, Param, *Whole);
      if (!Parts) {
        Why = "its subscript in '" + shown(Element) +
              "' is not a row's and a column's";
        return;
      }
      Whole = Part == SubscriptPart::Row ? Parts->Row : Parts->Column;
    }
    const Expr &Subscript = *Whole;
    std::set<std::size_t> Reads;
    variables(Subscript, Scope.size(), Reads);
    for (const std::set<std::size_t> &G : Guarded)
      for (std::size_t B : G)
        if (Reads.count(B)) {
          Why = guardedBy(Element, B);
          return;
        }
    for (Constraint &C : Constraints)
      C.Used = false;
    std::optional<Interval> R = range(Subscript);
    if (!R) {
      Why = "its subscript in '" + shown(Element) +
            "' takes values not known at the launch";
      return;
    }
    // A comparison on what the subscript reads, of an expression that is
    // no part of it (`if (i * 2 < n) p[i]`), may keep it in range where
    // its interval says otherwise.
    for (const Constraint &C : Constraints)
      if (!C.Used && std::includes(Reads.begin(), Reads.end(), C.Reads.begin(),
                                   C.Reads.end())) {
        Why = guardedBy(Element, *C.Reads.begin());
        return;
      }
    Lowest = Lowest ? least(std::move(*Lowest), R->Lo) : R->Lo;
    Highest = Highest ? greatest(std::move(*Highest), R->Hi) : R->Hi;
    if (nodes(*Lowest) + nodes(*Highest) > 4096)
      Why = "its subscripts are too many to bound";
  }

  void subscripts(const Stmt &S) {
    for (const ExprPtr &E : S.Exprs)
      if (E)
        subscripts(*E);
    if (S.ArrayExtent)
      subscripts(*S.ArrayExtent);
  }

  // ---- Statements ----------------------------------------------------------

  void level(const Level &L) {
    subscripts(*L.Lower);
    subscripts(*L.Upper);
    const std::size_t Mark = Scope.size(), Known = Facts.size();
    std::optional<Interval> R =
        indexRange(*L.Lower, *L.Upper, L.Inclusive, false);
    // (A level that never runs indexes nothing.)
    const bool Runs = !R || !neverRuns(*R);
    bind(L.IndexName, std::move(R));
    if (Runs)
      statements(L.Body);
    Scope.resize(Mark);
    Facts.resize(Known);
  }

  void statements(const std::vector<StmtPtr> &Body) {
    const std::size_t Mark = Scope.size();
    // `if (c) continue;` leaves the statements after it where c fails.
    std::vector<std::unique_ptr<Narrowing>> Passed;
    for (std::size_t I = 0; I < Body.size() && Why.empty(); ++I) {
      if (!Body[I])
        continue;
      statement(*Body[I], &Body, I);
      const Stmt &S = *Body[I];
      if (S.Kind == Stmt::If && S.Children[0] && !S.Children[1] &&
          continues(*S.Children[0]))
        Passed.push_back(
            std::make_unique<Narrowing>(*this, *S.Exprs[0], false));
    }
    while (!Passed.empty())
      Passed.pop_back(); // undone innermost first
    Scope.resize(Mark);
  }

  /// A statement of its own, whose declarations end with it (an if's
  /// branch, a loop's body).
  void alone(const Stmt &S) {
    const std::size_t Mark = Scope.size();
    statement(S, nullptr, 0);
    Scope.resize(Mark);
  }

  /// S, At-th of Siblings (where it is in a list of statements).
  void statement(const Stmt &S, const std::vector<StmtPtr> *Siblings,
                 std::size_t At) {
    // (A loop's condition and step see its index: taken with it in scope.)
    if (S.Kind != Stmt::For)
      subscripts(S);
    switch (S.Kind) {
    case Stmt::Decl: {
      // A local set once (its declaration) stands for its initializer.
      bool Changes = !Siblings || !S.Exprs[0] || S.VarType.IsReference ||
                     S.ArrayExtent || isFloating(S.VarType.Scalar);
      for (std::size_t I = At + 1; !Changes && I < Siblings->size(); ++I)
        Changes = (*Siblings)[I] &&
                  mayWriteLocal(*(*Siblings)[I], S.Name, N.Functions);
      bind(S.Name, std::nullopt, Changes ? nullptr : S.Exprs[0].get());
      return;
    }
    case Stmt::ParallelFor:
      level(*S.Nested);
      return;
    case Stmt::If: {
      {
        Narrowing Taken(*this, *S.Exprs[0], true);
        if (S.Children[0])
          alone(*S.Children[0]);
      }
      Narrowing Not(*this, *S.Exprs[0], false);
      if (S.Children[1])
        alone(*S.Children[1]);
      return;
    }
    case Stmt::Block:
    case Stmt::For: {
      const Stmt &For = S.Kind == Stmt::Block && !S.Children.empty() &&
                                S.Children.back() &&
                                S.Children.back()->Kind == Stmt::For
                            ? *S.Children.back()
                            : S;
      // A loop its data stops: its bound may reach past the span.
      std::optional<LoopHeader> H;
      if (For.Kind == Stmt::For &&
          !(For.Children[1] && stopsOnData(*For.Children[1], Param)))
        H = loopHeader(S, N.Functions, /*AssignedIndex=*/true);
      if (H) {
        loop(S, *H);
        return;
      }
      if (S.Kind == Stmt::Block) {
        statements(S.Children);
        return;
      }
      // A loop the analysis does not count: its index is unknown within.
      const std::size_t Mark = Scope.size();
      if (const Stmt *Init = S.Children[0].get()) {
        subscripts(*Init);
        if (Init->Kind == Stmt::Decl)
          bind(Init->Name, std::nullopt);
      }
      subscripts(S);
      if (S.Children[1])
        alone(*S.Children[1]);
      Scope.resize(Mark);
      return;
    }
    default:
      for (const StmtPtr &C : S.Children)
        if (C)
          alone(*C);
      return;
    }
  }

  void loop(const Stmt &S, const LoopHeader &H) {
    const std::size_t Mark = Scope.size(), Known = Facts.size();
    // The header's own declarations: bounds set once stand for their
    // value; integers stepped beside the index are unknown.
    const Stmt &For = S.Kind == Stmt::Block ? *S.Children.back() : S;
    if (S.Kind == Stmt::Block)
      for (std::size_t I = 0; I + 1 < S.Children.size(); ++I)
        subscripts(*S.Children[I]);
    if (For.Children[0])
      subscripts(*For.Children[0]);
    for (const LoopHeader::Beside &B : H.Besides)
      bind(B.Decl->Name, std::nullopt,
           B.Steps ? nullptr : B.Decl->Exprs[0].get());
    std::optional<Interval> R =
        indexRange(*H.Lower, *H.Upper, H.Inclusive, H.PastLower);
    // The body of a loop that never runs indexes nothing; its condition
    // is still evaluated once.
    const bool Runs = !R || !neverRuns(*R);
    bind(H.Index, Runs ? std::move(R) : Interval::fixed(R->Lo));
    if (Runs)
      subscripts(For);
    else if (For.Exprs.size() > 0 && For.Exprs[0])
      subscripts(*For.Exprs[0]);
    if (Runs && For.Children[1])
      alone(*For.Children[1]);
    Scope.resize(Mark);
    Facts.resize(Known);
  }

  const unsigned Param;
  const SubscriptPart Part;
  std::optional<BoundExpr> Lowest, Highest;
  std::string Why;
};

} // namespace

std::optional<SubscriptBounds> subscriptBounds(const Nest &N, unsigned Param,
                                               std::string *WhyNot,
                                               SubscriptPart Part) {
  return BoundsWalker(N, Param, Part).run(WhyNot);
}

} // namespace weft::ir
