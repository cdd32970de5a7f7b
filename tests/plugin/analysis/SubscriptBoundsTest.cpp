// SubscriptBoundsTest.cpp: subscriptBounds on hand-built nests, its bounds
// evaluated as the launch does and compared with every subscript the
// nest's iterations really give (found by running its loops here): they
// hold each one, and reach the extremes where the loops are rectangular;
// conditions that read as bounds narrow them; the subscripts no bound
// says are refused with the reason.
#include "analysis/SubscriptBounds.h"
#include "TestNests.h"
#include "ir/BoundAlgebra.h"

#include <gtest/gtest.h>

#include <functional>

using namespace weft;
using namespace weft::test_nests;

namespace {

ir::ExprPtr literal(int V) {
  return node(ir::Expr::IntLiteral, std::to_string(V));
}
ir::ExprPtr call(const std::string &F, ir::ExprPtr A, ir::ExprPtr B) {
  auto E = node(ir::Expr::Call, F);
  E->Operands.push_back(std::move(A));
  E->Operands.push_back(std::move(B));
  return E;
}
ir::StmtPtr ifThen(ir::ExprPtr C, ir::StmtPtr Then) {
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::If;
  S->Exprs.push_back(std::move(C));
  S->Children.push_back(std::move(Then));
  S->Children.push_back(nullptr);
  return S;
}
ir::StmtPtr jump(ir::Stmt::KindType K) {
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = K;
  return S;
}
ir::StmtPtr block(std::vector<ir::StmtPtr> Statements) {
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::Block;
  S->Children = std::move(Statements);
  return S;
}
ir::StmtPtr nested(ir::Level L) {
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::ParallelFor;
  S->Nested = std::make_unique<ir::Level>(std::move(L));
  return S;
}

/// p (a pointer, parameter 0) and the scalars n (1) and m (2).
ir::Nest pointerNest() {
  ir::Nest N;
  N.Params = {{"p", ir::ParamKind::ReadWriteSpan, ir::ScalarKind::Float},
              {"n", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"m", ir::ParamKind::Scalar, ir::ScalarKind::Int}};
  N.Root = level("i", 0, param(1));
  return N;
}

/// The bounds' values for n and m.
std::pair<std::int64_t, std::int64_t> evaluate(const ir::SubscriptBounds &B,
                                               std::int64_t n, std::int64_t m) {
  auto Leaf = [&](const contract::BoundExpr &L, std::int64_t &V,
                  std::string &) {
    V = L.Value == 1 ? n : m;
    return L.Kind == contract::BoundExpr::Arg;
  };
  std::int64_t Lo = 0, Hi = 0;
  std::string Error;
  EXPECT_TRUE(contract::evaluateBound(B.Lowest, Leaf, Lo, Error)) << Error;
  EXPECT_TRUE(contract::evaluateBound(B.Highest, Leaf, Hi, Error)) << Error;
  return {Lo, Hi};
}

TEST(SubscriptBounds, RectangularRowsReachTheirExtremes) {
  // for i < n: for j < m (parallel): p[i * m + j] = 0
  ir::Nest N = pointerNest();
  ir::Level Inner = level("j", 1, param(2));
  Inner.Body.push_back(statement(binary(
      "=",
      element(0, binary("+", binary("*", local("i"), param(2)), local("j")),
              true),
      literal(0))));
  N.Root.Body.push_back(nested(std::move(Inner)));
  std::optional<ir::SubscriptBounds> B = ir::subscriptBounds(N, 0);
  ASSERT_TRUE(B);
  for (auto [n, m] : {std::pair{5, 7}, {1, 1}, {300, 17}}) {
    auto [Lo, Hi] = evaluate(*B, n, m);
    EXPECT_EQ(Lo, 0);
    EXPECT_EQ(Hi, n * m - 1) << n << " x " << m;
  }
  EXPECT_EQ(ir::boundText(N, B->Highest), "n * m - 1");
}

TEST(SubscriptBoundsHoldEverySubscript, GuardsAndClamps) {
  // for i < n:
  //   if (i > 0 && i < n - 1) p[i - 1] += p[i + 1];
  //   p[min(i + 2, n - 1)] = p[i > 1 ? i - 2 : 0];
  ir::Nest N = pointerNest();
  auto Guard =
      binary("&&", binary(">", local("i"), literal(0)),
             binary("<", local("i"), binary("-", param(1), literal(1))));
  N.Root.Body.push_back(
      ifThen(std::move(Guard),
             statement(binary(
                 "+=", element(0, binary("-", local("i"), literal(1)), true),
                 element(0, binary("+", local("i"), literal(1)))))));
  auto Arms = node(ir::Expr::Conditional);
  Arms->Operands.push_back(binary(">", local("i"), literal(1)));
  Arms->Operands.push_back(binary("-", local("i"), literal(2)));
  Arms->Operands.push_back(literal(0));
  N.Root.Body.push_back(statement(
      binary("=",
             element(0,
                     call("weft::min", binary("+", local("i"), literal(2)),
                          binary("-", param(1), literal(1))),
                     true),
             element(0, std::move(Arms)))));
  std::optional<ir::SubscriptBounds> B = ir::subscriptBounds(N, 0);
  ASSERT_TRUE(B);
  for (int n : {3, 4, 10, 1000}) {
    // The subscripts the loop gives, by running it.
    std::int64_t Least = INT64_MAX, Greatest = INT64_MIN;
    auto Take = [&](std::int64_t S) {
      Least = std::min(Least, S);
      Greatest = std::max(Greatest, S);
    };
    for (int i = 0; i < n; ++i) {
      if (i > 0 && i < n - 1) {
        Take(i - 1);
        Take(i + 1);
      }
      Take(std::min(i + 2, n - 1));
      Take(i > 1 ? i - 2 : 0);
    }
    auto [Lo, Hi] = evaluate(*B, n, 0);
    EXPECT_EQ(Lo, Least) << n;
    EXPECT_EQ(Hi, Greatest) << n;
  }
}

TEST(SubscriptBoundsHoldEverySubscript, ContinueLeavesTheRestNarrowed) {
  // for i < n: for j < m (parallel):
  //   if (j == 0 || j == m - 1) continue;
  //   p[i * m + j - 1] = p[i * m + j + 1];
  ir::Nest N = pointerNest();
  ir::Level Inner = level("j", 1, param(2));
  Inner.Body.push_back(ifThen(
      binary("||", binary("==", local("j"), literal(0)),
             binary("==", local("j"), binary("-", param(2), literal(1)))),
      block({})));
  Inner.Body.back()->Children[0]->Children.push_back(jump(ir::Stmt::Continue));
  auto Row = [] { return binary("*", local("i"), param(2)); };
  Inner.Body.push_back(statement(binary(
      "=",
      element(0, binary("-", binary("+", Row(), local("j")), literal(1)), true),
      element(0, binary("+", binary("+", Row(), local("j")), literal(1))))));
  N.Root.Body.push_back(nested(std::move(Inner)));
  std::optional<ir::SubscriptBounds> B = ir::subscriptBounds(N, 0);
  ASSERT_TRUE(B);
  for (auto [n, m] : {std::pair{4, 3}, {10, 10}, {2, 50}}) {
    auto [Lo, Hi] = evaluate(*B, n, m);
    // m >= 0 is not known to the bounds, whose least row takes the least
    // of 0 and (n - 1) * m: here 0, the extremes of the rows.
    EXPECT_EQ(Lo, 0);
    EXPECT_EQ(Hi, n * m - 1);
  }
}

TEST(SubscriptBoundsHoldEverySubscript, ComparisonsBoundPartsOfASubscript) {
  // for i < n: for j < m (parallel): for (int k = 0; k < 3; ++k)
  //   if (j + k - 1 >= 0 && j + k - 1 < m) p[i * m + j + k - 1] = 0;
  ir::Nest N = pointerNest();
  ir::Level Inner = level("j", 1, param(2));
  auto Column = [] {
    return binary("-", binary("+", local("j"), local("k")), literal(1));
  };
  auto Subscript = binary(
      "-",
      binary("+", binary("+", binary("*", local("i"), param(2)), local("j")),
             local("k")),
      literal(1));
  Inner.Body.push_back(countedFor(
      "k", literal(0), literal(3),
      ifThen(binary("&&", binary(">=", Column(), literal(0)),
                    binary("<", Column(), param(2))),
             statement(binary("=", element(0, std::move(Subscript), true),
                              literal(0))))));
  N.Root.Body.push_back(nested(std::move(Inner)));
  std::string Why;
  std::optional<ir::SubscriptBounds> B = ir::subscriptBounds(N, 0, &Why);
  ASSERT_TRUE(B) << Why;
  for (auto [n, m] : {std::pair{4, 3}, {1, 1}, {7, 20}}) {
    auto [Lo, Hi] = evaluate(*B, n, m);
    EXPECT_EQ(Lo, 0);
    EXPECT_EQ(Hi, n * m - 1) << n << " x " << m;
  }
}

TEST(SubscriptBounds, RefusesWhatNoBoundSays) {
  std::string Why;
  {
    // int k = 0; while (k < 4) { p[i * 4 + k] = 0; ++k; }: k changes.
    ir::Nest N = pointerNest();
    auto K = std::make_unique<ir::Stmt>();
    K->Kind = ir::Stmt::Decl;
    K->Name = "k";
    K->Exprs.push_back(literal(0));
    N.Root.Body.push_back(std::move(K));
    auto Step = node(ir::Expr::Unary, "++");
    Step->Operands.push_back(local("k"));
    auto Loop = std::make_unique<ir::Stmt>();
    Loop->Kind = ir::Stmt::While;
    Loop->Exprs.push_back(binary("<", local("k"), literal(4)));
    std::vector<ir::StmtPtr> Body;
    Body.push_back(statement(binary(
        "=",
        element(0, binary("+", binary("*", local("i"), literal(4)), local("k")),
                true),
        literal(0))));
    Body.push_back(statement(std::move(Step)));
    Loop->Children.push_back(block(std::move(Body)));
    N.Root.Body.push_back(std::move(Loop));
    EXPECT_FALSE(ir::subscriptBounds(N, 0, &Why));
    EXPECT_EQ(Why, "its subscript in 'p[((i * 4) + k)]' takes values not "
                   "known at the launch");
  }
  {
    // if (i % 2 == 1) p[i / 2] = 0: the condition keeps i, but in no bound.
    ir::Nest N = pointerNest();
    N.Root.Body.push_back(ifThen(
        binary("==", binary("%", local("i"), literal(2)), literal(1)),
        statement(binary("=",
                         element(0, binary("/", local("i"), literal(2)), true),
                         literal(0)))));
    EXPECT_FALSE(ir::subscriptBounds(N, 0, &Why));
    EXPECT_EQ(Why, "its subscript in 'p[(i / 2)]' is kept in range by a "
                   "condition on 'i' that is no bound weft reads");
  }
  {
    // for (int k = 0; k < m; ++k) { if (p[i + k] == 0) break; }: the loop
    // may end before its bound.
    ir::Nest N = pointerNest();
    auto Read = element(0, binary("+", local("i"), local("k")));
    N.Root.Body.push_back(
        countedFor("k", literal(0), param(2),
                   ifThen(binary("==", std::move(Read), literal(0)),
                          jump(ir::Stmt::Break))));
    EXPECT_FALSE(ir::subscriptBounds(N, 0, &Why));
    EXPECT_EQ(Why, "its subscript in 'p[(i + k)]' takes values not known at "
                   "the launch");
  }
}

} // namespace
