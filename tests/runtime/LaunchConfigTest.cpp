// LaunchConfigTest.cpp: grids and blocks from descriptors and the real
// extents: enough blocks to cover a span level, k for Split(k), a capped
// grid, and a tuned block size in place of the mapped one.
#include "launch/LaunchConfig.h"

#include <gtest/gtest.h>

using namespace weft::rt;

namespace {

KernelInfo parsed(const char *Text) {
  KernelInfo K;
  std::string Error;
  EXPECT_TRUE(parseDescriptor(Text, K, Error)) << Error;
  return K;
}

DeviceProperties h100() {
  DeviceProperties P;
  P.Architecture = "sm_90";
  P.MultiprocessorCount = 132;
  return P;
}

TEST(LaunchConfig, SpanCoversTheExtentAndSplitHasK) {
  const KernelInfo K = parsed("weft 1\nkernel k\nloc a.cpp:1:1\n"
                              "level (lit 0) (lit 10) 1 lt\n"
                              "map 0 y 1 span 1\nmap 1 x 128 split 6\n");
  LaunchConfig C;
  std::string Error;
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 10, h100(), C, Error))
      << Error;
  EXPECT_EQ(C.Grid[1], 10u);
  EXPECT_EQ(C.Grid[0], 6u);
  EXPECT_EQ(C.Block[0], 128u);
  EXPECT_EQ(C.threads(), 10u * 6 * 128);
}

TEST(LaunchConfig, TunedBlockReplacesTheMappedOne) {
  const KernelInfo K = parsed("weft 1\nkernel k\nloc a.cpp:1:1\n"
                              "level (lit 0) (lit 5000) 1 lt\n"
                              "map 0 x 256 span 1\ntune x 128 256 512\n");
  LaunchConfig Mapped, Tuned;
  std::string Error;
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 5000, h100(), Mapped, Error));
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 5000, h100(), Tuned, Error,
                                  K.Tune.Axis, 512));
  EXPECT_EQ(Mapped.Block[0], 256u);
  EXPECT_EQ(Mapped.Grid[0], 20u); // ceil(5000 / 256)
  EXPECT_EQ(Tuned.Block[0], 512u);
  EXPECT_EQ(Tuned.Grid[0], 10u); // ceil(5000 / 512)
}

TEST(LaunchConfig, GridCappedAtAFewWavesOfResidentThreads) {
  const KernelInfo K = parsed("weft 1\nkernel k\nloc a.cpp:1:1\n"
                              "level (lit 0) (lit 1000000000) 1 lt\n"
                              "map 0 x 256 span 1\n");
  LaunchConfig C;
  std::string Error;
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 1000000000, h100(), C, Error));
  EXPECT_EQ(C.threads(), 132u * 2048 * 4);
}

} // namespace
