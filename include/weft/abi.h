// abi.h: the call between code the plugin generates and the runtime library.
// C++17, so that the runtime builds without C++20.
#ifndef WEFT_ABI_H
#define WEFT_ABI_H

#include <cstddef>

namespace weft {
namespace detail {

/// One captured variable as the runtime sees it: a span's elements, or a
/// scalar's bytes (count 1).
struct LaunchArg {
  const void *Data;
  std::size_t Count;
  std::size_t ElementSize;
};

/// Runs the kernel described by Descriptor (see contract/Descriptor.h)
/// on the selected backend. Returns false when the host loop must run instead.
bool launchKernel(const char *Descriptor, const char *Source,
                  const LaunchArg *Args, std::size_t NumArgs) noexcept;

/// The host loop of Descriptor is about to run on Args (its if clause was
/// false): what a region keeps on the device is copied back first, and
/// what the loop writes is copied to the device when a launch needs it.
void hostLoop(const char *Descriptor, const char *Source, const LaunchArg *Args,
              std::size_t NumArgs) noexcept;
/// The same, for Reason (what loop_stats reports).
void hostLoopFor(const char *Descriptor, const char *Source,
                 const LaunchArg *Args, std::size_t NumArgs,
                 const char *Reason) noexcept;
/// The host loop behind a call of Descriptor that did not launch has ended
/// (the plugin writes the call after it): WEFT_PROFILE times host loops.
void hostLoopEnd(const char *Descriptor) noexcept;

/// A worksharing loop every thread of an OpenMP team reaches (`#pragma omp
/// for` in a parallel region): the team's thread 0 calls teamLead with
/// whether its launch ran, which holds the site (named by its kernel) until
/// it calls teamRelease; between the two, after a barrier, each thread asks
/// teamLaunched and runs the directive where no launch did. The site's lock
/// keeps two teams at one loop from reading each other's answer.
void teamLead(const char *Site, bool Launched) noexcept;
bool teamLaunched(const char *Site) noexcept;
void teamRelease(const char *Site) noexcept;

/// An orphaned worksharing loop (`#pragma omp for` in a function that a
/// region may call): the function's locals the launch reads are each
/// thread's own, so the team first agrees on them. Thread 0 calls teamHold
/// (taking the site); after a barrier each thread calls teamVote with a
/// hash of what its launch would read; after another, thread 0 launches
/// only where teamAgreed, and calls teamSettle with whether it did; the
/// rest is teamLead's protocol (teamLaunched, teamRelease).
void teamHold(const char *Site) noexcept;
void teamVote(const char *Site, unsigned long long Hash) noexcept;
bool teamAgreed(const char *Site) noexcept;
void teamSettle(const char *Site, bool Launched) noexcept;

/// Rows held apart (a std::vector of std::vectors): where a LaunchArg's
/// parameter has them (the descriptor says so), its Data points to a
/// RowsArg and its Count is all rows' elements. The kernel sees the rows
/// one after another in one block; the launch gathers them into it and
/// scatters what the kernel wrote back.
struct RowPiece {
  void *Data;
  std::size_t Count; // elements
};
struct RowsArg {
  const RowPiece *Rows;
  std::size_t NumRows;
};

/// Host memory a region keeps resident on the device.
struct ResidentRange {
  void *Data;
  std::size_t Bytes;
};

// Weak: a program built without the plugin need not link the runtime; the
// entry points are then null and a weft::region does nothing.
#define WEFT_WEAK __attribute__((weak))

/// Copies the ranges to the device and keeps them there; returns the
/// region's handle (null when marked loops run on the host).
WEFT_WEAK void *regionEnter(const ResidentRange *Ranges,
                            std::size_t Count) noexcept;
/// Copies the region's ranges back to the host and releases them.
WEFT_WEAK void regionExit(void *Region) noexcept;
/// Copies one resident range (or part of one) to the device or the host.
WEFT_WEAK void regionUpdate(void *Region, const void *Data, std::size_t Bytes,
                            bool ToDevice) noexcept;
/// Copies Rows rows of RowBytes each, PitchBytes apart from Data on (a block
/// of a row-major matrix in a resident range), to the device or the host.
WEFT_WEAK void regionUpdateRows(void *Region, const void *Data,
                                std::size_t RowBytes, std::size_t Rows,
                                std::size_t PitchBytes, bool ToDevice) noexcept;
/// Keeps rows held apart (a std::vector of std::vectors) resident for the
/// region: gathered into one device block (and their row offsets beside),
/// scattered back when the region ends.
WEFT_WEAK void regionEnterRowsApart(void *Region, const RowsArg *Rows,
                                    std::size_t ElementSize) noexcept;
/// Copies resident rows held apart to the device or the host.
WEFT_WEAK void regionUpdateRowsApart(void *Region, const RowsArg *Rows,
                                     std::size_t ElementSize,
                                     bool ToDevice) noexcept;
/// Waits for the marked loops still running on the device.
WEFT_WEAK void synchronizeLaunches() noexcept;
/// The device address of [Data, Data + Bytes) where a region keeps it
/// resident (weft::device_data), else null.
WEFT_WEAK void *regionDeviceData(const void *Data, std::size_t Bytes) noexcept;

} // namespace detail

/// The backend marked loops run on: "cuda", "hip", "sim", or "host" (the
/// loops as written). Chosen once per process, from WEFT_BACKEND and what is
/// present. Weak, as the entry points above: in a program built without the
/// plugin and without the runtime, &weft::backendName is null.
WEFT_WEAK const char *backendName() noexcept;

/// Bytes moved between host and device so far, both ways.
struct transfer_stats_t {
  unsigned long long ToDevice, ToHost;
};
transfer_stats_t transfer_stats() noexcept;

/// One marked loop's calls so far: how many ran as a kernel on the backend
/// (backendName()), how many ran the loop as written on the host, and why
/// the host loop ran the last time it did. The strings live as long as the
/// process.
struct loop_stats_t {
  const char *Location; // "file.cpp:12:3", where the loop is marked
  unsigned long long DeviceRuns, HostRuns;
  const char *HostReason; // null while every call ran on the device
};
/// Copies up to Capacity loops' counts to Out, in the order the loops first
/// ran, and returns how many loops have run. WEFT_VERBOSE=1 prints them
/// when the program exits. Weak, as backendName.
WEFT_WEAK std::size_t loop_stats(loop_stats_t *Out,
                                 std::size_t Capacity) noexcept;

} // namespace weft

#endif // WEFT_ABI_H
