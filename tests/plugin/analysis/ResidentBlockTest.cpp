// ResidentBlockTest.cpp: the proof that a sequential nest's accesses to a
// span lie in one block of rows and columns, on a nest built by hand:
// for (int i = r0; i < r0 + 4; ++i) { parallel for j in [c0, c0 + 8):
//   a[i * n + j] += a[(i - 1) * n + j] * a[i * n + i]; }
// and the affine forms' kernel text it prints the rows and columns with.
#include "analysis/ResidentBlock.h"
#include "TestNests.h"
#include "ir/IndexRange.h"
#include "ir/KernelText.h"

#include <gtest/gtest.h>

using namespace weft;
using test_nests::binary;
using test_nests::countedFor;
using test_nests::element;
using test_nests::level;
using test_nests::local;
using test_nests::node;
using test_nests::param;
using test_nests::statement;

namespace {

ir::ExprPtr lit(int V) { return node(ir::Expr::IntLiteral, std::to_string(V)); }

/// Row * n + Col.
ir::ExprPtr at(ir::ExprPtr Row, ir::ExprPtr Col) {
  return binary("+", binary("*", std::move(Row), param(1)), std::move(Col));
}

/// Params: a (0), n (1), r0 (2), c0 (3); j from capture Column; Third
/// replaces the diagonal read.
ir::Nest steps(ir::ParamKind Kind, ir::ExprPtr Third = nullptr,
               unsigned Column = 2) {
  ir::Nest N;
  N.Sequential = true;
  N.Params = {{"a", Kind, ir::ScalarKind::Float, false},
              {"n", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"r0", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"c0", ir::ParamKind::Scalar, ir::ScalarKind::Int}};
  N.Root = level("weft_sequential", 0, lit(1));
  auto Inner = std::make_unique<ir::Level>(
      level("j", 1, binary("+", param(Column), lit(8))));
  Inner->Lower = param(Column);
  if (!Third)
    Third = element(0, at(local("i"), local("i")));
  Inner->Body.push_back(statement(binary(
      "+=", element(0, at(local("i"), local("j")), true),
      binary("*", element(0, at(binary("-", local("i"), lit(1)), local("j"))),
             std::move(Third)))));
  auto Marked = std::make_unique<ir::Stmt>();
  Marked->Kind = ir::Stmt::ParallelFor;
  Marked->Nested = std::move(Inner);
  N.Root.Body.push_back(countedFor("i", param(2), binary("+", param(2), lit(4)),
                                   std::move(Marked)));
  return N;
}

TEST(ResidentBlock, RowsAndColumnsOfTheLoops) {
  // Rows i - 1 .. i over [r0, r0 + 4): r0 - 1 .. r0 + 3; columns j over
  // [r0, r0 + 8) and i (the diagonal read): r0 .. r0 + 7.
  ir::Nest N = steps(ir::ParamKind::ReadWriteSpan);
  std::vector<ir::ResidentBlock> B = ir::planResidentBlocks(N);
  ASSERT_EQ(B.size(), 1u);
  EXPECT_EQ(B[0].Param, 0u);
  EXPECT_EQ(B[0].Stride, "((weft::index_t)n)");
  EXPECT_EQ(B[0].RowLo, "(-(weft::index_t)1 + (weft::index_t)r0)");
  EXPECT_EQ(B[0].Rows, "((weft::index_t)5)");
  EXPECT_EQ(B[0].ColLo, "((weft::index_t)r0)");
  EXPECT_EQ(B[0].Cols, "((weft::index_t)8)");
  EXPECT_EQ(B[0].FixedElements, 40);
  ASSERT_EQ(B[0].Uses.size(), 3u);
  EXPECT_EQ(B[0].Uses[0].Row, "((weft::index_t)(i))");
  EXPECT_EQ(B[0].Uses[0].Col, "((weft::index_t)(j))");
  EXPECT_EQ(B[0].Uses[1].Row, "(-(weft::index_t)1 + (weft::index_t)(i))");
  // a[i * n + i]: the coefficient n + 1 of i, row i and column i.
  EXPECT_EQ(B[0].Uses[2].Row, "((weft::index_t)(i))");
  EXPECT_EQ(B[0].Uses[2].Col, "((weft::index_t)(i))");
  EXPECT_EQ(B[0].Description, "a[((i * $n) + j)]");
}

TEST(ResidentBlock, NotWhereColumnsAreNoConstantApart) {
  // j from c0, the diagonal's columns from r0.
  EXPECT_TRUE(
      ir::planResidentBlocks(steps(ir::ParamKind::ReadWriteSpan, nullptr, 3))
          .empty());
}

TEST(ResidentBlock, ColumnsOfCaptures) {
  // a[i * n + c0] rather than the diagonal, j from c0: columns c0 .. c0 + 7.
  ir::Nest N = steps(ir::ParamKind::ReadWriteSpan,
                     element(0, at(local("i"), param(3))), 3);
  std::vector<ir::ResidentBlock> B = ir::planResidentBlocks(N);
  ASSERT_EQ(B.size(), 1u);
  EXPECT_EQ(B[0].ColLo, "((weft::index_t)c0)");
  EXPECT_EQ(B[0].Cols, "((weft::index_t)8)");
  EXPECT_EQ(B[0].Uses[2].Col, "((weft::index_t)c0)");
}

TEST(ResidentBlock, NotWhereASubscriptIsNotAffine) {
  ir::Nest N = steps(ir::ParamKind::ReadWriteSpan,
                     element(0, at(element(0, lit(0)), local("j"))));
  EXPECT_TRUE(ir::planResidentBlocks(N).empty());
}

TEST(ResidentBlock, NeitherForASpanOnlyReadNorOutsideSequentialNests) {
  EXPECT_TRUE(ir::planResidentBlocks(steps(ir::ParamKind::ReadSpan)).empty());
  ir::Nest N = steps(ir::ParamKind::ReadWriteSpan);
  N.Sequential = false;
  EXPECT_TRUE(ir::planResidentBlocks(N).empty());
}

TEST(ResidentBlock, MostIterationsOfALevelOverTheLoopsAround) {
  // j from i (i in [r0, r0 + 4)) to r0 + 8: at most 8, whatever r0 is.
  ir::Nest N = steps(ir::ParamKind::ReadWriteSpan);
  ir::Level &J = *N.Root.Body[0]->Children[1]->Nested;
  J.Lower = local("i");
  EXPECT_EQ(ir::mostIterations(N, J), 8);
  J.Inclusive = true;
  EXPECT_EQ(ir::mostIterations(N, J), 9);
  J.Step = 2;
  EXPECT_EQ(ir::mostIterations(N, J), 5);
  // To n: no constant.
  J.Upper = param(1);
  EXPECT_EQ(ir::mostIterations(N, J), std::nullopt);
}

TEST(ResidentBlock, FormText) {
  ir::AffineForm F;
  F.Coefficients["i"] = ir::Polynomial::constant(-2);
  F.Coefficients["k"] = ir::Polynomial::constant(1);
  F.Offset = ir::Polynomial::symbol("$r0");
  EXPECT_EQ(
      *ir::formText(F, {}),
      "((weft::index_t)r0 - (weft::index_t)(i) * 2 + (weft::index_t)(k))");
  F.Coefficients["k"] = ir::Polynomial::symbol("$n");
  EXPECT_FALSE(ir::formText(F, {}));
  EXPECT_EQ(*ir::formText(ir::AffineForm(), {}), "(weft::index_t)0");
}

} // namespace
