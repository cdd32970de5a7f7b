// TilingTest.cpp: the tiling plan on the hand-built product nest: the loop
// over k is tiled under a 2-D grid mapping where threads share the row,
// not where no two threads share it, not under a block-wide level, and not
// for a read that follows both thread indices; the search scores the
// reuse.
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

TEST(Tiling, NotASpanTheNestWrites) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadWriteSpan);
  EXPECT_FALSE(memory::planTiling(N, grid(8, 16)));
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
