// LoopOrderTest.cpp: reorderLoops on hand-built nests: the i, k, j product
// gets its loop over k inside the level over j, and adjacent levels over one
// range fuse; not where a written element follows k, where a level reads
// another index's written element, where a level reduces, or where the
// inner range reads what the loop sets. An inner loop whose range lies
// within the stride of the index (a C array's rows; a flat array's rows of
// n, the range and stride polynomials over the captures) keeps the index's
// elements apart, and the loops found parallel are searched in turn. Where it
// changes the nest, the spans its proof took as arrays of their own are named.
#include "analysis/LoopOrder.h"
#include "TestNests.h"

#include <gtest/gtest.h>

using namespace weft;
using namespace weft::test_nests;

namespace {

// Parameters: 0 n, 1 a (read), 2 b (read), 3 c (written).
ir::Nest emptyNest() {
  ir::Nest N;
  N.Params = {{"n", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"a", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, true},
              {"b", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, true},
              {"c", ir::ParamKind::ReadWriteSpan, ir::ScalarKind::Float}};
  N.Root = level("i", 0, param(0));
  N.Root.Location = "f.cpp:3:3";
  return N;
}

/// Row * n + Column.
ir::ExprPtr at(ir::ExprPtr Row, ir::ExprPtr Column) {
  return binary("+", binary("*", std::move(Row), param(0)), std::move(Column));
}

ir::StmtPtr marked(const std::string &Location, ir::StmtPtr Body,
                   ir::ExprPtr Upper = nullptr) {
  auto L = std::make_unique<ir::Level>(
      level("j", 1, Upper ? std::move(Upper) : param(0)));
  L->Location = Location;
  L->Body.push_back(std::move(Body));
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::ParallelFor;
  S->Nested = std::move(L);
  return S;
}

/// for k: for j (marked): c[Written] += a[i * n + k] * b[k * n + j]
ir::Nest productNest(ir::ExprPtr Written) {
  ir::Nest N = emptyNest();
  auto Update =
      statement(binary("+=", element(3, std::move(Written), true),
                       binary("*", element(1, at(local("i"), local("k"))),
                              element(2, at(local("k"), local("j"))))));
  N.Root.Body.push_back(countedFor("k", node(ir::Expr::IntLiteral, "0"),
                                   param(0),
                                   marked("f.cpp:6:7", std::move(Update))));
  return N;
}

const ir::Level &onlyLevel(const ir::Nest &N) {
  return *N.Root.Body.at(0)->Nested;
}

/// Nothing changed, and the one remark says why, in these words.
void expectKept(ir::Nest &N, const std::string &Why) {
  std::vector<ir::LoopReorder> Changes = ir::reorderLoops(N);
  ASSERT_EQ(Changes.size(), 1u);
  EXPECT_TRUE(Changes[0].Kept);
  EXPECT_NE(Changes[0].Text.find(Why), std::string::npos) << Changes[0].Text;
}

TEST(LoopOrder, ProductTakesItsLoopInside) {
  ir::Nest N = productNest(at(local("i"), local("j")));
  std::vector<ir::LoopReorder> Changes = ir::reorderLoops(N);
  ASSERT_EQ(Changes.size(), 1u);
  EXPECT_EQ(Changes[0].Level, "f.cpp:6:7");
  EXPECT_TRUE(Changes[0].Removed.empty());
  ASSERT_EQ(N.Root.Body.size(), 1u);
  ASSERT_EQ(N.Root.Body[0]->Kind, ir::Stmt::ParallelFor);
  const ir::Level &J = onlyLevel(N);
  ASSERT_EQ(J.Body.size(), 1u);
  EXPECT_EQ(J.Body[0]->Kind, ir::Stmt::For);
  EXPECT_EQ(J.Body[0]->Children[0]->Name, "k");
  // The proof took a, b and c as three arrays.
  EXPECT_EQ(N.TakenApart, (std::set<unsigned>{1, 2, 3}));
}

/// for j (unmarked): c[Written] = a[j]
ir::StmtPtr unmarkedLoop(ir::ExprPtr Written) {
  auto Loop =
      countedFor("j", node(ir::Expr::IntLiteral, "0"), param(0),
                 statement(binary("=", element(3, std::move(Written), true),
                                  element(1, local("j")))));
  Loop->Location = "f.cpp:5:5";
  return Loop;
}

TEST(LoopOrder, UnmarkedParallelLoopBecomesALevel) {
  ir::Nest N = emptyNest();
  N.Root.Body.push_back(unmarkedLoop(at(local("i"), local("j"))));
  std::vector<ir::LoopReorder> Changes = ir::reorderLoops(N);
  ASSERT_EQ(Changes.size(), 1u);
  EXPECT_FALSE(Changes[0].Kept);
  EXPECT_EQ(Changes[0].Level, "f.cpp:5:5");
  ASSERT_EQ(N.Root.Body[0]->Kind, ir::Stmt::ParallelFor);
  const ir::Level &J = onlyLevel(N);
  EXPECT_EQ(J.IndexName, "j");
  EXPECT_EQ(J.Depth, 1u);
  EXPECT_EQ(J.Location, "f.cpp:5:5");
  ASSERT_EQ(J.Body.size(), 1u);
  EXPECT_EQ(J.Body[0]->Kind, ir::Stmt::ExprStmt);
  EXPECT_EQ(N.TakenApart, (std::set<unsigned>{1, 3}));
}

/// The nest with rows held apart: 4 r (written), 5 r_rows (its offsets).
ir::Nest rowsNest() {
  ir::Nest N = emptyNest();
  ir::Param Rows{"r", ir::ParamKind::ReadWriteSpan, ir::ScalarKind::Float};
  Rows.RowsApart = true;
  ir::Param Offsets{"r_rows", ir::ParamKind::ReadSpan, ir::ScalarKind::ULong,
                    true};
  Offsets.RowOffsetsOf = 4;
  N.Params.push_back(std::move(Rows));
  N.Params.push_back(std::move(Offsets));
  return N;
}

/// for j (unmarked): r[r_rows[Row] + Column] = a[j]
ir::StmtPtr rowsLoop(ir::ExprPtr Row, ir::ExprPtr Column) {
  auto Loop = countedFor(
      "j", node(ir::Expr::IntLiteral, "0"), param(0),
      statement(binary(
          "=",
          element(4, binary("+", element(5, std::move(Row)), std::move(Column)),
                  true),
          element(1, local("j")))));
  Loop->Location = "f.cpp:5:5";
  return Loop;
}

TEST(LoopOrder, RowsHeldApartAreApartByRowAndColumn) {
  // Row j, column i: a different row for each j.
  ir::Nest N = rowsNest();
  N.Root.Body.push_back(rowsLoop(local("j"), local("i")));
  ASSERT_EQ(ir::reorderLoops(N).size(), 1u);
  EXPECT_EQ(N.Root.Body[0]->Kind, ir::Stmt::ParallelFor);
  EXPECT_EQ(N.TakenApart, (std::set<unsigned>{1, 4}));
  // Row i, column 2 * j: a different column.
  ir::Nest M = rowsNest();
  M.Root.Body.push_back(rowsLoop(
      local("i"), binary("*", node(ir::Expr::IntLiteral, "2"), local("j"))));
  ASSERT_EQ(ir::reorderLoops(M).size(), 1u);
  EXPECT_EQ(M.Root.Body[0]->Kind, ir::Stmt::ParallelFor);
}

TEST(LoopOrder, RowsElementOfEveryIndexStays) {
  // Row i, column 0 for every j; and a column that is no affine form of j.
  for (int Case = 0; Case < 2; ++Case) {
    ir::Nest N = rowsNest();
    N.Root.Body.push_back(
        rowsLoop(local("i"), Case == 0 ? node(ir::Expr::IntLiteral, "0")
                                       : binary("*", local("j"), local("j"))));
    EXPECT_TRUE(ir::reorderLoops(N).empty());
    EXPECT_EQ(N.Root.Body[0]->Kind, ir::Stmt::For);
    EXPECT_TRUE(N.TakenApart.empty());
  }
}

/// for j in [0, 20) (unmarked): for t in [0, Inner): c[j * Stride + t] = a[t]
ir::StmtPtr sweepLoop(int Stride, int Inner) {
  auto Lit = [](int V) {
    return node(ir::Expr::IntLiteral, std::to_string(V));
  };
  auto Loop = countedFor(
      "j", Lit(0), Lit(20),
      countedFor("t", Lit(0), Lit(Inner),
                 statement(binary(
                     "=",
                     element(3,
                             binary("+", binary("*", local("j"), Lit(Stride)),
                                    local("t")),
                             true),
                     element(1, local("t"))))));
  Loop->Location = "f.cpp:5:5";
  return Loop;
}

TEST(LoopOrder, InnerLoopWithinTheStrideIsApart) {
  // A C array's rows: c[j * 24 + t], t < 24, is another element for each
  // j; then the loop over t, directly inside the new level, is one too.
  ir::Nest N = emptyNest();
  N.Root.Body.push_back(sweepLoop(24, 24));
  std::vector<ir::LoopReorder> Changes = ir::reorderLoops(N);
  ASSERT_EQ(Changes.size(), 2u);
  const ir::Level &J = onlyLevel(N);
  EXPECT_EQ(J.IndexName, "j");
  ASSERT_EQ(J.Body.size(), 1u);
  ASSERT_EQ(J.Body[0]->Kind, ir::Stmt::ParallelFor);
  EXPECT_EQ(J.Body[0]->Nested->IndexName, "t");
  EXPECT_EQ(J.Body[0]->Nested->Depth, 2u);
}

TEST(LoopOrder, InnerLoopPastTheStrideStays) {
  // t < 25 reaches the next row's first element: j and j + 1 meet.
  ir::Nest N = emptyNest();
  N.Root.Body.push_back(sweepLoop(24, 25));
  EXPECT_TRUE(ir::reorderLoops(N).empty());
  EXPECT_EQ(N.Root.Body[0]->Kind, ir::Stmt::For);
}

ir::ExprPtr lit(int V) { return node(ir::Expr::IntLiteral, std::to_string(V)); }

/// for j in [0, 20) (unmarked): for t in [Lo, Hi): c[Written] = a[t], the
/// strides over the captures (a flat array of rows of n).
ir::StmtPtr symbolicSweep(ir::ExprPtr Written, ir::ExprPtr Lo, ir::ExprPtr Hi) {
  auto Loop = countedFor(
      "j", lit(0), lit(20),
      countedFor("t", std::move(Lo), std::move(Hi),
                 statement(binary("=", element(3, std::move(Written), true),
                                  element(1, local("t"))))));
  Loop->Location = "f.cpp:5:5";
  return Loop;
}

/// Whether the loop over j of N's body became a level.
bool foundParallel(ir::Nest N) {
  ir::reorderLoops(N);
  return N.Root.Body[0]->Kind == ir::Stmt::ParallelFor;
}

TEST(LoopOrder, InnerLoopOverTheStrideOfACaptureIsApart) {
  // c[j * n + t], t < n: each j its own row of n, whatever n is (j's
  // coefficient less what t moves, n - (n - 1), is 1); then t in turn.
  ir::Nest N = emptyNest();
  N.Root.Body.push_back(
      symbolicSweep(at(local("j"), local("t")), lit(0), param(0)));
  ASSERT_EQ(ir::reorderLoops(N).size(), 2u);
  ASSERT_EQ(onlyLevel(N).Body[0]->Kind, ir::Stmt::ParallelFor);
  EXPECT_EQ(onlyLevel(N).Body[0]->Nested->IndexName, "t");
  const auto With = [](ir::ExprPtr Written, ir::ExprPtr Lo, ir::ExprPtr Hi,
                       bool Extra = false) {
    ir::Nest M = emptyNest();
    if (Extra)
      M.Params.push_back({"m", ir::ParamKind::Scalar, ir::ScalarKind::Int});
    M.Root.Body.push_back(
        symbolicSweep(std::move(Written), std::move(Lo), std::move(Hi)));
    return foundParallel(std::move(M));
  };
  // Within the row: t from 1 to n - 1; rows counted down (19 - j).
  EXPECT_TRUE(
      With(at(local("j"), local("t")), lit(1), binary("-", param(0), lit(1))));
  EXPECT_TRUE(
      With(at(binary("-", lit(19), local("j")), local("t")), lit(0), param(0)));
  // Past it: t < n + 1, 2 t, a range of another capture, or of j.
  EXPECT_FALSE(
      With(at(local("j"), local("t")), lit(0), binary("+", param(0), lit(1))));
  EXPECT_FALSE(
      With(at(local("j"), binary("*", lit(2), local("t"))), lit(0), param(0)));
  EXPECT_FALSE(With(at(local("j"), local("t")), lit(0), param(4), true));
  EXPECT_FALSE(With(at(local("j"), local("t")), lit(0), local("j")));
}

TEST(LoopOrder, PlanesOfRowsOfCapturesAreApart) {
  // c[(j * n + t) * n + u], t, u < n: a plane of n x n each j (n^2 less
  // what t and u move, n (n - 1) + n - 1), a row each t in turn (the third
  // level; u, which would be a fourth, stays in the thread).
  ir::Nest N = emptyNest();
  auto Loop = countedFor(
      "j", lit(0), lit(20),
      countedFor(
          "t", lit(0), param(0),
          countedFor(
              "u", lit(0), param(0),
              statement(binary(
                  "=",
                  element(3, at(at(local("j"), local("t")), local("u")), true),
                  element(1, local("u")))))));
  Loop->Location = "f.cpp:5:5";
  N.Root.Body.push_back(std::move(Loop));
  ASSERT_EQ(ir::reorderLoops(N).size(), 2u);
  const ir::Level &J = onlyLevel(N);
  ASSERT_EQ(J.Body[0]->Kind, ir::Stmt::ParallelFor);
  EXPECT_EQ(J.Body[0]->Nested->IndexName, "t");
  EXPECT_EQ(J.Body[0]->Nested->Body[0]->Kind, ir::Stmt::For);
}

TEST(LoopOrder, UnmarkedLoopSharingAnElementStays) {
  // Every j writes c[i]: the loop's order is the code's.
  ir::Nest N = emptyNest();
  N.Root.Body.push_back(unmarkedLoop(local("i")));
  EXPECT_TRUE(ir::reorderLoops(N).empty());
  EXPECT_EQ(N.Root.Body[0]->Kind, ir::Stmt::For);
  EXPECT_TRUE(N.TakenApart.empty());
}

/// for j (unmarked): if (a[i * n + j] > m) m = a[i * n + j], m param 4
/// (Kind), the outermost level's max reduction where it is a target.
ir::Nest maxNest(ir::ParamKind Kind) {
  ir::Nest N = emptyNest();
  N.Params.push_back({"m", Kind, ir::ScalarKind::Float});
  if (Kind == ir::ParamKind::ReductionTarget)
    N.Root.Reductions.push_back(
        {ir::ReductionOp::Max, "m", ir::ScalarKind::Float, 4});
  auto Guarded = std::make_unique<ir::Stmt>();
  Guarded->Kind = ir::Stmt::If;
  Guarded->Exprs.push_back(
      binary(">", element(1, at(local("i"), local("j"))), param(4)));
  Guarded->Children.push_back(
      statement(binary("=", param(4), element(1, at(local("i"), local("j"))))));
  Guarded->Children.push_back(nullptr);
  auto Loop = countedFor("j", node(ir::Expr::IntLiteral, "0"), param(0),
                         std::move(Guarded));
  Loop->Location = "f.cpp:5:5";
  N.Root.Body.push_back(std::move(Loop));
  return N;
}

TEST(LoopOrder, LoopCombiningIntoTheOutermostReductionIsALevel) {
  // Each j combines into the max the outermost level reduces (a marked
  // loop over i alone, `reduction(max: m)`): any order combines the same.
  ir::Nest N = maxNest(ir::ParamKind::ReductionTarget);
  std::vector<ir::LoopReorder> Changes = ir::reorderLoops(N);
  ASSERT_EQ(Changes.size(), 1u);
  EXPECT_FALSE(Changes[0].Kept);
  ASSERT_EQ(N.Root.Body[0]->Kind, ir::Stmt::ParallelFor);
  EXPECT_EQ(onlyLevel(N).IndexName, "j");
}

TEST(LoopOrder, LoopWritingACapturedScalarStays) {
  // The same write to a scalar no reduction names: the last j's stays.
  ir::Nest N = maxNest(ir::ParamKind::Scalar);
  EXPECT_TRUE(ir::reorderLoops(N).empty());
  EXPECT_EQ(N.Root.Body[0]->Kind, ir::Stmt::For);
}

TEST(LoopOrder, UnmarkedLoopOfASequentialNestStays) {
  // The loop a nest marked sequential runs in one block, and the loops in
  // its marked levels.
  ir::Nest N = emptyNest();
  N.Sequential = true;
  N.Root.Body.push_back(unmarkedLoop(at(local("i"), local("j"))));
  N.Root.Body.push_back(marked("f.cpp:7:5", unmarkedLoop(local("j"))));
  N.Root.Body.back()->Nested->IndexName = "q";
  EXPECT_TRUE(ir::reorderLoops(N).empty());
  EXPECT_EQ(N.Root.Body[0]->Kind, ir::Stmt::For);
}

TEST(LoopOrder, ElementFollowingTheLoopStays) {
  // c[k * n + j]: each step writes its own row, which j's do not share, but
  // the proof asks for no term of k: kept.
  ir::Nest N = productNest(at(local("k"), local("j")));
  expectKept(N, "it writes c[((k * $n) + j)], which is not a different "
                "element for each j");
  EXPECT_EQ(N.Root.Body[0]->Kind, ir::Stmt::For);
}

TEST(LoopOrder, ElementWithoutTheIndexStays) {
  // Every j writes c[i]: the order of the updates is the marks' claim.
  ir::Nest N = productNest(local("i"));
  expectKept(N, "it writes c[i], which is not a different element for each j");
}

TEST(LoopOrder, ReducingLevelStays) {
  ir::Nest N = productNest(at(local("i"), local("j")));
  N.Root.Body[0]->Children[1]->Nested->Reductions.push_back(
      {ir::ReductionOp::Add, "s", ir::ScalarKind::Float, -1});
  expectKept(N, "the loop over k around it stays outside it: it reduces");
}

TEST(LoopOrder, RangeSetInsideTheLoopStays) {
  // for k { int m = k; for j < m ... }: the range changes with k.
  ir::Nest N = emptyNest();
  auto Limit = std::make_unique<ir::Stmt>();
  Limit->Kind = ir::Stmt::Decl;
  Limit->Name = "m";
  Limit->Exprs.push_back(local("k"));
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::Block;
  Body->Children.push_back(std::move(Limit));
  Body->Children.push_back(
      marked("f.cpp:6:7",
             statement(binary("=", element(3, at(local("i"), local("j")), true),
                              element(1, local("j")))),
             local("m")));
  N.Root.Body.push_back(countedFor("k", node(ir::Expr::IntLiteral, "0"),
                                   param(0), std::move(Body)));
  expectKept(
      N, "a bound of the two loops reads a value set inside the loop over k");
}

/// At line 4, a marked loop: c[i * n + j] = a[j].
ir::StmtPtr copyRow() {
  return marked(
      "f.cpp:4:5",
      statement(binary("=", element(3, at(local("i"), local("j")), true),
                       element(1, local("j")))));
}

TEST(LoopOrder, AdjacentLevelsFuse) {
  // c[i * n + j] = a[j]; then c[i * n + j] *= b[j].
  ir::Nest N = emptyNest();
  N.Root.Body.push_back(copyRow());
  N.Root.Body.push_back(marked(
      "f.cpp:6:5",
      statement(binary("*=", element(3, at(local("i"), local("j")), true),
                       element(2, local("j"))))));
  std::vector<ir::LoopReorder> Changes = ir::reorderLoops(N);
  ASSERT_EQ(Changes.size(), 1u);
  EXPECT_EQ(Changes[0].Level, "f.cpp:4:5");
  EXPECT_EQ(Changes[0].Removed, "f.cpp:6:5");
  ASSERT_EQ(N.Root.Body.size(), 1u);
  EXPECT_EQ(onlyLevel(N).Body.size(), 2u);
  EXPECT_EQ(N.TakenApart, (std::set<unsigned>{1, 2, 3}));
}

TEST(LoopOrder, NeighbourReadKeepsLevelsApart) {
  // The second level reads the element the first wrote for j + 1.
  ir::Nest N = emptyNest();
  N.Root.Body.push_back(copyRow());
  N.Root.Body.push_back(
      marked("f.cpp:6:5",
             statement(binary(
                 "+=", element(3, at(local("i"), local("j")), true),
                 element(3, at(local("i"),
                               binary("+", local("j"),
                                      node(ir::Expr::IntLiteral, "1"))))))));
  expectKept(N,
             "not fused with the loop over j at line 6: it writes c and "
             "reaches it at c[((i * $n) + j)] and at c[((i * $n) + (j + 1))]");
  EXPECT_EQ(N.Root.Body.size(), 2u);
  EXPECT_TRUE(N.TakenApart.empty());
}

TEST(LoopOrder, DifferentRangesStayApart) {
  ir::Nest N = emptyNest();
  N.Root.Body.push_back(copyRow());
  N.Root.Body.push_back(marked(
      "f.cpp:6:5",
      statement(binary("*=", element(3, at(local("i"), local("j")), true),
                       element(2, local("j")))),
      local("i")));
  EXPECT_TRUE(ir::reorderLoops(N).empty());
}

} // namespace
