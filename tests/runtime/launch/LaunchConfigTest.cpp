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
  const KernelInfo K = parsed("weft 8\nkernel k\nloc a.cpp:1:1\n"
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

// An inner Split(k) whose grid would be a wave of resident blocks and a
// few more (sumCols with 1024 columns: 32 x 9 blocks of 1024 threads, 264
// resident on an H100) gets whole waves instead; within a wave, or at
// whole waves, k stays.
TEST(LaunchConfig, InnerSplitFillsWholeWaves) {
  const KernelInfo K = parsed("weft 8\nkernel k\nloc a.cpp:1:1\n"
                              "level (lit 0) (lit 1024) 1 lt\n"
                              "map 0 x 32 span 1\nmap 1 y 32 split 9\n");
  LaunchConfig C;
  std::string Error;
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 1024, h100(), C, Error))
      << Error;
  EXPECT_EQ(C.describe(), "grid (32, 8, 1) x block (32, 32, 1)");
  // 8 x 9 blocks fit in one wave.
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 256, h100(), C, Error));
  EXPECT_EQ(C.describe(), "grid (8, 9, 1) x block (32, 32, 1)");
  // 66 x 9 blocks: 594 = 2.25 waves of 264, cut to two (66 x 8 = 528).
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 66 * 32, h100(), C, Error));
  EXPECT_EQ(C.describe(), "grid (66, 8, 1) x block (32, 32, 1)");
}

// An outermost Split(k) (a 1-D reduction mapped for an assumed extent)
// covers the real extent, capped at two waves as every outermost
// reduction: it used to get k blocks whatever the extent.
TEST(LaunchConfig, OutermostSplitCoversTheRealExtent) {
  const KernelInfo K = parsed("weft 8\nkernel k\nloc a.cpp:1:1\n"
                              "param scalar i32 total\n"
                              "level (lit 0) (lit 10) 1 lt\n"
                              "map 0 x 1024 split 2\nreduce 0 add\n");
  LaunchConfig C;
  std::string Error;
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 5000, h100(), C, Error))
      << Error;
  EXPECT_EQ(C.Grid[0], 5u); // ceil(5000 / 1024)
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 1000000, h100(), C, Error));
  EXPECT_EQ(C.Grid[0], 2u * 132 * 2); // two waves of 2 blocks an SM
  ASSERT_TRUE(computeLaunchConfig(K, nullptr, 0, 100, h100(), C, Error));
  EXPECT_EQ(C.Grid[0], 1u);
}

// A two-level map nest over 16384 x 16384: every dimension covers its
// level's extent (it used to collapse x to one block).
TEST(LaunchConfig, EveryDimensionCoversItsLevel) {
  const KernelInfo K =
      parsed("weft 8\nkernel k\nloc a.cpp:1:1\nparam scalar i32 n\n"
             "level (lit 1) (sub (arg 0) (lit 1)) 1 lt\n"
             "map 0 y 4 span 1\nmap 1 x 64 span 1 (lit 1) (sub (arg 0) (lit "
             "1)) 1 lt\n");
  std::int32_t N = 16384;
  weft::detail::LaunchArg Args[] = {{&N, 1, 4}};
  LaunchConfig C;
  std::string Error;
  ASSERT_TRUE(computeLaunchConfig(K, Args, 1, N - 2, h100(), C, Error))
      << Error;
  EXPECT_EQ(C.describe(), "grid (256, 4096, 1) x block (64, 4, 1)");
  // y is limited to 65535 blocks: the kernel strides over the rest.
  N = 1 << 20;
  ASSERT_TRUE(computeLaunchConfig(K, Args, 1, N - 2, h100(), C, Error));
  EXPECT_EQ(C.describe(), "grid (16384, 65535, 1) x block (64, 4, 1)");
}

// Without partials or buffers a huge 1-D loop gets its whole grid; with an
// outermost reduction (a partial per block for the host) two waves.
TEST(LaunchConfig, OnlyKernelsPayingPerBlockAreCapped) {
  const std::string Head = "weft 8\nkernel k\nloc a.cpp:1:1\n"
                           "param scalar f32 total\n"
                           "level (lit 0) (lit 1000000000) 1 lt\n"
                           "map 0 x 256 span 1\n";
  LaunchConfig C;
  std::string Error;
  ASSERT_TRUE(computeLaunchConfig(parsed(Head.c_str()), nullptr, 0, 1000000000,
                                  h100(), C, Error));
  EXPECT_EQ(C.Grid[0], (1000000000u + 255) / 256);
  ASSERT_TRUE(computeLaunchConfig(parsed((Head + "reduce 0 add\n").c_str()),
                                  nullptr, 0, 1000000000, h100(), C, Error));
  EXPECT_EQ(C.Grid[0], 2u * 132 * 8); // two waves of 8 blocks an SM
}

// A capped 2-D grid keeps x (the coalesced dimension) and shrinks y.
TEST(LaunchConfig, CappedGridsShrinkTheOuterDimensionsFirst) {
  const KernelInfo K =
      parsed("weft 8\nkernel k\nloc a.cpp:1:1\nparam scalar i32 n\n"
             "level (lit 0) (arg 0) 1 lt\n"
             "map 0 y 4 span 1\nmap 1 x 64 span 1 (lit 0) (arg 0) 1 lt\n"
             "buffer 4 (arg 0)\n");
  std::int32_t N = 16384;
  weft::detail::LaunchArg Args[] = {{&N, 1, 4}};
  LaunchConfig C;
  std::string Error;
  ASSERT_TRUE(computeLaunchConfig(K, Args, 1, N, h100(), C, Error)) << Error;
  EXPECT_EQ(C.Grid[0], 256u);
  EXPECT_EQ(C.blocks(), 256u * (2 * 132 * 8 / 256));
}

} // namespace
