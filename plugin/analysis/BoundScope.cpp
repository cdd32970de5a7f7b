// BoundScope.cpp: an expression's interval where the walk stands (through
// the locals it reads and within the conditions around), and the narrowing
// of the scope by a condition.
#include "analysis/BoundScope.h"

#include "ir/BoundAlgebra.h"
#include "ir/IrQueries.h"

#include <algorithm>
#include <functional>
#include <tuple>

namespace weft::ir::interval {
namespace {

using namespace bounds;

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

} // namespace

std::size_t BoundScope::lookup(const std::string &Name,
                               std::size_t Limit) const {
  for (std::size_t I = std::min(Limit, Scope.size()); I-- > 0;)
    if (Scope[I].Name == Name)
      return I;
  return None;
}

void BoundScope::bind(std::string Name, std::optional<Interval> Range,
                      const Expr *Definition) {
  Scope.push_back({std::move(Name), std::move(Range), Definition});
}

std::optional<Interval> BoundScope::range(const Expr &E) {
  return range(E, Scope.size());
}

std::optional<Interval> BoundScope::range(const Expr &E, std::size_t Limit) {
  std::optional<Interval> R = rangeOf(E, Limit);
  if (R && !R->Fixed && !Constraints.empty())
    R = constrained(stripCasts(E), Limit, std::move(*R));
  return R;
}

std::optional<Interval> BoundScope::rangeOf(const Expr &E, std::size_t Limit) {
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

std::optional<Interval> BoundScope::binary(const Expr &V, std::size_t Limit) {
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
    return times(*A, Interval::fixed(BoundExpr::literal(std::int64_t(1) << *K)),
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

std::optional<Polynomial>
BoundScope::formOf(const Expr &E, std::size_t Limit,
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

std::vector<std::pair<BoundScope::Constraint *, std::int64_t>>
BoundScope::matching(const Polynomial &Form,
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

Interval BoundScope::within(
    Interval R,
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

Interval BoundScope::constrained(const Expr &V, std::size_t Limit, Interval R) {
  std::map<std::string, std::size_t> Names;
  std::optional<Polynomial> F = formOf(V, Limit, Names);
  return F ? within(std::move(R), matching(*F, Names)) : R;
}

std::optional<Interval> BoundScope::splitSum(const Expr &V, std::size_t Limit) {
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
  auto Sum = [&](std::size_t From, std::size_t To) -> std::optional<Interval> {
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

void BoundScope::variables(const Expr &E, std::size_t Limit,
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

std::optional<Interval> BoundScope::indexRange(const Expr &Lower,
                                               const Expr &Upper,
                                               bool Inclusive, bool PastLower) {
  std::optional<Interval> L = range(Lower), U = range(Upper);
  if (!L || !U)
    return std::nullopt;
  Interval R{PastLower ? add(L->Lo, BoundExpr::literal(1)) : L->Lo,
             Inclusive ? U->Hi : sub(U->Hi, BoundExpr::literal(1))};
  std::optional<Polynomial> Lo = polynomial(R.Lo), Hi = polynomial(R.Hi);
  if (std::optional<Polynomial> Width =
          Lo && Hi ? Hi->minus(*Lo) : std::nullopt;
      Width && !neverRuns(R))
    Facts.push_back(std::move(*Width));
  return R;
}

bool BoundScope::neverRuns(const Interval &R) const {
  std::optional<Polynomial> Lo = polynomial(R.Lo), Hi = polynomial(R.Hi);
  std::optional<Polynomial> Width = Lo && Hi ? Hi->minus(*Lo) : std::nullopt;
  std::optional<std::int64_t> K = Width ? Width->constantValue() : std::nullopt;
  return K && *K < 0;
}

bool BoundScope::nonNegative(const BoundExpr &C) const {
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

Narrowing::Narrowing(BoundScope &W, const Expr &C, bool Holds)
    : W(W), GuardMark(W.Guarded.size()), ConstraintMark(W.Constraints.size()) {
  narrow(C, Holds);
}

Narrowing::~Narrowing() {
  for (std::size_t I = Saved.size(); I-- > 0;)
    W.Scope[Saved[I].first] = std::move(Saved[I].second);
  W.Guarded.resize(GuardMark);
  W.Constraints.resize(ConstraintMark);
}

void Narrowing::narrow(const Expr &C, bool Holds) {
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
  if (!Op.empty() && (bound(*V.Operands[0], Op, *V.Operands[1]) ||
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

bool Narrowing::constrain(const Expr &Side, const std::string &Op,
                          const Expr &Other) {
  if (Op == "!=")
    return false;
  BoundScope::Constraint C;
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

Narrowing::Parts Narrowing::part(const Expr &C, bool Holds) {
  Parts P;
  Narrowing Alone(W, C, Holds);
  for (const auto &[At, Before] : Alone.Saved)
    if (W.Scope[At].Range)
      P.Ranges[At] = *W.Scope[At].Range;
  P.Guarded.assign(W.Guarded.begin() + Alone.GuardMark, W.Guarded.end());
  return P;
}

void Narrowing::set(std::size_t At, Interval To) {
  Saved.emplace_back(At, W.Scope[At]);
  W.Scope[At].Range = std::move(To);
  W.Scope[At].Definition = nullptr;
}

bool Narrowing::bound(const Expr &Side, const std::string &Op,
                      const Expr &Other) {
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
  std::optional<Interval> Is =
      At == BoundScope::None ? std::nullopt : W.range(*Var);
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

} // namespace weft::ir::interval
