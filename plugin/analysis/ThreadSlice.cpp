// ThreadSlice.cpp: the proof that an iteration's column (or row) of a span
// can live in shared memory for the iteration, and the rows it spans.
#include "analysis/ThreadSlice.h"

#include "ir/AffineForm.h"
#include "ir/IndexRange.h"
#include "ir/IrQueries.h"
#include "ir/KernelText.h"
#include "ir/SpanUses.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace weft::ir {

namespace {

class SliceSearch {
public:
  SliceSearch(const Nest &N, const Level &L) : N(N), L(L) {}

  void run(std::vector<ThreadSlice> &Out) {
    for (const StmtPtr &S : L.Body)
      if (S)
        plainDecls(*S);
    Hidden = localsOf(L.Body);
    Uses = spanUses(L.Body, /*EnterLevels=*/false);
    std::map<unsigned, std::vector<const SpanUse *>> BySpan;
    for (const SpanUse &U : Uses.Uses)
      BySpan[U.Element->ParamIndex].push_back(&U);
    for (auto &[Param, Accesses] : BySpan)
      if (!Uses.Refused.count(Param))
        slice(Param, Accesses, Out);
  }

private:
  /// The names declared other than as a counted loop's index: no slice
  /// follows them.
  void plainDecls(const Stmt &S) {
    if (S.Kind == Stmt::Decl && !LoopIndexDecls.count(&S))
      PlainDecls.insert(S.Name);
    if (S.Kind == Stmt::For && S.Children[0] && countedLoop(S))
      LoopIndexDecls.insert(S.Children[0].get());
    for (const StmtPtr &C : S.Children)
      if (C)
        plainDecls(*C);
  }

  /// An access in the slice's form: its loop index and W's shift.
  struct Shape {
    Polynomial ThreadStride, Stride, Shift;
    std::string Variable;
  };
  std::optional<Shape> shape(const SpanUse &F) const {
    AffineScope Scope;
    Scope.IsVariable = [&](const std::string &Name) {
      return Name == L.IndexName || Hidden.count(Name) > 0;
    };
    std::optional<AffineForm> Form =
        affineForm(N, stripCasts(*F.Element->Operands[0]), Scope);
    if (!Form || Form->Coefficients.size() != 2 ||
        !Form->Coefficients.count(L.IndexName))
      return std::nullopt;
    Shape S;
    for (const auto &[Variable, Coefficient] : Form->Coefficients)
      if (Variable == L.IndexName) {
        S.ThreadStride = Coefficient;
      } else {
        S.Variable = Variable;
        S.Stride = Coefficient;
      }
    std::optional<Polynomial> Shift = exactQuotient(Form->Offset, S.Stride);
    if (PlainDecls.count(S.Variable) || !Shift || S.Stride == S.ThreadStride)
      return std::nullopt;
    S.Shift = std::move(*Shift);
    return S;
  }

  void slice(unsigned Param, const std::vector<const SpanUse *> &Accesses,
             std::vector<ThreadSlice> &Out) {
    const ir::Param &P = N.Params[Param];
    if (P.Kind != ParamKind::ReadWriteSpan || P.Struct >= 0)
      return;
    std::vector<std::optional<Shape>> Shapes;
    const Shape *Family = nullptr;
    for (const SpanUse *F : Accesses)
      Shapes.push_back(shape(*F));
    for (std::size_t I = 0; I < Accesses.size() && !Family; ++I)
      if (Accesses[I]->Written && Shapes[I])
        Family = &*Shapes[I];
    if (!Family)
      return;
    ThreadSlice S;
    S.Owner = &L;
    S.Param = Param;
    Hull Rows;
    // Worth it where a read may take what the iteration wrote before (the
    // uses name different elements at once) or reads again (a loop around
    // the read's): else a read, once, costs what the slice's load does.
    bool Read = false, Reused = false;
    std::set<std::pair<std::string, std::string>> Distinct;
    for (std::size_t I = 0; I < Accesses.size(); ++I) {
      const SpanUse &F = *Accesses[I];
      const bool Member = Shapes[I] &&
                          Shapes[I]->ThreadStride == Family->ThreadStride &&
                          Shapes[I]->Stride == Family->Stride;
      if (!Member) {
        if (F.Written)
          return; // a write the slice would miss
        continue; // read in place, where every write goes through
      }
      // W = the index + its shift, over the loops around.
      AffineForm W;
      W.Coefficients[Shapes[I]->Variable] = Polynomial::constant(1);
      W.Offset = Shapes[I]->Shift;
      std::optional<std::pair<Polynomial, Polynomial>> R =
          loopsAround(N, F, Hidden).range(W, F.Loops.size());
      if (!R || !Rows.take(*R))
        return;
      std::optional<std::string> Shift =
          Shapes[I]->Shift.isZero() ? std::string()
                                    : kernelText(Shapes[I]->Shift, Hidden);
      if (!Shift)
        return;
      S.Uses.push_back(
          {F.Element, Shapes[I]->Variable, *Shift, Shapes[I]->Shift});
      Distinct.insert({Shapes[I]->Variable, *Shift});
      Read = Read || !F.Written;
      Reused = Reused || (!F.Written && F.Loops.size() > 1);
      if (S.Rows.find(Shapes[I]->Variable) == std::string::npos)
        S.Rows += (S.Rows.empty() ? "" : ", ") + Shapes[I]->Variable;
      if (F.Written && S.Description.empty())
        S.Description = P.Name + "[" +
                        exprText(N, stripCasts(*F.Element->Operands[0])) + "]";
    }
    // Without a read the slice saves nothing: a write's store goes through.
    if (!Read || (!Reused && Distinct.size() < 2))
      return;
    const std::optional<Polynomial> Count = Rows.count();
    std::optional<std::string> ThreadStride =
        kernelText(Family->ThreadStride, Hidden);
    std::optional<std::string> Stride = kernelText(Family->Stride, Hidden);
    std::optional<std::string> First =
        Rows.Lo ? kernelText(*Rows.Lo, Hidden) : std::nullopt;
    std::optional<std::string> Elements =
        Count ? kernelText(*Count, Hidden) : std::nullopt;
    if (!ThreadStride || !Stride || !First || !Elements)
      return;
    S.FixedCount = Count->constantValue();
    if (S.FixedCount && *S.FixedCount <= 0)
      return;
    S.ThreadStride = *ThreadStride;
    S.Stride = *Stride;
    S.Lo = *First;
    S.LoValue = *Rows.Lo;
    S.ThreadStrideValue = Family->ThreadStride;
    S.StrideValue = Family->Stride;
    S.Count = *Elements;
    Out.push_back(std::move(S));
  }

  const Nest &N;
  const Level &L;
  std::set<std::string> PlainDecls, Hidden;
  std::set<const Stmt *> LoopIndexDecls;
  SpanUses Uses;
};

bool innermost(const Level &L) {
  return std::none_of(L.Body.begin(), L.Body.end(),
                      [](const StmtPtr &S) { return S && holdsLevels(*S); });
}

} // namespace

std::vector<ThreadSlice> planThreadSlices(const Nest &N) {
  std::vector<ThreadSlice> Out;
  if (N.Sequential)
    return Out;
  for (const Level *L : levels(N))
    if (innermost(*L))
      SliceSearch(N, *L).run(Out);
  return Out;
}

} // namespace weft::ir
