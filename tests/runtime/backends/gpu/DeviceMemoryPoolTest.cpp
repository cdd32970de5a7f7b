// DeviceMemoryPoolTest.cpp: the GPU backends' pool of device memory, over a
// fake device that counts its allocations and frees.
#include "gpu/DeviceMemoryPool.h"

#include <gtest/gtest.h>

#include <set>

namespace weft::rt {
namespace {

/// A device of Capacity bytes handing out addresses one after another.
struct FakeDevice {
  std::size_t Capacity = std::size_t(1) << 40, Used = 0;
  DevicePtr Next = 0x1000;
  int Allocations = 0, Releases = 0;
  std::map<DevicePtr, std::size_t> Blocks;

  DeviceMemoryPool pool(std::size_t MaxKept = std::size_t(1) << 30,
                        std::size_t MaxBlock = std::size_t(256) << 20) {
    return DeviceMemoryPool(
        [this](std::size_t Bytes, DevicePtr &P) -> Status {
          if (Used + Bytes > Capacity)
            return "out of memory";
          ++Allocations;
          Used += Bytes;
          P = Next;
          Next += Bytes;
          Blocks[P] = Bytes;
          return {};
        },
        [this](DevicePtr P) {
          ++Releases;
          Used -= Blocks.at(P);
          Blocks.erase(P);
        },
        MaxKept, MaxBlock);
  }
};

TEST(DeviceMemoryPool, SizeClassesRoundUpByASixteenthOfThePowerOfTwo) {
  EXPECT_EQ(DeviceMemoryPool::sizeClass(1), 512u);
  EXPECT_EQ(DeviceMemoryPool::sizeClass(512), 512u);
  EXPECT_EQ(DeviceMemoryPool::sizeClass(513), 576u);   // 1024 / 16 = 64
  EXPECT_EQ(DeviceMemoryPool::sizeClass(4096), 4096u); // a power of two
  EXPECT_EQ(DeviceMemoryPool::sizeClass(4097), 4608u); // 8192 / 16 = 512
  for (std::size_t B : {700u, 5000u, 123456u, 9999999u}) {
    const std::size_t C = DeviceMemoryPool::sizeClass(B);
    EXPECT_GE(C, B);
    EXPECT_LE(C, B + B / 8 + 512);
  }
}

TEST(DeviceMemoryPool, AReleasedBlockServesTheNextAllocationOfItsClass) {
  FakeDevice D;
  DeviceMemoryPool Pool = D.pool();
  DevicePtr A = 0, B = 0;
  ASSERT_TRUE(Pool.allocate(1000, A).empty());
  Pool.release(A);
  EXPECT_EQ(D.Releases, 0);
  EXPECT_EQ(Pool.keptBytes(), DeviceMemoryPool::sizeClass(1000));
  ASSERT_TRUE(Pool.allocate(1010, B).empty()); // the same class
  EXPECT_EQ(B, A);
  EXPECT_EQ(D.Allocations, 1);
  EXPECT_EQ(Pool.keptBytes(), 0u);
}

TEST(DeviceMemoryPool, BlocksInUseAreNeverHandedOutTwice) {
  FakeDevice D;
  DeviceMemoryPool Pool = D.pool();
  std::set<DevicePtr> InUse;
  for (int I = 0; I < 8; ++I) {
    DevicePtr P = 0;
    ASSERT_TRUE(Pool.allocate(4096, P).empty());
    EXPECT_TRUE(InUse.insert(P).second);
  }
  EXPECT_EQ(D.Allocations, 8);
  // Another class is not served by a kept block of this one.
  Pool.release(*InUse.begin());
  DevicePtr Other = 0;
  ASSERT_TRUE(Pool.allocate(100000, Other).empty());
  EXPECT_EQ(InUse.count(Other), 0u);
  EXPECT_EQ(D.Allocations, 9);
}

TEST(DeviceMemoryPool, LargeBlocksAndBlocksPastTheLimitGoBackToTheDevice) {
  FakeDevice D;
  DeviceMemoryPool Pool = D.pool(/*MaxKept=*/8192, /*MaxBlock=*/4096);
  DevicePtr Big = 0, A = 0, B = 0, C = 0;
  ASSERT_TRUE(Pool.allocate(5000, Big).empty());
  EXPECT_EQ(D.Blocks.at(Big), 5000u); // its own size, not rounded up
  Pool.release(Big);                  // larger than a block kept may be
  EXPECT_EQ(D.Releases, 1);
  ASSERT_TRUE(Pool.allocate(4096, A).empty());
  ASSERT_TRUE(Pool.allocate(4096, B).empty());
  ASSERT_TRUE(Pool.allocate(4096, C).empty());
  Pool.release(A);
  Pool.release(B);
  Pool.release(C); // past 8192 kept
  EXPECT_EQ(D.Releases, 2);
  EXPECT_EQ(Pool.keptBytes(), 8192u);
  Pool.trim();
  EXPECT_EQ(D.Releases, 4);
  EXPECT_EQ(Pool.keptBytes(), 0u);
  EXPECT_EQ(D.Used, 0u);
}

TEST(DeviceMemoryPool, AFullDeviceGetsTheKeptBlocksBackBeforeFailing) {
  FakeDevice D;
  D.Capacity = 3 * 4096;
  DeviceMemoryPool Pool = D.pool();
  DevicePtr A = 0, B = 0, C = 0;
  ASSERT_TRUE(Pool.allocate(4096, A).empty());
  ASSERT_TRUE(Pool.allocate(4096, B).empty());
  Pool.release(A);
  Pool.release(B);
  // 8 KiB kept; 8 KiB more fits only once they are freed.
  ASSERT_TRUE(Pool.allocate(8192, C).empty());
  EXPECT_EQ(D.Releases, 2);
  EXPECT_EQ(Pool.keptBytes(), 0u);
  DevicePtr E = 0;
  EXPECT_FALSE(Pool.allocate(8192, E).empty()); // nothing kept to free
}

} // namespace
} // namespace weft::rt
