// StagingTest.cpp: the staging plan on a matrix-product nest built by hand:
// a row read by the whole block along a sequential loop is staged only under
// a mapping where the block shares the outermost iteration, only for a
// read-only span, and only when the row is the same in every thread.
#include "TestNests.h"
#include "memory/StagingPlan.h"

#include <gtest/gtest.h>

using namespace weft;
using weft::test_nests::productNest;

namespace {

/// The outer level over blocks of one, the inner over the block: Span(all)
/// with Block threads, or Span(1) over the grid.
map::NestMapping mapping(map::Parallelism::KindType InnerKind) {
  map::NestMapping M;
  M.Levels = {{map::Dimension::Y, 1, {map::Parallelism::Span, 1}, {}},
              {map::Dimension::X, 128, {InnerKind, 1}, {}}};
  return M;
}

TEST(Staging, RowReadByTheWholeBlockIsStaged) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadSpan);
  std::vector<memory::Stage> S =
      memory::planStaging(N, mapping(map::Parallelism::SpanAll));
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Param, 1u);
  EXPECT_EQ(S[0].Reads.size(), 1u);
  EXPECT_EQ(S[0].Description, "a[((i * $K) + k)], k in [0, $K)");
  ASSERT_EQ(S[0].Terms.size(), 1u);
  EXPECT_EQ(S[0].Terms[0].Index, "k");
  EXPECT_TRUE(S[0].Terms[0].Coefficient.empty());
  EXPECT_EQ(S[0].Base.size(), 1u);
}

TEST(Staging, OnlyWhereTheBlockSharesTheOutermostIteration) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadSpan);
  // Spread over the grid too, each block still works on one row.
  EXPECT_EQ(memory::planStaging(N, mapping(map::Parallelism::Span)).size(), 1u);
  EXPECT_TRUE(memory::planStaging(N, mapping(map::Parallelism::Split)).empty());
  map::NestMapping TwoRows = mapping(map::Parallelism::SpanAll);
  TwoRows.Levels[0].BlockSize = 2; // two outermost iterations per block
  EXPECT_TRUE(memory::planStaging(N, TwoRows).empty());
}

TEST(Staging, NotARowThatDependsOnTheThread) {
  ir::Nest N = productNest(true, ir::ParamKind::ReadSpan);
  EXPECT_TRUE(
      memory::planStaging(N, mapping(map::Parallelism::SpanAll)).empty());
}

TEST(Staging, ReadsThatOverlapFromThreadToThreadAreAWindow) {
  // a[i * K + j + k]: thread j reads j .. j + K - 1, as its neighbours do.
  ir::Nest N = productNest(true, ir::ParamKind::ReadSpan);
  std::vector<memory::Stage> S =
      memory::planStaging(N, mapping(map::Parallelism::Span));
  ASSERT_EQ(S.size(), 1u);
  EXPECT_TRUE(S[0].Window);
  EXPECT_EQ(S[0].Description, "a[(((i * $K) + j) + k)], k in [0, $K), a "
                              "window along j");
  ASSERT_EQ(S[0].Terms.size(), 1u);
  EXPECT_FALSE(S[0].Terms[0].Row); // k moves along the thread's columns
  EXPECT_TRUE(S[0].ColumnStride.empty());
  EXPECT_TRUE(S[0].RowStride.empty());
  ASSERT_EQ(S[0].Base.size(), 1u); // i, scaled by K
  EXPECT_EQ(S[0].Base[0].Scale.size(), 1u);
  ASSERT_EQ(S[0].Offsets.size(), 1u);
  EXPECT_EQ(S[0].Offsets[0], (std::array<std::int64_t, 2>{0, 0}));
}

TEST(Staging, AWindowOnlyWhereTheFirstRoundIsTheBlocksShare) {
  ir::Nest N = productNest(true, ir::ParamKind::ReadSpan);
  map::NestMapping Coarse = mapping(map::Parallelism::Span);
  Coarse.Levels[1].Dop.N = 2; // each thread's second iteration is elsewhere
  EXPECT_TRUE(memory::planStaging(N, Coarse).empty());
}

/// Blocks of Rows iterations of i by 32 of j, one each a thread.
map::NestMapping rowsByColumns(unsigned Rows) {
  map::NestMapping M;
  M.Levels = {{map::Dimension::Y, Rows, {map::Parallelism::Span, 1}, {}},
              {map::Dimension::X, 32, {map::Parallelism::Span, 1}, {}}};
  return M;
}

TEST(Staging, AWindowOfTheBlocksRowsWhereItHoldsSeveral) {
  // a[i * K + j + k] under 4 x 32 blocks: rows i .. i + 3 (stride K) by
  // columns j .. j + 31 + K - 1.
  ir::Nest N = productNest(true, ir::ParamKind::ReadSpan);
  std::vector<memory::Stage> S = memory::planStaging(N, rowsByColumns(4));
  ASSERT_EQ(S.size(), 1u);
  EXPECT_TRUE(S[0].Window);
  EXPECT_TRUE(S[0].OuterRows);
  EXPECT_EQ(S[0].Description, "a[(((i * $K) + j) + k)], k in [0, $K), a "
                              "window along i and j");
  ASSERT_EQ(S[0].RowStride.size(), 1u); // K
  EXPECT_TRUE(S[0].Base.empty());       // i * K is the rows', not an offset
  ASSERT_EQ(S[0].Terms.size(), 1u);
  EXPECT_FALSE(S[0].Terms[0].Row);
  // Under blocks of one row, i is the same in all threads: an offset.
  std::vector<memory::Stage> One = memory::planStaging(N, rowsByColumns(1));
  ASSERT_EQ(One.size(), 1u);
  EXPECT_FALSE(One[0].OuterRows);
  EXPECT_EQ(One[0].Base.size(), 1u);
}

TEST(Staging, NoWindowOfRowsWhereTheRowsDoNotWalkTogether) {
  // The level's columns would start where each row does.
  ir::Nest Band = productNest(true, ir::ParamKind::ReadSpan);
  Band.Root.Body.front()->Nested->Lower = test_nests::local("i");
  EXPECT_TRUE(memory::planStaging(Band, rowsByColumns(4)).empty());
  // A reduction over the rows combines per iteration of them.
  ir::Nest Reducing = productNest(true, ir::ParamKind::ReadSpan);
  Reducing.Root.Reductions.push_back({});
  EXPECT_TRUE(memory::planStaging(Reducing, rowsByColumns(4)).empty());
  // Each thread a few rows: the block's first round is not its rows.
  ir::Nest N = productNest(true, ir::ParamKind::ReadSpan);
  map::NestMapping Coarse = rowsByColumns(4);
  Coarse.Levels[0].Dop.N = 2;
  EXPECT_TRUE(memory::planStaging(N, Coarse).empty());
}

TEST(Staging, NoWindowWhereNoElementIsReadTwice) {
  // b[k * K + j]: a column each thread reads alone; a's row is staged.
  ir::Nest N = productNest(false, ir::ParamKind::ReadSpan, /*WithB=*/true);
  std::vector<memory::Stage> S =
      memory::planStaging(N, mapping(map::Parallelism::Span));
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Param, 1u);
  EXPECT_FALSE(S[0].Window);
}

TEST(Staging, NotASpanTheNestWrites) {
  ir::Nest N = productNest(false, ir::ParamKind::ReadWriteSpan);
  EXPECT_TRUE(
      memory::planStaging(N, mapping(map::Parallelism::SpanAll)).empty());
}

} // namespace
