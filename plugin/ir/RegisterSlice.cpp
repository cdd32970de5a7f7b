// RegisterSlice.cpp: the proof that a thread slice's every use names a
// constant element of it once the loops along it unroll.
#include "ir/RegisterSlice.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"
#include "ir/UnrolledSteps.h"

#include <string>
#include <vector>

namespace weft::ir {
namespace {

/// The counted loops of Body (levels' bodies included) by index name.
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
  return Out;
}

} // namespace weft::ir
