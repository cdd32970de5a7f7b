// DeviceMemoryPool.h: device memory the GPU backends keep for reuse. A
// launch allocates its scratch (blocks' partials, per-thread arrays) and the
// copies of spans outside regions on every call; the driver's allocation and
// free (cuMemFree waits for the device) cost more than many kernels take.
#ifndef WEFT_RUNTIME_BACKENDS_GPU_DEVICEMEMORYPOOL_H
#define WEFT_RUNTIME_BACKENDS_GPU_DEVICEMEMORYPOOL_H

#include "core/Backend.h"

#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>

namespace weft::rt {

class DeviceMemoryPool {
public:
  using Allocate = std::function<Status(std::size_t, DevicePtr &)>;
  using Release = std::function<void(DevicePtr)>;

  /// Keeps released blocks up to MaxKeptBytes in all, none larger than
  /// MaxBlockBytes (a region's large buffer goes back to the driver).
  DeviceMemoryPool(Allocate DeviceAllocate, Release DeviceRelease,
                   std::size_t MaxKeptBytes = std::size_t(1) << 30,
                   std::size_t MaxBlockBytes = std::size_t(256) << 20);
  DeviceMemoryPool(const DeviceMemoryPool &) = delete;
  DeviceMemoryPool &operator=(const DeviceMemoryPool &) = delete;

  /// A kept block of Bytes' size class, else a new one (of Bytes exactly
  /// where it is larger than a kept block may be). Where the device
  /// has no room, the kept blocks go back to it and the allocation is
  /// tried once more.
  Status allocate(std::size_t Bytes, DevicePtr &Ptr);
  /// Keeps the block for the next allocation of its size class. Only once
  /// the work that used it is known finished, or ordered before any later
  /// use (the backends' one stream orders them).
  void release(DevicePtr Ptr);
  /// Gives every kept block back to the device.
  void trim();

  std::size_t keptBytes() const;
  /// What an allocation of Bytes takes: 512 bytes at least, else Bytes
  /// rounded up to a sixteenth of its power of two (at most 12.5% more), so
  /// that calls of slightly different sizes share blocks.
  static std::size_t sizeClass(std::size_t Bytes);

private:
  /// Gives the kept blocks back (the lock held).
  void releaseKept();

  Allocate DeviceAllocate;
  Release DeviceRelease;
  const std::size_t MaxKeptBytes, MaxBlockBytes;
  mutable std::mutex Lock;
  std::unordered_map<DevicePtr, std::size_t> Live; // block -> its size class
  std::multimap<std::size_t, DevicePtr> Kept;      // size class -> block
  std::size_t KeptBytes = 0;
};

} // namespace weft::rt

#endif
