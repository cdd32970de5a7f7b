// RegisterSlice.cpp: the proofs that a thread slice's every use names a
// constant element of it once the loops along it unroll, and that the
// iteration's other accesses of the span miss it (its writes may wait).
#include "analysis/RegisterSlice.h"

#include "analysis/UnrolledSteps.h"
#include "ir/AffineForm.h"
#include "ir/IndexRange.h"
#include "ir/IrQueries.h"
#include "ir/KernelText.h"
#include "ir/SpanUses.h"

#include <string>
#include <vector>

namespace weft::ir {
namespace {

/// The counted loops of Body (an innermost level's: no levels inside) by
/// index name.
void countedLoops(const std::vector<StmtPtr> &Body,
                  std::multimap<std::string, const Stmt *> &Out) {
  for (const StmtPtr &S : Body)
    if (S)
      anyStatement(*S, [&](const Stmt &X) {
        if (std::optional<CountedLoop> C = countedLoop(X))
          Out.emplace(C->Index, &X);
        return false;
      });
}

/// F with each variable replaced by its loop's lower bound (the copy's
/// constant step aside), until none is left; nullopt where a variable is
/// no index of an unrolled loop, or names more than one loop.
std::optional<AffineForm>
withLowerBounds(const Nest &N, AffineForm F,
                const std::multimap<std::string, const Stmt *> &Loops,
                const std::set<const Stmt *> &Unrolled) {
  const AffineScope Scope{[](const std::string &) { return true; }};
  for (unsigned Round = 0; F.dependsOnVariables(); ++Round) {
    if (Round > Loops.size())
      return std::nullopt; // a cycle of bounds: no loop's index is one
    const auto [Variable, Coefficient] = *F.Coefficients.begin();
    if (Loops.count(Variable) != 1)
      return std::nullopt;
    const Stmt *Loop = Loops.find(Variable)->second;
    if (!Unrolled.count(Loop))
      return std::nullopt;
    std::optional<AffineForm> Lower =
        affineForm(N, *countedLoop(*Loop)->Lower, Scope);
    if (!Lower)
      return std::nullopt;
    AffineForm Scaled;
    for (const auto &[V, C] : Lower->Coefficients) {
      std::optional<Polynomial> P = C.times(Coefficient);
      if (!P)
        return std::nullopt;
      Scaled.Coefficients[V] = *P;
    }
    std::optional<Polynomial> Offset = Lower->Offset.times(Coefficient);
    if (!Offset)
      return std::nullopt;
    Scaled.Offset = *Offset;
    F.Coefficients.erase(Variable);
    std::optional<AffineForm> Sum = add(F, Scaled, /*Subtract=*/false);
    if (!Sum)
      return std::nullopt;
    F = *Sum;
  }
  return F;
}

/// X as Stride * Row + Column: each coefficient (and the offset) a
/// multiple of Stride plus a constant; nullopt where one is not.
struct RowsAndColumns {
  AffineForm Row, Column;
};
std::optional<std::pair<Polynomial, Polynomial>>
splitByStride(const Polynomial &P, const Polynomial &Stride) {
  std::int64_t Constant = 0;
  auto It = P.terms().find({});
  if (It != P.terms().end())
    Constant = It->second;
  std::optional<Polynomial> Rest = P.minus(Polynomial::constant(Constant));
  std::optional<Polynomial> Quotient =
      Rest ? exactQuotient(*Rest, Stride) : std::nullopt;
  if (!Quotient)
    return std::nullopt;
  return std::make_pair(*Quotient, Polynomial::constant(Constant));
}
std::optional<RowsAndColumns> rowsAndColumns(const AffineForm &X,
                                             const Polynomial &Stride) {
  RowsAndColumns Out;
  for (const auto &[Variable, Coefficient] : X.Coefficients) {
    std::optional<std::pair<Polynomial, Polynomial>> Parts =
        splitByStride(Coefficient, Stride);
    if (!Parts || !Parts->first.constantValue())
      return std::nullopt;
    if (!Parts->first.isZero())
      Out.Row.Coefficients[Variable] = Parts->first;
    if (!Parts->second.isZero())
      Out.Column.Coefficients[Variable] = Parts->second;
  }
  std::optional<std::pair<Polynomial, Polynomial>> Offset =
      splitByStride(X.Offset, Stride);
  if (!Offset)
    return std::nullopt;
  Out.Row.Offset = Offset->first;
  Out.Column.Offset = Offset->second;
  return Out;
}

using Range = std::pair<Polynomial, Polynomial>; // least, greatest

/// The conditions, as kernel text, under which Value >= 0; "true" where it
/// always is, nullopt where it never is or its text is not kernel text.
std::optional<std::string> atLeastZero(const std::optional<Polynomial> &Value,
                                       const std::set<std::string> &Hidden) {
  if (!Value)
    return std::nullopt;
  if (std::optional<std::int64_t> C = Value->constantValue())
    return *C >= 0 ? std::optional<std::string>("true") : std::nullopt;
  std::optional<std::string> Text = kernelText(*Value, Hidden);
  if (!Text)
    return std::nullopt;
  return "(" + *Text + " >= 0)";
}

std::optional<Polynomial> gap(const Polynomial &Low, const Polynomial &High) {
  // Low - High - 1: >= 0 where High < Low.
  std::optional<Polynomial> D = Low.minus(High);
  return D ? D->minus(Polynomial::constant(1)) : std::nullopt;
}

/// Whether a jump may leave an iteration of Body before its end: a
/// return, a continue outside the loops inside, or a break outside their
/// loops and switches (a continue in a switch still leaves: LoopOrder's
/// rule).
bool jumpsOut(const Stmt &S, bool InLoop, bool InSwitch) {
  if (S.Kind == Stmt::Return || (S.Kind == Stmt::Continue && !InLoop) ||
      (S.Kind == Stmt::Break && !InLoop && !InSwitch))
    return true;
  const bool Loop = InLoop || S.Kind == Stmt::For || S.Kind == Stmt::While ||
                    S.Kind == Stmt::DoWhile;
  const bool Switch = InSwitch || S.Kind == Stmt::Switch;
  for (const StmtPtr &C : S.Children)
    if (C && jumpsOut(*C, Loop, Switch))
      return true;
  return false;
}

/// The conditions under which every access of S's span in its level's body
/// other than S's own names no element of S: both as a row of one stride
/// (the one of S's two strides that is not 1) plus a column, the columns
/// inside [0, stride), and the two apart in their rows or their columns.
std::optional<std::string> apartCondition(const Nest &N, const ThreadSlice &S) {
  const Level &L = *S.Owner;
  const bool Column = S.ThreadStrideValue == Polynomial::constant(1);
  if (!Column && S.StrideValue != Polynomial::constant(1))
    return std::nullopt;
  const Polynomial Stride = Column ? S.StrideValue : S.ThreadStrideValue;
  if (Stride.isConstant())
    return std::nullopt; // the columns' bounds alone would not part them
  for (const StmtPtr &B : L.Body)
    if (B && jumpsOut(*B, /*InLoop=*/false, /*InSwitch=*/false))
      return std::nullopt;
  std::set<std::string> Hidden = localsOf(L.Body);
  std::set<std::string> Variables = Hidden;
  Variables.insert(L.IndexName);
  // The slice's element W of the thread's: the level's index times the
  // thread stride plus W times the stride.
  LoopNest Level{N, {levelBounds(L)}, [&](const std::string &Name) {
                   return Variables.count(Name) > 0;
                 }};
  std::optional<Range> Index = Level.indexRange(0);
  std::optional<Polynomial> Last =
      S.FixedCount ? S.LoValue.plus(Polynomial::constant(*S.FixedCount - 1))
                   : std::nullopt;
  if (!Index || !Last)
    return std::nullopt;
  const Range Rows = Column ? Range{S.LoValue, *Last} : *Index;
  const Range Columns = Column ? *Index : Range{S.LoValue, *Last};
  std::set<std::string> Conditions;
  const auto Require = [&](const std::optional<std::string> &C) {
    if (!C)
      return false;
    if (*C != "true")
      Conditions.insert(*C);
    return true;
  };
  const Polynomial LastColumn = *Stride.minus(Polynomial::constant(1));
  std::set<const Expr *> Own;
  for (const ThreadSlice::Use &U : S.Uses)
    Own.insert(U.Element);
  bool Others = false;
  for (const SpanUse &U : spanUses(L.Body, /*EnterLevels=*/false).Uses) {
    if (U.Element->ParamIndex != S.Param || Own.count(U.Element))
      continue;
    // The slice's columns inside a row, once there is another access.
    if (!Others &&
        (!Require(atLeastZero(Columns.first, Hidden)) ||
         !Require(atLeastZero(LastColumn.minus(Columns.second), Hidden))))
      return std::nullopt;
    Others = true;
    std::vector<IndexBounds> Around = {levelBounds(L)};
    Around.insert(Around.end(), U.Loops.begin(), U.Loops.end());
    LoopNest Loops{N, Around, [&](const std::string &Name) {
                     return Variables.count(Name) > 0;
                   }};
    std::optional<AffineForm> F = Loops.form(*U.Element->Operands[0]);
    std::optional<RowsAndColumns> Parts =
        F ? rowsAndColumns(*F, Stride) : std::nullopt;
    std::optional<Range> Row =
        Parts ? Loops.range(Parts->Row, Around.size()) : std::nullopt;
    std::optional<Range> Col =
        Parts ? Loops.range(Parts->Column, Around.size()) : std::nullopt;
    if (!Row || !Col || !Require(atLeastZero(Col->first, Hidden)) ||
        !Require(atLeastZero(LastColumn.minus(Col->second), Hidden)))
      return std::nullopt;
    // Apart in their columns or in their rows: the first that always is,
    // else any of them at run time.
    std::vector<std::string> Either;
    bool Always = false;
    for (const std::optional<Polynomial> &G :
         {gap(Columns.first, Col->second), gap(Col->first, Columns.second),
          gap(Rows.first, Row->second), gap(Row->first, Rows.second)})
      if (std::optional<std::string> C = atLeastZero(G, Hidden)) {
        Always = Always || *C == "true";
        Either.push_back(*C);
      }
    if (Either.empty())
      return std::nullopt;
    if (!Always) {
      std::string Any;
      for (const std::string &C : Either)
        Any += (Any.empty() ? "" : " || ") + C;
      Conditions.insert(Either.size() == 1 ? Any : "(" + Any + ")");
    }
  }
  std::string All;
  for (const std::string &C : Conditions)
    All += (All.empty() ? "" : " && ") + C;
  return All.empty() ? "true" : All;
}

} // namespace

std::optional<SliceUnrolling> registerSlice(const Nest &N,
                                            const ThreadSlice &S) {
  if (!S.Owner || !S.FixedCount || *S.FixedCount > MaxUnrolledSteps)
    return std::nullopt;
  const std::vector<StmtPtr> &Body = S.Owner->Body;
  // Any loop of a few steps: unrolled, its index is a constant in each
  // copy, whether or not loops inside follow it.
  const std::map<const Stmt *, std::int64_t> Candidates =
      stepLoops(N, Body, /*Bounding=*/false);
  if (Candidates.empty())
    return std::nullopt;
  std::set<const Stmt *> Unrolled = constantCountLoops(N, Body, Candidates);
  for (const auto &[Loop, Steps] : Candidates)
    Unrolled.insert(Loop);
  std::multimap<std::string, const Stmt *> Loops;
  countedLoops(Body, Loops);
  std::set<const Stmt *> UseLoops;
  for (const ThreadSlice::Use &U : S.Uses) {
    // W - Lo = Variable + Shift - Lo.
    AffineForm Slot;
    Slot.Coefficients[U.Variable] = Polynomial::constant(1);
    std::optional<Polynomial> Offset = U.ShiftValue.minus(S.LoValue);
    if (!Offset)
      return std::nullopt;
    Slot.Offset = *Offset;
    std::optional<AffineForm> Copy = withLowerBounds(N, Slot, Loops, Unrolled);
    if (!Copy || Copy->dependsOnVariables() || !Copy->Offset.constantValue())
      return std::nullopt;
    UseLoops.insert(Loops.find(U.Variable)->second);
  }
  // Only the step loops the uses need, and what they count from zero.
  SliceUnrolling Out;
  for (const auto &[Loop, Steps] : Candidates)
    if (UseLoops.count(Loop) ||
        anyStatement(*Loop->Children[1],
                     [&](const Stmt &X) { return UseLoops.count(&X) > 0; }))
      Out.Steps[Loop] = Steps;
  Out.Counted = constantCountLoops(N, Body, Out.Steps);
  for (const Stmt *Loop : UseLoops)
    if (!Out.Steps.count(Loop) && !Out.Counted.count(Loop))
      return std::nullopt; // counted from zero only inside another step loop
  Out.Apart = apartCondition(N, S);
  return Out;
}

} // namespace weft::ir
