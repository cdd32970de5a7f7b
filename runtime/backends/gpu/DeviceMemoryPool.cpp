// DeviceMemoryPool.cpp: released device blocks kept by size class for the
// next allocation of that class.
#include "gpu/DeviceMemoryPool.h"

#include <utility>

namespace weft::rt {

DeviceMemoryPool::DeviceMemoryPool(Allocate DeviceAllocate,
                                   Release DeviceRelease,
                                   std::size_t MaxKeptBytes,
                                   std::size_t MaxBlockBytes)
    : DeviceAllocate(std::move(DeviceAllocate)),
      DeviceRelease(std::move(DeviceRelease)), MaxKeptBytes(MaxKeptBytes),
      MaxBlockBytes(MaxBlockBytes) {}

std::size_t DeviceMemoryPool::sizeClass(std::size_t Bytes) {
  if (Bytes <= 512)
    return 512;
  std::size_t Power = 1;
  while (Power < Bytes)
    Power <<= 1;
  const std::size_t Step = Power / 16;
  return (Bytes + Step - 1) / Step * Step;
}

Status DeviceMemoryPool::allocate(std::size_t Bytes, DevicePtr &Ptr) {
  // A block too large to keep takes its own size: rounding a region's
  // gigabytes up could fail where they fit.
  const std::size_t Class = Bytes > MaxBlockBytes ? Bytes : sizeClass(Bytes);
  std::lock_guard<std::mutex> Guard(Lock);
  if (auto It = Kept.find(Class); It != Kept.end()) {
    Ptr = It->second;
    Kept.erase(It);
    KeptBytes -= Class;
    Live.emplace(Ptr, Class);
    return {};
  }
  Status S = DeviceAllocate(Class, Ptr);
  if (!S.empty() && !Kept.empty()) {
    // The kept blocks may be what fills the device.
    releaseKept();
    S = DeviceAllocate(Class, Ptr);
  }
  if (S.empty())
    Live.emplace(Ptr, Class);
  return S;
}

void DeviceMemoryPool::release(DevicePtr Ptr) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Live.find(Ptr);
  if (It == Live.end()) {
    DeviceRelease(Ptr); // not the pool's: the device's to take back
    return;
  }
  const std::size_t Class = It->second;
  Live.erase(It);
  if (Class > MaxBlockBytes || KeptBytes + Class > MaxKeptBytes) {
    DeviceRelease(Ptr);
    return;
  }
  Kept.emplace(Class, Ptr);
  KeptBytes += Class;
}

void DeviceMemoryPool::trim() {
  std::lock_guard<std::mutex> Guard(Lock);
  releaseKept();
}

void DeviceMemoryPool::releaseKept() {
  for (const auto &[Size, Block] : Kept)
    DeviceRelease(Block);
  Kept.clear();
  KeptBytes = 0;
}

std::size_t DeviceMemoryPool::keptBytes() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return KeptBytes;
}

} // namespace weft::rt
