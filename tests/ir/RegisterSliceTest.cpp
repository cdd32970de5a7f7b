// RegisterSliceTest.cpp: which thread slices live in registers, their loops
// unrolled whole, on recurrences down a column built by hand: for (int k =
// 1; k < Rows; ++k) a[k * n + j] = 0.5f * a[(k - 1) * n + j] (plus, inside,
// a loop over the rows before k).
#include "ir/RegisterSlice.h"
#include "TestNests.h"

#include <gtest/gtest.h>

using namespace weft;
using namespace test_nests;

namespace {

ir::ExprPtr lit(int V) { return node(ir::Expr::IntLiteral, std::to_string(V)); }

/// Row * n + j, n capture 1.
ir::ExprPtr column(ir::ExprPtr Row) {
  return binary("+", binary("*", std::move(Row), param(1)), local("j"));
}

/// for j (parallel): for (int k = 1; k < Rows; ++k) { a[k * n + j] = 0.5f *
/// a[(k - 1) * n + j]; [for (int r = 0; r < k; ++r) s += a[r * n + j];] }
/// Rows a literal, or capture m (2) where 0.
ir::Nest recurrence(int Rows, bool Inner = false) {
  ir::Nest N;
  N.Params = {{"a", ir::ParamKind::ReadWriteSpan, ir::ScalarKind::Float, false},
              {"n", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"m", ir::ParamKind::Scalar, ir::ScalarKind::Int}};
  N.Root = level("j", 0, lit(64));
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::Block;
  Body->Children.push_back(statement(
      binary("=", element(0, column(local("k")), true),
             binary("*", node(ir::Expr::FloatLiteral, "0.5f"),
                    element(0, column(binary("-", local("k"), lit(1))))))));
  if (Inner)
    Body->Children.push_back(countedFor(
        "r", lit(0), local("k"),
        statement(binary("+=", local("s"), element(0, column(local("r")))))));
  N.Root.Body.push_back(
      countedFor("k", lit(1), Rows ? lit(Rows) : param(2), std::move(Body)));
  return N;
}

std::optional<ir::SliceUnrolling> inRegisters(const ir::Nest &N) {
  std::vector<ir::ThreadSlice> S = ir::planThreadSlices(N);
  if (S.size() != 1u) {
    ADD_FAILURE() << "expected one slice, planned " << S.size();
    return std::nullopt;
  }
  return ir::registerSlice(N, S[0]);
}

TEST(RegisterSlice, AConstantColumnAlongALoopOfAFewSteps) {
  // Rows 0 .. 8: nine values; k's loop of 8 steps unrolled whole.
  ir::Nest N = recurrence(9);
  std::optional<ir::SliceUnrolling> U = inRegisters(N);
  ASSERT_TRUE(U);
  ASSERT_EQ(U->Steps.size(), 1u);
  EXPECT_EQ(U->Steps.begin()->first, N.Root.Body[0].get());
  EXPECT_EQ(U->Steps.begin()->second, 8);
  EXPECT_TRUE(U->Counted.empty());
}

TEST(RegisterSlice, InnerLoopsCountedFromZero) {
  // r from 0 to k: a constant count in each copy of k's loop.
  ir::Nest N = recurrence(9, /*Inner=*/true);
  std::optional<ir::SliceUnrolling> U = inRegisters(N);
  ASSERT_TRUE(U);
  ASSERT_EQ(U->Counted.size(), 1u);
  EXPECT_EQ(*U->Counted.begin(),
            N.Root.Body[0]->Children[1]->Children[1].get());
}

TEST(RegisterSlice, NotOfALengthKnownOnlyAtRunTime) {
  EXPECT_FALSE(inRegisters(recurrence(0)));
}

TEST(RegisterSlice, NotLongerThanALoopUnrolledWhole) {
  // Rows 0 .. Rows - 1.
  EXPECT_TRUE(inRegisters(recurrence(ir::MaxUnrolledSteps)));
  EXPECT_FALSE(inRegisters(recurrence(ir::MaxUnrolledSteps + 1)));
}

} // namespace
