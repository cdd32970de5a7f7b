// MappingChoiceTest.cpp: a loop's alternative mappings in its descriptor,
// and the launch's choice among them by its sizes; kernels for rows of one
// length beside the one for rows of differing lengths.
#include "policy/MappingChoice.h"
#include "core/LaunchBounds.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

using namespace weft::rt;
using weft::detail::LaunchArg;

namespace {

// sumRows-like: rows (arg 0) and the span's size vary; mapping 1 for many
// short rows, 0 otherwise.
const std::string Piece = "weft 8\nkernel k0\nloc a.cpp:1:1\n"
                          "param scalar i32 rows\nparam in f32 m\n"
                          "level (lit 0) (arg 0) 1 lt\n";
const std::string Choice = "vary (arg 0)\nvary (size 1)\n"
                           "scenario 0 128 128\nscenario 1 65536 128\n"
                           "scenario 0 128 65536\n";
const std::string Two = Piece + "text 0 10\n" + Choice + "alternative\n" +
                        "weft 8\nkernel k1\nloc a.cpp:1:1\n"
                        "param scalar i32 rows\nparam in f32 m\n"
                        "level (lit 0) (arg 0) 1 lt\ntext 10 5\n";

TEST(MappingChoice, ParsesAlternativesAndTheirTexts) {
  std::vector<KernelInfo> K;
  std::string Error;
  ASSERT_TRUE(parseDescriptors(Two.c_str(), 15, K, Error)) << Error;
  ASSERT_EQ(K.size(), 2u);
  EXPECT_EQ(K[0].Name, "k0");
  EXPECT_EQ(K[1].Name, "k1");
  EXPECT_EQ(K[0].Choice.Vary.size(), 2u);
  ASSERT_EQ(K[0].Choice.Scenarios.size(), 3u);
  EXPECT_EQ(K[0].Choice.Scenarios[1].Mapping, 1u);
  EXPECT_EQ(K[0].Choice.Scenarios[1].Values[0], 65536);
  EXPECT_EQ(K[1].TextOffset, 10u);
  EXPECT_EQ(K[1].TextLength, 5u);
  // A single descriptor is one kernel with the whole source.
  ASSERT_TRUE(parseDescriptors(Piece.c_str(), 0, K, Error)) << Error;
  ASSERT_EQ(K.size(), 1u);
  EXPECT_EQ(K[0].TextLength, 0u);
}

TEST(MappingChoice, RejectsInconsistentAlternatives) {
  std::vector<KernelInfo> K;
  std::string Error;
  EXPECT_FALSE(parseDescriptors(Two.c_str(), 14, K, Error))
      << "a text beyond the source";
  const std::string NoSuchMapping = Piece + "vary (arg 0)\nscenario 2 64\n";
  EXPECT_FALSE(parseDescriptors(NoSuchMapping.c_str(), 0, K, Error));
  const std::string MissingValue = Piece + "vary (arg 0)\nscenario 0\n";
  EXPECT_FALSE(parseDescriptors(MissingValue.c_str(), 0, K, Error));
  const std::string NoTable =
      Piece + "alternative\n" + Piece.substr(0, Piece.size());
  EXPECT_FALSE(parseDescriptors(NoTable.c_str(), 0, K, Error));
}

TEST(MappingChoice, TakesTheNearestScenarioOnALogScale) {
  std::vector<KernelInfo> K;
  std::string Error;
  ASSERT_TRUE(parseDescriptors(Two.c_str(), 15, K, Error)) << Error;
  float M[1] = {0};
  std::vector<std::int64_t> Sizes;
  auto Choose = [&](std::int32_t Rows, std::size_t Size) {
    LaunchArg Args[] = {{&Rows, 1, 4}, {M, Size, 4}};
    return chooseMapping(K[0], Args, 2, Sizes);
  };
  EXPECT_EQ(Choose(40000, 200), 1u);
  EXPECT_EQ(Sizes, (std::vector<std::int64_t>{40000, 200}));
  EXPECT_EQ(Choose(100, 200), 0u);
  EXPECT_EQ(Choose(200, 90000), 0u);
  // Nearer 65536 on a log scale, though nearer 128 in plain distance.
  EXPECT_EQ(Choose(10000, 128), 1u);
  EXPECT_EQ(Choose(2500, 128), 0u);
  // Sizes that cannot be read keep the first mapping.
  LaunchArg Short[] = {{M, 1, 4}};
  EXPECT_EQ(chooseMapping(K[0], Short, 1, Sizes), 0u);
}

// A product over rows held apart: k0 indexes rows of one length by their
// common length (param 2, uniform), k1 by their offsets.
std::string rowsKernel(const char *Name, bool Uniform) {
  return std::string("weft 8\nkernel ") + Name +
         "\nloc a.cpp:1:1\nparam inout f32 c\nparam in u64 c_rows\n"
         "param scalar i64 c_cols\nrows 0 1\n" +
         (Uniform ? "uniform 2\n" : "") + "level (lit 0) (size 1) 1 lt\n";
}

TEST(MappingChoice, RowsOfOneLengthBesideTheirOffsetsKernel) {
  std::vector<KernelInfo> K;
  std::string Error;
  ASSERT_TRUE(parseDescriptors(rowsKernel("k0", true) + "text 0 4\n" +
                                   "alternative\n" + rowsKernel("k1", false) +
                                   "text 4 4\n",
                               8, K, Error))
      << Error;
  ASSERT_EQ(K.size(), 2u);
  EXPECT_TRUE(K[0].Params[2].OneLength);
  EXPECT_TRUE(needsRowsOfOneLength(K[0]));
  EXPECT_FALSE(needsRowsOfOneLength(K[1]));
  float C[4] = {};
  std::uint64_t Rows[3] = {0, 2, 4};
  for (std::int64_t Columns : {2, 0, -1}) {
    const LaunchArg Args[] = {{C, 4, sizeof(float)},
                              {Rows, 3, sizeof(std::uint64_t)},
                              {&Columns, 1, sizeof(Columns)}};
    EXPECT_EQ(rowLengthsFit(K[0], Args, 3), Columns >= 0) << Columns;
    EXPECT_TRUE(rowLengthsFit(K[1], Args, 3));
  }
  // The offsets' kernel comes last, once; uniform takes a 64-bit scalar.
  for (const std::string &Bad :
       {rowsKernel("k0", true) + "text 0 4\nalternative\n" +
            rowsKernel("k1", true) + "text 4 4\n",
        rowsKernel("k0", true),
        rowsKernel("k0", false) + "text 0 4\nalternative\n" +
            rowsKernel("k1", true) + "text 4 4\n",
        std::string("weft 8\nkernel k\nparam scalar i32 n\nuniform 0\n"),
        std::string("weft 8\nkernel k\nparam in f32 a\nuniform 0\n")}) {
    std::vector<KernelInfo> B;
    EXPECT_FALSE(parseDescriptors(Bad, 8, B, Error)) << Bad;
  }
}

} // namespace

namespace {

// Tuning's prior: every mapping, the chosen one first, then by their
// nearest scenario's distance from the sizes.
TEST(MappingChoice, RanksEveryMappingNearestFirst) {
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(
      "weft 8\nkernel k0\nloc a.cpp:1:1\nparam scalar i32 rows\n"
      "level (lit 0) (arg 0) 1 lt\nvary (arg 0)\n"
      "scenario 0 128\nscenario 2 1024\nscenario 1 65536\nscenario 0 8192\n",
      K, Error))
      << Error;
  // 2000 rows: mapping 2 (1024) is nearest, then 0 (8192), then 1.
  EXPECT_EQ(rankMappings(K, {2000}, 2, 4), (std::vector<unsigned>{2, 0, 1, 3}));
  // The chosen mapping leads even where another's scenario is nearer.
  EXPECT_EQ(rankMappings(K, {2000}, 1, 3), (std::vector<unsigned>{1, 2, 0}));
  // Without scenarios: the chosen one, then the others in order.
  KernelInfo Plain;
  ASSERT_TRUE(parseDescriptor("weft 8\nkernel k\nloc a.cpp:1:1\n"
                              "level (lit 0) (lit 9) 1 lt\n",
                              Plain, Error));
  EXPECT_EQ(rankMappings(Plain, {}, 0, 2), (std::vector<unsigned>{0, 1}));
}

} // namespace
