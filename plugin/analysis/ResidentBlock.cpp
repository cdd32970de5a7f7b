// ResidentBlock.cpp: the proof that a sequential nest's accesses to a span
// all fall in one block of rows and columns, and that block's extent.
#include "analysis/ResidentBlock.h"

#include "ir/AffineForm.h"
#include "ir/IndexRange.h"
#include "ir/IrQueries.h"
#include "ir/KernelText.h"
#include "ir/SpanUses.h"

#include <algorithm>
#include <map>
#include <set>

namespace weft::ir {
namespace {

/// A subscript as Row * Stride + Col, Row and Col affine in the indices.
struct Split {
  AffineForm Row, Col;
};

class ResidentSearch {
public:
  explicit ResidentSearch(const Nest &N) : N(N) {}

  void run(std::vector<ResidentBlock> &Out) {
    Hidden = localsOf(N.Root.Body);
    Uses = spanUses(N.Root.Body, /*EnterLevels=*/true);
    std::map<unsigned, std::vector<const SpanUse *>> BySpan;
    for (const SpanUse &U : Uses.Uses)
      BySpan[U.Element->ParamIndex].push_back(&U);
    for (auto &[Param, Accesses] : BySpan)
      if (!Uses.Refused.count(Param) && Uses.Written.count(Param))
        resident(Param, Accesses, Out);
  }

private:
  /// The monomial of the first coefficient that is not a constant: the
  /// matrix's row stride (`$N` of `I * N + K`).
  static std::optional<Polynomial::Monomial>
  strideOf(const std::vector<AffineForm> &Forms) {
    for (const AffineForm &F : Forms)
      for (const auto &[Variable, Coefficient] : F.Coefficients)
        for (const auto &[Monomial, K] : Coefficient.terms())
          if (!Monomial.empty())
            return Monomial;
    return std::nullopt;
  }

  /// P = Row * Stride + Col, each term of P whose monomial holds Stride's
  /// in Row (divided by it), the others in Col.
  static bool divide(const Polynomial &P, const Polynomial::Monomial &Stride,
                     Polynomial &Row, Polynomial &Col) {
    for (const auto &[Monomial, K] : P.terms()) {
      Polynomial::Monomial Rest = Monomial;
      bool Holds = true;
      for (const std::string &F : Stride) {
        auto It = std::find(Rest.begin(), Rest.end(), F);
        if (It == Rest.end()) {
          Holds = false;
          break;
        }
        Rest.erase(It);
      }
      Polynomial Term = Polynomial::constant(K);
      for (const std::string &S : Holds ? Rest : Monomial)
        Term = *Term.times(Polynomial::symbol(S));
      Polynomial &Into = Holds ? Row : Col;
      std::optional<Polynomial> Sum = Into.plus(Term);
      if (!Sum)
        return false;
      Into = std::move(*Sum);
    }
    return true;
  }

  /// F as a row and a column: each coefficient a * Stride + b (a and b
  /// constants), the offset split as divide() does.
  static std::optional<Split> split(const AffineForm &F,
                                    const Polynomial::Monomial &Stride) {
    Split S;
    if (!divide(F.Offset, Stride, S.Row.Offset, S.Col.Offset))
      return std::nullopt;
    for (const auto &[Variable, Coefficient] : F.Coefficients) {
      Polynomial Row, Col;
      if (!divide(Coefficient, Stride, Row, Col) || !Row.isConstant() ||
          !Col.isConstant())
        return std::nullopt;
      if (!Row.isZero())
        S.Row.Coefficients[Variable] = Row;
      if (!Col.isZero())
        S.Col.Coefficients[Variable] = Col;
    }
    return S;
  }

  void resident(unsigned Param, const std::vector<const SpanUse *> &Accesses,
                std::vector<ResidentBlock> &Out) {
    const ir::Param &P = N.Params[Param];
    if (P.Kind != ParamKind::ReadWriteSpan || P.Struct >= 0)
      return;
    std::vector<AffineForm> Forms;
    for (const SpanUse *F : Accesses) {
      std::optional<AffineForm> Form =
          loopsAround(N, *F, Hidden).form(*F->Element->Operands[0]);
      if (!Form)
        return;
      Forms.push_back(std::move(*Form));
    }
    std::optional<Polynomial::Monomial> Stride = strideOf(Forms);
    if (!Stride)
      return; // a vector's elements: L1 holds them as well
    ResidentBlock B;
    B.Param = Param;
    Hull RowHull, ColHull;
    for (std::size_t I = 0; I < Accesses.size(); ++I) {
      const SpanUse &F = *Accesses[I];
      std::optional<Split> S = split(Forms[I], *Stride);
      if (!S)
        return;
      const LoopNest Around = loopsAround(N, F, Hidden);
      std::optional<std::pair<Polynomial, Polynomial>> Rows =
          Around.range(S->Row, F.Loops.size());
      std::optional<std::pair<Polynomial, Polynomial>> Cols =
          Around.range(S->Col, F.Loops.size());
      if (!Rows || !Cols || !RowHull.take(*Rows) || !ColHull.take(*Cols))
        return;
      std::optional<std::string> Row = formText(S->Row, {});
      std::optional<std::string> Col = formText(S->Col, {});
      if (!Row || !Col)
        return;
      B.Uses.push_back({F.Element, *Row, *Col});
      if (F.Element->writes() && B.Description.empty())
        B.Description = P.Name + "[" +
                        exprText(N, stripCasts(*F.Element->Operands[0])) + "]";
    }
    const std::optional<Polynomial> Rows = RowHull.count();
    const std::optional<Polynomial> Cols = ColHull.count();
    Polynomial StrideValue = Polynomial::constant(1);
    for (const std::string &S : *Stride)
      StrideValue = *StrideValue.times(Polynomial::symbol(S));
    // Placed before the loop: of captures alone.
    std::optional<std::string> Texts[] = {
        kernelText(StrideValue, Hidden), kernelText(*RowHull.Lo, Hidden),
        Rows ? kernelText(*Rows, Hidden) : std::nullopt,
        kernelText(*ColHull.Lo, Hidden),
        Cols ? kernelText(*Cols, Hidden) : std::nullopt};
    if (std::any_of(std::begin(Texts), std::end(Texts),
                    [](const std::optional<std::string> &T) { return !T; }))
      return;
    B.Stride = *Texts[0];
    B.RowLo = *Texts[1];
    B.Rows = *Texts[2];
    B.ColLo = *Texts[3];
    B.Cols = *Texts[4];
    std::optional<std::int64_t> R = Rows->constantValue();
    std::optional<std::int64_t> C = Cols->constantValue();
    if (R && C) {
      if (*R <= 0 || *C <= 0)
        return;
      B.FixedElements = *R * *C;
      B.FixedSlots = *R * (*C | 1);
    }
    Out.push_back(std::move(B));
  }

  const Nest &N;
  std::set<std::string> Hidden;
  SpanUses Uses;
};

} // namespace

std::vector<ResidentBlock> planResidentBlocks(const Nest &N) {
  std::vector<ResidentBlock> Out;
  if (N.Sequential)
    ResidentSearch(N).run(Out);
  return Out;
}

} // namespace weft::ir
