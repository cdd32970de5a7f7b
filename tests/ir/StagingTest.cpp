// StagingTest.cpp: the staging plan on a matrix-product nest built by hand:
// a row read by the whole block along a sequential loop is staged only under
// a mapping where the block shares the outermost iteration, only for a
// read-only span, and only when the row is the same in every thread.
#include "memory/StagingPlan.h"

#include <gtest/gtest.h>

using namespace weft;

namespace {

ir::ExprPtr node(ir::Expr::KindType K, std::string Text = "",
                 unsigned Param = 0) {
  auto E = std::make_unique<ir::Expr>();
  E->Kind = K;
  E->Text = std::move(Text);
  E->ParamIndex = Param;
  return E;
}
ir::ExprPtr binary(const std::string &Op, ir::ExprPtr L, ir::ExprPtr R) {
  auto E = node(ir::Expr::Binary, Op);
  E->Operands.push_back(std::move(L));
  E->Operands.push_back(std::move(R));
  return E;
}
ir::ExprPtr local(const std::string &Name) {
  return node(ir::Expr::Local, Name);
}

/// for i: for j (parallel): for (int k = 0; k < K; ++k)
///   acc += a[<RowBase> + k];
/// with RowBase i * K, or i * K + j when ThreadRow.
ir::Nest productNest(bool ThreadRow, ir::ParamKind AKind) {
  ir::Nest N;
  N.Params = {{"K", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"a", AKind, ir::ScalarKind::Float, true}};
  N.Root.IndexName = "i";
  N.Root.Lower = node(ir::Expr::IntLiteral, "0");
  N.Root.Upper = node(ir::Expr::IntLiteral, "64");
  auto Inner = std::make_unique<ir::Level>();
  Inner->IndexName = "j";
  Inner->Depth = 1;
  Inner->Lower = node(ir::Expr::IntLiteral, "0");
  Inner->Upper = node(ir::Expr::IntLiteral, "256");
  ir::ExprPtr Base = binary("*", local("i"), node(ir::Expr::ParamRef, "", 0));
  if (ThreadRow)
    Base = binary("+", std::move(Base), local("j"));
  auto Read = node(ir::Expr::SpanElement, "", 1);
  Read->Operands.push_back(binary("+", std::move(Base), local("k")));
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::ExprStmt;
  Body->Exprs.push_back(binary("+=", local("acc"), std::move(Read)));
  auto Init = std::make_unique<ir::Stmt>();
  Init->Kind = ir::Stmt::Decl;
  Init->Name = "k";
  Init->Exprs.push_back(node(ir::Expr::IntLiteral, "0"));
  auto Loop = std::make_unique<ir::Stmt>();
  Loop->Kind = ir::Stmt::For;
  Loop->Exprs.push_back(
      binary("<", local("k"), node(ir::Expr::ParamRef, "", 0)));
  auto Step = node(ir::Expr::Unary, "++");
  Step->Operands.push_back(local("k"));
  Loop->Exprs.push_back(std::move(Step));
  Loop->Children.push_back(std::move(Init));
  Loop->Children.push_back(std::move(Body));
  Inner->Body.push_back(std::move(Loop));
  auto P = std::make_unique<ir::Stmt>();
  P->Kind = ir::Stmt::ParallelFor;
  P->Nested = std::move(Inner);
  N.Root.Body.push_back(std::move(P));
  return N;
}

/// The outer level over blocks of one, the inner over the block: Span(all)
/// with Block threads, or Span(1) over the grid.
map::NestMapping mapping(map::Parallelism::KindType InnerKind) {
  map::NestMapping M;
  M.Levels = {{map::Dimension::Y, 1, {map::Parallelism::Span, 1}, {}},
              {map::Dimension::X, 128, {InnerKind, 1}, {}}};
  return M;
}

TEST(Staging, RowReadByTheWholeBlockIsStaged) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadSpan);
  std::vector<memory::Stage> S =
      memory::planStaging(N, mapping(map::Parallelism::SpanAll));
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Param, 1u);
  EXPECT_EQ(S[0].Reads.size(), 1u);
  EXPECT_EQ(S[0].Description, "a[((i * $K) + k)], k in [0, $K)");
  ASSERT_EQ(S[0].Terms.size(), 1u);
  EXPECT_EQ(S[0].Terms[0].Index, "k");
  EXPECT_EQ(S[0].Terms[0].Coefficient, nullptr);
  EXPECT_EQ(S[0].Base.size(), 1u);
}

TEST(Staging, OnlyWhereTheBlockSharesTheOutermostIteration) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadSpan);
  // Spread over the grid too, each block still works on one row.
  EXPECT_EQ(memory::planStaging(N, mapping(map::Parallelism::Span)).size(),
            1u);
  EXPECT_TRUE(memory::planStaging(N, mapping(map::Parallelism::Split)).empty());
  map::NestMapping TwoRows = mapping(map::Parallelism::SpanAll);
  TwoRows.Levels[0].BlockSize = 2; // two outermost iterations per block
  EXPECT_TRUE(memory::planStaging(N, TwoRows).empty());
}

TEST(Staging, NotARowThatDependsOnTheThread) {
  ir::Nest N = productNest(true, ir::ParamKind::ReadSpan);
  EXPECT_TRUE(
      memory::planStaging(N, mapping(map::Parallelism::SpanAll)).empty());
}

TEST(Staging, NotASpanTheNestWrites) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadWriteSpan);
  EXPECT_TRUE(
      memory::planStaging(N, mapping(map::Parallelism::SpanAll)).empty());
}

} // namespace
