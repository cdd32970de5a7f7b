// UnrolledStepsTest.cpp: which loops of a sequential nest are unrolled
// whole, on a nest built by hand: for (int i = r0; i < End; ++i) { for
// (int k = r0; k < i; ++k) s += a[k]; }, End a captured constant defined
// as r0 + Steps (or another bound).
#include "analysis/UnrolledSteps.h"
#include "TestNests.h"

#include <gtest/gtest.h>

using namespace weft;
using namespace test_nests;

namespace {

ir::ExprPtr lit(int V) { return node(ir::Expr::IntLiteral, std::to_string(V)); }

/// Params: a (0), n (1), r0 (2), End (3, defined as r0 + Steps unless
/// Steps is 0). The inner loop runs to i, or to n where Triangular is false.
ir::Nest steps(int Steps, bool Triangular = true) {
  ir::Nest N;
  N.Sequential = true;
  N.Params = {{"a", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, false},
              {"n", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"r0", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"End", ir::ParamKind::Scalar, ir::ScalarKind::Int}};
  if (Steps)
    N.Params[3].Definition = binary("+", param(2), lit(Steps));
  N.Root = level("weft_sequential", 0, lit(1));
  ir::StmtPtr Inner =
      countedFor("k", param(2), Triangular ? local("i") : param(1),
                 statement(binary("+=", local("s"), element(0, local("k")))));
  N.Root.Body.push_back(countedFor("i", param(2), param(3), std::move(Inner)));
  return N;
}

TEST(UnrolledSteps, AFewStepsBoundingTheLoopsInside) {
  ir::Nest N = steps(31);
  std::map<const ir::Stmt *, std::int64_t> U = ir::unrolledSteps(N);
  ASSERT_EQ(U.size(), 1u);
  EXPECT_EQ(U.begin()->first, N.Root.Body[0].get());
  EXPECT_EQ(U.begin()->second, 31);
}

TEST(UnrolledSteps, NotTooManyStepsNorUnknownOnes) {
  EXPECT_TRUE(ir::unrolledSteps(steps(ir::MaxUnrolledSteps + 1)).empty());
  EXPECT_EQ(ir::unrolledSteps(steps(ir::MaxUnrolledSteps)).size(), 1u);
  EXPECT_TRUE(ir::unrolledSteps(steps(1)).empty());
  // End without a definition: as many steps as End - r0 is.
  EXPECT_TRUE(ir::unrolledSteps(steps(0)).empty());
}

TEST(UnrolledSteps, OnlyInASequentialNest) {
  // A parallel level's threads would each hold the unrolled steps'
  // registers.
  ir::Nest N = steps(31);
  N.Sequential = false;
  EXPECT_TRUE(ir::unrolledSteps(N).empty());
}

TEST(UnrolledSteps, NotWhereNoLoopInsideFollowsTheSteps) {
  EXPECT_TRUE(ir::unrolledSteps(steps(8, /*Triangular=*/false)).empty());
}

TEST(UnrolledSteps, ALevelInsideBoundedByTheStep) {
  // for (i = r0; i < End; ++i) parallel for (j2 = i; j2 < n; ++j2) ...
  ir::Nest N = steps(4, /*Triangular=*/false);
  auto Marked = std::make_unique<ir::Stmt>();
  Marked->Kind = ir::Stmt::ParallelFor;
  Marked->Nested = std::make_unique<ir::Level>(level("j2", 1, param(1)));
  Marked->Nested->Lower = local("i");
  N.Root.Body[0]->Children[1] = std::move(Marked);
  EXPECT_EQ(ir::unrolledSteps(N).size(), 1u);
}

/// The inner loop of steps(): for (int k = r0; k < i; ++k).
const ir::Stmt *innerLoop(const ir::Nest &N) {
  return N.Root.Body[0]->Children[1].get();
}

TEST(UnrolledSteps, InnerLoopsOfConstantCountsInEachCopy) {
  // k from r0 to i, i = r0 + c in copy c: c steps, which the kernel counts
  // from zero for the GPU compiler to see.
  ir::Nest N = steps(31);
  std::set<const ir::Stmt *> Z =
      ir::constantCountLoops(N, N.Root.Body, ir::unrolledSteps(N));
  ASSERT_EQ(Z.size(), 1u);
  EXPECT_EQ(*Z.begin(), innerLoop(N));
  // Not where nothing is unrolled.
  EXPECT_TRUE(ir::constantCountLoops(N, N.Root.Body, {}).empty());
}

TEST(UnrolledSteps, NoConstantCountFromOtherVariables) {
  // k from r0 to i + n: n steps more in every copy, not a constant.
  ir::Nest N = steps(31);
  ir::Stmt &Inner = *N.Root.Body[0]->Children[1];
  Inner.Exprs[0]->Operands[1] = binary("+", local("i"), param(1));
  EXPECT_TRUE(
      ir::constantCountLoops(N, N.Root.Body, ir::unrolledSteps(N)).empty());
  // k from r0 to i + x, x a local of the nest's: not a constant either.
  Inner.Exprs[0]->Operands[1] = binary("+", local("i"), local("x"));
  EXPECT_TRUE(
      ir::constantCountLoops(N, N.Root.Body, ir::unrolledSteps(N)).empty());
}

TEST(UnrolledSteps, NoConstantCountWhereTheLoopMovesItsBound) {
  // for (k = x + r0; k < x + i; ++k) { ...; ++x; }: the bound moves with
  // x.
  ir::Nest N = steps(31);
  ir::Stmt &Inner = *N.Root.Body[0]->Children[1];
  Inner.Children[0]->Exprs[0] = binary("+", local("x"), param(2));
  Inner.Exprs[0]->Operands[1] = binary("+", local("x"), local("i"));
  ASSERT_EQ(ir::constantCountLoops(N, N.Root.Body, ir::unrolledSteps(N)).size(),
            1u);
  auto Bump = node(ir::Expr::Unary, "++");
  Bump->Operands.push_back(local("x"));
  Inner.Children[1] = statement(std::move(Bump));
  EXPECT_TRUE(
      ir::constantCountLoops(N, N.Root.Body, ir::unrolledSteps(N)).empty());
}

TEST(UnrolledSteps, NoConstantCountForUnsignedIndices) {
  // Counting from zero to Upper - Lower would wrap where Upper < Lower.
  ir::Nest N = steps(31);
  N.Root.Body[0]->Children[1]->Children[0]->VarType.Scalar =
      ir::ScalarKind::UInt;
  EXPECT_TRUE(
      ir::constantCountLoops(N, N.Root.Body, ir::unrolledSteps(N)).empty());
}

} // namespace
