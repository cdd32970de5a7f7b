// RegisterSliceTest.cpp: which thread slices live in registers, their loops
// unrolled whole, on recurrences down a column built by hand: for (int k =
// 1; k < Rows; ++k) a[k * n + j] = 0.5f * a[(k - 1) * n + j] (plus, inside,
// a loop over the rows before k).
#include "analysis/RegisterSlice.h"
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

/// Adds s += a[Subscript] after the recurrence, inside k's loop.
void readInPlace(ir::Nest &N, ir::ExprPtr Subscript) {
  N.Root.Body[0]->Children[1]->Children.push_back(
      statement(binary("+=", local("s"), element(0, std::move(Subscript)))));
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

TEST(RegisterSlice, WritesWaitWhereNothingElseTouchesTheSpan) {
  std::optional<ir::SliceUnrolling> U = inRegisters(recurrence(9));
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Apart, "true");
}

TEST(RegisterSlice, WritesWaitWhereOtherReadsLieApartAtRunTime) {
  // a[k * n + 70]: column 70 against the slice's 0 .. 63, apart where
  // both lie inside a row of n.
  ir::Nest N = recurrence(9);
  readInPlace(N, column(local("k")));
  N.Root.Body[0]
      ->Children[1]
      ->Children.back()
      ->Exprs[0]
      ->Operands[1]
      ->Operands[0]
      ->Operands[1] = lit(70);
  std::optional<ir::SliceUnrolling> U = inRegisters(N);
  ASSERT_TRUE(U);
  ASSERT_TRUE(U->Apart);
  EXPECT_EQ(*U->Apart, "((-(weft::index_t)64 + (weft::index_t)n) >= 0) && "
                       "((-(weft::index_t)71 + (weft::index_t)n) >= 0)");
}

TEST(RegisterSlice, WritesGoThroughWhereAReadMayMeetTheSlice) {
  // a[j]: row 0 of the thread's own column, in place.
  ir::Nest N = recurrence(9);
  readInPlace(N, local("j"));
  std::optional<ir::SliceUnrolling> U = inRegisters(N);
  ASSERT_TRUE(U);
  EXPECT_FALSE(U->Apart);
}

TEST(RegisterSlice, WritesGoThroughWhereAJumpMayEndTheIterationEarly) {
  // A continue of the level's loop would leave the writes unstored.
  ir::Nest N = recurrence(9);
  auto Jump = std::make_unique<ir::Stmt>();
  Jump->Kind = ir::Stmt::Continue;
  N.Root.Body.insert(N.Root.Body.begin(), std::move(Jump));
  std::optional<ir::SliceUnrolling> U = inRegisters(N);
  ASSERT_TRUE(U);
  EXPECT_FALSE(U->Apart);
  // Inside a switch, a continue still leaves the iteration.
  auto Switch = std::make_unique<ir::Stmt>();
  Switch->Kind = ir::Stmt::Switch;
  Switch->Children.push_back(std::move(N.Root.Body.front()));
  N.Root.Body.front() = std::move(Switch);
  U = inRegisters(N);
  ASSERT_TRUE(U);
  EXPECT_FALSE(U->Apart);
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
