// KernelTimes.h: WEFT_PROFILE's kernel times on the device's own clock: a
// mark in the device's queue before and after each launch, read once the
// device has passed them, so that timing never makes a launch wait.
#ifndef WEFT_RUNTIME_LAUNCH_KERNELTIMES_H
#define WEFT_RUNTIME_LAUNCH_KERNELTIMES_H

#include "core/Backend.h"
#include "core/Kernel.h"
#include "core/RunStats.h"
#include "weft/abi.h"

#include <cstdint>
#include <vector>

namespace weft::rt {

/// The bytes of the data a launch of K on Args names, once each way it uses
/// them: what a kernel that touches each element once moves.
std::uint64_t namedBytes(const KernelInfo &K, const detail::LaunchArg *Args,
                         std::size_t NumArgs);

class KernelTimes {
public:
  /// Marks Before and After surround a launch of Loop's kernel that reads
  /// and writes Bytes of the data it names.
  void add(const char *Loop, TimeMark Before, TimeMark After,
           std::uint64_t Bytes);
  /// The launches the device has passed, into Stats; their marks released.
  void collect(Backend &B, RunStats &Stats);
  std::size_t size() const { return Waiting.size(); }
  /// Launches outstanding past which the next collects what it can first.
  static constexpr std::size_t Limit = 256;

private:
  struct Timed {
    const char *Loop;
    TimeMark Before, After;
    std::uint64_t Bytes;
  };
  std::vector<Timed> Waiting;
};

} // namespace weft::rt

#endif
