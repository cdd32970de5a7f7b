// RecognizeRows.cpp: rows of captured data (rows held apart, rows held as
// pointers, nested arrays): their offsets and lengths, and the locals a view
// of one row is bound to.
#include "recognize/DataRecognizer.h"

#include "ir/RowsApart.h"

namespace weft::recognize {

unsigned DataRecognizer::rowOffsets(unsigned P) {
  auto [It, New] = RowOffsetParams.try_emplace(P, Params.size());
  if (New) {
    ir::Param Offsets;
    Offsets.Name = Params[P].Name + "_rows";
    Offsets.Kind = ir::ParamKind::ReadSpan;
    Offsets.Element = ir::ScalarKind::ULong;
    Offsets.ConstElement = true;
    Offsets.RowOffsetsOf = static_cast<int>(P);
    Capture C;
    C.Source = Captures[P].Source;
    C.RowOffsets = true;
    addParam(std::move(Offsets), std::move(C), DataShape());
    Uses.back().Read = true;
    // Their common length: rows of one length are one block of rows by
    // columns, indexed by an affine subscript (recognizeNest).
    ir::Param Length;
    Length.Name = Params[P].Name + "_cols";
    Length.Kind = ir::ParamKind::Scalar;
    Length.Element = ir::ScalarKind::Long;
    Length.CommonRowLengthOf = static_cast<int>(P);
    Capture L;
    L.Source = Captures[P].Source;
    L.RowColumns = true;
    RowColumnParams[P] = addParam(std::move(Length), std::move(L));
    Uses.back().Read = true;
  }
  return It->second;
}

ir::ExprPtr DataRecognizer::rowStart(unsigned P, ir::ExprPtr R) {
  return ir::rowStartFromOffsets(rowOffsets(P), std::move(R));
}

std::optional<ir::ExprPtr>
DataRecognizer::rowSize(const Expr *Object, std::optional<ir::ScalarKind> K) {
  if (const RowView *View = rowViewOf(Object)) {
    if (!View->Length.empty())
      return converted(viewLength(*View), K.value_or(ir::ScalarKind::ULong));
    return rowLength(View->Param,
                     make(ir::Expr::Local, ir::ScalarKind::Long, View->Local),
                     K);
  }
  const Expr *X = Object->IgnoreParenImpCasts();
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
  if (!OC || OC->getOperator() != OO_Subscript || OC->getNumArgs() != 2)
    return std::nullopt;
  std::optional<DataShape> Shape = dataShape(OC->getArg(0)->getType());
  if (!Shape || !Shape->RowsApart)
    return std::nullopt;
  std::optional<unsigned> P = spanOperand(OC->getArg(0));
  if (!P)
    return ir::ExprPtr();
  ir::ExprPtr Index = expr(OC->getArg(1), Access::Read);
  if (!Index)
    return ir::ExprPtr();
  return rowLength(*P, std::move(Index), K);
}

ir::ExprPtr DataRecognizer::rowLength(unsigned P, ir::ExprPtr Index,
                                      std::optional<ir::ScalarKind> K) {
  const ir::ScalarKind Type = K.value_or(ir::ScalarKind::ULong);
  // A row of nested arrays: its first inner extent.
  if (!Shapes[P].RowsApart)
    return converted(
        integer(static_cast<std::int64_t>(Shapes[P].Inner.front())), Type);
  if (Shapes[P].RowPointers)
    return converted(rowColumns(P), Type);
  // rows[i + 1] - rows[i], in the row's elements.
  ir::ExprPtr Length =
      ir::rowLengthFromOffsets(rowOffsets(P), std::move(Index));
  std::int64_t Element = 1;
  for (std::uint64_t N : Shapes[P].Inner)
    Element *= static_cast<std::int64_t>(N);
  if (Element != 1)
    Length = operation("/", std::move(Length), integer(Element));
  return converted(std::move(Length), Type);
}

const DataRecognizer::RowView *DataRecognizer::rowViewOf(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  auto It = VD ? RowViews.find(VD) : RowViews.end();
  return It == RowViews.end() ? nullptr : &It->second;
}

std::optional<ir::StmtPtr> DataRecognizer::rowView(const VarDecl *VD) {
  const QualType T = VD->getType();
  const Expr *Init = VD->getInit();
  if (!Init || !(T->isReferenceType() || T->isPointerType()))
    return std::nullopt;
  // A pointer into data of one dimension: `float *Row = a + i * n`. (A
  // row, `float *Row = A[i]`, keeps its index: below.)
  if (T->isPointerType() && !isa<ArraySubscriptExpr, CXXOperatorCallExpr>(
                                Init->IgnoreParenImpCasts()))
    if (std::optional<PointerInto> Ptr = pointerInto(Init))
      return pointerView(VD, std::move(*Ptr));
  if (Failed)
    return ir::StmtPtr();
  // The row: a[i] of captured data whose elements are rows.
  const Expr *X = Init->IgnoreParenImpCasts();
  const Expr *Base = nullptr, *Index = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
      OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
    Base = OC->getArg(0);
    Index = OC->getArg(1);
  } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
    Base = AS->getBase();
    Index = AS->getIdx();
  } else {
    return std::nullopt;
  }
  const Expr *Data = Base->IgnoreParenImpCasts();
  std::optional<DataShape> Shape = dataShape(Data->getType());
  const bool RowPointers = Shape && Shape->Element->isPointerType() &&
                           Shape->Inner.empty() && !Shape->RowsApart;
  if (!Shape || Shape->IsMdspan || Shape->Refusal ||
      !(Shape->RowsApart || !Shape->Inner.empty() || RowPointers) ||
      !(isa<DeclRefExpr>(Data) || isa<MemberExpr>(Data)))
    return std::nullopt;
  // A pointer takes a row of a nested array (decayed) or of a float **; a
  // reference, a row of a vector of vectors or of a nested array.
  if (T->isPointerType() ? Shape->RowsApart || Init == X : RowPointers)
    return std::nullopt;
  std::optional<unsigned> P = spanOperand(Base);
  if (!P)
    return ir::StmtPtr();
  ir::ExprPtr Row = expr(Index, Access::Read);
  if (!Row)
    return ir::StmtPtr();
  return bindRowView(VD, *P, converted(std::move(Row)));
}

ir::StmtPtr DataRecognizer::pointerView(const VarDecl *VD, PointerInto Ptr) {
  ir::StmtPtr Decl = bindRowView(
      VD, Ptr.Param, Ptr.Offset ? std::move(Ptr.Offset) : integer(0));
  RowViews[VD].Offset = true;
  RowViews[VD].LocalArray = Ptr.LocalArray;
  return Decl;
}

ir::StmtPtr DataRecognizer::bindRowView(const VarDecl *VD, unsigned P,
                                        ir::ExprPtr Row) {
  auto Decl = std::make_unique<ir::Stmt>();
  Decl->Kind = ir::Stmt::Decl;
  // A range-for's hidden range variable (__range1) names no row.
  Decl->Name =
      Names.numbered("weft_row") +
      (VD->getName().starts_with("__") ? "" : "_" + VD->getName().str());
  Decl->VarType.Scalar = ir::ScalarKind::Long;
  Decl->VarType.IsConst = true;
  Decl->Exprs.push_back(std::move(Row));
  RowViews[VD] = {P, Decl->Name};
  return Decl;
}

} // namespace weft::recognize
