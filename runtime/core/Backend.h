// Backend.h: the one interface every backend (CUDA, HIP, simulator)
// implements. The data path and launch policy live in core/, not here.
#ifndef WEFT_RUNTIME_CORE_BACKEND_H
#define WEFT_RUNTIME_CORE_BACKEND_H

#include "core/Kernel.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace weft::rt {

/// A failure, described for the one warning line a fallback prints; empty
/// means success.
using Status = std::string;

struct DeviceProperties {
  std::string Name;         // e.g. "NVIDIA H100 80GB HBM3"
  std::string Architecture; // e.g. "sm_90", "gfx90a", "sim"
  /// Which of the visible GPUs this is, and why (core/DeviceChoice.h).
  std::string Choice;
  unsigned MultiprocessorCount = 1;
  unsigned MaxThreadsPerBlock = 1024;
  unsigned MaxThreadsPerMultiprocessor = 2048;
  unsigned WarpSize = 32;
  /// Static shared memory a block may declare (48 KiB on NVIDIA's GPUs
  /// without an opt-in, 64 KiB on AMD's).
  std::size_t MaxSharedPerBlock = 48 * 1024;
  /// Blocks a grid may have along x, y, z.
  unsigned MaxGrid[3] = {0x7fffffffu, 65535u, 65535u};
  /// The memory's peak bandwidth in bytes a second (0: unknown, as on the
  /// simulator), from its clock and bus width.
  double MemoryBytesPerSecond = 0;
};

using DevicePtr = std::uint64_t;
using KernelHandle = void *;
/// A point in the device's queue of work (a GPU's event): two of them time
/// the launches between without the host waiting for them.
using TimeMark = void *;

/// Rows of equal length a fixed distance apart, in host and device memory
/// alike (a block of a row-major matrix): a region's device copy mirrors
/// its host range, so one pitch serves both sides.
struct RowBlock {
  std::size_t RowBytes, Rows, PitchBytes;
};

class Backend {
public:
  virtual ~Backend();
  virtual const char *name() const = 0;
  virtual const DeviceProperties &properties() const = 0;

  /// Compiles (or takes from the cache) the kernel's text with Defines
  /// ("WEFT_BLOCK_X=128": a variant) and loads one of its functions:
  /// Kernel.Name, or its combining kernel's name.
  virtual Status getKernel(const KernelInfo &Kernel, const char *Source,
                           const std::vector<std::string> &Defines,
                           const std::string &Function,
                           KernelHandle &Handle) = 0;
  /// How many of getKernel's kernels so far came from the disk cache
  /// rather than a compiler (WEFT_PROFILE).
  unsigned cachedLoads() const { return CachedLoads; }
  /// Whether precompile works here now: tuning then compiles its variants
  /// on a thread of its own while the program's goes on launching. A
  /// runtime compiler that loads libraries at its first compile (NVRTC's
  /// builtins) says no until the program's thread has compiled once: on
  /// the compile thread they would load after exit's wait for that thread
  /// was registered, and exit would run their destructors first, under a
  /// compile still in flight.
  virtual bool precompiles() const { return false; }
  /// Compiles what getKernel(Kernel, Source, Defines, ...) loads, loading
  /// nothing, so that getKernel then finds it built. Safe to call from
  /// another thread while this one launches, copies and compiles.
  virtual Status precompile(const KernelInfo &Kernel, const std::string &Source,
                            const std::vector<std::string> &Defines) {
    (void)Kernel, (void)Source, (void)Defines;
    return std::string(name()) + " compiles only as it loads";
  }
  /// The most threads a block of this loaded kernel may have: on a GPU its
  /// registers decide.
  virtual unsigned maxBlockThreads(KernelHandle Kernel) {
    (void)Kernel;
    return properties().MaxThreadsPerBlock;
  }
  virtual Status allocate(std::size_t Bytes, DevicePtr &Ptr) = 0;
  virtual void release(DevicePtr Ptr) = 0;
  virtual Status copyToDevice(DevicePtr Dst, const void *Src,
                              std::size_t Bytes) = 0;
  virtual Status copyToHost(void *Dst, DevicePtr Src, std::size_t Bytes) = 0;
  /// A block of rows one way, in one copy where the API has a 2-D copy;
  /// by default a copy a row.
  virtual Status copyRowsToDevice(DevicePtr Dst, const void *Src,
                                  const RowBlock &Block);
  virtual Status copyRowsToHost(void *Dst, DevicePtr Src,
                                const RowBlock &Block);
  /// Launches a 1-3 dimensional grid; Params as cuLaunchKernel takes them.
  virtual Status launch(KernelHandle Kernel, const unsigned Grid[3],
                        const unsigned Block[3], void **Params) = 0;
  virtual Status synchronize() = 0;

  /// Whether launches can be timed by marks in the device's queue.
  virtual bool marksTime() const { return false; }
  /// A mark after the work enqueued so far.
  virtual Status markTime(TimeMark &Mark) {
    (void)Mark;
    return std::string(name()) + " has no marks in its queue";
  }
  /// Once the device has passed To (Passed), the seconds from From to To.
  virtual Status secondsBetween(TimeMark From, TimeMark To, bool &Passed,
                                double &Seconds) {
    (void)From, (void)To, (void)Seconds;
    Passed = false;
    return std::string(name()) + " has no marks in its queue";
  }
  /// A mark no longer needed (it may be reused).
  virtual void releaseMark(TimeMark Mark) { (void)Mark; }

protected:
  std::atomic<unsigned> CachedLoads{0};
};

} // namespace weft::rt

#endif
