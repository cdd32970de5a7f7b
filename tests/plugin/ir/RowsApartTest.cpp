// RowsApartTest.cpp: a nest's rows held apart rewritten as rows of one
// length (each start and length read through the offsets), and the deep
// copy that rewrite works on.
#include "ir/RowsApart.h"
#include "ir/IrQueries.h"
#include "ir/NestClone.h"

#include <gtest/gtest.h>

using namespace weft;
using namespace weft::ir;

namespace {

ExprPtr node(Expr::KindType K, ScalarKind T, std::string Text = "",
             unsigned Param = 0) {
  auto E = std::make_unique<Expr>();
  E->Kind = K;
  E->Type = T;
  E->Text = std::move(Text);
  E->ParamIndex = Param;
  return E;
}

ExprPtr local(const char *Name) {
  return node(Expr::Local, ScalarKind::Long, Name);
}

ExprPtr element(unsigned Param, ExprPtr Flat) {
  auto E = node(Expr::SpanElement, ScalarKind::Float, "", Param);
  E->Operands.push_back(std::move(Flat));
  return E;
}

ExprPtr plus(ExprPtr L, ExprPtr R) {
  auto B = node(Expr::Binary, ScalarKind::Long, "+");
  B->Operands.push_back(std::move(L));
  B->Operands.push_back(std::move(R));
  return B;
}

StmtPtr statement(ExprPtr E) {
  auto S = std::make_unique<Stmt>();
  S->Kind = Stmt::ExprStmt;
  S->Exprs.push_back(std::move(E));
  return S;
}

/// rows (param 0), a std::vector of std::vectors, its offsets (1) and
/// common length (2); `for i in [0, n)`, n param 3; Body the level's.
Nest rowsNest(std::vector<StmtPtr> Body, ExprPtr Upper = nullptr) {
  Nest N;
  N.Location = "t.cpp:1:1";
  Param Rows;
  Rows.Name = "rows";
  Rows.Kind = ParamKind::ReadSpan;
  Rows.Element = ScalarKind::Float;
  Rows.RowsApart = true;
  Param Offsets;
  Offsets.Name = "rows_rows";
  Offsets.Kind = ParamKind::ReadSpan;
  Offsets.Element = ScalarKind::ULong;
  Offsets.RowOffsetsOf = 0;
  Param Columns;
  Columns.Name = "rows_cols";
  Columns.Element = ScalarKind::Long;
  Columns.CommonRowLengthOf = 0;
  Param Count;
  Count.Name = "n";
  Count.Element = ScalarKind::Long;
  N.Params = {Rows, Offsets, Columns, Count};
  N.Root.IndexName = "i";
  N.Root.Lower = node(Expr::IntLiteral, ScalarKind::Long, "0l");
  N.Root.Upper =
      Upper ? std::move(Upper) : node(Expr::ParamRef, ScalarKind::Long, "", 3);
  N.Root.Body = std::move(Body);
  return N;
}

std::vector<StmtPtr> body(ExprPtr E) {
  std::vector<StmtPtr> B;
  B.push_back(statement(std::move(E)));
  return B;
}

TEST(RowsApart, RowStartsBecomeRowTimesColumns) {
  // rows[i][j]: rows' element offsets[i] + j.
  Nest N = rowsNest(body(element(0, plus(rowStartFromOffsets(1, local("i")),
                                         node(Expr::Cast, ScalarKind::Long)))));
  N.Root.Body[0]->Exprs[0]->Operands[0]->Operands[1]->Operands.push_back(
      local("j"));
  Nest Expected = rowsNest(
      body(element(0, plus(rowStartOfOneLength(local("i"), 2, ScalarKind::Long),
                           node(Expr::Cast, ScalarKind::Long)))));
  Expected.Root.Body[0]->Exprs[0]->Operands[0]->Operands[1]->Operands.push_back(
      local("j"));
  Expected.UniformRows = true;
  ASSERT_TRUE(indexRowsAsOneLength(N));
  EXPECT_TRUE(N.UniformRows);
  EXPECT_EQ(dump(N), dump(Expected));
  EXPECT_EQ(dump(N).find("$rows_rows["), std::string::npos) << dump(N);
}

TEST(RowsApart, RowLengthsBecomeTheCommonLength) {
  // A bound `rows[i].size()`: offsets[i + 1] - offsets[i].
  Nest N = rowsNest({}, rowLengthFromOffsets(1, local("i")));
  Nest Expected = rowsNest({}, rowLengthOfOneLength(2, ScalarKind::Long));
  Expected.UniformRows = true;
  ASSERT_TRUE(indexRowsAsOneLength(N));
  EXPECT_EQ(dump(N), dump(Expected));
}

TEST(RowsApart, ARowIndexReadFromRowsIsRewrittenToo) {
  // rows[rows[k][0]][0]: the inner row's start inside the outer's index.
  auto Inner = element(0, rowStartFromOffsets(1, local("k")));
  Nest N = rowsNest(body(element(0, rowStartFromOffsets(1, std::move(Inner)))));
  auto InnerExpected =
      element(0, rowStartOfOneLength(local("k"), 2, ScalarKind::Long));
  Nest Expected = rowsNest(body(element(
      0, rowStartOfOneLength(std::move(InnerExpected), 2, ScalarKind::Long))));
  Expected.UniformRows = true;
  ASSERT_TRUE(indexRowsAsOneLength(N));
  EXPECT_EQ(dump(N), dump(Expected));
}

TEST(RowsApart, ANestReadingNoRowIsLeftAsItWas) {
  // The offsets' other reads (a length whose operands differ) are no row's.
  Nest N = rowsNest(body(element(3, local("i"))));
  auto Odd = node(Expr::Binary, ScalarKind::Long, "-");
  Odd->Operands.push_back(node(Expr::ParamRef, ScalarKind::Long, "", 3));
  Odd->Operands.push_back(local("i"));
  N.Root.Body.push_back(statement(std::move(Odd)));
  const std::string Before = dump(N);
  EXPECT_FALSE(indexRowsAsOneLength(N));
  EXPECT_FALSE(N.UniformRows);
  EXPECT_EQ(dump(N), Before);
}

TEST(NestClone, CopiesEveryPartAndSharesNone) {
  Nest N = rowsNest(body(element(0, rowStartFromOffsets(1, local("i")))));
  // A nested level with a per-iteration array, and a device function.
  auto Inner = std::make_unique<Stmt>();
  Inner->Kind = Stmt::ParallelFor;
  Inner->Nested = std::make_unique<Level>();
  Inner->Nested->IndexName = "j";
  Inner->Nested->Depth = 1;
  Inner->Nested->Lower = node(Expr::IntLiteral, ScalarKind::Long, "0l");
  Inner->Nested->Upper = rowLengthFromOffsets(1, local("i"));
  auto Array = std::make_unique<Stmt>();
  Array->Kind = Stmt::Decl;
  Array->Name = "tmp";
  Array->ArrayExtent = node(Expr::IntLiteral, ScalarKind::Long, "4l");
  Array->Exprs.push_back(nullptr);
  Inner->Nested->Body.push_back(std::move(Array));
  N.Root.Body.push_back(std::move(Inner));
  Function F;
  F.Name = "weft_fn_f";
  F.Source = "f";
  F.ReturnsValue = true;
  F.ReturnType = ScalarKind::Float;
  F.Params.push_back({"x", LocalType{ScalarKind::Float}});
  auto Ret = std::make_unique<Stmt>();
  Ret->Kind = Stmt::Return;
  Ret->Exprs.push_back(node(Expr::Local, ScalarKind::Float, "x"));
  F.Body.push_back(std::move(Ret));
  N.Functions.push_back(std::move(F));
  Nest Copy = cloneNest(N);
  EXPECT_EQ(dump(Copy), dump(N));
  ASSERT_TRUE(indexRowsAsOneLength(Copy));
  EXPECT_NE(dump(Copy), dump(N));
  EXPECT_FALSE(N.UniformRows);
  EXPECT_NE(dump(N).find("$rows_rows["), std::string::npos);
  EXPECT_EQ(dump(Copy).find("$rows_rows["), std::string::npos);
}

} // namespace
