// SubscriptBounds.cpp: interval arithmetic over a nest's subscripts, in the
// bound language the launch evaluates (see SubscriptBounds.h).
#include "analysis/SubscriptBounds.h"

#include "ir/BoundAlgebra.h"
#include "ir/IrQueries.h"
#include "ir/LoopHeader.h"
#include "ir/Polynomial.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace weft::ir {
namespace {

using contract::BoundExpr;
using namespace bounds;

// ---- Intervals -------------------------------------------------------------

/// Every value an expression takes lies in [Lo, Hi]; Fixed where it takes
/// one (no loop index or local the loops change decides it): Lo is it.
struct Interval {
  BoundExpr Lo, Hi;
  bool Fixed = false;
  static Interval fixed(BoundExpr V) { return {V, V, true}; }
};

Interval join(const Interval &A, const Interval &B) {
  return {least(A.Lo, B.Lo), greatest(A.Hi, B.Hi), false};
}

Interval plus(const Interval &A, const Interval &B) {
  if (A.Fixed && B.Fixed)
    return Interval::fixed(add(A.Lo, B.Lo));
  return {add(A.Lo, B.Lo), add(A.Hi, B.Hi)};
}

Interval opposite(const Interval &A) {
  if (A.Fixed)
    return Interval::fixed(negate(A.Lo));
  return {negate(A.Hi), negate(A.Lo)};
}

/// The bounds `X Op Than` puts on X: a greatest value under `<`, `<=`,
/// `==`, a least one over `>`, `>=`, `==`.
std::pair<std::optional<BoundExpr>, std::optional<BoundExpr>>
comparisonBounds(const std::string &Op, const Interval &Than) {
  const BoundExpr One = BoundExpr::literal(1);
  std::optional<BoundExpr> Lo, Hi;
  if (Op == "<" || Op == "<=" || Op == "==")
    Hi = Op == "<" ? sub(Than.Hi, One) : Than.Hi;
  if (Op == ">" || Op == ">=" || Op == "==")
    Lo = Op == ">" ? add(Than.Lo, One) : Than.Lo;
  return {std::move(Lo), std::move(Hi)};
}

/// Whether a bound is never negative where it is evaluated.
using SignOracle = std::function<bool(const BoundExpr &)>;

/// The interval times a value it does not depend on.
Interval scale(const Interval &V, const BoundExpr &C,
               const SignOracle &NonNegative) {
  if (NonNegative(C))
    return {mul(V.Lo, C), mul(V.Hi, C)};
  if (std::optional<std::int64_t> K = literalOf(C); K && *K < 0)
    return {mul(V.Hi, C), mul(V.Lo, C)};
  BoundExpr L = mul(V.Lo, C), H = mul(V.Hi, C);
  return {least(L, H), greatest(L, H)};
}

Interval times(const Interval &A, const Interval &B,
               const SignOracle &NonNegative) {
  if (A.Fixed && B.Fixed)
    return Interval::fixed(mul(A.Lo, B.Lo));
  if (A.Fixed)
    return scale(B, A.Lo, NonNegative);
  if (B.Fixed)
    return scale(A, B.Lo, NonNegative);
  BoundExpr P[] = {mul(A.Lo, B.Lo), mul(A.Lo, B.Hi), mul(A.Hi, B.Lo),
                   mul(A.Hi, B.Hi)};
  return {least(least(P[0], P[1]), least(P[2], P[3])),
          greatest(greatest(P[0], P[1]), greatest(P[2], P[3]))};
}

/// A / D for a divisor D the loops do not change: division truncates
/// toward zero, monotone in A whatever D's sign.
Interval divide(const Interval &A, const BoundExpr &D,
                const SignOracle &NonNegative) {
  if (A.Fixed)
    return Interval::fixed(fold(BoundExpr::Div, A.Lo, D));
  BoundExpr L = fold(BoundExpr::Div, A.Lo, D),
            H = fold(BoundExpr::Div, A.Hi, D);
  if (NonNegative(D))
    return {L, H};
  return {least(L, H), greatest(L, H)};
}

/// A % D: of A's sign, below |D| in magnitude, and no farther from zero
/// than A.
Interval remainder(const Interval &A, const BoundExpr &D) {
  if (A.Fixed)
    return Interval::fixed(fold(BoundExpr::Rem, A.Lo, D));
  std::optional<std::int64_t> K = literalOf(D);
  BoundExpr Most = K && *K > INT64_MIN
                       ? BoundExpr::literal((*K < 0 ? -*K : *K) - 1)
                       : sub(greatest(D, negate(D)), BoundExpr::literal(1));
  const BoundExpr Zero = BoundExpr::literal(0);
  return {least(Zero, greatest(A.Lo, negate(Most))),
          greatest(Zero, least(A.Hi, Most))};
}

// ---- The walk ---------------------------------------------------------------

/// Comparison Op with its operands swapped (`0 < i` is `i > 0`), and
/// negated (`!(i < n)` is `i >= n`).
std::string swapped(const std::string &Op) {
  return Op == "<"    ? ">"
         : Op == ">"  ? "<"
         : Op == "<=" ? ">="
         : Op == ">=" ? "<="
                      : Op;
}
std::string negated(const std::string &Op) {
  return Op == "<"    ? ">="
         : Op == ">=" ? "<"
         : Op == ">"  ? "<="
         : Op == "<=" ? ">"
         : Op == "==" ? "!="
         : Op == "!=" ? "=="
                      : "";
}

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

class BoundsWalker {
public:
  BoundsWalker(const Nest &N, unsigned Param, SubscriptPart Part)
      : N(N), Param(Param), Part(Part) {}

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

  /// A name in scope: a loop index (its interval), a local set once (its
  /// initializer, read where it is used, so that conditions on what it
  /// reads count), or a local the analysis cannot bound (neither).
  struct Binding {
    std::string Name;
    std::optional<Interval> Range;
    const Expr *Definition = nullptr;
  };
  static constexpr std::size_t None = ~std::size_t(0);

  /// The innermost binding of Name among the first Limit.
  std::size_t lookup(const std::string &Name, std::size_t Limit) const {
    for (std::size_t I = std::min(Limit, Scope.size()); I-- > 0;)
      if (Scope[I].Name == Name)
        return I;
    return None;
  }

  void bind(std::string Name, std::optional<Interval> Range,
            const Expr *Definition = nullptr) {
    Scope.push_back({std::move(Name), std::move(Range), Definition});
  }

  std::optional<Interval> range(const Expr &E) {
    return range(E, Scope.size());
  }

  /// E's interval, its names bound by the first Limit bindings, within
  /// the bounds conditions around put on it.
  std::optional<Interval> range(const Expr &E, std::size_t Limit) {
    std::optional<Interval> R = rangeOf(E, Limit);
    if (R && !R->Fixed && !Constraints.empty())
      R = constrained(stripCasts(E), Limit, std::move(*R));
    return R;
  }

  std::optional<Interval> rangeOf(const Expr &E, std::size_t Limit) {
    if (isFloating(E.Type)) // (an integer converted to floating)
      return std::nullopt;
    const Expr &V = stripCasts(E);
    if (isFloating(V.Type) || V.Struct >= 0)
      return std::nullopt;
    auto Operand = [&](std::size_t I) { return range(*V.Operands[I], Limit); };
    switch (V.Kind) {
    case Expr::IntLiteral:
    case Expr::BoolLiteral:
      if (std::optional<std::int64_t> K = integerValue(V))
        return Interval::fixed(BoundExpr::literal(*K));
      return std::nullopt;
    case Expr::ParamRef:
      // A scalar the loop only reads (a reduction's target changes).
      if (V.ParamIndex < N.Params.size() &&
          N.Params[V.ParamIndex].Kind == ParamKind::Scalar &&
          !isFloating(N.Params[V.ParamIndex].Element) &&
          N.Params[V.ParamIndex].Struct < 0)
        return Interval::fixed(BoundExpr::arg(V.ParamIndex));
      return std::nullopt;
    case Expr::SpanSize:
      return Interval::fixed(BoundExpr::size(V.ParamIndex));
    case Expr::Local: {
      const std::size_t At = lookup(V.Text, Limit);
      if (At == None)
        return std::nullopt;
      if (const Expr *D = Scope[At].Definition)
        return range(*D, At);
      return Scope[At].Range;
    }
    case Expr::Unary: {
      std::optional<Interval> A = Operand(0);
      if (!A || (V.Text != "+" && V.Text != "-"))
        return std::nullopt;
      return V.Text == "+" ? *A : opposite(*A);
    }
    case Expr::Binary:
      return binary(V, Limit);
    case Expr::Conditional: {
      // Each arm where the condition lets it be taken.
      std::optional<Interval> A, B;
      {
        Narrowing Taken(*this, *V.Operands[0], true);
        A = range(*V.Operands[1], Limit);
      }
      {
        Narrowing Not(*this, *V.Operands[0], false);
        B = range(*V.Operands[2], Limit);
      }
      if (!A || !B)
        return std::nullopt;
      return join(*A, *B);
    }
    case Expr::Call: {
      if (V.Operands.size() != 2 ||
          (V.Text != "weft::min" && V.Text != "weft::max"))
        return std::nullopt;
      std::optional<Interval> A = Operand(0), B = Operand(1);
      if (!A || !B)
        return std::nullopt;
      const BoundExpr::Op Op =
          V.Text == "weft::min" ? BoundExpr::Min : BoundExpr::Max;
      return Interval{fold(Op, A->Lo, B->Lo), fold(Op, A->Hi, B->Hi),
                      A->Fixed && B->Fixed};
    }
    default:
      return std::nullopt;
    }
  }

  std::optional<Interval> binary(const Expr &V, std::size_t Limit) {
    if ((V.Text == "+" || V.Text == "-") && !Constraints.empty())
      if (std::optional<Interval> R = splitSum(V, Limit))
        return R;
    std::optional<Interval> A = range(*V.Operands[0], Limit);
    std::optional<Interval> B = range(*V.Operands[1], Limit);
    if (!A || !B)
      return std::nullopt;
    const std::string &Op = V.Text;
    if (Op == "+" || Op == "-")
      return plus(*A, Op == "+" ? *B : opposite(*B));
    if (Op == "*")
      return times(*A, *B, NonNegative);
    if ((Op == "/" || Op == "%") && B->Fixed)
      return Op == "/" ? divide(*A, B->Lo, NonNegative) : remainder(*A, B->Lo);
    if (Op == "<<") {
      std::optional<std::int64_t> K = literalOf(B->Lo);
      if (!B->Fixed || !K || *K < 0 || *K > 62)
        return std::nullopt;
      return times(*A,
                   Interval::fixed(BoundExpr::literal(std::int64_t(1) << *K)),
                   NonNegative);
    }
    if (Op == "&") {
      // A mask of a value the loops do not change: at most the mask.
      for (const Interval *M : {&*A, &*B})
        if (std::optional<std::int64_t> K = literalOf(M->Lo);
            M->Fixed && K && *K >= 0)
          return Interval{BoundExpr::literal(0), BoundExpr::literal(*K)};
    }
    return std::nullopt;
  }

  // ---- Bounds on expressions -----------------------------------------------

  /// A comparison that bounds an expression rather than a binding
  /// (`i0 * n1 + i1 - 1 >= 0`): a subscript, or a part of a sum in one,
  /// that is the same expression up to a constant takes its bounds.
  struct Constraint {
    Polynomial Form;
    std::map<std::string, std::size_t> Names; // the bindings it reads
    std::set<std::size_t> Reads;
    std::optional<BoundExpr> Lo, Hi;
    bool Used = false;
  };

  /// E as a polynomial of its names (bindings, parameters, sizes), Names
  /// the bindings they resolve to; nullopt for anything but integer sums
  /// and products.
  std::optional<Polynomial> formOf(const Expr &E, std::size_t Limit,
                                   std::map<std::string, std::size_t> &Names) {
    if (isFloating(E.Type))
      return std::nullopt;
    const Expr &V = stripCasts(E);
    if (isFloating(V.Type) || V.Struct >= 0)
      return std::nullopt;
    switch (V.Kind) {
    case Expr::IntLiteral:
    case Expr::BoolLiteral:
      if (std::optional<std::int64_t> K = integerValue(V))
        return Polynomial::constant(*K);
      return std::nullopt;
    case Expr::ParamRef:
      return Polynomial::symbol("$" + std::to_string(V.ParamIndex));
    case Expr::SpanSize:
      return Polynomial::symbol("#" + std::to_string(V.ParamIndex));
    case Expr::Local: {
      const std::size_t At = lookup(V.Text, Limit);
      if (At == None)
        return std::nullopt;
      Names[V.Text] = At;
      return Polynomial::symbol(V.Text);
    }
    case Expr::Unary: {
      std::optional<Polynomial> A = formOf(*V.Operands[0], Limit, Names);
      if (!A || (V.Text != "-" && V.Text != "+"))
        return std::nullopt;
      return V.Text == "+" ? A : A->times(Polynomial::constant(-1));
    }
    case Expr::Binary: {
      if (V.Text != "+" && V.Text != "-" && V.Text != "*")
        return std::nullopt;
      std::optional<Polynomial> A = formOf(*V.Operands[0], Limit, Names);
      std::optional<Polynomial> B = formOf(*V.Operands[1], Limit, Names);
      if (!A || !B)
        return std::nullopt;
      return V.Text == "+"   ? A->plus(*B)
             : V.Text == "-" ? A->minus(*B)
                             : A->times(*B);
    }
    default:
      return std::nullopt;
    }
  }

  /// The constraints whose expression Form (its names resolved as Names)
  /// is, up to a constant: each with that constant, to add to its bounds.
  std::vector<std::pair<Constraint *, std::int64_t>>
  matching(const Polynomial &Form,
           const std::map<std::string, std::size_t> &Names) {
    std::vector<std::pair<Constraint *, std::int64_t>> Found;
    for (Constraint &C : Constraints) {
      bool Same = true;
      for (const auto &[Name, At] : Names)
        if (auto It = C.Names.find(Name); It != C.Names.end())
          Same = Same && It->second == At;
      std::optional<Polynomial> D = Same ? Form.minus(C.Form) : std::nullopt;
      if (std::optional<std::int64_t> K = D ? D->constantValue() : std::nullopt)
        Found.emplace_back(&C, *K);
    }
    return Found;
  }

  /// R within the bounds of the constraints Matches names.
  Interval
  within(Interval R,
         const std::vector<std::pair<Constraint *, std::int64_t>> &Matches) {
    for (const auto &[C, K] : Matches) {
      const BoundExpr Shift = BoundExpr::literal(K);
      C->Used = true;
      if (C->Lo)
        R.Lo = greatest(std::move(R.Lo), add(*C->Lo, Shift));
      if (C->Hi)
        R.Hi = least(std::move(R.Hi), add(*C->Hi, Shift));
      R.Fixed = false;
    }
    return R;
  }

  Interval constrained(const Expr &V, std::size_t Limit, Interval R) {
    std::map<std::string, std::size_t> Names;
    std::optional<Polynomial> F = formOf(V, Limit, Names);
    return F ? within(std::move(R), matching(*F, Names)) : R;
  }

  /// A sum whose first or last terms a constraint bounds (`r * w + x + dx
  /// - 2` under `x + dx - 2 >= 0`): those terms within its bounds, plus
  /// the others.
  std::optional<Interval> splitSum(const Expr &V, std::size_t Limit) {
    std::vector<std::pair<const Expr *, bool>> Terms; // (term, subtracted)
    std::function<void(const Expr &, bool)> Flatten = [&](const Expr &E,
                                                          bool Minus) {
      const Expr &X = stripCasts(E);
      if (X.Kind == Expr::Binary && (X.Text == "+" || X.Text == "-") &&
          !isFloating(X.Type)) {
        Flatten(*X.Operands[0], Minus);
        Flatten(*X.Operands[1], X.Text == "-" ? !Minus : Minus);
        return;
      }
      Terms.emplace_back(&X, Minus);
    };
    Flatten(V, false);
    if (Terms.size() < 3 || Terms.size() > 16)
      return std::nullopt;
    // The interval of terms [From, To).
    auto Sum = [&](std::size_t From,
                   std::size_t To) -> std::optional<Interval> {
      std::optional<Interval> Total;
      for (std::size_t I = From; I < To; ++I) {
        std::optional<Interval> T = range(*Terms[I].first, Limit);
        if (!T)
          return std::nullopt;
        if (Terms[I].second)
          T = opposite(*T);
        Total = Total ? plus(*Total, *T) : *T;
      }
      return Total;
    };
    auto Form = [&](std::size_t From, std::size_t To,
                    std::map<std::string, std::size_t> &Names)
        -> std::optional<Polynomial> {
      Polynomial Total;
      for (std::size_t I = From; I < To; ++I) {
        std::optional<Polynomial> T = formOf(*Terms[I].first, Limit, Names);
        std::optional<Polynomial> Next =
            T ? (Terms[I].second ? Total.minus(*T) : Total.plus(*T))
              : std::nullopt;
        if (!Next)
          return std::nullopt;
        Total = std::move(*Next);
      }
      return Total;
    };
    const std::size_t K = Terms.size();
    for (std::size_t Split = 1; Split < K; ++Split)
      for (const bool Tail : {true, false}) {
        const std::size_t From = Tail ? Split : 0, To = Tail ? K : Split;
        std::map<std::string, std::size_t> Names;
        std::optional<Polynomial> F = Form(From, To, Names);
        const auto Matches =
            F ? matching(*F, Names)
              : std::vector<std::pair<Constraint *, std::int64_t>>();
        if (Matches.empty())
          continue;
        std::optional<Interval> Part = Sum(From, To);
        std::optional<Interval> Rest = Tail ? Sum(0, From) : Sum(To, K);
        if (!Part || !Rest)
          return std::nullopt;
        return plus(within(std::move(*Part), Matches), *Rest);
      }
    return std::nullopt;
  }

  // ---- Conditions ----------------------------------------------------------

  /// The bindings whose values E reads by arithmetic (not through a
  /// span's or array's element), through the locals it reads.
  void variables(const Expr &E, std::size_t Limit,
                 std::set<std::size_t> &Out) const {
    if (E.Kind == Expr::SpanElement || E.Kind == Expr::LocalElement)
      return;
    if (E.Kind == Expr::Local) {
      const std::size_t At = lookup(E.Text, Limit);
      if (At != None && Out.insert(At).second && Scope[At].Definition)
        variables(*Scope[At].Definition, At, Out);
      return;
    }
    for (const ExprPtr &O : E.Operands)
      variables(*O, Limit, Out);
  }

  /// While it lives, the bindings narrowed to where condition C holds (or
  /// fails, where Holds is false): `i > 0` raises i's least value to 1. A
  /// part of C it cannot read as a bound on a binding makes the bindings it
  /// reads unknown for subscripts (Guarded), so that a subscript kept in
  /// range by it is not taken for one that reaches farther.
  class Narrowing {
  public:
    Narrowing(BoundsWalker &W, const Expr &C, bool Holds)
        : W(W), GuardMark(W.Guarded.size()),
          ConstraintMark(W.Constraints.size()) {
      narrow(C, Holds);
    }
    ~Narrowing() {
      for (std::size_t I = Saved.size(); I-- > 0;)
        W.Scope[Saved[I].first] = std::move(Saved[I].second);
      W.Guarded.resize(GuardMark);
      W.Constraints.resize(ConstraintMark);
    }

  private:
    void narrow(const Expr &C, bool Holds) {
      const Expr &V = stripCasts(C);
      if (V.Kind == Expr::Unary && V.Text == "!")
        return narrow(*V.Operands[0], !Holds);
      if (V.Kind == Expr::Binary &&
          ((V.Text == "&&" && Holds) || (V.Text == "||" && !Holds))) {
        narrow(*V.Operands[0], Holds);
        narrow(*V.Operands[1], Holds);
        return;
      }
      if (V.Kind == Expr::Binary && (V.Text == "&&" || V.Text == "||")) {
        // One part or the other: where both narrow a binding, it lies in
        // the two narrowed intervals' hull.
        Parts A = part(*V.Operands[0], Holds), B = part(*V.Operands[1], Holds);
        for (auto &[At, Range] : A.Ranges)
          if (auto Other = B.Ranges.find(At); Other != B.Ranges.end())
            set(At, join(Range, Other->second));
        for (Parts *P : {&A, &B})
          for (std::set<std::size_t> &G : P->Guarded)
            W.Guarded.push_back(std::move(G));
        return;
      }
      const std::string Op = V.Kind == Expr::Binary && !negated(V.Text).empty()
                                 ? (Holds ? V.Text : negated(V.Text))
                                 : "";
      if (!Op.empty() &&
          (bound(*V.Operands[0], Op, *V.Operands[1]) ||
           bound(*V.Operands[1], swapped(Op), *V.Operands[0]) ||
           constrain(*V.Operands[0], Op, *V.Operands[1]) ||
           constrain(*V.Operands[1], swapped(Op), *V.Operands[0])))
        return;
      // (One value left out moves no bound but an end, which bound
      // moves where it can: the interval is right without it.)
      if (Op == "!=")
        return;
      // A side that reads bindings, compared with a value known at the
      // launch (`i % 2 == 1`), may keep subscripts of them in range; one
      // compared with data (`i % 5 > a[i]`) bounds nothing.
      std::set<std::size_t> Read;
      if (Op.empty()) {
        W.variables(V, W.Scope.size(), Read);
      } else {
        for (const bool Left : {true, false}) {
          const Expr &Side = *V.Operands[Left ? 0 : 1];
          const Expr &Other = *V.Operands[Left ? 1 : 0];
          std::set<std::size_t> Reads;
          W.variables(Side, W.Scope.size(), Reads);
          if (!Reads.empty() && W.range(Other))
            Read.insert(Reads.begin(), Reads.end());
        }
      }
      if (!Read.empty())
        W.Guarded.push_back(std::move(Read));
    }

    /// Bounds expression Side by `Side Op Other` (a constraint), where
    /// Side reads bindings and Other has an interval.
    bool constrain(const Expr &Side, const std::string &Op, const Expr &Other) {
      if (Op == "!=")
        return false;
      Constraint C;
      std::optional<Polynomial> F = W.formOf(Side, W.Scope.size(), C.Names);
      std::optional<Interval> Than = W.range(Other);
      if (!F || C.Names.empty() || !Than)
        return false;
      C.Form = std::move(*F);
      for (const auto &[Name, At] : C.Names)
        C.Reads.insert(At);
      std::tie(C.Lo, C.Hi) = comparisonBounds(Op, *Than);
      W.Constraints.push_back(std::move(C));
      return true;
    }

    /// What narrowing by C alone does: the bindings' intervals, and the
    /// bindings C makes unknown.
    struct Parts {
      std::map<std::size_t, Interval> Ranges;
      std::vector<std::set<std::size_t>> Guarded;
    };
    Parts part(const Expr &C, bool Holds) {
      Parts P;
      Narrowing Alone(W, C, Holds);
      for (const auto &[At, Before] : Alone.Saved)
        if (W.Scope[At].Range)
          P.Ranges[At] = *W.Scope[At].Range;
      P.Guarded.assign(W.Guarded.begin() + Alone.GuardMark, W.Guarded.end());
      return P;
    }

    void set(std::size_t At, Interval To) {
      Saved.emplace_back(At, W.Scope[At]);
      W.Scope[At].Range = std::move(To);
      W.Scope[At].Definition = nullptr;
    }

    /// Narrows Side (a binding plus a value the loops do not change) by
    /// `Side Op Other`; false where Side is no such form.
    bool bound(const Expr &Side, const std::string &Op, const Expr &Other) {
      const Expr *Var = &stripCasts(Side);
      BoundExpr Offset = BoundExpr::literal(0);
      if (Var->Kind == Expr::Binary && (Var->Text == "+" || Var->Text == "-")) {
        std::optional<Interval> C = W.range(*Var->Operands[1]);
        if (!C || !C->Fixed)
          return false;
        Offset = Var->Text == "+" ? C->Lo : negate(C->Lo);
        Var = &stripCasts(*Var->Operands[0]);
      }
      if (Var->Kind != Expr::Local)
        return false;
      const std::size_t At = W.lookup(Var->Text, W.Scope.size());
      std::optional<Interval> Is = At == None ? std::nullopt : W.range(*Var);
      std::optional<Interval> Than = W.range(Other);
      if (!Is || !Than)
        return false;
      // Side is Var + Offset: Var's bounds move by -Offset.
      const BoundExpr One = BoundExpr::literal(1);
      Interval To = *Is;
      To.Fixed = false;
      const auto [Lo, Hi] = comparisonBounds(Op, *Than);
      if (Hi)
        To.Hi = least(To.Hi, sub(*Hi, Offset));
      if (Lo)
        To.Lo = greatest(To.Lo, sub(*Lo, Offset));
      if (Op == "!=") {
        // Only an end of the interval moves; anything else is left as it
        // was, and an end missed would be a subscript taken for one that
        // reaches farther.
        if (!Than->Fixed)
          return false;
        const BoundExpr Excluded = sub(Than->Lo, Offset);
        if (Excluded == To.Lo)
          To.Lo = add(To.Lo, One);
        else if (Excluded == To.Hi)
          To.Hi = sub(To.Hi, One);
        else
          return false;
      }
      set(At, std::move(To));
      return true;
    }

    BoundsWalker &W;
    const std::size_t GuardMark, ConstraintMark;
    std::vector<std::pair<std::size_t, Binding>> Saved;
  };

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

  /// An index's interval from its loop's bounds: [Lower, Upper), or
  /// [Lower, Upper] where Inclusive, Lower one up where PastLower.
  /// Inside the loop, its index's interval is not empty: a fact the signs
  /// of the subscripts' factors are read from (inside `j < m` from 0, m is
  /// at least 1).
  std::optional<Interval> indexRange(const Expr &Lower, const Expr &Upper,
                                     bool Inclusive, bool PastLower) {
    std::optional<Interval> L = range(Lower), U = range(Upper);
    if (!L || !U)
      return std::nullopt;
    Interval R{PastLower ? add(L->Lo, BoundExpr::literal(1)) : L->Lo,
               Inclusive ? U->Hi : sub(U->Hi, BoundExpr::literal(1))};
    std::optional<Polynomial> Lo = polynomial(R.Lo), Hi = polynomial(R.Hi);
    if (std::optional<Polynomial> Width =
            Lo && Hi ? Hi->minus(*Lo) : std::nullopt)
      Facts.push_back(std::move(*Width));
    return R;
  }

  /// C is at least 0: a constant that is, or a constant above a fact.
  bool nonNegative(const BoundExpr &C) const {
    std::optional<Polynomial> P = polynomial(C);
    if (!P)
      return false;
    if (std::optional<std::int64_t> K = P->constantValue())
      return *K >= 0;
    for (const Polynomial &F : Facts)
      if (std::optional<Polynomial> D = P->minus(F))
        if (std::optional<std::int64_t> K = D->constantValue(); K && *K >= 0)
          return true;
    return false;
  }

  void level(const Level &L) {
    subscripts(*L.Lower);
    subscripts(*L.Upper);
    const std::size_t Mark = Scope.size(), Known = Facts.size();
    bind(L.IndexName, indexRange(*L.Lower, *L.Upper, L.Inclusive, false));
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
        H = loopHeader(S, N.Functions);
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
    bind(H.Index, indexRange(*H.Lower, *H.Upper, H.Inclusive, H.PastLower));
    subscripts(For);
    if (For.Children[1])
      alone(*For.Children[1]);
    Scope.resize(Mark);
    Facts.resize(Known);
  }

  const Nest &N;
  const unsigned Param;
  const SubscriptPart Part;
  std::vector<Binding> Scope;
  /// Polynomials at least 0 here: the widths of the loops around.
  std::vector<Polynomial> Facts;
  const SignOracle NonNegative = [this](const BoundExpr &C) {
    return nonNegative(C);
  };
  /// Comparisons around that bound expressions.
  std::vector<Constraint> Constraints;
  /// Bindings that conditions around keep in ranges no bound says.
  std::vector<std::set<std::size_t>> Guarded;
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
