// HostCombineTest.cpp: the host's combining step of outermost reductions:
// partials in block order into the program's variable, and the 128-bit
// argmax keys (k128) by their order, then their index.
#include "launch/HostCombine.h"

#include <gtest/gtest.h>

using namespace weft::rt;

TEST(HostCombine, AddsPartialsIntoTheTarget) {
  const int Partials[] = {3, 4, 5};
  int Target = 10;
  std::string Error;
  ASSERT_TRUE(combineIntoTarget(ReduceOp::Add, ScalarType::I32, Partials, 3,
                                &Target, Error))
      << Error;
  EXPECT_EQ(Target, 22);
}

TEST(HostCombine, Key128ComparesOrderThenIndex) {
  // Equal orders: the larger index wins a max, the smaller a min.
  const Key128 Partials[] = {{7, 1}, {9, 2}, {9, 5}, {2, 8}};
  Key128 Max{0, 0}, Min{~0ull, ~0ull};
  std::string Error;
  ASSERT_TRUE(combineIntoTarget(ReduceOp::Max, ScalarType::K128, Partials, 4,
                                &Max, Error))
      << Error;
  EXPECT_EQ(Max.Order, 9u);
  EXPECT_EQ(Max.Index, 5u);
  ASSERT_TRUE(combineIntoTarget(ReduceOp::Min, ScalarType::K128, Partials, 4,
                                &Min, Error));
  EXPECT_EQ(Min.Order, 2u);
  EXPECT_EQ(Min.Index, 8u);
  // A target that beats every partial stays.
  Key128 Better{10, 0};
  ASSERT_TRUE(combineIntoTarget(ReduceOp::Max, ScalarType::K128, Partials, 4,
                                &Better, Error));
  EXPECT_EQ(Better.Order, 10u);
  // No other operator combines keys.
  EXPECT_FALSE(combineIntoTarget(ReduceOp::Add, ScalarType::K128, Partials, 4,
                                 &Max, Error));
  EXPECT_FALSE(Error.empty());
}
