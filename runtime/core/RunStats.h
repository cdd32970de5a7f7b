// RunStats.h: per marked loop, how many of its calls ran as a kernel and how
// many ran the host loop, and why the host loop ran last: the answer to "did
// it run on the GPU?" (weft::loop_stats, and WEFT_VERBOSE's summary at exit);
// and what those calls cost (WEFT_PROFILE's table).
#ifndef WEFT_RUNTIME_CORE_RUNSTATS_H
#define WEFT_RUNTIME_CORE_RUNSTATS_H

#include "core/Kernel.h"
#include "core/LoopProfile.h"
#include "core/TransferLedger.h"
#include "weft/abi.h"

#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace weft::rt {

/// "level 0 x 256 Span(1), level 1 y 4 Span(all)": K's mapping.
std::string mappingText(const KernelInfo &K);

class RunStats {
public:
  /// One call of the loop Descriptor names: on the device, or the host loop
  /// for Why.
  void record(const char *Descriptor, bool OnDevice, const std::string &Why);
  /// Fills up to Capacity entries, in the order the loops first ran;
  /// returns how many loops have run.
  std::size_t snapshot(weft::loop_stats_t *Out, std::size_t Capacity) const;
  /// One line a loop: "<location>: N calls on <Backend>, M on the host
  /// (last: why)".
  std::vector<std::string> lines(const std::string &Backend) const;

  /// What one call of the loop cost: seconds on the host's clock, and the
  /// bytes copied while it ran.
  void cost(const char *Descriptor, bool OnDevice, double Seconds,
            std::uint64_t ToDevice, std::uint64_t ToHost);
  /// A kernel of the loop compiled or taken from the disk cache (Cached)
  /// in Seconds.
  void load(const char *Descriptor, double Seconds, bool Cached);
  /// A kernel of the loop ran Seconds on the device's clock, over Bytes of
  /// the data it names.
  void kernelTimed(const char *Descriptor, double Seconds, std::uint64_t Bytes);
  /// This call of the loop runs its host loop for the profile to time.
  void hostTrial(const char *Descriptor);
  /// The loop's host loop ran Seconds.
  void hostLoopTimed(const char *Descriptor, double Seconds);
  /// Calls of the loop so far, on the device and on the host.
  weft::loop_stats_t calls(const char *Descriptor);
  /// The kernel, mapping and grid the loop launched last.
  void launched(const char *Descriptor, const KernelInfo &Kernel,
                const std::string &Geometry);
  /// Every loop's calls and costs, in the order the loops first ran, with
  /// what Ledger says its calls copied again and again.
  std::vector<ProfiledLoop> profiles(const TransferLedger &Ledger) const;

private:
  /// The index of Descriptor's loop in Loops and Costs, made on first use.
  std::size_t entry(const char *Descriptor);
  /// A copy of S that lives as long as the process.
  const char *intern(const std::string &S);

  mutable std::mutex Lock;
  std::unordered_map<const char *, std::size_t> Index; // into Loops
  std::vector<const char *> Descriptors;               // by index
  std::vector<weft::loop_stats_t> Loops;
  std::vector<LoopProfile> Costs;
  std::set<std::string> Strings;
};

} // namespace weft::rt

#endif
