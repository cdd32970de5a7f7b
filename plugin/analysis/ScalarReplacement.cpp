// ScalarReplacement.cpp: the proof that an element can live in a register
// for the length of a loop.
#include "analysis/ScalarReplacement.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"

#include <map>
#include <set>

namespace weft::ir {
namespace {

/// The span elements of E (and its operands), with whether they are bound
/// to a call's reference parameter (const or not) or combined into.
void collectElements(const Expr &E, std::vector<const Expr *> &Out,
                     std::set<const Expr *> &PassedToCalls) {
  if (E.Kind == Expr::SpanElement)
    Out.push_back(&E);
  if (E.Kind == Expr::Call)
    for (const ExprPtr &O : E.Operands)
      if (O->Kind == Expr::SpanElement && O->refersToElement())
        PassedToCalls.insert(O.get());
  // Other threads combine into an array reduction's element too: a register
  // would lose their updates.
  if (E.Kind == Expr::Combine)
    PassedToCalls.insert(E.Operands[0].get());
  for (const ExprPtr &O : E.Operands)
    collectElements(*O, Out, PassedToCalls);
}

class LoopScan {
public:
  /// Taken: accesses an enclosing loop's register already holds.
  LoopScan(const Nest &N, const Stmt &Loop, const std::set<const Expr *> &Taken)
      : N(N), Loop(Loop), Taken(Taken) {}

  void run(std::vector<ReplacedElement> &Out) {
    if (holdsLevels(Loop))
      return;
    collect(Loop);
    declaredNames(Loop, Declared);
    std::map<unsigned, std::vector<const Expr *>> BySpan;
    for (const Expr *E : Elements)
      if (!Taken.count(E))
        BySpan[E->ParamIndex].push_back(E);
    for (auto &[Param, Accesses] : BySpan)
      replaceIn(Param, Accesses, Out);
  }

private:
  void collect(const Stmt &S) {
    for (const ExprPtr &E : S.Exprs)
      if (E)
        collectElements(*E, Elements, PassedToCalls);
    if (S.Kind == Stmt::Decl && S.VarType.IsReference && S.Exprs[0])
      for (const Expr *R = S.Exprs[0].get(); R;
           R = R->Kind == Expr::Member ? R->Operands[0].get() : nullptr)
        if (R->Kind == Expr::SpanElement)
          BoundToReferences.insert(R->ParamIndex);
    for (const StmtPtr &C : S.Children)
      if (C)
        collect(*C);
  }

  /// The subscript reads only captures and locals the loop neither assigns
  /// nor declares: the same element at every iteration.
  bool invariant(const Expr &Subscript) const {
    bool Ok = true;
    anyExpression(Subscript, [&](const Expr &X) {
      if (mayChange(N, X) ||
          (X.Kind == Expr::Local &&
           (Declared.count(X.Text) || writesLocal(Loop, X.Text))))
        Ok = false;
      return !Ok;
    });
    return Ok;
  }

  void replaceIn(unsigned Param, const std::vector<const Expr *> &Accesses,
                 std::vector<ReplacedElement> &Out) {
    if (BoundToReferences.count(Param))
      return;
    // Every local is a variable: two subscripts are apart for any values.
    AffineScope Scope;
    Scope.IsVariable = [](const std::string &) { return true; };
    std::map<std::string, std::vector<const Expr *>> Groups;
    for (const Expr *E : Accesses)
      Groups[exprText(N, stripCasts(*E->Operands[0]))].push_back(E);
    for (auto &[Text, Group] : Groups) {
      const Expr &Subscript = *Group.front()->Operands[0];
      bool Written = false, Passed = false;
      for (const Expr *E : Group) {
        Written = Written || E->writes();
        Passed = Passed || PassedToCalls.count(E);
      }
      if (!Written || Passed || !invariant(Subscript))
        continue;
      bool Apart = true;
      for (auto &[OtherText, Other] : Groups)
        Apart = Apart &&
                (OtherText == Text ||
                 apart(Param, Subscript, *Other.front()->Operands[0], Scope));
      if (!Apart)
        continue;
      ReplacedElement R;
      R.Loop = &Loop;
      R.Param = Param;
      R.Subscript = &Subscript;
      R.Accesses = Group;
      R.Description = N.Params[Param].Name + "[" + Text + "]";
      Out.push_back(std::move(R));
    }
  }

  /// Subscripts A and B of span Param name different elements whatever
  /// the locals are: affine forms a nonzero constant apart, or elements of
  /// rows held apart in rows that are, or in one row at such columns.
  bool apart(unsigned Param, const Expr &A, const Expr &B,
             const AffineScope &Scope) const {
    auto Distinct = [&](const Expr &X, const Expr &Y) {
      std::optional<AffineForm> FX = affineForm(N, stripCasts(X), Scope),
                                FY = affineForm(N, stripCasts(Y), Scope);
      return FX && FY && provablyDistinct(*FX, *FY);
    };
    std::optional<RowsSubscript> RA = rowsSubscript(N, Param, A),
                                 RB = rowsSubscript(N, Param, B);
    if (RA && RB)
      return Distinct(*RA->Row, *RB->Row) ||
             (exprText(N, stripCasts(*RA->Row)) ==
                  exprText(N, stripCasts(*RB->Row)) &&
              Distinct(*RA->Column, *RB->Column));
    return !RA && !RB && Distinct(A, B);
  }

  const Nest &N;
  const Stmt &Loop;
  const std::set<const Expr *> &Taken;
  std::vector<const Expr *> Elements;
  std::set<const Expr *> PassedToCalls;
  std::set<unsigned> BoundToReferences;
  std::set<std::string> Declared;
};

void walk(const Nest &N, const ir::Level &L, const Stmt &S,
          std::vector<ReplacedElement> &Out, std::set<const Expr *> &Taken) {
  if (S.Kind == Stmt::For) {
    const std::size_t Before = Out.size();
    LoopScan(N, S, Taken).run(Out);
    for (std::size_t I = Before; I < Out.size(); ++I) {
      Out[I].Level = &L;
      Taken.insert(Out[I].Accesses.begin(), Out[I].Accesses.end());
    }
  }
  for (const StmtPtr &C : S.Children)
    if (C)
      walk(N, L, *C, Out, Taken);
  if (S.Nested)
    for (const StmtPtr &C : S.Nested->Body)
      walk(N, *S.Nested, *C, Out, Taken);
}

} // namespace

std::vector<ReplacedElement> planScalarReplacement(const Nest &N) {
  std::vector<ReplacedElement> Out;
  std::set<const Expr *> Taken;
  for (const StmtPtr &S : N.Root.Body)
    walk(N, N.Root, *S, Out, Taken);
  return Out;
}

} // namespace weft::ir
