// TilingTest.cpp: the tiling plan on the hand-built product nest: the loop
// over k is tiled under a 2-D grid mapping where threads share the row,
// not where no two threads share it, not under a block-wide level, and not
// for a read that follows both thread indices; the search scores the
// reuse. A span the nest writes is tiled only where its writes follow the
// loop. A one-level nest's loop (n-body's) is tiled for the whole block.
#include "TestNests.h"
#include "memory/TilingPlan.h"
#include "plan/KernelShape.h"

#include <gtest/gtest.h>

using namespace weft;
using weft::test_nests::productNest;

namespace {

/// Rows on y and columns on x, both over the grid (Span(1)), in blocks of
/// Rows x Cols threads; Kind for the inner level.
map::NestMapping
grid(unsigned Rows, unsigned Cols,
     map::Parallelism::KindType Kind = map::Parallelism::Span) {
  map::NestMapping M;
  M.Levels = {{map::Dimension::Y, Rows, {map::Parallelism::Span, 1}, {}},
              {map::Dimension::X, Cols, {Kind, 1}, {}}};
  return M;
}

TEST(Tiling, RowSharedAlongXIsTiled) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadSpan);
  std::optional<memory::TiledLoop> T = memory::planTiling(N, grid(8, 16));
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Index, "k");
  ASSERT_EQ(T->Tiles.size(), 1u);
  EXPECT_TRUE(T->Tiles[0].AlongOuter);
  EXPECT_EQ(T->Tiles[0].Description, "a[((i * $K) + k)]");
  EXPECT_EQ(T->Width, 32u);
}

TEST(Tiling, NotWhereNoThreadsShareIt) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadSpan);
  EXPECT_FALSE(memory::planTiling(N, grid(8, 1))); // one thread per row
  EXPECT_FALSE(memory::planTiling(
      N, grid(1, 128, map::Parallelism::SpanAll))); // not over the grid
}

TEST(Tiling, NotAReadFollowingBothIndices) {
  ir::Nest N = productNest(true, ir::ParamKind::ReadSpan);
  EXPECT_FALSE(memory::planTiling(N, grid(8, 16)));
}

/// The product nest with a[i * K + j] = 0 among the inner level's
/// statements, before the loop or after it.
ir::Nest productWritingA(bool Before) {
  using namespace weft::test_nests;
  ir::Nest N = productNest(false, ir::ParamKind::ReadWriteSpan);
  std::vector<ir::StmtPtr> &Body = N.Root.Body[0]->Nested->Body;
  ir::StmtPtr Write = statement(binary(
      "=",
      element(1, binary("+", binary("*", local("i"), param(0)), local("j")),
              /*Write=*/true),
      node(ir::Expr::IntLiteral, "0")));
  Body.insert(Before ? Body.begin() : Body.end(), std::move(Write));
  return N;
}

// A span the nest writes only after the loop (lud's trailing update in
// place) is tiled, its tile marked written; one written before the loop
// is not.
TEST(Tiling, ASpanWrittenAfterTheLoop) {
  ir::Nest N = productWritingA(/*Before=*/false);
  std::optional<memory::TiledLoop> T = memory::planTiling(N, grid(8, 16));
  ASSERT_TRUE(T);
  ASSERT_EQ(T->Tiles.size(), 1u);
  EXPECT_TRUE(T->Tiles[0].Written);
  EXPECT_FALSE(
      memory::planTiling(productWritingA(/*Before=*/true), grid(8, 16)));
}

} // namespace

namespace {

// The search scores what tiles would save: with rows of A and columns of B
// to share, both levels spread over a 2-D block; without tiles to share,
// no reuse is scored.
TEST(Tiling, SearchPrefersBlocksThatShareTiles) {
  const ir::Nest Product =
      productNest(false, ir::ParamKind::ReadSpan, /*WithB=*/true);
  map::MappingInput In = plan::buildableOnly(Product, {});
  In.Symbols["K"] = 512;
  const map::NestMapping M = map::chooseMapping(Product, In);
  ASSERT_EQ(M.Levels.size(), 2u);
  EXPECT_GE(M.Levels[0].BlockSize, 2u) << map::describe(M.Levels[0]);
  EXPECT_GE(M.Levels[1].BlockSize, 32u) << map::describe(M.Levels[1]);
  EXPECT_GT(M.Alternatives.front().Value.Reuse, 0);
  std::optional<memory::TiledLoop> T =
      memory::planTiling(productNest(false, ir::ParamKind::ReadSpan, true), M);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Tiles.size(), 2u);

  const ir::Nest Single = productNest(true, ir::ParamKind::ReadSpan);
  const map::NestMapping Plain = map::chooseMapping(
      Single, plan::buildableOnly(Single, In)); // nothing to share
  EXPECT_EQ(Plain.Alternatives.front().Value.Reuse, 0);
}

} // namespace

namespace {

using weft::test_nests::binary;
using weft::test_nests::countedFor;
using weft::test_nests::element;
using weft::test_nests::level;
using weft::test_nests::local;
using weft::test_nests::node;
using weft::test_nests::param;
using weft::test_nests::statement;

/// for i: { float acc = 0; for (int k = 0; k < K; ++k) acc += p[<k>]; }
/// with <k> = k, or i + k when FollowsThread (n-body's inner loop, or not).
ir::Nest oneLevelNest(bool FollowsThread) {
  ir::Nest N;
  N.Params = {{"K", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"p", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, true}};
  N.Root = level("i", 0, node(ir::Expr::IntLiteral, "1000"));
  auto Acc = std::make_unique<ir::Stmt>();
  Acc->Kind = ir::Stmt::Decl;
  Acc->Name = "acc";
  Acc->VarType.Scalar = ir::ScalarKind::Float;
  Acc->Exprs.push_back(node(ir::Expr::IntLiteral, "0"));
  N.Root.Body.push_back(std::move(Acc));
  ir::ExprPtr At = local("k");
  if (FollowsThread)
    At = binary("+", local("i"), std::move(At));
  N.Root.Body.push_back(countedFor(
      "k", node(ir::Expr::IntLiteral, "0"), param(0),
      statement(binary("+=", local("acc"), element(1, std::move(At))))));
  ir::analyzeAccesses(N);
  return N;
}

map::NestMapping
oneLevel(unsigned Block,
         map::Parallelism::KindType Kind = map::Parallelism::Span) {
  map::NestMapping M;
  M.Levels = {{map::Dimension::X, Block, {Kind, 1}, {}}};
  return M;
}

// n-body's case: every thread of a block reads p[k], so the block loads it
// once per tile; as many iterations per tile as threads, up to 256.
TEST(Tiling, OneLevelLoopIsTiledForTheWholeBlock) {
  ir::Nest N = oneLevelNest(false);
  std::optional<memory::TiledLoop> T = memory::planTiling(N, oneLevel(128));
  ASSERT_TRUE(T);
  EXPECT_TRUE(T->WholeBlock);
  EXPECT_EQ(T->Inner, &N.Root);
  EXPECT_EQ(T->Index, "k");
  ASSERT_EQ(T->Tiles.size(), 1u);
  EXPECT_EQ(T->Tiles[0].Description, "p[k]");
  EXPECT_EQ(T->Width, 128u);
  EXPECT_EQ(memory::planTiling(N, oneLevel(1024))->Width, 256u);
}

// A thread may compute several iterations of the level at once (WEFT_CM),
// its declarations before the loop one per iteration: not where an
// element is held in a register along the loop, nor where a declaration
// before it is a reference.
TEST(Tiling, WholeBlockTilesAreCoarsenable) {
  ir::Nest N = oneLevelNest(false);
  std::optional<memory::TiledLoop> T = memory::planTiling(N, oneLevel(128));
  ASSERT_TRUE(T);
  EXPECT_TRUE(ir::coarsenable(*T, false));
  EXPECT_FALSE(ir::coarsenable(*T, true));
  N.Root.Body.front()->VarType.IsReference = true;
  EXPECT_FALSE(ir::coarsenable(*T, false));
}

/// for i: { float acc = 0; for (k ...) acc += p[Step * k + c] ...; } for
/// each c of Offsets, p's elements of type Element.
ir::Nest recordNest(int Step, std::vector<int> Offsets,
                    ir::ScalarKind Element = ir::ScalarKind::Float) {
  ir::Nest N;
  N.Params = {{"K", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"p", ir::ParamKind::ReadSpan, Element, true}};
  N.Root = level("i", 0, node(ir::Expr::IntLiteral, "1000"));
  auto Acc = std::make_unique<ir::Stmt>();
  Acc->Kind = ir::Stmt::Decl;
  Acc->Name = "acc";
  Acc->VarType.Scalar = Element;
  Acc->Exprs.push_back(node(ir::Expr::IntLiteral, "0"));
  N.Root.Body.push_back(std::move(Acc));
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::Block;
  for (int C : Offsets) {
    ir::ExprPtr At = binary(
        "*", node(ir::Expr::IntLiteral, std::to_string(Step)), local("k"));
    if (C)
      At = binary("+", std::move(At),
                  node(ir::Expr::IntLiteral, std::to_string(C)));
    Body->Children.push_back(
        statement(binary("+=", local("acc"), element(1, std::move(At)))));
  }
  N.Root.Body.push_back(countedFor("k", node(ir::Expr::IntLiteral, "0"),
                                   param(0), std::move(Body)));
  ir::analyzeAccesses(N);
  return N;
}

// n-body's bodies as (x, y, z, mass): the tiles of p[4 * k + c] share one
// array of whole records, led by the tile at field 0; pairs too, in either
// order; not half a record, a record of three, nor one past 16 bytes.
TEST(Tiling, FieldsOfOneRecordShareItsArray) {
  ir::Nest Quads = recordNest(4, {0, 1, 2, 3});
  std::optional<memory::TiledLoop> T = memory::planTiling(Quads, oneLevel(128));
  ASSERT_TRUE(T);
  ASSERT_EQ(T->Tiles.size(), 4u);
  for (unsigned I = 0; I < 4; ++I) {
    EXPECT_EQ(T->Tiles[I].RecordWidth, 4u);
    EXPECT_EQ(T->Tiles[I].Field, I);
    EXPECT_EQ(T->Tiles[I].holder(I), 0u);
  }
  EXPECT_EQ(T->Tiles[0].Leader, -1);

  ir::Nest Pairs = recordNest(2, {1, 0}, ir::ScalarKind::Double);
  T = memory::planTiling(Pairs, oneLevel(128));
  ASSERT_TRUE(T);
  ASSERT_EQ(T->Tiles.size(), 2u);
  EXPECT_EQ(T->Tiles[0].Field, 1u);
  EXPECT_EQ(T->Tiles[0].holder(0), 1u);
  EXPECT_EQ(T->Tiles[1].Leader, -1);
  EXPECT_EQ(T->Tiles[1].RecordWidth, 2u);

  struct Case {
    int Step;
    std::vector<int> Offsets;
    ir::ScalarKind Element;
  };
  for (const Case &C : {Case{4, {0, 2}, ir::ScalarKind::Float},
                        Case{3, {0, 1, 2}, ir::ScalarKind::Float},
                        Case{4, {0, 1, 2, 3}, ir::ScalarKind::Double}}) {
    ir::Nest N = recordNest(C.Step, C.Offsets, C.Element);
    T = memory::planTiling(N, oneLevel(128));
    ASSERT_TRUE(T);
    for (std::size_t I = 0; I < T->Tiles.size(); ++I) {
      EXPECT_EQ(T->Tiles[I].RecordWidth, 1u) << T->Tiles[I].Description;
      EXPECT_EQ(T->Tiles[I].holder(I), I);
    }
  }
}

TEST(Tiling, OneLevelNotWhereTheReadFollowsTheThreadOrNoneShareIt) {
  EXPECT_FALSE(memory::planTiling(oneLevelNest(true), oneLevel(128)));
  const ir::Nest N = oneLevelNest(false);
  EXPECT_FALSE(memory::planTiling(N, oneLevel(1)));
  EXPECT_FALSE(memory::planTiling(
      N, oneLevel(128, map::Parallelism::SpanAll))); // not over the grid
}

} // namespace

namespace {

/// for z: for i: for j (all parallel): acc += a[<RowBase> + k] in a loop
/// over k: productNest inside another level.
ir::Nest chainOfThree(bool ThreadRow) {
  ir::Nest Two =
      weft::test_nests::productNest(ThreadRow, ir::ParamKind::ReadSpan);
  ir::Nest N;
  N.Params = std::move(Two.Params);
  N.Root = level("z", 0, node(ir::Expr::IntLiteral, "8"));
  auto Middle = std::make_unique<ir::Level>(std::move(Two.Root));
  Middle->Depth = 1;
  Middle->Body[0]->Nested->Depth = 2;
  auto P = std::make_unique<ir::Stmt>();
  P->Kind = ir::Stmt::ParallelFor;
  P->Nested = std::move(Middle);
  N.Root.Body.push_back(std::move(P));
  ir::analyzeAccesses(N);
  return N;
}

map::NestMapping threeLevels(unsigned MiddleBlock) {
  map::NestMapping M;
  M.Levels = {{map::Dimension::Y, 1, {map::Parallelism::Span, 1}, {}},
              {map::Dimension::Z, MiddleBlock, {map::Parallelism::Span, 1}, {}},
              {map::Dimension::X, 128, {map::Parallelism::Span, 1}, {}}};
  return M;
}

// A batch of products' shape: the last two levels of three are the pair
// the tiles follow, the level above them one thread a block (the block
// shares its index); with two threads a block there, no tiles.
TEST(Tiling, PairUnderABatchLevelIsTiled) {
  const ir::Nest N = chainOfThree(false);
  std::optional<memory::TiledLoop> T = memory::planTiling(N, threeLevels(1));
  ASSERT_TRUE(T);
  EXPECT_FALSE(T->WholeBlock);
  ASSERT_TRUE(T->Outer);
  EXPECT_EQ(T->Outer->Depth, 1u);
  EXPECT_EQ(T->Inner->Depth, 2u);
  ASSERT_EQ(T->Tiles.size(), 1u);
  EXPECT_TRUE(T->Tiles[0].AlongOuter);
  EXPECT_EQ(T->Tiles[0].Description, "a[((i * $K) + k)]");
  map::NestMapping TwoABlock = threeLevels(4);
  TwoABlock.Levels[0].BlockSize = 2;
  EXPECT_FALSE(memory::planTiling(N, TwoABlock));
  // A read following both of the pair's indices is no tile's.
  EXPECT_FALSE(memory::planTiling(chainOfThree(true), threeLevels(1)));
}

} // namespace
