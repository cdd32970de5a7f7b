// TilingTest.cpp: the tiling plan on the hand-built product nest: the loop
// over k is tiled under a 2-D grid mapping where threads share the row,
// not where no two threads share it, not under a block-wide level, and not
// for a read that follows both thread indices.
#include "TestNests.h"
#include "memory/TilingPlan.h"

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
