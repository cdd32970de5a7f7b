// LaunchRanges.h: each launch as a named range on the profilers' timelines
// (NVTX for Nsight Systems, roctx for rocprof), named by the loop's source
// location, so that they show the user's loops by name.
#ifndef WEFT_RUNTIME_CORE_LAUNCHRANGES_H
#define WEFT_RUNTIME_CORE_LAUNCHRANGES_H

namespace weft::rt {

class LaunchRanges {
public:
  /// NVTX where the runtime was built with its header (it costs nothing
  /// until a profiler attaches); roctx where Backend is "hip" and its
  /// library loads.
  explicit LaunchRanges(const char *Backend);
  void push(const char *Name) const;
  void pop() const;

private:
  int (*RoctxPush)(const char *) = nullptr;
  int (*RoctxPop)() = nullptr;
};

/// A range for the life of one launch call.
class LaunchRange {
public:
  LaunchRange(const LaunchRanges &Ranges, const char *Name) : Ranges(Ranges) {
    Ranges.push(Name);
  }
  ~LaunchRange() { Ranges.pop(); }
  LaunchRange(const LaunchRange &) = delete;
  LaunchRange &operator=(const LaunchRange &) = delete;

private:
  const LaunchRanges &Ranges;
};

} // namespace weft::rt

#endif
