// HostBoundTest.cpp: which nest IR expressions the runtime can evaluate
// before a launch, and their form in the descriptor's bound language.
#include "ir/HostBound.h"
#include "contract/BoundExpr.h"

#include <gtest/gtest.h>

using namespace weft;

namespace {

ir::ExprPtr node(ir::Expr::KindType K, ir::ScalarKind T, std::string Text = "",
                 unsigned Param = 0) {
  auto E = std::make_unique<ir::Expr>();
  E->Kind = K;
  E->Type = T;
  E->Text = std::move(Text);
  E->ParamIndex = Param;
  return E;
}

std::string written(const ir::Expr &E) {
  std::optional<contract::BoundExpr> B = ir::hostBound(E);
  return B ? contract::writeBound(*B) : "none";
}

TEST(HostBound, LeavesAndOperators) {
  auto Size = node(ir::Expr::SpanSize, ir::ScalarKind::ULong, "", 0);
  EXPECT_EQ(written(*Size), "(size 0)");
  auto Min = node(ir::Expr::Call, ir::ScalarKind::Int, "weft::min");
  Min->Operands.push_back(
      node(ir::Expr::IntLiteral, ir::ScalarKind::Int, "16"));
  Min->Operands.push_back(node(ir::Expr::ParamRef, ir::ScalarKind::Int, "", 3));
  EXPECT_EQ(written(*Min), "(min (lit 16) (arg 3))");
  auto Neg = node(ir::Expr::Unary, ir::ScalarKind::Long, "-");
  auto Cast = node(ir::Expr::Cast, ir::ScalarKind::Long);
  Cast->Operands.push_back(
      node(ir::Expr::IntLiteral, ir::ScalarKind::UInt, "7u"));
  Neg->Operands.push_back(std::move(Cast));
  EXPECT_EQ(written(*Neg), "(neg (lit 7))");
  EXPECT_TRUE(ir::isHostEvaluable(*Neg));
}

TEST(HostBound, RefusesWhatTheHostCannotCompute) {
  auto Float = node(ir::Expr::ParamRef, ir::ScalarKind::Float, "", 2);
  EXPECT_FALSE(ir::isHostEvaluable(*Float));
  auto Elem = node(ir::Expr::SpanElement, ir::ScalarKind::Int, "", 1);
  Elem->Operands.push_back(
      node(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0"));
  EXPECT_FALSE(ir::isHostEvaluable(*Elem));
  auto Local = node(ir::Expr::Local, ir::ScalarKind::Int, "k");
  EXPECT_FALSE(ir::isHostEvaluable(*Local));
  auto Shift = node(ir::Expr::Binary, ir::ScalarKind::Int, "<<");
  Shift->Operands.push_back(
      node(ir::Expr::IntLiteral, ir::ScalarKind::Int, "1"));
  Shift->Operands.push_back(
      node(ir::Expr::IntLiteral, ir::ScalarKind::Int, "4"));
  EXPECT_FALSE(ir::isHostEvaluable(*Shift));
  // Beyond a signed 64-bit value: not a bound the runtime could evaluate.
  auto Huge = node(ir::Expr::IntLiteral, ir::ScalarKind::ULongLong,
                   "18446744073709551615ull");
  EXPECT_FALSE(ir::isHostEvaluable(*Huge));
}

TEST(HostBound, IntegerLiteralsWithTheirSuffixes) {
  EXPECT_EQ(ir::integerValue(*node(ir::Expr::IntLiteral, ir::ScalarKind::Long,
                                   "-9223372036854775808l")),
            INT64_MIN);
  EXPECT_EQ(ir::integerValue(
                *node(ir::Expr::IntLiteral, ir::ScalarKind::ULong, "42ul")),
            42);
  EXPECT_EQ(ir::integerValue(
                *node(ir::Expr::BoolLiteral, ir::ScalarKind::Bool, "true")),
            1);
  EXPECT_FALSE(ir::integerValue(
      *node(ir::Expr::FloatLiteral, ir::ScalarKind::Float, "1.0f")));
}

} // namespace
