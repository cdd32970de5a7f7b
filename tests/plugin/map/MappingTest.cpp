// MappingTest.cpp: the mapping search on nests built here: sumRows and
// sumCols at the paper's shapes, each hard and soft constraint, and the
// forced strategies.
#include "map/Mapping.h"
#include "TestNests.h"
#include "ir/NestIR.h"
#include "plan/KernelShape.h"

#include <gtest/gtest.h>

using namespace weft;
using map::Dimension;
using map::Parallelism;

namespace {

using test_nests::binary;
using test_nests::element;
using test_nests::level;
using test_nests::local;
using test_nests::node;
using test_nests::param;
using test_nests::statement;
using test_nests::sumNest;

/// Buildable: only what the kernel generator builds, as the plugin maps.
map::NestMapping mapSum(bool Rows, std::int64_t R, std::int64_t C,
                        map::MappingInput In = {}, bool Buildable = false) {
  const ir::Nest N = sumNest(Rows);
  if (Buildable)
    In = plan::buildableOnly(N, In);
  In.Symbols["rows"] = R;
  In.Symbols["cols"] = C;
  return map::chooseMapping(N, In);
}

bool coalesced(const map::LevelMapping &L) {
  return L.Dim == Dimension::X && L.BlockSize % 32 == 0;
}
bool globalReduction(const map::LevelMapping &L) {
  return L.Dop.Kind == Parallelism::Split;
}
std::uint64_t threads(const map::NestMapping &M) {
  return M.Alternatives.front().Threads;
}
const std::uint64_t Capacity = map::DeviceModel().ConcurrentThreads;

struct Shape {
  std::int64_t Rows, Cols;
};
class PaperShapes : public testing::TestWithParam<Shape> {};

// sumRows: m's unit stride is the inner index j, so j goes to x (coalesced);
// the outer level alone cannot fill the device when rows are few.
TEST_P(PaperShapes, SumRows) {
  const Shape S = GetParam();
  map::NestMapping M = mapSum(true, S.Rows, S.Cols);
  ASSERT_EQ(M.Levels.size(), 2u) << M.Error;
  EXPECT_TRUE(coalesced(M.Levels[1])) << map::describe(M.Levels[1]);
  EXPECT_NE(M.Levels[0].Dim, Dimension::X);
  EXPECT_GE(threads(M), Capacity / 2) << "enough parallelism";
  // A warp or block reduction serves when rows alone give enough threads.
  if (static_cast<std::uint64_t>(S.Rows) * 32 >= Capacity)
    EXPECT_FALSE(globalReduction(M.Levels[1])) << map::describe(M.Levels[1]);
}

// sumCols: m's unit stride is the outer index j: j goes to x; with few
// columns the reduction over rows must be spread too.
TEST_P(PaperShapes, SumCols) {
  const Shape S = GetParam();
  map::NestMapping M = mapSum(false, S.Rows, S.Cols);
  ASSERT_EQ(M.Levels.size(), 2u) << M.Error;
  EXPECT_TRUE(coalesced(M.Levels[0])) << map::describe(M.Levels[0]);
  EXPECT_EQ(M.Levels[0].Dop, (Parallelism{Parallelism::Span, 1}));
  EXPECT_GE(threads(M), Capacity / 4) << "enough parallelism";
  if (static_cast<std::uint64_t>(S.Cols) < Capacity)
    EXPECT_FALSE(M.Levels[1].sequential())
        << "few columns: the rows' reduction must be spread too";
}

INSTANTIATE_TEST_SUITE_P(Lee2014, PaperShapes,
                         testing::Values(Shape{64 * 1024, 1024},
                                         Shape{8 * 1024, 8 * 1024},
                                         Shape{1024, 64 * 1024}));

// With the generator's limits too, sumCols over few columns spreads each
// column's reduction over the threads of another dimension of the block (a
// block of columns, reduced over their rows through shared memory), the
// columns staying on x for coalescing; so few columns cannot fill the
// device without splitting the rows over blocks too (Split(k) along y,
// partials per column and block combined by a second kernel).
TEST(GeneratorLimits, SumColsSpreadsEachColumnsReductionInTheBlock) {
  map::NestMapping M = mapSum(false, 1 << 16, 128, {}, true);
  ASSERT_EQ(M.Levels.size(), 2u) << M.Error;
  EXPECT_TRUE(coalesced(M.Levels[0])) << map::describe(M.Levels[0]);
  EXPECT_FALSE(M.Levels[1].sequential()) << map::describe(M.Levels[1]);
  EXPECT_NE(M.Levels[1].Dim, Dimension::X);
  EXPECT_EQ(M.Levels[1].Dop.Kind, Parallelism::Split)
      << map::describe(M.Levels[1]);
  EXPECT_GE(threads(M), Capacity / 2) << "the device filled";
  // Many columns fill it alone: the block's own combining serves.
  M = mapSum(false, 1 << 10, 1 << 16, {}, true);
  EXPECT_EQ(M.Levels[1].Dop.Kind, Parallelism::SpanAll)
      << map::describe(M.Levels[1]);
  EXPECT_NE(M.Levels[1].Dim, Dimension::X);
}

TEST(MappingHard, ThreadsPerBlockWithinWarpAndDeviceLimit) {
  map::NestMapping M = mapSum(true, 8192, 8192);
  for (const map::Candidate &C : M.Alternatives) {
    unsigned Block = 1;
    for (const map::LevelMapping &L : C.Levels)
      Block *= L.BlockSize;
    EXPECT_GE(Block, 32u);
    EXPECT_LE(Block, 1024u);
  }
}

TEST(MappingHard, DistinctDimensions) {
  map::NestMapping M = mapSum(false, 4096, 4096);
  for (const map::Candidate &C : M.Alternatives)
    if (!C.Levels[1].sequential())
      EXPECT_NE(C.Levels[0].Dim, C.Levels[1].Dim);
}

TEST(MappingHard, NoGridWideSynchronization) {
  // The inner reduction is never spread over the grid without Split's
  // combining step.
  for (bool Rows : {true, false})
    for (const map::Candidate &C : mapSum(Rows, 64, 1 << 20).Alternatives)
      EXPECT_NE(C.Levels[1].Dop.Kind, Parallelism::Span)
          << map::describe(C.Levels[1]);
}

TEST(MappingHard, SharedMemoryPerBlock) {
  map::MappingInput In;
  In.Device.SharedMemoryPerBlock = 64; // 16 floats
  for (const map::Candidate &C : mapSum(true, 4096, 4096, In).Alternatives) {
    unsigned Block = 1;
    for (const map::LevelMapping &L : C.Levels)
      Block *= L.BlockSize;
    if (!C.Levels[1].sequential())
      EXPECT_LE(Block * 4, 64u);
    else
      SUCCEED();
  }
  EXPECT_TRUE(mapSum(true, 4096, 4096, In).Levels[1].sequential());
}

TEST(MappingHard, IrregularInnerLevelStaysInTheBlock) {
  ir::Nest N = sumNest(true);
  // An inner extent read from a span (CSR's offsets[r + 1]).
  ir::Level &Inner = *N.Root.Body[1]->Nested;
  Inner.Upper = element(2, local("i"));
  ir::analyzeAccesses(N);
  map::MappingInput In;
  In.Symbols["rows"] = 1 << 16;
  for (const map::Candidate &C : map::chooseMapping(N, In).Alternatives)
    EXPECT_TRUE(C.Levels[1].sequential() ||
                C.Levels[1].Dop.Kind == Parallelism::SpanAll)
        << map::describe(C.Levels[1]);
}

TEST(MappingHard, SiblingLevelsShareTheMostConservativeMapping) {
  // Two inner levels at one depth: a regular one and one whose extent is
  // read from a span. They share a mapping, which must suit both.
  ir::Nest N = sumNest(true);
  auto Sibling =
      std::make_unique<ir::Level>(level("k", 1, element(2, local("i"))));
  Sibling->Body.push_back(statement(binary("=", element(3, local("k"), true),
                                           node(ir::Expr::IntLiteral, "0"))));
  auto P = std::make_unique<ir::Stmt>();
  P->Kind = ir::Stmt::ParallelFor;
  P->Nested = std::move(Sibling);
  N.Root.Body.push_back(std::move(P));
  ir::analyzeAccesses(N);
  map::MappingInput In;
  In.Symbols = {{"rows", 1 << 12}, {"cols", 1 << 12}};
  map::NestMapping M = map::chooseMapping(N, In);
  ASSERT_EQ(M.Levels.size(), 2u);
  EXPECT_TRUE(M.Levels[1].sequential() ||
              M.Levels[1].Dop.Kind == Parallelism::SpanAll)
      << map::describe(M.Levels[1]);
}

TEST(MappingSoft, CoalescingPutsTheUnitStrideOnX) {
  map::MappingInput In;
  In.Weight.Coalescing = 0;
  map::NestMapping Blind = mapSum(true, 1 << 16, 1 << 10, In);
  map::NestMapping Aware = mapSum(true, 1 << 16, 1 << 10);
  EXPECT_TRUE(coalesced(Aware.Levels[1]));
  EXPECT_GT(Aware.Alternatives[0].Value.Coalescing, 0);
  EXPECT_EQ(Blind.Alternatives[0].Value.Coalescing, 0);
}

TEST(MappingSoft, EnoughParallelism) {
  map::MappingInput In;
  In.Weight.Parallelism = 0;
  // Without the parallelism term, nothing pushes for threads beyond what
  // coalescing wants; with it, the device is filled.
  EXPECT_LT(threads(mapSum(false, 1 << 16, 256, In)), Capacity);
  EXPECT_GE(threads(mapSum(false, 1 << 16, 256)), Capacity / 4);
}

TEST(MappingSoft, NoIdleLanes) {
  // A level of 8 iterations is not given a wide block.
  map::NestMapping M = mapSum(true, 1 << 16, 8);
  EXPECT_LE(M.Levels[1].sequential() ? 8u : M.Levels[1].BlockSize, 8u)
      << map::describe(M.Levels[1]);
}

TEST(MappingSoft, CheapReductionsFirst) {
  // rows * 32 threads fill the device: warp shuffles serve, no Split.
  map::NestMapping M = mapSum(true, 1 << 16, 1 << 10);
  EXPECT_FALSE(globalReduction(M.Levels[1]));
  // One row: only a Split spreads the work over the device.
  map::NestMapping One = mapSum(true, 1, 1 << 24);
  EXPECT_EQ(One.Levels[1].Dop.Kind, Parallelism::Split)
      << map::describe(One.Levels[1]);
}

TEST(MappingForced, PaperBaselines) {
  ir::Nest N = sumNest(true);
  map::MappingInput In;
  In.Symbols = {{"rows", 8192}, {"cols", 8192}};
  N.Strategy = "1d";
  map::NestMapping M = map::chooseMapping(N, In);
  EXPECT_EQ(map::describe(M.Levels[0]), "dim x, block 256, Span(1)");
  EXPECT_TRUE(M.Levels[1].sequential());
  N.Strategy = "thread_block";
  M = map::chooseMapping(N, In);
  EXPECT_EQ(map::describe(M.Levels[0]), "dim y, block 1, Span(1)");
  EXPECT_EQ(map::describe(M.Levels[1]), "dim x, block 1024, Span(all)");
  N.Strategy = "warp";
  M = map::chooseMapping(N, In);
  EXPECT_EQ(map::describe(M.Levels[0]), "dim y, block 16, Span(1)");
  EXPECT_EQ(map::describe(M.Levels[1]), "dim x, block 32, Span(all)");
  EXPECT_NE(M.Levels[0].Reasons.front().find("warp strategy"),
            std::string::npos);
}

TEST(MappingForced, ClausesOverrideTheSearch) {
  ir::Nest N = sumNest(true);
  N.Root.Body[1]->Nested->Forced.Dim = 'y';
  N.Root.Body[1]->Nested->Forced.Split = 8;
  map::MappingInput In;
  In.Symbols = {{"rows", 4096}, {"cols", 4096}};
  map::NestMapping M = map::chooseMapping(N, In);
  ASSERT_TRUE(M.Error.empty()) << M.Error;
  EXPECT_EQ(M.Levels[1].Dim, Dimension::Y);
  EXPECT_EQ(M.Levels[1].Dop, (Parallelism{Parallelism::Split, 8}));
  // A clause no legal mapping satisfies: an error, not a silent mapping.
  N.Root.Forced.Span = 1;
  N.Root.Forced.Block = 1024;
  N.Root.Body[1]->Nested->Forced.Block = 2;
  EXPECT_FALSE(map::chooseMapping(N, In).Error.empty());
}

TEST(Mapping, UnknownExtentsAreAssumedAndSaid) {
  map::NestMapping M = map::chooseMapping(sumNest(true));
  ASSERT_EQ(M.Assumptions.size(), 2u);
  EXPECT_NE(M.Assumptions[0].find("assumed to be 1024"), std::string::npos);
  EXPECT_FALSE(M.Levels[0].Reasons.empty());
  EXPECT_GE(M.Alternatives.size(), 2u);
}

} // namespace

namespace {
// Prints the choices for the paper's shapes (run with --gtest_filter=*Show*).
TEST(MappingShow, PaperShapes) {
  for (bool Rows : {true, false})
    for (Shape S : {Shape{64 * 1024, 1024}, Shape{8 * 1024, 8 * 1024},
                    Shape{1024, 64 * 1024}}) {
      map::NestMapping M = mapSum(Rows, S.Rows, S.Cols);
      std::printf("%s [%lld,%lld]: outer %s; inner %s; %llu threads\n",
                  Rows ? "sumRows" : "sumCols", (long long)S.Rows,
                  (long long)S.Cols, map::describe(M.Levels[0]).c_str(),
                  map::describe(M.Levels[1]).c_str(),
                  (unsigned long long)threads(M));
    }
}
} // namespace

// Under the generator's limits, Split(k) of the inner level is offered only
// where a second kernel can finish each outermost iteration.

TEST(MappingGenerated, FewLongRowsSplitTheInnerReduction) {
  // 16 rows cannot fill the device with one block each: the row's
  // reduction is split over blocks, each a whole group.
  const map::NestMapping M = mapSum(true, 16, 1 << 22, {}, true);
  ASSERT_EQ(M.Levels.size(), 2u);
  EXPECT_EQ(M.Levels[1].Dop.Kind, Parallelism::Split)
      << map::describe(M.Levels[1]);
  EXPECT_GT(M.Levels[1].Dop.N, 1u);
  EXPECT_EQ(M.Levels[1].Dim, Dimension::X);
  EXPECT_EQ(M.Levels[0].BlockSize, 1u);
  // Many rows fill it without a second kernel.
  EXPECT_NE(mapSum(true, 1 << 16, 1024, {}, true).Levels[1].Dop.Kind,
            Parallelism::Split);
}

TEST(MappingGenerated, InnerSplitNeedsCodeBeforeItToBeRerunnable) {
  // out[i] written before the inner level: rerunning that code in the
  // combining kernel would be a second write, so no split.
  ir::Nest N = sumNest(true);
  N.Root.Body.insert(N.Root.Body.begin(),
                     statement(binary("=", element(3, local("i"), true),
                                      node(ir::Expr::IntLiteral, "0"))));
  map::MappingInput In = plan::buildableOnly(N, {});
  In.Symbols["rows"] = 16;
  In.Symbols["cols"] = 1 << 22;
  const map::NestMapping M = map::chooseMapping(N, In);
  ASSERT_FALSE(M.Alternatives.empty()) << M.Error;
  for (const map::Candidate &C : M.Alternatives)
    EXPECT_NE(C.Levels[1].Dop.Kind, Parallelism::Split)
        << map::describe(C.Levels[1]);
}
