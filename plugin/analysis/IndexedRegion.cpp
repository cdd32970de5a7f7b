// IndexedRegion.cpp: whether a region's writes are apart for each value of
// its index: its locals its own, each span's subscripts distinct.
#include "analysis/IndexedRegion.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"

#include <algorithm>

namespace weft::ir {

void IndexedRegion::add(const Stmt &S) {
  declaredNames(S, Declared);
  Roots.push_back(&S);
}

void IndexedRegion::takeApart(Nest &Of) const {
  // (Row offsets are the launch's own.)
  if (!Written.empty())
    for (const auto &[Param, Reached] : Accesses)
      if (N.Params[Param].RowOffsetsOf < 0)
        Of.TakenApart.insert(Param);
}

bool IndexedRegion::independent() {
  for (const Stmt *S : Roots)
    if (!scan(*S, false, false))
      return false;
  for (unsigned P : Written)
    if (!apart(Accesses[P]))
      return false;
  return true;
}

bool IndexedRegion::fixed(const Expr &E) const {
  return !anyExpression(E, [&](const Expr &X) {
    return mayChange(N, X) ||
           (X.Kind == Expr::Local &&
            (Declared.count(X.Text) || References.count(X.Text)));
  });
}

bool IndexedRegion::owns(const Expr &Root) const {
  switch (Root.Kind) {
  case Expr::Local:
  case Expr::LocalElement:
    return Declared.count(Root.Text) > 0;
  case Expr::SpanElement:
    return true;
  case Expr::ParamRef:
    return N.Params[Root.ParamIndex].Kind == ParamKind::ReductionTarget;
  default:
    return false;
  }
}

bool IndexedRegion::fail(std::string Reason) {
  Why = std::move(Reason);
  return false;
}

std::string IndexedRegion::named(const Expr &Root) const {
  if (Root.Kind == Expr::ParamRef)
    return "'" + N.Params[Root.ParamIndex].Name + "', captured";
  if (Root.Kind == Expr::Local || Root.Kind == Expr::LocalElement)
    return "'" + Root.Text + "', declared outside it";
  return "what a pointer or a reference outside it names";
}

bool IndexedRegion::scan(const Stmt &S, bool InLoop, bool InSwitch) {
  if (S.Kind == Stmt::Decl)
    ++Declarations[S.Name];
  if (std::optional<LoopHeader> L = loopHeader(S, N.Functions))
    addRange(*L);
  if (S.Kind == Stmt::Return || (S.Kind == Stmt::Continue && !InLoop) ||
      (S.Kind == Stmt::Break && !InLoop && !InSwitch))
    return fail("an iteration leaves it by " +
                std::string(S.Kind == Stmt::Return     ? "return"
                            : S.Kind == Stmt::Continue ? "continue"
                                                       : "break"));
  // A reference is a write wherever it is used.
  if (S.Kind == Stmt::Decl && S.VarType.IsReference && S.Exprs[0] &&
      !owns(writtenRoot(*S.Exprs[0])))
    return fail("reference '" + S.Name + "' binds " +
                named(writtenRoot(*S.Exprs[0])));
  for (const ExprPtr &E : S.Exprs)
    if (E && !scan(*E))
      return false;
  if (S.ArrayExtent && !scan(*S.ArrayExtent))
    return false;
  const bool Loop = InLoop || S.Kind == Stmt::For || S.Kind == Stmt::While ||
                    S.Kind == Stmt::DoWhile;
  const bool Switch = InSwitch || S.Kind == Stmt::Switch;
  for (const StmtPtr &C : S.Children)
    if (C && !scan(*C, Loop, Switch))
      return false;
  // A nested level's continue ends its own iteration.
  if (S.Nested)
    for (const StmtPtr &C : S.Nested->Body)
      if (!scan(*C, false, false))
        return false;
  return true;
}

bool IndexedRegion::scan(const Expr &E) {
  if (E.Kind == Expr::Local && !Declared.count(E.Text) &&
      References.count(E.Text))
    return fail("it reads '" + E.Text + "', a reference from outside it");
  // Other iterations combine into an array reduction's elements too.
  if (E.Kind == Expr::Combine)
    return fail("it combines into an array reduction");
  if (assigns(E) && !owns(writtenRoot(*E.Operands[0])))
    return fail("it writes " + named(writtenRoot(*E.Operands[0])));
  if (E.Kind == Expr::Unary && E.Text == "&")
    return fail("it takes an address");
  if (E.Kind == Expr::Call && !callWritesOwn(E))
    return fail("a call to '" + E.Text +
                "' may write what a reference parameter binds outside it");
  if (E.Kind == Expr::SpanElement) {
    Accesses[E.ParamIndex].push_back(&E);
    if (E.writes())
      Written.insert(E.ParamIndex);
  }
  for (const ExprPtr &O : E.Operands)
    if (!scan(*O))
      return false;
  return true;
}

bool IndexedRegion::callWritesOwn(const Expr &Call) const {
  for (const Function &F : N.Functions) {
    if (F.Name != Call.Text)
      continue;
    for (std::size_t I = 0; I < Call.Operands.size() && I < F.Params.size();
         ++I) {
      const LocalType &T = F.Params[I].second;
      if (T.IsReference && !T.IsConst && !owns(writtenRoot(*Call.Operands[I])))
        return false;
    }
  }
  return true;
}

bool IndexedRegion::apart(const std::vector<const Expr *> &All) {
  const Expr &Subscript = stripCasts(*All.front()->Operands[0]);
  const std::string Text = exprText(N, Subscript);
  const std::string Span = N.Params[All.front()->ParamIndex].Name;
  for (const Expr *E : All)
    if (const std::string Other = exprText(N, stripCasts(*E->Operands[0]));
        Other != Text)
      return fail("it writes " + Span + " and reaches it at " + Span + "[" +
                  Text + "] and at " + Span + "[" + Other + "]");
  std::string Changing;
  anyExpression(Subscript, [&](const Expr &X) {
    if (X.Kind == Expr::Local && X.Text != Index && Declared.count(X.Text) &&
        !bounded(X.Text))
      Changing = "'" + X.Text + "', which it sets";
    else if (mayChange(N, X))
      Changing = "memory, a call or an assignment";
    return !Changing.empty();
  });
  if (!Changing.empty())
    return fail("it writes " + Span + "[" + Text + "], whose subscript reads " +
                Changing);
  if (!distinctForEachIndex(All.front()->ParamIndex, Subscript))
    return fail("it writes " + Span + "[" + Text +
                "], which is not a different element for each " + Index);
  return true;
}

std::optional<std::int64_t>
IndexedRegion::indexCoefficient(const Expr &E) const {
  AffineScope Scope;
  Scope.IsVariable = [&](const std::string &V) { return V == Index; };
  std::optional<AffineForm> F = affineForm(N, E, Scope);
  if (!F || F->Coefficients.size() > 1)
    return std::nullopt;
  if (F->Coefficients.empty())
    return 0;
  if (!F->Coefficients.count(Index))
    return std::nullopt;
  return F->Coefficients.at(Index).constantValue();
}

bool IndexedRegion::distinctForEachIndex(unsigned Param,
                                         const Expr &Subscript) const {
  if (std::optional<RowsSubscript> Rows = rowsSubscript(N, Param, Subscript)) {
    if (const Expr *Flat = chunkedIndex(*Rows->Row, *Rows->Column))
      return distinct(*Flat);
    std::optional<std::int64_t> Row = indexCoefficient(*Rows->Row),
                                Column = indexCoefficient(*Rows->Column);
    return Row && Column && (*Row != 0 || *Column != 0);
  }
  return distinct(Subscript);
}

bool IndexedRegion::distinct(const Expr &E) const {
  // (Where an inner loop's index moves E too, its range decides.)
  if (anyExpression(E, [&](const Expr &X) {
        return X.Kind == Expr::Local && X.Text != Index && bounded(X.Text);
      }))
    return apartByBounds(E);
  std::optional<std::int64_t> C = indexCoefficient(E);
  return C && *C != 0;
}

const Expr *IndexedRegion::chunkedIndex(const Expr &Row,
                                        const Expr &Column) const {
  const Expr &Quotient = stripCasts(Row), &Remainder = stripCasts(Column);
  if (Quotient.Kind != Expr::Binary || Quotient.Text != "/" ||
      Remainder.Kind != Expr::Binary || Remainder.Text != "%" ||
      isFloating(Quotient.Type))
    return nullptr;
  std::optional<std::int64_t> C =
      integerValue(stripCasts(*Quotient.Operands[1]));
  if (!C || *C <= 0 || integerValue(stripCasts(*Remainder.Operands[1])) != C ||
      exprText(N, *Quotient.Operands[0]) != exprText(N, *Remainder.Operands[0]))
    return nullptr;
  return Quotient.Operands[0].get();
}

bool IndexedRegion::apartByBounds(const Expr &Subscript) const {
  AffineScope Scope;
  Scope.IsVariable = [&](const std::string &V) {
    return V == Index || bounded(V);
  };
  std::optional<AffineForm> F = affineForm(N, Subscript, Scope);
  if (!F || !F->Coefficients.count(Index))
    return false;
  std::optional<Polynomial> Reach = Polynomial();
  for (const auto &[V, Coefficient] : F->Coefficients) {
    if (V == Index)
      continue;
    std::optional<int> Sign = signAtAccess(Coefficient, F->Coefficients);
    if (!Sign)
      return false;
    // |T| (w - 1).
    std::optional<Polynomial> Size =
        Polynomial::constant(*Sign).times(Coefficient);
    std::optional<Polynomial> Moves =
        Widths.at(V).minus(Polynomial::constant(1));
    if (Size && Moves)
      Moves = Moves->times(*Size);
    if (Moves && Reach)
      Reach = Reach->plus(*Moves);
    if (!Moves || !Reach)
      return false;
  }
  const Polynomial &C = F->Coefficients.at(Index);
  for (int Sign : {1, -1}) {
    std::optional<Polynomial> Margin = Polynomial::constant(Sign).times(C);
    if (Margin)
      Margin = Margin->minus(*Reach);
    std::optional<std::int64_t> Left =
        Margin ? Margin->constantValue() : std::nullopt;
    if (Left && *Left >= 1)
      return true;
  }
  return false;
}

std::optional<int> IndexedRegion::signAtAccess(
    const Polynomial &T,
    const std::map<std::string, Polynomial> &Coefficients) const {
  if (std::optional<std::int64_t> V = T.constantValue())
    return *V < 0 ? -1 : 1;
  if (T.terms().size() != 1)
    return std::nullopt;
  const auto &[Monomial, Factor] = *T.terms().begin();
  for (const std::string &Symbol : Monomial)
    if (std::none_of(Coefficients.begin(), Coefficients.end(),
                     [&](const auto &C) {
                       auto W = Widths.find(C.first);
                       return W != Widths.end() &&
                              W->second == Polynomial::symbol(Symbol);
                     }))
      return std::nullopt;
  return Factor < 0 ? -1 : 1;
}

void IndexedRegion::addRange(const LoopHeader &L) {
  if (Widths.count(L.Index) || !fixed(*L.Lower) || !fixed(*L.Upper))
    return;
  AffineScope Scope;
  Scope.IsVariable = [](const std::string &) { return false; };
  std::optional<AffineForm> Lo = affineForm(N, *L.Lower, Scope),
                            Hi = affineForm(N, *L.Upper, Scope);
  if (!Lo || !Hi)
    return;
  const int Ends = (L.Inclusive ? 1 : 0) - (L.PastLower ? 1 : 0);
  std::optional<Polynomial> W = Hi->Offset.minus(Lo->Offset);
  if (W)
    W = W->plus(Polynomial::constant(Ends));
  if (W)
    Widths.emplace(L.Index, *W);
}

bool IndexedRegion::bounded(const std::string &V) const {
  auto D = Declarations.find(V);
  return Widths.count(V) && D != Declarations.end() && D->second == 1;
}

} // namespace weft::ir
