// RowsApart.cpp: the two forms of rows held apart, and the rewrite between
// them.
#include "ir/RowsApart.h"

#include "ir/IrQueries.h"

#include <map>

namespace weft::ir {
namespace {

ExprPtr node(Expr::KindType K, ScalarKind T, std::string Text = "") {
  auto E = std::make_unique<Expr>();
  E->Kind = K;
  E->Type = T;
  E->Text = std::move(Text);
  return E;
}

ExprPtr wide(ExprPtr E) {
  auto C = node(Expr::Cast, ScalarKind::Long);
  C->Operands.push_back(std::move(E));
  return C;
}

ExprPtr binary(const char *Op, ExprPtr L, ExprPtr R) {
  auto B = node(Expr::Binary, ScalarKind::Long, Op);
  B->Operands.push_back(std::move(L));
  B->Operands.push_back(std::move(R));
  return B;
}

ExprPtr paramRef(unsigned P, ScalarKind T) {
  auto R = node(Expr::ParamRef, T);
  R->ParamIndex = P;
  return R;
}

/// Rewrites the reads of rows through their offsets, expression by
/// expression, everywhere in a nest.
class OneLengthRows {
public:
  explicit OneLengthRows(const Nest &N) : N(N) {
    for (unsigned I = 0; I < N.Params.size(); ++I)
      if (N.Params[I].CommonRowLengthOf >= 0)
        ColumnsOf[static_cast<unsigned>(N.Params[I].CommonRowLengthOf)] = I;
    for (unsigned I = 0; I < N.Params.size(); ++I)
      if (int Rows = N.Params[I].RowOffsetsOf; Rows >= 0)
        if (auto It = ColumnsOf.find(static_cast<unsigned>(Rows));
            It != ColumnsOf.end())
          ColumnsOfOffsets[I] = It->second;
  }

  bool Changed = false;

  void level(Level &L) {
    expr(L.Lower);
    expr(L.Upper);
    body(L.Body);
  }

  void body(std::vector<StmtPtr> &Body) {
    for (StmtPtr &S : Body)
      if (S)
        stmt(*S);
  }

private:
  void stmt(Stmt &S) {
    for (ExprPtr &E : S.Exprs)
      expr(E);
    expr(S.ArrayExtent);
    body(S.Children);
    if (S.Nested)
      level(*S.Nested);
  }

  void expr(ExprPtr &E) {
    if (!E)
      return;
    if (ExprPtr Length = oneLengthRowLength(*E)) {
      E = std::move(Length);
      Changed = true;
      return;
    }
    if (const auto *Offsets = offsetsRead(*E)) {
      const unsigned Columns = ColumnsOfOffsets.at(Offsets->ParamIndex);
      ExprPtr Row = std::move(E->Operands[0]->Operands[0]);
      expr(Row);
      E = rowStartOfOneLength(std::move(Row), Columns,
                              N.Params[Columns].Element);
      Changed = true;
      return;
    }
    for (ExprPtr &O : E->Operands)
      expr(O);
  }

  /// E's read of the offsets, where E is a row's start read through them.
  const Expr *offsetsRead(const Expr &E) const {
    if (E.Kind != Expr::Cast || E.Type != ScalarKind::Long ||
        E.Operands.size() != 1)
      return nullptr;
    const Expr &Read = *E.Operands[0];
    return Read.Kind == Expr::SpanElement && Read.Operands.size() == 1 &&
                   ColumnsOfOffsets.count(Read.ParamIndex)
               ? &Read
               : nullptr;
  }

  /// E's form for rows of one length, where E is a row's length read
  /// through the offsets (rowLengthFromOffsets); else null.
  ExprPtr oneLengthRowLength(const Expr &E) const {
    if (E.Kind != Expr::Binary || E.Text != "-" || E.Operands.size() != 2)
      return nullptr;
    const Expr *Next = offsetsRead(*E.Operands[0]);
    const Expr *This = offsetsRead(*E.Operands[1]);
    if (!Next || !This || Next->ParamIndex != This->ParamIndex)
      return nullptr;
    const Expr &Plus = *Next->Operands[0];
    if (Plus.Kind != Expr::Binary || Plus.Text != "+" ||
        Plus.Operands.size() != 2 || Plus.Operands[0]->Kind != Expr::Cast ||
        Plus.Operands[0]->Operands.size() != 1 ||
        !sameExpr(*Plus.Operands[0]->Operands[0], *This->Operands[0]) ||
        !sameExpr(*Plus.Operands[1],
                  *node(Expr::IntLiteral, ScalarKind::Long, "1l")))
      return nullptr;
    const unsigned Columns = ColumnsOfOffsets.at(This->ParamIndex);
    return rowLengthOfOneLength(Columns, N.Params[Columns].Element);
  }

  const Nest &N;
  /// Per rows held apart, their common length's parameter; per offsets
  /// parameter, that of the rows they are of.
  std::map<unsigned, unsigned> ColumnsOf, ColumnsOfOffsets;
};

} // namespace

ExprPtr rowStartFromOffsets(unsigned Offsets, ExprPtr Row) {
  auto Start = node(Expr::SpanElement, ScalarKind::ULong);
  Start->ParamIndex = Offsets;
  Start->Operands.push_back(std::move(Row));
  return wide(std::move(Start));
}

ExprPtr rowStartOfOneLength(ExprPtr Row, unsigned Columns,
                            ScalarKind ColumnsType) {
  return binary("*", wide(std::move(Row)),
                wide(paramRef(Columns, ColumnsType)));
}

ExprPtr rowLengthFromOffsets(unsigned Offsets, ExprPtr Row) {
  ExprPtr Again = cloneExpr(*Row);
  return binary(
      "-",
      rowStartFromOffsets(
          Offsets, binary("+", wide(std::move(Row)),
                          node(Expr::IntLiteral, ScalarKind::Long, "1l"))),
      rowStartFromOffsets(Offsets, std::move(Again)));
}

ExprPtr rowLengthOfOneLength(unsigned Columns, ScalarKind ColumnsType) {
  return wide(paramRef(Columns, ColumnsType));
}

bool indexRowsAsOneLength(Nest &N) {
  OneLengthRows Rows(N);
  Rows.level(N.Root);
  for (Function &F : N.Functions)
    Rows.body(F.Body);
  if (Rows.Changed)
    N.UniformRows = true;
  return Rows.Changed;
}

} // namespace weft::ir
